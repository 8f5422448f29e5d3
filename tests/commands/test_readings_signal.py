"""`readings` stopped by Ctrl-C or SIGTERM: the record written first, then status 130 or 143 and one line saying
what the record left undone (the record itself: tests/program/runs/test_readings_stop.py)."""
from __future__ import annotations

import json
import signal
from contextlib import contextmanager

import pytest

from harness import cli
from harness.program.runs import readings as R
from harness.program.runs.readings_record import PLAYED
from harness.program.runs.readings_tapes import READINGS, load
from harness.runtime.jobs import Outcome


@pytest.fixture(scope="module")
def two():
    """Two readings of one line that make a variant tape each (docs/data/readings.json played them)."""
    from helpers import ROOT
    stored = json.loads((ROOT / "docs" / "data" / "readings.json").read_text(encoding="utf-8"))
    played = [c for c in stored["readings"] if c["kind"] in PLAYED]
    ids = {c["id"] for c in played if c["line"] == played[0]["line"]}
    return [r for r in load(READINGS) if r.id in ids][:2]


def _stopping_jobs(stop: BaseException):
    """run_jobs as the run sees it, *stop* raised at the first outcome (Ctrl-C in the middle of the games)."""
    @contextmanager
    def run_jobs(fn, jobs, setup, workers, scheduler):
        def outcomes():
            raise stop
            yield Outcome(0, jobs[0])
        yield outcomes()
    return run_jobs


@pytest.mark.parametrize("stop, status, said", [(KeyboardInterrupt(), 130, "interrupted"),
                                                (cli.Terminated(signal.SIGTERM), 143, "terminated by SIGTERM")])
def test_the_command_writes_the_stopped_record_then_exits_130_or_143_in_one_line(two, stop, status, said,
                                                                                 monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(R, "run_jobs", _stopping_jobs(stop))
    out = tmp_path / "readings.json"
    handlers = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        with pytest.raises(SystemExit) as done:
            cli.run(["readings", "--entries", str(two[0].line), "--games", "1", "--no-thorough", "--quiet",
                     "--out", str(out)])
    finally:
        for s, h in handlers.items():
            signal.signal(s, h)
    err = capsys.readouterr().err
    record = json.loads(out.read_text(encoding="utf-8"))
    assert done.value.code == status
    assert err.splitlines() == [f"cribbage-zx: {said}; the record {out} keeps what finished; "
                                f"{len(record['undone'])} readings left untested: `cribbage-zx readings --resume` "
                                f"plays them"]
    assert record["ended"] == "stopped" and record["undone"]
    tape = record["tape"]                  # the tape it was measured on, for --resume (test_readings_record.py)
    assert set(tape) == {"path", "sha256", "fingerprint"} and len(tape["sha256"]) == 64


def test_a_stop_that_left_nothing_untested_says_so_not_that_resume_plays_them(monkeypatch, tmp_path, capsys):
    """Line 2's readings are all refused by the ROM (no game): a stop noted as the run ends leaves nothing
    undone, and the line does not send the user to a --resume that plays nothing. Its near miss: the test above."""
    monkeypatch.setattr(R, "stopped_by", lambda: KeyboardInterrupt())
    out = tmp_path / "readings.json"
    with pytest.raises(SystemExit) as done:
        cli.run(["readings", "--entries", "2", "--games", "1", "--no-thorough", "--quiet", "--out", str(out)])
    record = json.loads(out.read_text(encoding="utf-8"))
    assert done.value.code == 130 and record["undone"] == []
    assert capsys.readouterr().err.splitlines() == [
        f"cribbage-zx: interrupted; the record {out} keeps what finished; no reading was left untested"]
