"""`cribbage-zx bench --runner`: what the job runner costs, as wall seconds of the same regress run three ways.

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


def bench_runner(games: int = 20, workers: int = 2, seed: int = 1, dask: bool = True) -> dict:
    """{configuration: wall seconds}, the ratios, and whether the transcripts agree."""
    from .game import regress
    configurations = [("one worker", 1, None), (f"local pool, {workers} workers", workers, None)]
    if dask:
        configurations.append((f"Dask LocalCluster, {workers} workers", workers, "local"))
    walls, cpus, loads, transcripts = {}, {}, {}, {}
    with tempfile.TemporaryDirectory(prefix="cribbage-zx-bench-") as tmp:
        regress.ensure_tape()
        for n, (name, w, scheduler) in enumerate(configurations):
            out = Path(tmp) / f"run-{n}"
            t, cpu = time.perf_counter(), _cpu_seconds()
            regress.run(games, seed, w, out, progress=False, scheduler=scheduler)
            walls[name] = round(time.perf_counter() - t, 2)
            cpus[name] = round(_cpu_seconds() - cpu, 2)
            loads[name] = round(os.getloadavg()[0], 2)
            transcripts[name] = _transcripts(out)
    names = [name for name, _, _ in configurations]
    result = {"games": games, "workers": workers, "wall_s": walls, "cpu_s": cpus, "load_average_1min": loads,
              "speedup_pool_over_one": round(walls[names[0]] / walls[names[1]], 2),
              "transcripts_identical": all(transcripts[n] == transcripts[names[0]] for n in names)}
    if dask:
        result["dask_overhead"] = round(walls[names[2]] / walls[names[1]] - 1, 3)
        result["dask_cpu_overhead"] = round(cpus[names[2]] / cpus[names[1]] - 1, 3)
    result["pool_cpu_overhead"] = round(cpus[names[1]] / cpus[names[0]] - 1, 3)
    return result


def format_result(result: dict) -> str:
    lines = [f"regress --games {result['games']}:{'':22} wall s   games/min   CPU s   load avg (1 min, at the end)"]
    lines += [f"  {name:32} {wall:8.2f}  {result['games'] / wall * 60:9.1f}  {result['cpu_s'][name]:7.1f}"
              f"   {result['load_average_1min'][name]:.2f}"
              for name, wall in result["wall_s"].items()]
    lines.append(f"local pool speed-up over one worker (wall): {result['speedup_pool_over_one']:.2f}x; "
                 f"its CPU overhead: {result['pool_cpu_overhead']:+.1%}")
    if "dask_overhead" in result:
        lines.append(f"Dask LocalCluster over the local pool: wall {result['dask_overhead']:+.1%}, "
                     f"CPU {result['dask_cpu_overhead']:+.1%}")
    lines.append(f"transcripts byte-identical across the runs: {'yes' if result['transcripts_identical'] else 'NO'}")
    return "\n".join(lines)
