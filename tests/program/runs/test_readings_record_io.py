"""The readings record's one reader and one writer (program/runs/readings_record.py): the stored record
(docs/data/readings.json) is read and written back byte for byte; a record from before a field keeps it
missing (never written as null or []), while the tape's null path and fingerprint are written; a field of
the wrong type or an unknown field is refused in one line naming it."""
from __future__ import annotations

import json

import pytest

from harness.errors import InputError
from harness.program.runs.readings_record import (TapeRecord, as_json, read_readings, readings_record,
                                                  write_readings)

from helpers import ROOT

STORED = ROOT / "docs" / "data" / "readings.json"


def _stored() -> dict:
    return json.loads(STORED.read_text(encoding="utf-8"))


def test_the_stored_record_is_read_and_written_back_byte_for_byte(tmp_path):
    out = tmp_path / "readings.json"
    write_readings(out, read_readings(STORED))
    assert out.read_bytes() == STORED.read_bytes()


def test_a_record_from_before_the_later_fields_keeps_them_missing(tmp_path):
    old = _stored()
    for key in ("tape", "ended", "undone", "shared_tapes", "command", "deviations", "resumed"):
        old.pop(key, None)                      # the stored record names no tape (written before it)
    del old["cpu_s"]["rom_checks"], old["cpu_s"]["command"], old["plan"]["frames_budget"], old["plan"]["thorough"]
    first = old["readings"][0]
    del first["vanish_playing"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old, indent=1, sort_keys=True, ensure_ascii=False), encoding="utf-8")
    record = read_readings(path)
    assert record.tape is None and record.shared_tapes is None and record.readings[0].vanish_playing is None
    assert record.readings[0].playing() == ([] if first["kind"] == "stops" else first["vanish"])
    out = tmp_path / "again.json"
    write_readings(out, record)
    assert out.read_bytes() == path.read_bytes()
    # near miss: the stored record's own fields, present, are written (vanish_playing an empty list, not left out)
    assert "vanish_playing" in as_json(read_readings(STORED).readings[0])


def test_the_tapes_null_path_and_fingerprint_are_written():
    assert as_json(TapeRecord(None, "ab" * 32, None)) == {"path": None, "sha256": "ab" * 32, "fingerprint": None}


@pytest.mark.parametrize("plant, said", [
    (lambda r: r["readings"][0].update(line="2"), r"\.readings\[0\]\.line: '2' is not int"),
    (lambda r: r["cpu_s"].update(total="1"), r"\.cpu_s\.total: '1' is not float"),
    (lambda r: r["readings"][0].update(colour="red"), r"\.readings\[0\]: unknown fields \['colour'\]"),
    (lambda r: r.pop("counts"), r": no counts"),
])
def test_a_planted_fault_is_refused_naming_its_field(plant, said):
    planted = _stored()
    plant(planted)
    with pytest.raises(InputError, match=rf"^old\.json: readings record{said}$"):
        readings_record(planted, "old.json")
    readings_record(_stored(), "old.json")                   # near miss: the record as stored


def test_a_tape_that_is_not_a_tapes_record_names_no_tape():
    planted = _stored()
    planted["tape"] = "build/cribbage.tap"
    assert readings_record(planted, "old.json").tape is None
