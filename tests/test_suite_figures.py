"""docs/SUITE.md is what tools/suite_figures.py writes from the recorded runs (docs/suite/*.json), and each
record is well-formed; the tool refuses a record that is not."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from tools import suite_figures as sf

ROOT = Path(__file__).resolve().parents[1]


def test_the_suite_page_is_current_and_its_records_well_formed():
    records = sf.load_records()
    assert "baseline" in records          # "current" joins it once a whole run with xdist is recorded
    assert (ROOT / "docs" / "SUITE.md").read_text(encoding="utf-8") == sf.render(records), \
        "run: python tools/suite_figures.py write"


def _run() -> dict:
    tests = {"tests/test_a.py::test_game": {"cpu": 6.0, "own": 5.0, "children": 1.0, "wall": 9.0, "worker": "gw0",
                                            "by_kind": {"emulator": 4.5, "python": 0.5, "subprocess: xvfb": 1.0},
                                            "counts": {"games played": 1, "xvfb": 1}},
             "tests/test_b.py::test_cheap": {"cpu": 0.5, "own": 0.5, "children": 0.0, "wall": 0.6, "worker": "gw1",
                                             "by_kind": {"python": 0.5}, "counts": {}}}
    return {"summary": {"tests": 2, "cpu_in_tests": 6.5, "cpu_of_processes": 9.0,
                        "by_kind": {"emulator": 4.5, "python": 1.0, "subprocess: xvfb": 1.0},
                        "counts": {"games played": 1, "xvfb": 1},
                        "by_file": {"tests/test_a.py": 6.0, "tests/test_b.py": 0.5},
                        "processes": {"gw0": {"own": 4, "children": 1}, "gw1": {"own": 1, "children": 0},
                                      "main": {"own": 1, "children": 7}}},
            "tests": tests}


LOG = "....\n==== 2 passed, 1 skipped in 754.32s (0:12:34) ====\n"


def test_a_run_is_recorded_with_its_wall_time_from_the_log_and_rendered(tmp_path):
    rec = sf.record(_run(), "old", "a planted run", LOG)
    assert rec["wall_s"] == 754.32 and rec["outcomes"] == {"passed": 2, "skipped": 1} and rec["workers"] == 2
    assert rec["costliest"][0] == ["tests/test_a.py::test_game", 6.0, "emulator"]
    page = sf.render({"baseline": rec, "current": {**rec, "label": "new", "wall_s": 60.0}})
    assert "| tests run | 2 | 2 |" in page and "| wall | 12.6 min | 1.0 min |" in page
    assert "| emulator | 4.5 | 4.5 |" in page and "`tests/test_a.py`" in page


def test_a_run_without_wall_time_or_log_is_refused():
    with pytest.raises(sf.FiguresError, match="no wall time: give --log"):
        sf.record(_run(), "old", "", None)
    with pytest.raises(sf.FiguresError, match="no 'in N s' line"):
        sf.record(_run(), "old", "", "no summary line")


def test_a_record_missing_a_field_or_whose_kinds_do_not_add_up_is_refused(tmp_path):
    rec = sf.record(_run(), "old", "", LOG)
    sf.check(rec, "near-miss")                              # the kinds add up to the total within rounding
    broken = copy.deepcopy(rec)
    del broken["wall_s"]
    with pytest.raises(sf.FiguresError, match="no 'wall_s'"):
        sf.check(broken, "planted")
    off = copy.deepcopy(rec)
    off["by_kind"]["emulator"] += 2.0
    with pytest.raises(sf.FiguresError, match="the kinds add up to 8.5, not the tests' 6.5"):
        sf.check(off, "planted")
    (tmp_path / "current.json").write_text(json.dumps(off))
    with pytest.raises(sf.FiguresError, match="current.json"):
        sf.load_records(tmp_path)
