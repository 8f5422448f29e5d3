"""report.json is one type (regress.RegressReport), written and read through the runtime's typed records: what
a run writes reads back as the same record, and an older file is read when whole or refused in one line."""
import copy
import dataclasses
import json

import pytest

from harness.errors import InputError
from harness.program.runs import regress


@pytest.fixture(scope="module")
def real_record(played_record):
    return copy.deepcopy(played_record)     # regress.play_one(GameJob(0, 1, "random")), tests/conftest.py


@pytest.fixture
def written(monkeypatch, tmp_path, tape_path, real_record):
    """A two-game run of stand-ins (the real record re-indexed): its folder and the report run returned."""
    monkeypatch.setattr(regress, "play_one", lambda job: dataclasses.replace(
        real_record, index=job.index, seed=job.seed, strategy=job.strategy))
    monkeypatch.setattr(regress, "init_worker", lambda tape, *options: None)
    out = tmp_path / "out"
    report = regress.run(2, 1, 1, out, regress.RegressOptions(tap=tape_path(), progress=False))
    return out / "report.json", report


def _rewrite(path, change):
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")


def test_what_a_run_writes_reads_back_as_the_same_record(written):
    path, report = written
    typed = regress.read_report(path)
    assert typed == report and typed.as_json() == json.loads(path.read_text(encoding="utf-8"))
    assert typed.report_schema == regress.REPORT_SCHEMA and [g.index for g in typed.per_game] == [0, 1]
    assert isinstance(typed.per_game[0], regress.PerGame) and typed.played == 2


def test_an_older_report_is_read_when_whole_and_refused_in_one_line_when_not(written):
    path, report = written
    _rewrite(path, lambda d: d.pop("report_schema"))               # written before the schema was recorded
    assert regress.read_report(path) == report
    _rewrite(path, lambda d: d.pop("coverage"))                    # ... and without a field the type has now
    with pytest.raises(InputError) as refused:
        regress.read_report(path)
    message = str(refused.value)
    assert message == (f"{path}: a report.json of schema 0, older than {regress.REPORT_SCHEMA}, and not readable "
                       f"as it (report: no coverage); run regress again")
    assert "\n" not in message


def test_a_current_report_missing_a_field_or_of_a_later_schema_is_refused(written):
    path, _ = written
    _rewrite(path, lambda d: d.pop("played"))                      # the near miss: the current schema, a field gone
    with pytest.raises(InputError, match=r"report.json: report: no played$"):
        regress.read_report(path)
    _rewrite(path, lambda d: d.update(report_schema=regress.REPORT_SCHEMA + 1, played=2))
    with pytest.raises(InputError, match=r"report_schema 2: written by a later cribbage-zx"):
        regress.read_report(path)


def test_a_field_of_the_wrong_type_is_named(written):
    path, _ = written
    _rewrite(path, lambda d: d["per_game"][1].update(seed="one"))
    with pytest.raises(InputError, match=r"report\.per_game\[1\]\.seed: 'one' is not int"):
        regress.read_report(path)
