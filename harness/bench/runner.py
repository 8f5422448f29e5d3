"""`cribbage-zx bench --runner`: what the job runner costs, as CPU and wall seconds of the same regress run three ways.

The same N games (same seeds) are played and checked by `regress` on one
worker (in this process), on the local pool of W workers, and on a Dask
LocalCluster of W worker processes (its start-up and shut-down included,
as a user pays them). It prints the wall seconds of each, the pool's speed-up
over one worker, and Dask's overhead over the local pool; it also says
whether the three runs wrote byte-identical transcripts, since a fast runner
that changed results would be worth nothing. Beside the wall seconds it
prints the CPU seconds of this process and all its workers (the runner's
cost even when other work shares the cores) and the load average, which
says how much other work there was.

Dask's overhead is measured beside the games' own CPU: the runner times each
job in its worker's thread, and a run's CPU less its games' is what the runner
and this process cost (a game's CPU moves with the machine's load by more than
Dask's whole overhead). `bench_dask` is that figure alone, on a few games, for
the default `cribbage-zx bench`.
"""
from __future__ import annotations

import importlib.util
import math
import os
import tempfile
import time
from pathlib import Path
from dataclasses import dataclass, field
from statistics import median_high
from typing import NotRequired, TypedDict

from ..runtime.cputime import process_cpu_s
from ..runtime.jobs import Setup, run_jobs

Configuration = tuple[str, int, "str | None"]      # a run's name, workers and scheduler (None: the local pool)


def _transcripts(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("game-*.jsonl"))}


def _fixed_cost(workers: int, repeats: int) -> float:
    """Median CPU seconds of a Dask LocalCluster over the local pool, both with *workers* workers set up
    with the game's tape and given one trivial job each: what Dask costs however few games it plays."""
    from ..program.model.build import tape_bytes  # lazy: 0.4 s of imports that bench --cores and --web skip
    from ..program.runs.loaded import init_worker
    setup = Setup(init_worker, (tape_bytes(None),))
    runs: dict[str, list[float]] = {"pool": [], "dask": []}
    for _ in range(repeats):
        for name, scheduler in (("pool", None), ("dask", "local")):
            before = process_cpu_s()
            with run_jobs(len, [b"x"] * workers, setup, workers, scheduler) as outcomes:
                for outcome in outcomes:
                    if not outcome.ok:
                        raise RuntimeError(f"bench: a trivial job failed: {outcome.error}")
            runs[name].append(process_cpu_s() - before)
    return median_high(runs["dask"]) - median_high(runs["pool"])


def dask_missing() -> str | None:
    """Why Dask cannot be measured here (its extra is not installed), or None."""
    for module in ("distributed", "cryptography"):
        if importlib.util.find_spec(module) is None:
            return f"the dask extra is not installed (no {module}): pip install 'cribbage-zx[dask]'"
    return None


@dataclass
class RunTimes:
    """One configuration's runs: each run's CPU s (this process and its workers) and its games' own CPU s in
    their workers (the runner measures each job's thread); its wall s, transcripts, and the load average after
    the last run."""
    cpu_s: list[float] = field(default_factory=list)
    jobs: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)
    transcripts: list[dict[str, bytes]] = field(default_factory=list)
    load: float = 0.0


def _interleaved(configurations: list[Configuration], games: int, seed: int, repeats: int,
                 tmp: str) -> dict[str, RunTimes]:
    """Each configuration (name, workers, scheduler) run *repeats* times, round by round (so the load other work
    puts on the machine falls on every configuration alike): its `RunTimes` by name."""
    from ..program.runs import regress  # lazy: 0.4 s of imports that bench --cores and --web skip
    runs = {name: RunTimes() for name, _, _ in configurations}
    for r in range(repeats):
        for n, (name, workers, scheduler) in enumerate(configurations):
            out = Path(tmp) / f"run-{n}-{r}"
            t, cpu = time.perf_counter(), process_cpu_s()
            report = regress.run(games, seed, workers, out, regress.RegressOptions(progress=False, scheduler=scheduler))
            runs[name].wall.append(time.perf_counter() - t)
            runs[name].cpu_s.append(process_cpu_s() - cpu)
            runs[name].jobs.append(report.jobs_cpu_s)
            runs[name].transcripts.append(_transcripts(out))
            runs[name].load = round(os.getloadavg()[0], 2)
    return runs


