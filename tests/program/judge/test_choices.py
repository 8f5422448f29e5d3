"""Whole games that take every choice a person has: the driver carries each out by keys, the program does
what the listing says, and the comparison explains every difference; the answers that stop the original
are findings with their lines, and the game's record is kept."""

import pytest

from harness.program.judge.compare import compare
from harness.program.observe.driver import Budget
from harness.program.records.events import Choice, ChoiceKind, Report
from harness.program.model.findings import FINDINGS
from harness.program.observe.players import ExplorerPlayer, Question, StopperPlayer
from helpers import play_from


@pytest.mark.parametrize("first,finding", [(True, "F1"), (False, "F2")])
def test_the_answers_that_stop_the_original_are_its_findings(loaded_tape, first, finding):
    _, rec = play_from(loaded_tape.snapshot, StopperPlayer(seed=3, first=first), seed=3)
    f = next(f for f in FINDINGS if f.id == finding)
    reports = [e for e in rec.events if isinstance(e, Report)]
    assert [(r.code, r.line, r.statement) for r in reports] == [(f.code, f.line, f.statement)]
    assert rec.failure is None and rec.events[0] is not None                 # the record up to the stop is kept
    assert compare(rec.events).unexplained == []


def test_a_game_over_budget_keeps_its_record_and_says_why(loaded_tape):
    _, rec = play_from(loaded_tape.snapshot, ExplorerPlayer(seed=5), seed=5, budget=Budget(actions=30))
    assert rec.failure == "budget: more than 30 actions"
    assert rec.events[-1].kind == "failure" and len(rec.events) > 5
    _, rec = play_from(loaded_tape.snapshot, ExplorerPlayer(seed=5), seed=5, budget=Budget(frames=2000))
    assert rec.failure.startswith("budget: more than 2000 frames") or "within" in rec.failure


def test_improper_answers_are_typed_and_the_program_asks_again(loaded_tape):
    class Careless(ExplorerPlayer):
        def __init__(self, **kw):
            super().__init__(improper=(Question.MUGGINS,), **kw)

        def answer(self, question, proper):
            if question is Question.MUGGINS and self.improper[question]:
                return self.improper[question].pop(0)       # empty, lowercase y, X: all taken as "not Y"
            return proper

    _, rec = play_from(loaded_tape.snapshot, Careless(seed=8, games=1), seed=8, max_deals=1)
    answers = [e.text for e in rec.events if isinstance(e, Choice) and e.what == ChoiceKind.ANSWER]
    assert answers == ["muggins=''"]
    assert rec.failure is None and compare(rec.events).unexplained == []
