"""`cribbage-zx bench --cores`: what each CPU core does per CPU second, on the same work.

The work: power on to the © message, then LOAD the tape and run the program
to its first question (the listing's initialisation: arrays, the deck, the
UDGs, the board), in fast mode. The cores: the z80 package (the default);
the same core counting instruction fetches, as it runs while a game is
recorded as RZX (harness/spectrum/recording.py); SkoolKit's C simulator and
its Python one (harness/spectrum/skoolcore.py, a GPL test oracle; left out
when SkoolKit is not installed). Measured in CPU time of this process, the
median of three runs.
"""
from __future__ import annotations

import importlib.util
import statistics
import time
from typing import Callable

from ..spectrum.core import Core
from ..spectrum.cpu import Z80Core
from ..spectrum.loading import load_tape
from ..spectrum.machine import FRAME_S, Spectrum48
from ..spectrum.recording import CountingCore
from ..spectrum.skoolcore import SkoolKitCore


def _counting() -> CountingCore:
    core = CountingCore()
    core.counting = True
    return core


def _skoolkit(python: bool) -> Callable[[], Core]:
    def make() -> Core:
        return SkoolKitCore(python=python)
    return make


def cores() -> list[tuple[str, Callable[[], Core]]]:
    out: list[tuple[str, Callable[[], Core]]] = [("z80", Z80Core), ("z80, counting fetches (RZX)", _counting)]
    if importlib.util.find_spec("skoolkit") is None or importlib.util.find_spec("skoolkit.simulator") is None:
        return out
    if importlib.util.find_spec("skoolkit.csimulator") is not None:     # SkoolKit's C extension was built
        out.append(("SkoolKit CSimulator", _skoolkit(False)))
    out.append(("SkoolKit Simulator (Python)", _skoolkit(True)))
    return out


def bench_core(make: Callable[[], Core], tape: bytes, repeat: int = 3) -> dict[str, float]:
    """The work on one core: emulated seconds, the median CPU seconds, and their ratio."""
    runs = []
    frames = 0
    for _ in range(repeat):
        t = time.process_time()
        m = Spectrum48(fast=True, core=make)
        m.boot()
        load_tape(m, tape)
        runs.append(time.process_time() - t)
        frames = m.frames
    cpu = statistics.median(runs)
    return {"emulated_s": round(frames * FRAME_S, 2), "cpu_s": round(cpu, 3),
            "x_realtime": round(frames * FRAME_S / cpu, 1)}


def bench_cores(tape: bytes, repeat: int = 3) -> dict[str, dict[str, float]]:
    return {name: bench_core(make, tape, repeat) for name, make in cores()}


def format_cores(result: dict[str, dict[str, float]]) -> str:
    width = max(len(n) for n in result)
    rows = [f"{'core':<{width}}  emulated s  CPU s (median of 3)  x real time  vs z80"]
    base = result["z80"]["x_realtime"]
    for name, fig in result.items():
        rows.append(f"{name:<{width}}  {fig['emulated_s']:10.2f}  {fig['cpu_s']:19.3f}  {fig['x_realtime']:11.1f}"
                    f"  {fig['x_realtime'] / base:6.1%}")
    return "\n".join(rows)
