"""The exit status of `regress` and its reach check by hand (issue 36, item 2): each thing that fails a run
fails it alone, one at a time, and the near miss (nothing, or a count of zero) passes."""
import pytest

from harness.commands.regress import exit_status, reach_lost
from harness.program.records.events import ChoiceKind

EVERY = {k.value: 1 for k in ChoiceKind}
CLEAN = {"unexplained_differences": 0, "basic_errors": 0, "timeouts": 0, "harness_failures": 0,
         "coverage": {"unexplained": [], "choices": EVERY}}


@pytest.mark.parametrize("field, bad", [("unexplained_differences", 1), ("basic_errors", 1), ("timeouts", 2),
                                        ("harness_failures", [{"game": 3}])])
def test_each_failure_alone_fails_the_run_with_or_without_thorough(field, bad):
    report = dict(CLEAN, **{field: bad})
    assert exit_status(report, thorough=False) == 1 and exit_status(report, thorough=True) == 1
    near = dict(CLEAN, **{field: [] if isinstance(bad, list) else 0})
    assert exit_status(near, thorough=False) == 0 and exit_status(near, thorough=True) == 0


def test_the_reach_lost_in_order_statements_then_choices():
    choices = dict(EVERY, **{ChoiceKind.REPEAT_DEMO.value: 0})
    report = dict(CLEAN, coverage={"unexplained": ["9095:1", "3725:2 true"], "choices": choices})
    assert reach_lost(report) == ["9095:1: neither run nor explained by a note",
                                  "3725:2 true: neither run nor explained by a note",
                                  f"choice {ChoiceKind.REPEAT_DEMO.value!r}: never taken"]
    assert exit_status(report, thorough=True) == 1 and exit_status(report, thorough=False) == 0


def test_a_report_without_coverage_has_reached_nothing():
    report = {k: v for k, v in CLEAN.items() if k != "coverage"}
    assert reach_lost(report) == [f"choice {k.value!r}: never taken" for k in ChoiceKind]
    assert reach_lost(dict(report, coverage=None)) == reach_lost(report)
    assert reach_lost(dict(report, coverage={"unexplained": ["6:1"]}))[0] == "6:1: neither run nor explained by a note"
    assert exit_status(report, thorough=True) == 1 and exit_status(report, thorough=False) == 0
