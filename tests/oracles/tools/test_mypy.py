"""The code's types, checked by mypy: the rules engine is a typed library (harness/cribbage ships py.typed),
and every package of harness/ is `mypy --strict` clean: `mypy --strict harness` reports no error at all.

(Until round six a recorded count per package, tests/data/mypy-strict.json, could only shrink; it reached 0
everywhere and the ratchet became the rule.)
"""
from __future__ import annotations

import checkout
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path


ROOT = checkout.ROOT
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


def problems(counts: dict[str, int]) -> list[str]:
    """What fails the test: every package with a strict error, named with its count."""
    return [f"harness/{name}: {n} mypy --strict error(s); it must have none" if name != TOP_LEVEL else
            f"harness/*.py: {n} mypy --strict error(s); they must have none" for name, n in counts.items() if n]


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


def test_every_package_is_strict_clean():
    counts, output = strict_counts()
    failures = problems(counts)
    assert not failures, "\n".join(failures + [line for line in output.splitlines() if ": error: " in line][:20])


# -- the count's own logic, with planted output ---------------------------------------------------

OUTPUT = ("harness/program/observe/driver.py:10: error: Missing type arguments  [type-arg]\n"
          "harness/program/observe/driver.py:10: note: a note is not an error\n"
          "harness/program/sub/deep.py:3:5: error: Something  [misc]\n"
          "harness/cli.py:7: error: Function is missing a type annotation  [no-untyped-def]\n"
          "harness/spectrum/machine.py:1: error: Planted  [misc]\n"
          "tests/x.py:1: error: not in harness  [misc]\n")


def test_errors_are_counted_by_the_packages_first_folder_and_top_level_modules_apart():
    counts = count_errors(OUTPUT, ["program", "spectrum", "cribbage", TOP_LEVEL])
    assert counts == {"program": 2, "spectrum": 1, "cribbage": 0, TOP_LEVEL: 1}


def test_one_error_anywhere_fails_and_none_passes():
    assert problems({"program": 1, "edition": 0, "spectrum": 0, TOP_LEVEL: 0}) == [
        "harness/program: 1 mypy --strict error(s); it must have none"]
    assert problems({TOP_LEVEL: 2}) == ["harness/*.py: 2 mypy --strict error(s); they must have none"]
    assert problems({"program": 0, "edition": 0, "spectrum": 0, TOP_LEVEL: 0}) == []      # the near miss


def test_every_package_folder_is_counted():
    names = packages()
    assert {"spectrum", "cribbage", "program", TOP_LEVEL} <= set(names)
    assert all((ROOT / "harness" / n / "__init__.py").exists() for n in names if n != TOP_LEVEL)


def test_a_checked_json_value_is_typed_as_the_kinds_checked(tmp_path, mypy_cache):
    """runtime/validate.py's `expect` and `field` give the union of the kinds they checked, not Any: a reader
    that takes a checked value for another kind is caught (lines 4 and 7), one that takes it as checked is not."""
    caller = tmp_path / "reader.py"
    caller.write_text(
        "from harness.runtime.validate import expect, field\n"
        "text: str = expect('a', str, 'w')\n"
        "maybe: int | None = expect(None, (int, type(None)), 'w')\n"
        "number: int = expect('a', str, 'w')\n"                     # line 4: a str is not an int
        "got: str | None = field({'k': 'v'}, 'k', str, 'w', None)\n"
        "pair: int | float = field({'k': 1}, 'k', (int, float), 'w')\n"
        "whole: int = field({'k': 1}, 'k', (int, float), 'w')\n",  # line 7: a float is not an int
        encoding="utf-8")
    done = _mypy(mypy_cache, "--strict", str(caller))
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert [e.split(":")[1] for e in errors] == ["4", "7"], done.stdout
