"""tests/schedule.py: under xdist the dearest files go first, each file's tests in their own order."""
from __future__ import annotations

import json

from schedule import dearest_first, file_costs, read_costs

IDS = ["tests/a/test_cheap.py::test_1", "tests/a/test_cheap.py::test_2",
       "tests/b/test_dear.py::test_1[x]", "tests/b/test_dear.py::test_1[y]",
       "tests/c/test_middle.py::test_1"]
COSTS = {"tests/a/test_cheap.py::test_1": 0.5, "tests/a/test_cheap.py::test_2": 0.25,
         "tests/b/test_dear.py::test_1[x]": 30.0, "tests/b/test_dear.py::test_1[y]": 12.0,
         "tests/c/test_middle.py::test_1": 9.0}


def test_a_files_cost_is_the_sum_of_its_tests():
    assert file_costs(COSTS) == {"tests/a/test_cheap.py": 0.75, "tests/b/test_dear.py": 42.0,
                                 "tests/c/test_middle.py": 9.0}


def test_the_dearest_file_goes_first_and_each_files_tests_keep_their_order():
    assert dearest_first(IDS, COSTS) == [
        "tests/b/test_dear.py::test_1[x]", "tests/b/test_dear.py::test_1[y]",
        "tests/c/test_middle.py::test_1",
        "tests/a/test_cheap.py::test_1", "tests/a/test_cheap.py::test_2"]


def test_a_file_with_no_recorded_cost_goes_before_every_recorded_one():
    got = dearest_first(["tests/d/test_new.py::test_1", *IDS], COSTS)
    assert got[0] == "tests/d/test_new.py::test_1" and got[1] == "tests/b/test_dear.py::test_1[x]"


def test_files_of_equal_cost_keep_the_collection_order():
    ids = ["tests/x/test_b.py::t", "tests/x/test_a.py::t"]
    assert dearest_first(ids, {"tests/x/test_a.py::t": 1.0, "tests/x/test_b.py::t": 1.0}) == ids
    assert dearest_first(ids, {"tests/x/test_a.py::t": 1.5, "tests/x/test_b.py::t": 1.0}) == ids[::-1]


def test_a_file_that_waits_is_ranked_by_its_wall():
    walls = {"tests/a/test_cheap.py::test_1": 60.0, "tests/a/test_cheap.py::test_2": 1.0,   # 61 s wall, 0.75 core-s
             "tests/c/test_middle.py::test_1": 2.0, "tests/d/test_gone.py::test_1": 99.0}   # less wall than core-s
    assert dearest_first(IDS, COSTS, walls) == [
        "tests/a/test_cheap.py::test_1", "tests/a/test_cheap.py::test_2",
        "tests/b/test_dear.py::test_1[x]", "tests/b/test_dear.py::test_1[y]",
        "tests/c/test_middle.py::test_1"]
    assert dearest_first(IDS, COSTS, {}) == dearest_first(IDS, COSTS)


def test_no_record_leaves_the_collection_order(tmp_path):
    assert read_costs(tmp_path / "none.json") == {}
    assert dearest_first(IDS, {}) == IDS
    broken = tmp_path / "costs.json"
    broken.write_text(json.dumps({"about": "no tests"}), encoding="utf-8")
    assert read_costs(broken) == {} and read_costs(broken, key="wall") == {}


def test_the_record_read_is_the_suites_own():
    costs = read_costs()
    assert "tests/project/test_tiers.py::test_the_quick_tier_costs_less_than_its_budget" in costs
