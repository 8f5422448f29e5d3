"""Each kind of choice the explorer has, taken in a quick test (issue 51), not only by a 10-game `--thorough`
run: one deal of a player that takes every choice once at its first chance (an improper answer, the board demo
and its repeat, a reselected discard, keys while the program draws, an empty slot below 22, a go taken back
at «ВАШ ХОД?» by choosing a card, a go), and a second start that skips the demo. The driver carries each out by keys, the
program goes on (no report, no failure) and the comparison explains every difference.

Seed 1's deal gives the player a go with cards held (none of them playable), which it first takes back; the
choices themselves are forced, not drawn, so the deal is all the seed decides. About a CPU-second a deal."""
from __future__ import annotations

from collections import Counter

import pytest

from harness.program.judge.compare import compare
from harness.program.observe.driver import DriverOptions, GameDriver
from harness.program.observe.players import ExplorerPlayer, PlayContext, Question
from harness.program.records.events import Choice, ChoiceKind
from harness.spectrum.machine import Spectrum48

SEED = 1


class EveryChoice(ExplorerPlayer):
    """The explorer with each of its choices taken once, at its first chance."""

    def __init__(self, seed: int, demo: bool = True):
        super().__init__(seed=seed, games=1, improper=(Question.MUGGINS,))
        self.demo = demo
        self.left = {"repeat", "reselect", "keys", "empty", "cancel"}

    def _once(self, what: str) -> bool:
        if what in self.left:
            self.left.discard(what)
            return True
        return False

    def answer(self, question, proper):
        if self.improper.get(question):
            return self.improper[question].pop(0)        # '' at the muggins question: taken as "not Y"
        return proper

    def continue_instructions(self) -> bool:
        return False

    def board_demo(self) -> bool:
        return self.demo

    def repeat_demo(self) -> bool:
        return self._once("repeat")

    def reselect(self) -> bool:
        return self._once("reselect")

    def keys_while_drawing(self) -> int:
        return 5 if self._once("keys") else 0

    def cancel_go(self, ctx: PlayContext) -> bool:
        return self._once("cancel")

    def claim(self, true_total: int) -> int:
        return true_total

    def play(self, ctx: PlayContext):
        if ctx.count < 22 and ctx.empty_slots() and self._once("empty"):
            return "empty"
        legal = ctx.legal_slots()
        return self.rng.choice(legal) if legal else "go"


@pytest.fixture(scope="module")
def loaded(loaded_tape):
    return loaded_tape.snapshot


def _deal(loaded, player):
    m = Spectrum48(fast=True)
    m.restore(loaded)
    rec = GameDriver(m, player, seed=SEED, options=DriverOptions(max_deals=1)).play()
    return rec, Counter(e.what for e in rec.events if isinstance(e, Choice))


def test_every_kind_of_the_explorers_choice_is_taken_and_explained(loaded):
    player = EveryChoice(SEED)
    rec, taken = _deal(loaded, player)
    assert player.left == set()                               # each forced choice had its chance
    assert set(taken) == set(ChoiceKind) - {ChoiceKind.SKIP_DEMO}, set(ChoiceKind) - set(taken)
    assert taken[ChoiceKind.CANCEL_GO] == 1 and taken[ChoiceKind.EMPTY_SLOT] == 1 and taken[ChoiceKind.RESELECT] == 1
    assert rec.failure is None and rec.reports == []
    result = compare(rec.events)
    assert result.unexplained == [], result.unexplained[:3]


def test_the_demo_skipped_is_taken_and_explained(loaded):
    rec, taken = _deal(loaded, EveryChoice(SEED, demo=False))
    assert taken[ChoiceKind.SKIP_DEMO] == 1 and ChoiceKind.BOARD_DEMO not in taken
    assert ChoiceKind.REPEAT_DEMO not in taken                # no demo, so no repeat to offer
    assert rec.failure is None and compare(rec.events).unexplained == []
