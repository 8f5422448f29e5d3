"""`pytest --cpu-durations=N`: the N tests that cost the most CPU time, the suite's measure (issue 23).

pytest's --durations is wall time, which follows the neighbours on a shared machine; this is the
process's user+system time plus that of its children waited for (Fuse, Xvfb, `play`, subprocess
commands), for each test's set-up, call and teardown together. A session fixture's cost lands on the
first test that asks for it. Under pytest-xdist each worker measures its own tests and nothing is
printed (run without -n to see the table).
"""
from __future__ import annotations

import resource

import pytest

_spent: dict[str, float] = {}


def cpu_seconds() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--cpu-durations", type=int, default=None, metavar="N",
                     help="show the N tests with the most CPU time (this process and its children; 0: all)")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem):
    start = cpu_seconds()
    yield
    _spent[item.nodeid] = cpu_seconds() - start


def pytest_terminal_summary(terminalreporter, exitstatus, config: pytest.Config) -> None:
    n = config.getoption("--cpu-durations")
    if n is None or not _spent:
        return
    ranked = sorted(_spent.items(), key=lambda kv: kv[1], reverse=True)
    terminalreporter.write_sep("=", f"{'all' if n == 0 else n} costliest tests by CPU time "
                                    f"(of {sum(_spent.values()):.1f} CPU-s in {len(_spent)} tests)")
    for nodeid, seconds in ranked[:n or None]:
        terminalreporter.write_line(f"{seconds:8.2f}s cpu  {nodeid}")
