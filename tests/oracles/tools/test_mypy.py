"""The code's types, checked by mypy: the rules engine is a typed library (harness/cribbage ships py.typed),
the two bottom packages (harness/spectrum, harness/cribbage) are `mypy --strict` clean, and every other
package of harness/ has a recorded count of strict errors that may only shrink (tests/data/mypy-strict.json).

When a count falls, record the new numbers (the test says so): ``.venv/bin/python tests/test_mypy.py --record``.
A new package (a folder under harness/) needs its own entry: record it the same way.
"""
from __future__ import annotations

import checkout
import json
import re
import subprocess
import sys
import warnings
from collections import Counter
from pathlib import Path


ROOT = checkout.ROOT
RECORD = ROOT / "tests" / "data" / "mypy-strict.json"
RECORD_COMMAND = ".venv/bin/python tests/test_mypy.py --record"
#: the packages that must have no strict error at all
CLEAN = ("spectrum", "cribbage")
#: the entry for the modules directly in harness/ (not in a package folder)
TOP_LEVEL = "(top level)"
_ERROR = re.compile(r"^harness/(?P<path>[^:]+\.pyi?):\d+(?::\d+)?: error: ")


def _mypy(cache: Path, *targets: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(cache), *targets],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)


def packages() -> list[str]:
    """Every package folder of harness/ (by name), and TOP_LEVEL for the modules directly in it."""
    return sorted(p.parent.name for p in (ROOT / "harness").glob("*/__init__.py")) + [TOP_LEVEL]


def package_of(path: str) -> str:
    """The package of a path relative to harness/: its first folder, or TOP_LEVEL."""
    return path.split("/", 1)[0] if "/" in path else TOP_LEVEL


def count_errors(mypy_output: str, names: list[str]) -> dict[str, int]:
    """Strict errors per package (every name in *names*, 0 if none) from mypy's output."""
    counts = Counter(package_of(m["path"]) for line in mypy_output.splitlines() if (m := _ERROR.match(line)))
    return {name: counts.get(name, 0) for name in sorted(set(names) | set(counts))}


def strict_counts() -> tuple[dict[str, int], str]:
    """(errors per package, mypy's output) of one `mypy --strict harness` (mypy's cache in the checkout:
    a second run checks only what changed)."""
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "harness"],
                          cwd=ROOT, capture_output=True, text=True, timeout=900)
    if done.returncode not in (0, 1) or "error: " in done.stderr:
        raise RuntimeError(f"mypy failed to run (exit {done.returncode}): {done.stderr.strip()[:500]}")
    return count_errors(done.stdout, packages()), done.stdout


def problems(counts: dict[str, int], recorded: dict[str, int]) -> tuple[list[str], list[str]]:
    """(what fails the test, what falls and should be recorded) for *counts* against the *recorded* ones."""
    failures, fallen = [], []
    for name in CLEAN:
        if counts.get(name, 0):
            failures.append(f"harness/{name}: {counts[name]} mypy --strict error(s); it must have none")
    for name, n in counts.items():
        if name not in recorded:
            failures.append(f"{name}: no recorded mypy --strict count in {RECORD.relative_to(ROOT)} "
                            f"(it has {n}); record it: {RECORD_COMMAND}")
        elif n > recorded[name]:
            failures.append(f"{name}: {n} mypy --strict errors, more than the {recorded[name]} recorded")
        elif n < recorded[name]:
            fallen.append(f"{name}: {recorded[name]} -> {n}")
    fallen += [f"{name}: {recorded[name]} -> (no such package now)" for name in recorded if name not in counts]
    return failures, fallen


def record(counts: dict[str, int]) -> None:
    from harness.runtime import atomic
    data = {"about": "mypy --strict errors per package of harness/ (tests/test_mypy.py): each may only shrink; "
                     "spectrum and cribbage must stay 0", "command": "mypy --strict harness", "counts": counts}
    atomic.write_text(RECORD, json.dumps(data, indent=1, sort_keys=True) + "\n")


def test_the_engine_is_mypy_clean(mypy_cache):
    done = _mypy(mypy_cache, "harness/cribbage")
    assert done.returncode == 0, done.stdout + done.stderr
    assert (ROOT / "harness" / "cribbage" / "py.typed").exists()


