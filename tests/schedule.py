"""The dearest test files first, when pytest-xdist shares them out: its loadfile scheduler hands a worker the
next file in collection order whenever it runs low, so a dear file collected last ends the run with the other
workers idle. Ordered by the costs a full run recorded (tests/data/test-costs.json), longest first, the run is
a longest-processing-time schedule. A file not in the record (new, or renamed) goes first: its cost is unknown,
and a slow file started early costs nothing, started last it costs its whole time.

A worker is held by a file for its wall time, not its CPU time: a file that waits (Fuse, a window or a page
paced at real time, `make run`'s pip) holds one for far longer than its core-seconds say. So where the record
has a file's wall seconds (its "wall", from the same run), the file is ranked by the larger of the two: a file
of 123 CPU-s and 337 s wall (test_make_run) goes first, not fourth.

The order of the tests inside a file is kept, and a run without xdist is left in collection order."""
from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path

import pytest

COSTS = Path(__file__).parent / "data" / "test-costs.json"


def file_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def file_costs(costs: dict[str, float]) -> dict[str, float]:
    """Each test file's recorded cost: the sum of its tests'."""
    total: dict[str, float] = {}
    for nodeid, cost in costs.items():
        total[file_of(nodeid)] = total.get(file_of(nodeid), 0.0) + cost
    return total


def dearest_first(nodeids: Iterable[str], costs: dict[str, float],
                  walls: dict[str, float] | None = None) -> list[str]:
    """*nodeids* with their files ordered by cost, dearest first (unrecorded files before all), each file's tests
    in their own order; files of equal cost keep the order they were collected in. A file's cost is the larger
    of its core-seconds and, where *walls* has its tests, its wall seconds."""
    per_file = file_costs(costs)
    for name, wall in file_costs(walls or {}).items():
        if name in per_file:
            per_file[name] = max(per_file[name], wall)
    groups: dict[str, list[str]] = {}
    for nodeid in nodeids:
        groups.setdefault(file_of(nodeid), []).append(nodeid)
    ranked = sorted(enumerate(groups), key=lambda pair: (pair[1] in per_file, -per_file.get(pair[1], 0.0), pair[0]))
    return [nodeid for _, name in ranked for nodeid in groups[name]]


def read_costs(path: Path = COSTS, key: str = "tests") -> dict[str, float]:
    """The record's core-seconds per test (*key* "wall": its wall seconds per test); {} where it has none."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))[key]
    except (OSError, ValueError, KeyError):
        return {}                                   # no record: collection order, as pytest has it


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    by_id = {item.nodeid: item for item in items}
    items[:] = [by_id[nodeid] for nodeid in dearest_first([item.nodeid for item in items], read_costs(),
                                                                 read_costs(key="wall"))]
