"""Screen detectors that fire: faults planted in the pictures of a real game (the golden game's transcript,
tests/data/golden/transcript.jsonl) are each caught as their own kind of screen difference, and near-misses
(a picture half drawn, the instructions' text over the computer's hand, the pointer and «ВАШ ХОД?» under the
hand) are not. No emulator: the pictures are as the observer recorded them."""
import dataclasses

import pytest

from harness.program.judge.compare import compare
from harness.program.records.events import Choice, ChoiceKind, Picture
from harness.program.judge.judgements import Cause

from screen_faults import EVENTS, pictures, planted   # the golden game's events, and a picture changed


def _where(d):
    """The slot, line or place a screen difference's facts name."""
    f = d.facts
    return getattr(f, "slot", None) or getattr(f, "line", None) or getattr(f, "place", None) or ""


def screen(events):
    return [d for d in compare(events).differences if d.kind == "screen"]


def new_ones(events):
    """The screen differences the planting added (the real game's own are all D12's)."""
    return [d for d in screen(events) if d.deviation is None]


def test_the_real_game_is_judged_at_every_wait_and_only_its_documented_quirk_differs():
    result = compare(EVENTS)
    waits = sum(1 for e in EVENTS if isinstance(e, Picture))
    # every wait but the first game's muggins question (7405: nothing drawn yet, the lower screen is the ROM's)
    assert waits == 88 and result.pictures == waits - 1 and result.screen_checks > 1500
    assert {d.deviation for d in result.screen_differences} == {"D12"}
    assert result.unexplained == []


PLAY = pictures("select 2720", ("hand 1", "laid player 1", "starter"))[0]
DISCARD = pictures("select 7860", ("hand 1",))[0]
SECOND = pictures("select 7870")[0]
SHOW = pictures("pause 4661")[0]
FINAL = pictures("pause 8270")[0]


def _slot(index, name):
    return EVENTS[index].slots[name]


@pytest.mark.parametrize("fault,index,changes,cause,where", [
    ("wrong suit", PLAY, {"slots": {"hand 1": _slot(PLAY, "hand 1").replace("D ", "H ")}}, "screen card", "hand 1"),
    ("wrong rank", PLAY, {"slots": {"starter": "up 8S 7/0"}}, "screen card", "starter"),
    ("face down, should be up", PLAY, {"slots": {"hand 2": "down"}}, "screen face", "hand 2"),
    ("card gone", SHOW, {"slots": {"shown 3": None}}, "screen face", "shown 3"),
    ("the computer's hand face up", DISCARD, {"slots": {"computer 1": "up 3C 7/0"}}, "screen face", "computer 1"),
    ("the first discard face up", SECOND, {"slots": {
        f"hand {EVENTS[SECOND].variables['chosen'][2]}":
            "up " + EVENTS[SECOND].variables["hand"][EVENTS[SECOND].variables["chosen"][2] - 1] + " 7/0"}},
     "screen face", "hand"),
    ("INK stored as PAPER", PLAY, {"slots": {"hand 1": _slot(PLAY, "hand 1").replace("7/2", "2/0")}},
     "screen colour", "hand 1"),
    ("black suit in red", PLAY, {"slots": {"hand 2": _slot(PLAY, "hand 2").replace("7/0", "7/2")}},
     "screen colour", "hand 2"),
    ("a card laid still in the hand", PLAY, {"slots": {"hand 4": "up JC 7/0"}}, "screen left", "hand 4"),
    ("a card left on the table", PLAY, {"slots": {"laid player 3": "up 4H 7/2"}}, "screen left", "laid player 3"),
    ("stale text on the table", PLAY, {"rows": {"table 14:2": "СЧЕТ:"}}, "screen stale", "table 14:2"),
    ("stale message", PLAY, {"rows": {"message": "ВЫБЕРИТЕ 2 КАРТЫ"}}, "screen line", "message"),
    ("wrong dealer named", DISCARD, {"rows": {"line 22": "Я СДАЮ" if EVENTS[DISCARD].rows["line 22"] != "Я СДАЮ"
                                              else "ВЫ СДАЕТЕ"}}, "screen line", "line 22"),
    ("figures one off", FINAL, {"rows": {"figures": EVENTS[FINAL].rows["figures"][:-1] + "9"}}, "screen line",
     "figures"),
    ("no winner's flag", FINAL, {"flag": False}, "screen line", "flag"),
])
def test_a_planted_screen_fault_is_caught_as_its_kind(fault, index, changes, cause, where):
    found = new_ones(planted(index, **changes))
    assert found, fault
    assert {d.cause.value for d in found} == {cause}, (fault, found)
    assert all(where in _where(d) for d in found)
    assert all(d.at == index for d in found)


def _peg_picture():
    return next(i for i in pictures("select 2720") if len(EVENTS[i].pegs.get("player", [])) == 2)


