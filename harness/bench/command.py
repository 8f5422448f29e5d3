"""The main job as a person (and most tests) runs it, against the bare core's time for its games.

`cribbage-zx regress --games 2 --workers 1` (seed 1: its first game is the one `bench_game` plays) in a
fresh process, its CPU time from getrusage (the process and its children: `dot` draws the call graphs),
with report.html and with `--no-html`; divided by the core's time for the two games' T-states
(`machine.command_t_states`), that is what Python, the start of the process, the judging and the views
cost beyond the emulation itself. Issue 37 asks for at most 1.25x (80 % of the core's speed) with the report.
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

__all__ = ["bench_command", "COMMAND", "GAMES", "SEED", "VARIANTS", "BUDGET_S"]

GAMES, SEED = 2, 1
COMMAND = ["-m", "harness", "regress", "--games", str(GAMES), "--workers", "1", "--seed", str(SEED), "--quiet"]
WHAT = f"cribbage-zx regress --games {GAMES}"
VARIANTS = {"with_html": [], "no_html": ["--no-html"]}
BUDGET_S = 600          # a game takes seconds; a run this long is stuck


def run_once(extra: list[str]) -> float:
    """One run of the command into a fresh folder: its CPU seconds (its children's included)."""
    with tempfile.TemporaryDirectory(prefix="cribbage-zx-bench-") as tmp:
        before = children_cpu_s()
        try:
            done = subprocess.run([sys.executable, *COMMAND, "--out", str(Path(tmp) / "run"), *extra],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=BUDGET_S)
        except subprocess.TimeoutExpired:
            raise MachineError(f"bench: `{WHAT}` took more than {BUDGET_S} s") from None
        cpu = children_cpu_s() - before
    if done.returncode != 0:
        last = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit status {done.returncode}"
        raise MachineError(f"bench: `{' '.join([WHAT, *extra])}`: {last}")
    return cpu


def bench_command(t_states: int, core_speed: Callable[[], float], repeat: int = 3,
                  run: Callable[[list[str]], float] = run_once) -> dict[str, float]:
    """Each variant's CPU seconds (median of *repeat*, the variants taken in turn so the load falls on both)
    and its ratio to the bare core's time for *t_states*, the T-states of the command's games. The core's
    speed (*core_speed*: T-states per CPU second) is timed again before each round, beside the runs it is
    compared with (median of *repeat*): on a shared machine the load moves a figure by a fifth in minutes."""
    times: dict[str, list[float]] = {name: [] for name in VARIANTS}
    speeds: list[float] = []
    for _ in range(repeat):
        speeds.append(core_speed())
        for name, extra in VARIANTS.items():
            times[name].append(run(extra))
    core_s = t_states / median_high(speeds)
    out = {"games": GAMES, "core_s": round(core_s, 3)}
    for name, xs in times.items():
        median = median_high(xs)
        out[f"{name}_cpu_s"] = round(median, 3)
        out[f"{name}_over_core"] = round(median / core_s, 3)
    return out
