"""Reach that cannot silently shrink: `regress --thorough` fails when a statement or IF outcome neither runs
nor has a note, or when a kind of choice a person has is never taken; the thorough run recorded in
docs/data/coverage.json took every kind of choice the players know."""
import checkout
import json
from types import SimpleNamespace

from harness.program.model import program as P
from harness.program.records.events import ChoiceKind
from harness.commands.regress import exit_status
from harness.commands.regress import reach_lost
from harness.program.runs.coverage import RunCoverage

ROOT = checkout.ROOT
ALL_CHOICES = {k.value: 1 for k in ChoiceKind}


def report(unexplained=(), choices=None):
    """What the exit status reads of a regress.RegressReport: a clean run but for the coverage given."""
    coverage = RunCoverage(9, 9, 1, 1, [], [], list(unexplained), {}, {}, {},
                           dict(ALL_CHOICES if choices is None else choices), {})
    return SimpleNamespace(unexplained_differences=0, basic_errors=0, timeouts=0, harness_failures=0,
                           coverage=coverage)


def test_a_thorough_run_that_reaches_everything_it_must_passes():
    assert reach_lost(report()) == [] and exit_status(report(), thorough=True) == 0


def test_an_item_neither_run_nor_noted_fails_the_thorough_run_only():
    r = report(unexplained=["9095:1"])
    assert reach_lost(r) == ["9095:1: neither run nor explained by a note"]
    assert exit_status(r, thorough=True) == 1
    assert exit_status(r, thorough=False) == 0          # the default run reaches less, by design (docs/COVERAGE.md)


def test_a_kind_of_choice_never_taken_fails_the_thorough_run():
    for kind in ChoiceKind:
        r = report(choices={k: n for k, n in ALL_CHOICES.items() if k != kind.value})
        assert reach_lost(r) == [f"choice {kind.value!r}: never taken"], kind
        assert exit_status(r, thorough=True) == 1
    r = report(choices={**ALL_CHOICES, ChoiceKind.REPEAT_DEMO.value: 0})       # counted, but zero times
    assert exit_status(r, thorough=True) == 1


def test_the_recorded_thorough_run_took_every_kind_of_choice():
    thorough = json.loads((ROOT / "docs" / "data" / "coverage.json").read_text(encoding="utf-8"))["thorough"]
    assert thorough["unexplained"] == []
    assert {k.value for k in ChoiceKind} <= {k for k, n in thorough["choices"].items() if n > 0}


def test_the_recorded_thorough_run_judged_the_screen_at_every_wait_it_stops_at():
    """Every wait of decisions.py has pictures, but the three a run passes without stopping: 3725 (keys held
    from before are waited out) and the INKEY$ read right after a PAUSE 0 (9095, 9160)."""
    from harness.program.model.decisions import decision_points
    from harness.resources import LISTING
    from harness.spectrum.basic import tokenise_program
    thorough = json.loads((ROOT / "docs" / "data" / "coverage.json").read_text(encoding="utf-8"))["thorough"]
    seen = {k for k, n in thorough["pictures_at"].items() if n > 0}
    moments = {k.split(" (")[0] for k in seen}
    lines = {int(k.split("(")[1].rstrip(")")) for k in seen}
    waits = decision_points(tokenise_program(LISTING.read_text(encoding="utf-8")))
    assert len(waits) == 23
    assert 3750 not in lines and 3730 in lines       # the polling loop's pictures are named by its head
    passed = {(3725, "inkey"), (9095, "inkey"), (9160, "inkey")}
    for w in waits:
        if (w.line, w.kind) in passed:
            continue
        if w.kind == "select":
            assert f"select {w.line}" in moments, w
        elif w.line in P.WAIT_LOOP_HEAD:          # 3730/3750: named by the polling loop's head, 3730
            assert P.WAIT_LOOP_HEAD[w.line] in lines, w
        else:
            assert f"{w.kind} {w.line}" in moments, w
