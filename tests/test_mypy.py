"""The rules engine is a typed library (harness/cribbage ships py.typed): mypy finds nothing in it, and a
caller's type error against its API is caught while the card-like inputs it accepts are not flagged."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _mypy(tmp_path: Path, *targets: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"), *targets],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_the_engine_is_mypy_clean(tmp_path):
    done = _mypy(tmp_path, "harness/cribbage")
    assert done.returncode == 0, done.stdout + done.stderr
    assert (ROOT / "harness" / "cribbage" / "py.typed").exists()


def test_a_callers_type_error_is_caught_and_card_like_inputs_are_not(tmp_path):
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
    done = _mypy(tmp_path, str(caller))
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert [e.split(":")[1] for e in errors] == ["6", "7"], done.stdout