def _runner_cpu(run: RunTimes) -> float:
    """Median CPU s of the runs less the games' own: what the runner and this process cost besides the games
    (the games' CPU moves with the load by more than Dask's whole overhead, so it is taken out run by run)."""
    beside: list[float] = [cpu - jobs for cpu, jobs in zip(run.cpu_s, run.jobs)]
    return median_high(beside)


class DaskSplit(TypedDict):
    """Dask's overhead over the local pool in CPU s: the whole, its fixed part and the rest per game."""
    dask_overhead_cpu_s: float
    dask_fixed_cpu_s: float
    dask_per_game_cpu_s: float
    game_cpu_s: float
    dask_per_game_share: float
    dask_overhead_share: float
    dask_10_percent_from_games: int | None


class DaskFigures(DaskSplit):
    """bench_dask's figures (DaskSplit's among them), in the order its record keeps them."""
    games: int
    workers: int
    repeats: int
    pool_cpu_s: float
    dask_cpu_s: float
    pool_games_cpu_s: float
    dask_games_cpu_s: float
    pool_runner_cpu_s: float
    dask_runner_cpu_s: float
    dask_cpu_overhead: float
    load_average_1min: float
    transcripts_identical: bool


class RunnerFigures(TypedDict):
    """bench_runner's figures by configuration, Dask's only where it ran (or why it did not)."""
    games: int
    workers: int
    repeats: int
    games_of: dict[str, int]
    wall_s: dict[str, float]
    cpu_s: dict[str, float]
    runner_cpu_s: dict[str, float]
    load_average_1min: dict[str, float]
    speedup_pool_over_one: float
    transcripts_identical: bool
    dask_overhead: NotRequired[float]
    dask_cpu_overhead: NotRequired[float]
    dask_overhead_cpu_s: NotRequired[float]         # DaskSplit's figures, where Dask ran
    dask_fixed_cpu_s: NotRequired[float]
    dask_per_game_cpu_s: NotRequired[float]
    game_cpu_s: NotRequired[float]
    dask_per_game_share: NotRequired[float]
    dask_overhead_share: NotRequired[float]
    dask_10_percent_from_games: NotRequired[int | None]
    pool_cpu_s_per_game: NotRequired[float]
    pool_cpu_overhead: NotRequired[float]
    dask_left_out: NotRequired[str]


def dask_split(pool: RunTimes, dask: RunTimes, fixed: float, games: int) -> DaskSplit:
    """Dask's overhead over the local pool in CPU s: the whole, its fixed part and the rest per game."""
    overhead = _runner_cpu(dask) - _runner_cpu(pool)
    per_game = (overhead - fixed) / games
    game = median_high(pool.jobs) / games
    # the run size from which the overhead is at most 10 % of the games' CPU: fixed + n*per_game <= 0.1*n*game
    ten = math.ceil(fixed / (0.1 * game - per_game)) if 0.1 * game > per_game else None
    return DaskSplit(dask_overhead_cpu_s=round(overhead, 2), dask_fixed_cpu_s=round(fixed, 2),
                     dask_per_game_cpu_s=round(per_game, 3), game_cpu_s=round(game, 2),
                     dask_per_game_share=round(per_game / game, 3),
                     dask_overhead_share=round(overhead / (game * games), 3),
                     dask_10_percent_from_games=max(1, ten) if ten is not None else None)


