"""A transcript replayed by the engine (Game.replay) is read with checks: a field of the wrong kind is an
IllegalAction naming it, where it was a TypeError somewhere inside (or a silently wrong card) before."""
import pytest

from harness.cribbage import Game, IllegalAction, replay

DEAL = {"dealer": 0, "hands": ["QS 9H 9D 8H 7S TC", "JH TS 8C 7D 5C 3D"], "discards": ["QS 9H", "TS 3D"],
        "starter": "6S", "plays": ["8C", "7S", "7D", "9D", "JH", "8H", "5C", "go", "TC"], "claims": [None, None, None]}


def test_a_whole_transcript_replays_as_a_list_of_deals_or_one_deal():
    one = Game(dealer=0).replay(DEAL)
    _, many = replay({"deals": [DEAL]})
    assert [s.action for s in one] == [s.action for s in many] and one[-1].action.startswith("show")
    hands_as_lists = {**DEAL, "hands": [h.split() for h in DEAL["hands"]], "plays": [*DEAL["plays"]]}
    assert [s.action for s in Game(dealer=0).replay(hands_as_lists)] == [s.action for s in one]   # the near miss


@pytest.mark.parametrize("field,value,words", [
    ("hands", "QS 9H", "hands is not a list"),
    ("discards", [["QS", 9.5], "TS 3D"], "discards has 9.5, not a card"),
    ("starter", ["6S"], "starter has \\['6S'\\], not a card"),
    ("plays", [None], "plays has None, not a card"),
    ("dealer", "0", "dealer has '0', not a whole number"),
    ("claims", [1.5, None, None], "claims has 1.5, not a whole number"),
])
def test_a_field_of_the_wrong_kind_is_named(field, value, words):
    with pytest.raises(IllegalAction, match=f"transcript: {words}"):
        Game().replay({**DEAL, field: value})


def test_a_deal_that_is_not_an_object_is_named():
    with pytest.raises(IllegalAction, match="a deal is not an object"):
        Game().replay({"deals": [DEAL, ["QS"]]})
