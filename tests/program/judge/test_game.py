"""The BASIC game played end to end on the embedded Spectrum, every score checked against the engine."""
import dataclasses

import pytest

from harness.cribbage.cards import parse_card, parse_cards
from harness.program.judge.compare import compare
from harness.program.observe.driver import Rig
from harness.program.records.events import Choice, ChoiceKind, Message, Play, Refused, Score, Show
from harness.program.observe.players import RandomPlayer, ScriptedPlayer
from helpers import play_from, scores_of


@pytest.fixture(scope="module")
def example_deal(loaded_tape):
    # «СДАТЧИК: ПК Б9 Т9 Б8 П7 ЧТ  ПРОТИВНИК: БВ П10 Ч8 Т7 Ч5 Т3», the pone throws 10-3, the dealer K-A,
    # starter П6. The computer deals; the player (pone) plays as the article: 8, 7, J, 5.
    rig = Rig(computer=list(parse_cards("KS 9D 9C 8D 7S AH")), player=list(parse_cards("JD TS 8H 7C 5H 3C")),
              starter=parse_card("6S"), dealer="computer")
    return play_from(loaded_tape.snapshot, ScriptedPlayer([(1, 5), 3, 2, 4, 1]), seed=5, rig=rig, max_deals=1)[1]


def test_the_articles_example_deal(example_deal):
    rec = example_deal
    plays = [(e.who, e.card) for e in rec.events if isinstance(e, Play)]
    # the article: 8 («Восемь»), 7 (15 - 2), 7 (22, pair - 2), 9D (31 - 2), J, 9, 5 (24), go, 8 (last card)
    assert plays == [("player", "8H"), ("computer", "7S"), ("player", "7C"), ("computer", "9D"),
                     ("player", "JD"), ("computer", "9C"), ("player", "5H"), ("computer", "8D")]
    assert scores_of(rec, "play") == [("computer", 2), ("player", 2), ("computer", 2)]
    assert scores_of(rec, "go") == [("player", 1), ("computer", 1)]
    # the show: «ПРОТИВНИК ... Итого: 8 очков», the dealer's 16, the crib «нет ни одного очка»
    assert scores_of(rec, "show") == [("player", 8), ("computer", 16)]
    shows = {e.hand: e for e in rec.events if isinstance(e, Show)}
    assert (shows["player"].fifteens, shows["player"].runs) == (4, 4)
    assert sum(getattr(shows["crib"], k) for k in ("fifteens", "pairs", "runs", "flush", "nobs")) == 0
    # what the program adds: each go/31 pegged a second time at the count reset (deviation D1)
    assert scores_of(rec, "reset") == [("computer", 2), ("player", 1), ("computer", 1)]
    result = compare(rec.events)
    assert result.unexplained == []
    assert [d.deviation for d in result.documented] == ["D1", "D1", "D1"]


def test_instructions_and_the_board_demo(loaded_tape):
    driver, rec = play_from(loaded_tape.snapshot, RandomPlayer(seed=2, instructions=True), seed=2, max_deals=1)
    assert Choice(what=ChoiceKind.BOARD_DEMO) in rec.events
    assert any(isinstance(e, Score) and e.context == "demo" for e in rec.events)
    assert rec.deals == 1 and rec.reports == [] and rec.failure is None
    assert compare(rec.events).unexplained == []


def test_the_comparison_catches_a_score_the_rules_do_not_give(example_deal):
    """Tamper with what the program pegged: each change must surface as an unexplained difference."""
    for kind in ("play", "show", "go", "reset"):      # a reset peg changed is no longer the repeat of D1
        events = list(example_deal.events)
        i = next(i for i, e in enumerate(events) if isinstance(e, Score) and e.context == kind)
        events[i] = dataclasses.replace(events[i], points=events[i].points + 1)
        kinds = [d.kind for d in compare(events).unexplained]
        assert kinds[:1] == [kind], kind          # (a changed go also breaks D1's repeat at the reset)
    # a card the engine says cannot be refused
    events = list(example_deal.events)
    events.insert(10, Refused(who="player", card="5H", count=8))
    assert [d.kind for d in compare(events).unexplained] == ["legality"]


class IllegalOnce(RandomPlayer):
    """Discards the kings, then lays a card past 31 the first time it holds one."""

    def discard(self, hand, my_crib):
        return 5, 6

    def play(self, ctx):
        illegal = [i + 1 for i, c in enumerate(ctx.slots) if c is not None and c.value + ctx.count > 31]
        if illegal and not getattr(self, "tried", False):
            self.tried = True
            return illegal[0]
        return super().play(ctx)


def test_an_illegal_card_is_refused_with_the_programs_message(loaded_tape):
    # The player holds four tens: after two of them and the computer's small cards, a third passes 31.
    rig = Rig(computer=list(parse_cards("AH AC AD 2H 2C 2D")), player=list(parse_cards("TH TC TD TS KH KC")),
              starter=parse_card("3S"), dealer="computer")
    driver, rec = play_from(loaded_tape.snapshot, IllegalOnce(seed=9), seed=9, rig=rig, max_deals=1)
    refused = [e for e in rec.events if isinstance(e, Refused)]
    assert len(refused) == 1 and refused[0].card in ("TH", "TC", "TD", "TS")
    assert refused[0].count + 10 > 31
    messages = [e.text for e in rec.events if isinstance(e, Message)]
    assert messages == ["СУММА ДОЛЖНА БЫТЬ МЕНЬШЕ 32"]
    assert compare(rec.events).unexplained == []
