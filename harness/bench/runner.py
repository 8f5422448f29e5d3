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
"""
from __future__ import annotations

import os
import resource
import tempfile
import time
from pathlib import Path


def _transcripts(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("game-*.jsonl"))}


def _cpu_seconds() -> float:
    """CPU seconds of this process and of its children that have ended (the workers, once joined)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _median(xs: list[float]) -> float:
    return sorted(xs)[len(xs) // 2]


def _fixed_cost(regress, workers: int, repeats: int) -> float:
    """Median CPU seconds of a Dask LocalCluster over the local pool, both with *workers* workers set up
    with the game's tape and given one trivial job each: what Dask costs however few games it plays."""
    from ..runtime.jobs import Setup, run_jobs
    setup = Setup(regress._init_worker, (regress._tape_bytes(None),))
    runs: dict[str, list[float]] = {"pool": [], "dask": []}
    for _ in range(repeats):
        for name, scheduler in (("pool", None), ("dask", "local")):
            before = _cpu_seconds()
            with run_jobs(len, [b"x"] * workers, setup, workers, scheduler) as outcomes:
                for outcome in outcomes:
                    if not outcome.ok:
                        raise RuntimeError(f"bench: a trivial job failed: {outcome.error}")
            runs[name].append(_cpu_seconds() - before)
    return _median(runs["dask"]) - _median(runs["pool"])


def bench_runner(games: int = 20, workers: int = 2, seed: int = 1, dask: bool = True, repeats: int = 3) -> dict:
    """{configuration: wall and CPU seconds (medians of *repeats*)}, the ratios, Dask's overhead split into
    a fixed start cost and a cost per game, and whether the transcripts agree.

    The split: the fixed cost is measured alone, as Dask's CPU over the local pool's for the same
    workers set up with the same tape and given trivial jobs (starting the cluster, its scheduler, its
    workers' imports and set-up, and stopping them); what is left of Dask's overhead on *games* games,
    per game, is the cost per game."""
    from ..game import regress
    configurations = [("one worker", 1, None, games), (f"local pool, {workers} workers", workers, None, games)]
    if dask:
        configurations.append((f"Dask LocalCluster, {workers} workers", workers, "local", games))
    walls, cpus, loads, transcripts = {}, {}, {}, {}
    with tempfile.TemporaryDirectory(prefix="cribbage-zx-bench-") as tmp:
        regress.ensure_tape()
        for n, (name, w, scheduler, g) in enumerate(configurations):
            wall_runs, cpu_runs = [], []
            for r in range(repeats):
                out = Path(tmp) / f"run-{n}-{r}"
                t, cpu = time.perf_counter(), _cpu_seconds()
                regress.run(g, seed, w, out, progress=False, scheduler=scheduler)
                wall_runs.append(time.perf_counter() - t)
                cpu_runs.append(_cpu_seconds() - cpu)
                if g == games:
                    transcripts[(name, r)] = _transcripts(out)
            walls[name], cpus[name] = round(_median(wall_runs), 2), round(_median(cpu_runs), 2)
            loads[name] = round(os.getloadavg()[0], 2)
        fixed = _fixed_cost(regress, workers, repeats) if dask else None
    names = [c[0] for c in configurations]
    first = transcripts[(names[0], 0)]
    result = {"games": games, "workers": workers, "repeats": repeats, "games_of": {c[0]: c[3] for c in configurations},
              "wall_s": walls, "cpu_s": cpus,
              "load_average_1min": loads,
              "speedup_pool_over_one": round(walls[names[0]] / walls[names[1]], 2),
              "transcripts_identical": all(t == first for t in transcripts.values())}
    if dask:
        result["dask_overhead"] = round(walls[names[2]] / walls[names[1]] - 1, 3)
        result["dask_cpu_overhead"] = round(cpus[names[2]] / cpus[names[1]] - 1, 3)
        result["dask_fixed_cpu_s"] = round(fixed, 2)
        result["dask_per_game_cpu_s"] = round((cpus[names[2]] - cpus[names[1]] - fixed) / games, 3)
        result["pool_cpu_s_per_game"] = round(cpus[names[1]] / games, 2)
    result["pool_cpu_overhead"] = round(cpus[names[1]] / cpus[names[0]] - 1, 3)
    return result


def format_result(result: dict) -> str:
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
        lines.append(f"  of which: a fixed {result['dask_fixed_cpu_s']:.2f} CPU s to start and stop the cluster, and "
                     f"{result['dask_per_game_cpu_s']:+.3f} CPU s per game "
                     f"({result['dask_per_game_cpu_s'] / result['pool_cpu_s_per_game']:+.1%} of a game's "
                     f"{result['pool_cpu_s_per_game']:.2f} CPU s on the pool)")
    lines.append(f"(medians of {result['repeats']} runs; CPU s are this process and all its workers)")
    lines.append(f"transcripts byte-identical across the runs: {'yes' if result['transcripts_identical'] else 'NO'}")
    return "\n".join(lines)
