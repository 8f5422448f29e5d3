"""The picture's records by hand (issue 36, item 2): a slot's code as transcripts hold it and back, and the
engine's name of a card read from the screen. (Reading the cells themselves needs a machine's memory:
tests/test_picture.py, on the real machine.)"""
import pytest

from harness.program.observe.picture import SlotView, engine_card


@pytest.mark.parametrize("view, code", [
    (SlotView("up", "5H", 7, 2), "up 5H 7/2"),
    (SlotView("up", "TS", -1, 0), "up TS -1/0"),            # cells of two papers
    (SlotView("down"), "down"),
    (SlotView("empty"), "empty"),
    (SlotView("other", text="   |ОЧК|15 "), "other    |ОЧК|15 "),
])
def test_a_slot_code_and_back(view, code):
    assert view.code() == code
    assert SlotView.parse(code) == view


def test_a_code_parsed_is_typed():
    v = SlotView.parse("up KD 7/2")
    assert (v.state, v.card, v.paper, v.ink, v.text) == ("up", "KD", 7, 2, None)
    assert SlotView.parse("other a b") == SlotView("other", text="a b")       # the text keeps its spaces
    assert SlotView.parse("down") == SlotView("down", None, None, None, None)


@pytest.mark.parametrize("rank, suit, card", [(1, 1, "AH"), (13, 4, "KS"), (10, 2, "TC"), (5, 3, "5D"),
                                              (11, 1, "JH"), (12, 4, "QS")])
def test_the_engines_card_of_a_rank_and_an_s_suit(rank, suit, card):
    assert engine_card(rank, suit) == card