def bench_dask(games: int = 2, workers: int = 2, seed: int = 1, repeats: int = 3) -> DaskFigures:
    """Dask's CPU over the local pool for the same regress run of *games* games on *workers* workers, the two
    run round by round (medians of *repeats*), split into the fixed cost (trivial jobs, `_fixed_cost`) and the
    rest per game; both sides measured as CPU beside the games' own; and whether the transcripts agree."""
    from ..program.model.build import tape_path  # lazy: 0.4 s of imports that bench --cores and --web skip
    pool, dask = f"local pool, {workers} workers", f"Dask LocalCluster, {workers} workers"
    with tempfile.TemporaryDirectory(prefix="cribbage-zx-bench-") as tmp:
        tape_path(None)                    # built (or rebuilt) before the clocks start
        runs = _interleaved([(pool, workers, None), (dask, workers, "local")], games, seed, repeats, tmp)
    fixed = _fixed_cost(min(workers, games), repeats)
    first = runs[pool].transcripts[0]
    return {"games": games, "workers": workers, "repeats": repeats,
            "pool_cpu_s": round(median_high(runs[pool].cpu_s), 2), "dask_cpu_s": round(median_high(runs[dask].cpu_s), 2),
            "pool_games_cpu_s": round(median_high(runs[pool].jobs), 2),
            "dask_games_cpu_s": round(median_high(runs[dask].jobs), 2),
            "pool_runner_cpu_s": round(_runner_cpu(runs[pool]), 2), "dask_runner_cpu_s": round(_runner_cpu(runs[dask]), 2),
            "dask_cpu_overhead": round(median_high(runs[dask].cpu_s) / median_high(runs[pool].cpu_s) - 1, 3),
            **dask_split(runs[pool], runs[dask], fixed, games),
            "load_average_1min": runs[dask].load,
            "transcripts_identical": all(t == first for run in runs.values() for t in run.transcripts)}


def format_dask(result: DaskFigures) -> str:
    ten = result["dask_10_percent_from_games"]
    return (f"dask: {result['dask_cpu_s']:.2f} CPU s against the local pool's {result['pool_cpu_s']:.2f} on "
            f"{result['games']} games, {result['workers']} workers ({result['dask_cpu_overhead']:+.1%}; the games' own "
            f"{result['dask_games_cpu_s']:.2f} and {result['pool_games_cpu_s']:.2f})\n"
            f"  beside the games: {result['dask_overhead_cpu_s']:+.2f} CPU s ({result['dask_overhead_share']:+.1%} of "
            f"the games' CPU), a fixed "
            f"{result['dask_fixed_cpu_s']:.2f} CPU s to start and stop the cluster, {result['dask_per_game_cpu_s']:+.3f} "
            f"CPU s per game ({result['dask_per_game_share']:+.1%} of a game's {result['game_cpu_s']:.2f}); "
            + (f"at most 10 % from {ten} games" if ten else "over 10 % however many games")
            + f"; transcripts {'identical' if result['transcripts_identical'] else 'DIFFERENT'} "
              f"(CPU beside the games' own, medians of {result['repeats']})")


