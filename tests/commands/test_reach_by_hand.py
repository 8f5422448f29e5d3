"""The exit status of `regress` and its reach check by hand (issue 36, item 2): each thing that fails a run
fails it alone, one at a time, and the near miss (nothing, or a count of zero) passes."""
from types import SimpleNamespace

import pytest

from harness.commands.regress import exit_status, reach_lost
from harness.program.records.events import ChoiceKind
from harness.program.runs.coverage import RunCoverage

EVERY = {k.value: 1 for k in ChoiceKind}


def coverage(unexplained=(), choices=None):
    return RunCoverage(9, 9, 1, 1, [], [], list(unexplained), {}, {}, {}, dict(EVERY if choices is None else choices),
                       {})


def report(**fields):
    """What the exit status reads of a regress.RegressReport: a clean run but for *fields*."""
    return SimpleNamespace(**{"unexplained_differences": 0, "basic_errors": 0, "timeouts": 0, "harness_failures": 0,
                              "coverage": coverage(), **fields})


@pytest.mark.parametrize("field, bad", [("unexplained_differences", 1), ("basic_errors", 1), ("timeouts", 2),
                                        ("harness_failures", [{"game": 3}])])
def test_each_failure_alone_fails_the_run_with_or_without_thorough(field, bad):
    bad_run = report(**{field: bad})
    assert exit_status(bad_run, thorough=False) == 1 and exit_status(bad_run, thorough=True) == 1
    near = report(**{field: [] if isinstance(bad, list) else 0})
    assert exit_status(near, thorough=False) == 0 and exit_status(near, thorough=True) == 0


def test_the_reach_lost_in_order_statements_then_choices():
    choices = dict(EVERY, **{ChoiceKind.REPEAT_DEMO.value: 0})
    run = report(coverage=coverage(["9095:1", "3725:2 true"], choices))
    assert reach_lost(run) == ["9095:1: neither run nor explained by a note",
                               "3725:2 true: neither run nor explained by a note",
                               f"choice {ChoiceKind.REPEAT_DEMO.value!r}: never taken"]
    assert exit_status(run, thorough=True) == 1 and exit_status(run, thorough=False) == 0


def test_a_coverage_without_choices_has_reached_none_of_them():
    run = report(coverage=coverage(choices={}))
    assert reach_lost(run) == [f"choice {k.value!r}: never taken" for k in ChoiceKind]
    assert reach_lost(report(coverage=coverage(["6:1"], {})))[0] == "6:1: neither run nor explained by a note"
    assert exit_status(run, thorough=True) == 1 and exit_status(run, thorough=False) == 0
