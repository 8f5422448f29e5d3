"""The observer reads each variable as the kind the program model says it is: a number, a numeric array,
a string; another kind is a VariableError naming the variable, never a wrong event. The scripted player
refuses a choice of the wrong kind for the question asked."""
import pytest

from harness.cribbage.cards import parse_cards
from harness.program.observe.observer import Observer
from harness.program.observe.players import ScriptedPlayer
from harness.spectrum.variables import ForLoop, VariableError


class _Variables:
    def __init__(self, **values):
        self.values = values

    def get(self, name):
        return self.values[name]


def observing(**values):
    """An observer of a machine whose variables are *values* (the reads go through `Observer.get`)."""
    observer = Observer.__new__(Observer)
    observer.v = _Variables(**values)
    return observer


def test_a_number_an_array_and_a_string_are_read_as_they_are():
    o = observing(S=7, H=2.5, X=ForLoop(3, 6, 1, 3720, 2), T=[1, 2.5, 0], M="HCDS")
    assert (o.number("S"), o.number("H"), o.number("X"), o.get("X")) == (7, 2.5, 3, 3)
    assert o.numbers("T") == [1, 2.5, 0] and o.text("M") == "HCDS"


@pytest.mark.parametrize("read, value, words", [
    ("number", "7", "S holds '7', not a number"), ("number", [7], "not a number"),
    ("number", True, "not a number"), ("numbers", "12", "not a numeric array"),
    ("numbers", [1, "2"], r"S\[1\] holds '2', not a number"), ("text", 7, "not a string"),
    ("text", ["H"], "not a string"),
])
def test_a_variable_of_another_kind_is_named(read, value, words):
    with pytest.raises(VariableError, match=words):
        getattr(observing(S=value), read)("S")


def test_the_scripted_player_refuses_a_choice_of_the_wrong_kind():
    hand = list(parse_cards("AH 2H 3H 4H 5H 6H"))
    with pytest.raises(TypeError, match="discard is 3, not a pair of slots"):
        ScriptedPlayer([3]).discard(hand, False)
    with pytest.raises(TypeError, match=r"play is \(1, 2\)"):
        ScriptedPlayer([(1, 2)]).play(None)
    with pytest.raises(TypeError, match="muggins claim is 'go'"):
        ScriptedPlayer(["go"]).claim(4)
    script = ScriptedPlayer([(1, 2), "go", 3, 7])
    assert script.discard(hand, False) == (1, 2) and script.play(None) == "go" and script.play(None) == 3
    assert script.claim(4) == 7
