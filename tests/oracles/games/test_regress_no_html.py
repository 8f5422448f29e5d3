"""regress --no-html writes the records of games it plays and names the command that renders them."""
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


def test_no_html_writes_the_records_and_names_the_command_that_renders_them(tmp_path, good_tape, stand_in_games,
                                                                           monkeypatch, capsys):
    from harness.edition import report as html_report
    rendered = []
    monkeypatch.setattr(html_report, "write_report_html", lambda out: rendered.append(out))
    args = ["--games", "1", "--workers", "1", "--tape", str(good_tape), "--quiet"]
    assert regress_command.main(args + ["--out", str(tmp_path / "a"), "--no-html"]) == 0
    assert rendered == [] and (tmp_path / "a" / "report.json").exists()
    assert (tmp_path / "a" / "game-000.judgements.jsonl").exists()
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"report: {tmp_path / 'a' / 'report.json'} (report.html: cribbage-zx html --report {tmp_path / 'a'})")
    # the near miss: without it the run renders its folder
    assert regress_command.main(args + ["--out", str(tmp_path / "b")]) == 0
    assert rendered == [tmp_path / "b"]
