"""The one-game command as a person runs it, against the bare core's time for its game.

`cribbage-zx regress --games 1 --workers 1` (seed 1: the game `bench_game` plays) in a fresh process, its
CPU time from getrusage (the process and its children: `dot` draws the call graphs), with report.html
and with `--no-html`; divided by the core's time for the game's T-states, that is what Python, the start
of the process and the views cost beyond the emulation itself.
"""
from __future__ import annotations

import subprocess
import sys
import tempfile
from statistics import median_high
from pathlib import Path
from typing import Callable

from ..errors import MachineError
from ..runtime.cputime import children_cpu_s

__all__ = ["bench_command", "COMMAND", "VARIANTS", "BUDGET_S"]

COMMAND = ["-m", "harness", "regress", "--games", "1", "--workers", "1", "--seed", "1", "--quiet"]
VARIANTS = {"with_html": [], "no_html": ["--no-html"]}
BUDGET_S = 600          # one game takes seconds; a run this long is stuck


def run_once(extra: list[str]) -> float:
    """One run of the command into a fresh folder: its CPU seconds (its children's included)."""
    with tempfile.TemporaryDirectory(prefix="cribbage-zx-bench-") as tmp:
        before = children_cpu_s()
        try:
            done = subprocess.run([sys.executable, *COMMAND, "--out", str(Path(tmp) / "run"), *extra],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=BUDGET_S)
        except subprocess.TimeoutExpired:
            raise MachineError(f"bench: `cribbage-zx regress --games 1` took more than {BUDGET_S} s") from None
        cpu = children_cpu_s() - before
    if done.returncode != 0:
        last = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit status {done.returncode}"
        raise MachineError(f"bench: `cribbage-zx regress --games 1 {' '.join(extra)}`: {last}")
    return cpu


def bench_command(core_s: float, repeat: int = 3, run: Callable[[list[str]], float] = run_once) -> dict[str, float]:
    """Each variant's CPU seconds (median of *repeat*, the variants taken in turn so the load falls on both)
    and its ratio to *core_s*, the bare core's time for the game's T-states."""
    times: dict[str, list[float]] = {name: [] for name in VARIANTS}
    for _ in range(repeat):
        for name, extra in VARIANTS.items():
            times[name].append(run(extra))
    out = {"core_s": round(core_s, 3)}
    for name, xs in times.items():
        median = median_high(xs)
        out[f"{name}_cpu_s"] = round(median, 3)
        out[f"{name}_over_core"] = round(median / core_s, 3)
    return out
