"""Harness failures (a game that cannot be played) make regress's exit status non-zero."""
import copy
import dataclasses
import sys
from pathlib import Path

import pytest

from harness.program.runs import regress
from harness.commands import regress as regress_command


@pytest.fixture(scope="module")
def good_tape(tape_path) -> Path:
    return tape_path()              # the session's one built tape (tests/conftest.py)


# ------------------------------------------------------------------ stand-in games: failures and folders
_template: list = []          # one real game's record: the stand-ins have the shape regress expects


def _stand_in_game(job):
    index, seed, strategy = job.index, job.seed, job.strategy
    if index == 1:
        raise RuntimeError(f"the driver lost track at deal 3\n(details of game {index})")
    if index == 2:
        print("game 2 started", file=sys.stderr, flush=True)
    return dataclasses.replace(_template[0], index=index, seed=seed, strategy=strategy,
                               failure="budget of 60 s exceeded at deal 9" if index == 3 else None)


@pytest.fixture(scope="module")
def real_record(played_record):
    record = copy.deepcopy(played_record)   # regress.play_one((0, 1, "random", False)), tests/conftest.py
    assert record.failure is None and not record.basic_errors
    assert not regress.counts_of_judgements(record.judgements, "game-000.judgements.jsonl").unexplained
    return record


@pytest.fixture
def stand_in_games(monkeypatch, real_record):
    from harness.edition import report as html_report
    _template.clear()
    _template.append(real_record)
    monkeypatch.setattr(regress, "play_one", _stand_in_game)
    monkeypatch.setattr(regress, "init_worker", lambda tape, *options: None)
    monkeypatch.setattr(html_report, "write_report_html", lambda out: None)   # the HTML has tests of its own


def test_harness_failures_make_the_exit_status_non_zero(tmp_path, good_tape, stand_in_games, capsys):
    assert regress_command.main(["--games", "2", "--workers", "1", "--tape", str(good_tape),
                         "--out", str(tmp_path / "a"), "--quiet"]) == 1
    assert regress_command.main(["--games", "1", "--workers", "1", "--tape", str(good_tape),     # game 0 alone: clean
                         "--out", str(tmp_path / "b"), "--quiet"]) == 0