def bench_runner(games: int = 20, workers: int = 2, seed: int = 1, dask: bool = True,
                 repeats: int = 3) -> RunnerFigures:
    """{configuration: wall and CPU seconds (medians of *repeats*)}, the ratios, Dask's overhead split into
    a fixed start cost and a cost per game, and whether the transcripts agree.

    The split: the fixed cost is measured alone, as Dask's CPU over the local pool's for the same
    workers set up with the same tape and given trivial jobs (starting the cluster, its scheduler, its
    workers' imports and set-up, and stopping them); what is left of Dask's overhead on *games* games,
    per game, is the cost per game. The overhead is CPU beside the games' own, run by run."""
    from ..program.model.build import tape_path  # lazy: 0.4 s of imports that bench --cores and --web skip
    configurations: list[Configuration] = [("one worker", 1, None), (f"local pool, {workers} workers", workers, None)]
    if dask:
        configurations.append((f"Dask LocalCluster, {workers} workers", workers, "local"))
    with tempfile.TemporaryDirectory(prefix="cribbage-zx-bench-") as tmp:
        tape_path(None)                    # built (or rebuilt) before the clocks start
        runs = _interleaved(configurations, games, seed, repeats, tmp)
    fixed = _fixed_cost(min(workers, games), repeats) if dask else None
    names = [c[0] for c in configurations]
    walls = {name: round(median_high(runs[name].wall), 2) for name in names}
    cpus = {name: round(median_high(runs[name].cpu_s), 2) for name in names}
    first = runs[names[0]].transcripts[0]
    result: RunnerFigures = {"games": games, "workers": workers, "repeats": repeats, "games_of": {name: games for name in names},
              "wall_s": walls, "cpu_s": cpus,
              "runner_cpu_s": {name: round(_runner_cpu(runs[name]), 2) for name in names},
              "load_average_1min": {name: runs[name].load for name in names},
              "speedup_pool_over_one": round(walls[names[0]] / walls[names[1]], 2),
              "transcripts_identical": all(t == first for run in runs.values() for t in run.transcripts)}
    if fixed is not None:
        result["dask_overhead"] = round(walls[names[2]] / walls[names[1]] - 1, 3)
        result["dask_cpu_overhead"] = round(cpus[names[2]] / cpus[names[1]] - 1, 3)
        split = dask_split(runs[names[1]], runs[names[2]], fixed, games)
        result.update({"dask_overhead_cpu_s": split["dask_overhead_cpu_s"],
                       "dask_fixed_cpu_s": split["dask_fixed_cpu_s"], "dask_per_game_cpu_s": split["dask_per_game_cpu_s"],
                       "game_cpu_s": split["game_cpu_s"], "dask_per_game_share": split["dask_per_game_share"],
                       "dask_overhead_share": split["dask_overhead_share"],
                       "dask_10_percent_from_games": split["dask_10_percent_from_games"]})
        result["pool_cpu_s_per_game"] = split["game_cpu_s"]
    result["pool_cpu_overhead"] = round(cpus[names[1]] / cpus[names[0]] - 1, 3)
    return result


def runner_figures(result: RunnerFigures, dask_left_out: str | None) -> RunnerFigures:
    """bench_runner's figures with why Dask's are missing (None: they are not), as `bench --runner --json`
    prints it last."""
    if dask_left_out:
        result["dask_left_out"] = dask_left_out
    return result


def runner_agrees(result: RunnerFigures) -> bool:
    """bench --runner's verdict: every configuration's transcripts are byte-identical."""
    return result["transcripts_identical"]


def format_result(result: RunnerFigures) -> str:
    lines = [f"regress --games {result['games']}:{'':22} wall s   games/min   CPU s   load avg (1 min, at the end)"]
    lines += [f"  {name:32} {wall:8.2f}  {result['games_of'][name] / wall * 60:9.1f}  {result['cpu_s'][name]:7.1f}"
              f"   {result['load_average_1min'][name]:.2f}"
              for name, wall in result["wall_s"].items()]
    lines.append(f"local pool speed-up over one worker (wall): {result['speedup_pool_over_one']:.2f}x; "
                 f"its CPU overhead: {result['pool_cpu_overhead']:+.1%}")
    if "dask_overhead" in result:
        lines.append(f"Dask LocalCluster over the local pool: wall {result['dask_overhead']:+.1%}, "
                     f"CPU {result['dask_cpu_overhead']:+.1%}")
    if "dask_fixed_cpu_s" in result:
        lines.append(f"  beside the games' own CPU: {result['dask_overhead_cpu_s']:+.2f} CPU s, of which a fixed "
                     f"{result['dask_fixed_cpu_s']:.2f} CPU s to start and stop the cluster, and "
                     f"{result['dask_per_game_cpu_s']:+.3f} CPU s per game "
                     f"({result['dask_per_game_share']:+.1%} of a game's {result['game_cpu_s']:.2f} CPU s on the pool)")
    lines.append(f"(medians of {result['repeats']} runs; CPU s are this process and all its workers)")
    lines.append(f"transcripts byte-identical across the runs: {'yes' if result['transcripts_identical'] else 'NO'}")
    return "\n".join(lines)
