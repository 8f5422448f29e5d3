"""docs/SUITE.md is what tools/suite_figures.py writes from the recorded runs (docs/data/suite/*.json), and each
record is well-formed; the tool refuses a record that is not; tests/data/test-costs.json is what it writes from
a run of both tiers."""
from __future__ import annotations

import copy
import json

import pytest

import checkout
from tools import suite_figures as sf

ROOT = checkout.ROOT


def test_the_suite_page_is_current_and_its_records_well_formed():
    records = sf.load_records()
    assert list(records) == ["quick", "all"]                 # each tier's latest run, quick first
    assert (ROOT / "docs" / "SUITE.md").read_text(encoding="utf-8") == sf.render(records), \
        "run: python -m tools.suite_figures write"


def _run(wall: float = 90.0, speeds=(600e6, 400e6)) -> dict:
    """A planted run: two tests in two folders, the core timed at 600 and 400 M (mean 500: core-s = CPU-s)."""
    tests = {"tests/program/judge/test_a.py::test_game": {"cpu": 6.0, "own": 5.0, "children": 1.0, "wall": 9.0,
                                                          "worker": "gw0", "core_s": 6.0,
                                                          "by_kind": {"emulator": 4.5, "python": 0.5, "subprocess: xvfb": 1.0},
                                                          "counts": {"games played": 1, "xvfb": 1}},
             "tests/spectrum/test_b.py::test_cheap": {"cpu": 0.5, "own": 0.5, "children": 0.0, "wall": 0.6,
                                                      "worker": "gw1", "core_s": 0.5,
                                                      "by_kind": {"python": 0.5}, "counts": {}},
             "tests/spectrum/test_b.py::test_other": {"cpu": 0.25, "own": 0.25, "children": 0.0, "wall": 0.3,
                                                      "worker": "gw1", "core_s": 0.25,
                                                      "by_kind": {"python": 0.25}, "counts": {}}}
    return {"summary": {"tests": 3, "cpu_in_tests": 6.75, "cpu_of_processes": 9.0, "core_s_in_tests": 6.75,
                        "core_s_of_processes": 9.0, "core_t_per_cpu_s": list(speeds), "wall_s": wall, "workers": 2,
                        "by_kind": {"emulator": 4.5, "python": 1.25, "subprocess: xvfb": 1.0},
                        "counts": {"games played": 1, "xvfb": 1}, "outcomes": {"passed": 3},
                        "machine": {"cores": 2, "load_at_end": 1.5},
                        "by_file": {"tests/program/judge/test_a.py": 6.0, "tests/spectrum/test_b.py": 0.75},
                        "processes": {"gw0": {"own": 4, "children": 1}, "gw1": {"own": 1, "children": 0},
                                      "main": {"own": 1, "children": 7}}},
            "tests": tests}


def test_a_run_is_recorded_by_folder_with_its_costliest_tests_and_rendered():
    rec = sf.record(_run(), "quick", "a planted run", None)
    assert rec["by_folder"] == {"program/judge": {"tests": 1, "cpu": 6.0, "core_s": 6.0, "wall": 9.0},
                                "spectrum": {"tests": 2, "cpu": 0.8, "core_s": 0.8, "wall": 0.9}}
    assert rec["costliest"][0] == ["tests/program/judge/test_a.py::test_game", 6.0, 6.0, 9.0, "emulator"]
    page = sf.render({"quick": rec})
    assert "| 3 | 3 / 0 / 0 | 9.0 (6.8) | 9.0 (6.8) | 90 s | 500 (400-600, 2 timings) | 2; 1.5 |" in page
    assert "| program/judge | 1 | 6.0 | 6.0 | 9.0 |" in page and "| spectrum | 2 | 0.8 | 0.8 | 0.9 |" in page


def test_three_runs_of_a_tier_keep_the_median_by_wall_and_each_runs_figures():
    slow, middle, fast = _run(130.0), _run(100.0), _run(95.0)
    middle["summary"]["note_of_the_planted_run"] = "the middle one"
    rec = sf.record(slow, "quick", "three runs", None, [middle, fast])
    assert rec["wall_s"] == 100.0 and rec["note_of_the_planted_run"] == "the middle one"
    assert [r["wall_s"] for r in rec["runs"]] == [95.0, 100.0, 130.0]
    assert "3 runs: wall 95, 100, 130 s (median 100 s)" in sf.render({"quick": rec})


def test_a_run_without_wall_time_or_core_speed_is_refused():
    run = _run()
    del run["summary"]["wall_s"]
    with pytest.raises(sf.FiguresError, match="no wall time: give --log"):
        sf.record(run, "quick", "", None)
    run = _run()
    del run["summary"]["core_t_per_cpu_s"]
    with pytest.raises(sf.FiguresError, match="no core speed"):
        sf.record(run, "quick", "", None)


def test_a_record_missing_a_field_or_whose_kinds_or_folders_do_not_add_up_is_refused(tmp_path):
    rec = sf.record(_run(), "quick", "", None)
    sf.check(rec, "near-miss")                              # the kinds and folders add up within rounding
    broken = copy.deepcopy(rec)
    del broken["core_s_in_tests"]
    with pytest.raises(sf.FiguresError, match="no 'core_s_in_tests'"):
        sf.check(broken, "planted")
    off = copy.deepcopy(rec)
    off["by_kind"]["emulator"] += 2.0
    with pytest.raises(sf.FiguresError, match="the kinds add up to 8.8, not the tests' 6.75"):
        sf.check(off, "planted")
    folder_off = copy.deepcopy(rec)
    folder_off["by_folder"]["spectrum"]["cpu"] += 1.0
    with pytest.raises(sf.FiguresError, match="the folders add up to 7.8"):
        sf.check(folder_off, "planted")
    count_off = copy.deepcopy(rec)
    count_off["by_folder"]["spectrum"]["tests"] = 1
    with pytest.raises(sf.FiguresError, match="another count of tests than 3"):
        sf.check(count_off, "planted")
    (tmp_path / "quick.json").write_text(json.dumps(off))
    with pytest.raises(sf.FiguresError, match="quick.json"):
        sf.load_records(tmp_path)


def test_the_costs_are_each_tests_core_seconds_from_the_first_run_that_ran_it_and_a_run_without_the_core_is_refused():
    written = sf.costs(_run())
    assert written["tests"] == {"tests/program/judge/test_a.py::test_game": 6.0,
                                "tests/spectrum/test_b.py::test_cheap": 0.5, "tests/spectrum/test_b.py::test_other": 0.25}
    quick, both = _run(), _run()
    both["tests"]["tests/spectrum/test_b.py::test_cheap"]["core_s"] = 0.9           # the same test, dearer in the full run
    both["tests"]["tests/oracles/cores/test_c.py::test_lockstep"] = dict(both["tests"]["tests/spectrum/test_b.py::test_other"], core_s=30.0)
    written = sf.costs(quick, both)["tests"]
    assert written["tests/spectrum/test_b.py::test_cheap"] == 0.5 and written["tests/oracles/cores/test_c.py::test_lockstep"] == 30.0
    assert sf.costs(quick, both)["wall"].keys() == written.keys()                     # each test's wall beside it
    run = _run()
    del run["summary"]["core_t_per_cpu_s"]
    with pytest.raises(sf.FiguresError, match="no core speed"):
        sf.costs(run)
