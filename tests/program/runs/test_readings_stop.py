"""A readings run stopped by Ctrl-C or SIGTERM: its record says which readings the stop left undone (every one,
when the stop came before the reconstruction's games: which lines they reach is not known), `--resume` plays
them (the command's exit, 130 or 143 in one line once the record is written:
tests/commands/test_readings_signal.py)."""
from __future__ import annotations

import json
from contextlib import contextmanager

import pytest

from harness.program.runs import readings as R
from harness.program.runs.readings_games import GamePlayed
from harness.program.runs.readings_record import BUDGET, PLAYED
from harness.program.runs.readings_tapes import READINGS, load
from harness.runtime.jobs import Outcome


@pytest.fixture(scope="module")
def two():
    """Two readings of one line that make a variant tape each (docs/data/readings.json played them)."""
    from helpers import ROOT
    stored = json.loads((ROOT / "docs" / "data" / "readings.json").read_text(encoding="utf-8"))
    played = [c for c in stored["readings"] if c["kind"] in PLAYED]
    line = played[0]["line"]
    ids = {c["id"] for c in played if c["line"] == line}
    return [r for r in load(READINGS) if r.id in ids][:2]


def _fake_jobs(stop: BaseException | None, lines_run=()):
    """run_jobs as the run sees it: *stop* raised at the first outcome (Ctrl-C in the middle of the games), or
    every game finished without reaching the readings' line."""
    @contextmanager
    def run_jobs(fn, jobs, setup, workers, scheduler):
        def outcomes():
            if stop is not None:
                raise stop
            for i, job in enumerate(jobs):
                yield Outcome(i, job, GamePlayed(job.key, job.index, job.seed, job.strategy,
                                                 lines_run=list(lines_run)))
        yield outcomes()
    return run_jobs


def test_a_stop_before_the_first_game_leaves_every_reading_undone_and_resumable(two, monkeypatch):
    from harness.program.model.build import tape_bytes
    stop = KeyboardInterrupt()
    monkeypatch.setattr(R, "run_jobs", _fake_jobs(stop))
    record = R.run(two, R.BaseTape(tape_bytes(None)), R.Plan(games=1, progress=False, thorough=False))
    played = record.readings
    assert len(played) == 2 and all((c.kind, c.detail) == ("untested", BUDGET) for c in played)
    assert record.ended == "stopped" and record.undone == sorted(c.id for c in played)
    assert R.left_by_budget(record) == set(record.undone)        # what --resume plays
    assert R.stopped_by() is stop


def test_games_that_finish_without_reaching_the_line_are_not_undone(two, monkeypatch):
    from harness.program.model.build import tape_bytes
    monkeypatch.setattr(R, "run_jobs", _fake_jobs(None))          # the near miss: no stop, the line not reached
    record = R.run(two, R.BaseTape(tape_bytes(None)), R.Plan(games=1, progress=False, thorough=False))
    assert record.ended == "complete" and record.undone == [] and R.stopped_by() is None
    assert all(c.detail != BUDGET for c in record.readings)
