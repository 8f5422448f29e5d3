"""examples/play_one_game.py plays a whole game (~4 CPU-s, so it is here, not in tests/project/): it runs as a
user runs it, the game ends with a winner past 121, and every difference it prints is a documented deviation."""
from __future__ import annotations

import re
import subprocess
import sys

import pytest

from helpers import ROOT

pytestmark = pytest.mark.slow


def test_the_game_example_plays_to_a_winner_and_judges_it_under_each_rule_set():
    done = subprocess.run([sys.executable, str(ROOT / "examples" / "play_one_game.py"), "7", "greedy"], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    head = re.fullmatch(r"seed 7, greedy: (\d+) deals, (\d+) events, winner (\w+), "
                        r"scores \{'computer': (\d+), 'player': (\d+)\}", lines[0])
    assert head, lines[0]
    scores = {"computer": int(head[4]), "player": int(head[5])}
    assert scores[head[3]] >= 121 > min(scores.values())                    # a game is won at 121
    verdicts = [l for l in lines if re.match(r"\w+: \d+ judgements, \d+ pegs checked, differences ", l)]
    assert [v.split(":")[0] for v in verdicts][:1] == ["standard"] and len(verdicts) >= 2
    assert all("unexplained" not in v for v in verdicts) and "UNEXPLAINED" not in done.stdout