def test_a_peg_one_hole_off_is_caught_and_the_right_holes_are_not():
    i = _peg_picture()
    holes = EVENTS[i].pegs["player"]
    assert new_ones(planted(i, pegs={"player": [holes[0], holes[1] + 1]})) != []
    found = new_ones(planted(i, pegs={"player": [holes[0], holes[1] + 1]}))
    assert [(d.cause.value, d.who, d.expected, d.observed) for d in found] == [
        ("screen pegs", "player", holes, [holes[0], holes[1] + 1])]
    assert new_ones(planted(i, pegs={"player": list(reversed(holes))})) == []     # the same holes, read in any order
    assert new_ones(planted(i, pegs={"computer": EVENTS[i].pegs["computer"] + [0]}))   # a blot in a peg column


def test_the_hand_on_screen_must_be_the_hand_kept():
    """Slot and variable agree, but the card is not one the player kept (the engine's hand): caught."""
    i = PLAY
    v = dict(EVENTS[i].variables)
    hand = list(v["hand"])
    hand[0] = "KH"
    found = new_ones(planted(i, slots={"hand 1": "up KH 7/2"}, variables={"hand": hand}))
    assert [d.cause.value for d in found] == ["screen deal"]


# ------------------------------------------------------------------ near-misses
def test_a_picture_half_drawn_is_not_judged_but_the_same_at_a_wait_is():
    half = {"slots": {"hand 1": "other 2  |♦  |   |   |   "}}        # 5440 ran, 5450-5460 not yet
    assert new_ones(planted(PLAY, drawing=True, **half)) == []
    assert [d.cause.value for d in new_ones(planted(PLAY, **half))] == ["screen face"]


def test_the_pointer_and_the_go_prompt_under_the_hand_are_not_stale():
    assert new_ones(planted(PLAY, rows={"table 21:1": "▒", "table 21:8": "ВАШ ХОД?"})) == []
    # ... but the same text at the cut for deal is
    cut = pictures("inkey 4925")[0]
    assert [d.cause.value for d in new_ones(planted(cut, rows={"table 21:8": "ВАШ ХОД?"}))] == ["screen stale"]


def test_the_instructions_text_over_the_computers_hand_is_not_a_difference():
    v = {"instructions": True}
    over = {"computer 1": "other    |   |ОЧК|КОМ|15 ", "computer 2": "other    |   |И Н|НАЦ|БАЛ"}
    assert new_ones(planted(DISCARD, slots=over, variables=v)) == []
    assert new_ones(planted(DISCARD, slots={"computer 3": "up 5C 7/0"}, variables=v))   # never face up, though


def test_a_go_remnant_beside_the_count_is_d12_and_other_leftovers_are_not():
    i = PLAY
    def tail(**rows):
        return [d.deviation for d in screen(planted(i, rows=rows)) if d.at == i]
    assert tail(**{"table 6:10": "0 Д!"}) == ["D12"]                       # « 0 » over « ХОД! »
    assert tail(**{"table 6:10": "10 !"}) == ["D12"]                       # « 10 » over it
    assert tail(**{"table 6:10": "0"}) == []                               # the count's points alone
    assert tail(**{"table 6:10": "ХОД!"}) == []                            # « ХОД! » itself
    assert tail(**{"table 6:10": "0 Х!"}) == [None]                        # not what « n » leaves of « ХОД! »
    assert tail(**{"table 6:10": "0 Д!", "table 6:16": "Д"}) == ["D12", None]   # and a letter past 14


def test_a_discard_taken_back_face_down_is_d11_only_after_a_reselect():
    i = SECOND
    first = EVENTS[i].variables["chosen"][2]
    other = next(k for k in range(1, 7) if k != first)
    v = dict(EVENTS[i].variables)
    # the player took card *other* back (7885) and then chose *first*: *other* is still drawn face down
    back = EVENTS[:i] + [Choice(what=ChoiceKind.RESELECT, slot=other)]
    pic0 = dataclasses.replace(EVENTS[DISCARD], variables={**EVENTS[DISCARD].variables,
                                                            "chosen": v["chosen"][:2] + [other, 0]},
                               slots={**EVENTS[DISCARD].slots, f"hand {other}": "down"})
    pic = dataclasses.replace(EVENTS[i], slots={**EVENTS[i].slots, f"hand {other}": "down"})
    events = back + [pic0, pic] + EVENTS[i + 1:]
    found = [d for d in screen(events) if getattr(d.facts, "slot", None) == f"hand {other}"]
    assert found and all(d.deviation == "D11" for d in found)
    # the same picture with no card taken back: an unexplained face-down card
    plain = [d for d in screen(EVENTS[:i] + [pic] + EVENTS[i + 1:]) if getattr(d.facts, "slot", None) == f"hand {other}"]
    assert plain and all(d.deviation is None for d in plain)


def test_every_new_screen_cause_has_a_planted_case():
    planted_causes = {"screen card", "screen face", "screen colour", "screen stale", "screen line", "screen pegs",
                      "screen deal", "screen left"}
    assert {c.value for c in Cause if c.value.startswith("screen ") and c.value not in
            ("screen check unknown", "screen board", "screen count", "screen hand", "screen show",
             "screen tally")} == planted_causes
