"""`make mutation`: the mutation score of the detectors, with mutmut.

Mutants of the comparison (harness/game/compare.py, its screen checks included, and the judgements
of the pictures, screen_judgements.py), the deviation
rules (deviations.py) and the sweep's detection (sweep.py: running a case against the engine,
grouping the disagreements, the exit status) are run against the fast detector tests named in
pyproject.toml [tool.mutmut] (no emulator). Prints the score per module and every surviving mutant
(`mutmut show NAME` shows its diff); exits 1 below the goal, 2 if mutmut fails or overruns its
budget. Run from the checkout; the work folder is mutants/ (rebuilt each time).
"""
from __future__ import annotations

import argparse
import fnmatch
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# What the score is about: every function of compare.py and deviations.py; of sweep.py, the functions
# that decide whether a disagreement is found and reported (the rest drives the machine).
PATTERNS = ("harness.game.compare.*", "harness.game.deviations.*", "harness.game.screen_judgements.*",
            "harness.game.sweep.x__run_chunk__mutmut_*", "harness.game.sweep.x_summarise__mutmut_*",
            "harness.game.sweep.x__causes__mutmut_*", "harness.commands.sweep.x_execute__mutmut_*")
#: module -> its file under harness/ (the sweep's exit status is decided by its command)
MODULES = {"compare": "game/compare.py", "deviations": "game/deviations.py",
           "screen_judgements": "game/screen_judgements.py", "sweep": "game/sweep.py",
           "sweep command": "commands/sweep.py"}
KILLED = {1, 3, 24, -24, 152, 255, 36}     # a failing test; a timeout (the mutant hangs the tests)
NOT_COUNTED = {34, 37}                    # skipped; caught by a type checker (not used here)


def run_mutmut(children: int, budget_s: float, log: Path) -> None:
    shutil.rmtree(ROOT / "mutants", ignore_errors=True)
    log.parent.mkdir()
    mutmut = Path(sys.executable).with_name("mutmut")
    cmd = [str(mutmut), "run", "--max-children", str(children), *PATTERNS]
    with open(log, "w", encoding="utf-8") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            code = proc.wait(timeout=budget_s)
        except (subprocess.TimeoutExpired, KeyboardInterrupt) as exc:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait()
            if isinstance(exc, KeyboardInterrupt):
                raise
            raise SystemExit(f"mutation: mutmut ran past its budget of {budget_s:.0f} s (log: {log})") from None
    if code != 0:
        raise SystemExit(f"mutation: mutmut exited with status {code} (log: {log})")


def results() -> dict[str, dict[str, int | None]]:
    """Exit code of every mutant in the score, per module."""
    out = {}
    for module, where in MODULES.items():
        meta = ROOT / "mutants" / "harness" / f"{where}.meta"
        try:
            codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
        except (OSError, ValueError, KeyError) as exc:
            raise SystemExit(f"mutation: {meta}: no results ({exc})") from None
        out[module] = {k: v for k, v in codes.items() if any(fnmatch.fnmatch(k, p) for p in PATTERNS)}
    return out


def report(by_module: dict[str, dict[str, int | None]]) -> float:
    total_killed = total_counted = 0
    survivors = []
    for module, codes in by_module.items():
        counted = {k: v for k, v in codes.items() if v not in NOT_COUNTED}
        killed = sum(1 for v in counted.values() if v in KILLED)
        statuses = Counter("killed" if v in KILLED else "survived" if v == 0 else "no tests" if v in (5, 33)
                           else "not run" if v is None else f"exit {v}" for v in counted.values())
        print(f"{module:10s} {killed:5d} / {len(counted):5d} killed  "
              f"({100 * killed / max(1, len(counted)):.1f} %)  {dict(sorted(statuses.items()))}")
        total_killed += killed
        total_counted += len(counted)
        survivors += sorted(k for k, v in counted.items() if v not in KILLED)
    score = 100 * total_killed / max(1, total_counted)
    if survivors:
        print(f"\nnot killed ({len(survivors)}; `mutmut show NAME` for each diff):")
        for name in survivors:
            print(f"  {name}")
    print(f"\nmutation score: {total_killed} / {total_counted} = {score:.1f} %")
    return score


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python tools/mutation.py", description=__doc__.splitlines()[0])
    ap.add_argument("--children", type=int, default=os.cpu_count() or 2, help="mutants run at once")
    ap.add_argument("--budget", type=float, default=900, help="seconds mutmut may take before it is stopped")
    ap.add_argument("--goal", type=float, default=90.0, help="the score (per cent) below which this fails")
    ap.add_argument("--report-only", action="store_true", help="print the score of the last run (mutants/)")
    args = ap.parse_args(argv)
    log = ROOT / "mutants" / "run.log"
    if not args.report_only:
        started = time.monotonic()
        run_mutmut(args.children, args.budget, log)
        print(f"mutmut: {time.monotonic() - started:.0f} s with {args.children} children (log: mutants/run.log)")
    score = report(results())
    return 0 if score >= args.goal else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