def test_a_callers_type_error_is_caught_and_card_like_inputs_are_not(tmp_path, mypy_cache):
    caller = tmp_path / "caller.py"
    caller.write_text(
        "from harness.cribbage import Card, Game, best_discard, score_hand, score_play\n"
        "score_play(['5H', 3, Card(4)])\n"                    # text, int and Card are all card-like
        "score_hand('5H 5C 5S JD', 'KD', crib=True)\n"
        "best_discard([0, 1, 2, 3, 4, 5], my_crib=True)\n"
        "Game().deal('AS 2S 3S 4S 5S 6S', [6, 7, 8, 9, 10, 11], dealer=0)\n"
        "score_play(['5H'], rules='standard')\n"               # line 6: a rules name is not a Rules
        "score_hand('5H 5C 5S JD', 4.5)\n",                    # line 7: a float is not a card
        encoding="utf-8")
    done = _mypy(mypy_cache, str(caller))
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert [e.split(":")[1] for e in errors] == ["6", "7"], done.stdout


def test_strict_counts_are_zero_at_the_bottom_and_shrink_elsewhere():
    counts, output = strict_counts()
    recorded = json.loads(RECORD.read_text(encoding="utf-8"))["counts"]
    failures, fallen = problems(counts, recorded)
    clean_errors = [line for line in output.splitlines() if line.startswith(tuple(f"harness/{n}/" for n in CLEAN))]
    assert not failures, "\n".join(failures + clean_errors[:20])
    if fallen:
        message = (f"mypy --strict counts fell ({', '.join(fallen)}): record them so they cannot grow back: "
                   f"{RECORD_COMMAND}")
        print(message)
        warnings.warn(message)


# -- the ratchet's own logic, with planted counts ---------------------------------------------------

OUTPUT = ("harness/program/observe/driver.py:10: error: Missing type arguments  [type-arg]\n"
          "harness/program/observe/driver.py:10: note: a note is not an error\n"
          "harness/program/sub/deep.py:3:5: error: Something  [misc]\n"
          "harness/cli.py:7: error: Function is missing a type annotation  [no-untyped-def]\n"
          "harness/spectrum/machine.py:1: error: Planted  [misc]\n"
          "tests/x.py:1: error: not in harness  [misc]\n")


def test_errors_are_counted_by_the_packages_first_folder_and_top_level_modules_apart():
    counts = count_errors(OUTPUT, ["program", "spectrum", "cribbage", TOP_LEVEL])
    assert counts == {"program": 2, "spectrum": 1, "cribbage": 0, TOP_LEVEL: 1}


def test_a_grown_count_fails_an_equal_one_passes_and_a_fallen_one_asks_to_be_recorded():
    recorded = {"program": 5, "edition": 3, "spectrum": 0, "cribbage": 0, TOP_LEVEL: 2}
    assert problems({"program": 6, "edition": 3, "spectrum": 0, "cribbage": 0, TOP_LEVEL: 2}, recorded) == (
        ["program: 6 mypy --strict errors, more than the 5 recorded"], [])
    assert problems(dict(recorded), recorded) == ([], [])                       # the near miss: equal
    failures, fallen = problems({"program": 4, "edition": 3, "spectrum": 0, "cribbage": 0, TOP_LEVEL: 0}, recorded)
    assert failures == [] and fallen == ["program: 5 -> 4", f"{TOP_LEVEL}: 2 -> 0"]


def test_an_error_in_a_bottom_package_fails_even_if_recorded():
    recorded = {"spectrum": 1, "cribbage": 0}
    failures, _ = problems({"spectrum": 1, "cribbage": 0}, recorded)
    assert failures == ["harness/spectrum: 1 mypy --strict error(s); it must have none"]


def test_a_package_without_a_recorded_count_fails_saying_how_to_record_it_and_a_vanished_one_is_noted():
    failures, fallen = problems({"spectrum": 0, "cribbage": 0, "runtime": 0}, {"spectrum": 0, "cribbage": 0,
                                                                                 "bench_old": 4})
    assert len(failures) == 1 and failures[0].startswith("runtime: no recorded mypy --strict count")
    assert RECORD_COMMAND in failures[0]
    assert fallen == ["bench_old: 4 -> (no such package now)"]


def test_every_package_folder_is_counted():
    names = packages()
    assert {"spectrum", "cribbage", "program", TOP_LEVEL} <= set(names)
    assert all((ROOT / "harness" / n / "__init__.py").exists() for n in names if n != TOP_LEVEL)


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit(f"usage: {RECORD_COMMAND}")
    found, _ = strict_counts()
    dirty = [n for n in CLEAN if found.get(n)]
    if dirty:
        sys.exit(f"not recorded: {', '.join(dirty)} must have no mypy --strict error ({found})")
    record(found)
    print(f"{RECORD.relative_to(ROOT)}: {json.dumps(found)}")
