"""The observer reads each variable as the kind the program model says it is: a number, a numeric array,
a string; another kind is a VariableError naming the variable, never a wrong event. The scripted player
refuses a choice of the wrong kind for the question asked."""
import pytest

from harness.cribbage.cards import parse_cards
from harness.program.observe import observer as O
from harness.program.observe.players import ScriptedPlayer
from harness.spectrum.variables import ForLoop, VariableError


def test_a_number_an_array_and_a_string_are_read_as_they_are():
    assert O._number("S", 7) == 7 and O._number("S", 2.5) == 2.5
    assert O._numbers("S()", [1, 2.5, 0]) == [1, 2.5, 0]
    assert O._text("A$()", "HCDS") == "HCDS"


@pytest.mark.parametrize("read, value, words", [
    (O._number, "7", "S holds '7', not a number"), (O._number, [7], "not a number"),
    (O._number, True, "not a number"), (O._numbers, "12", "not a numeric array"),
    (O._numbers, [1, "2"], r"S\[1\] holds '2', not a number"), (O._text, 7, "not a string"),
    (O._text, ["H"], "not a string"),
])
def test_a_variable_of_another_kind_is_named(read, value, words):
    with pytest.raises(VariableError, match=words):
        read("S", value)


class _Variables:
    def __init__(self, **values):
        self.values = values

    def get(self, name):
        return self.values[name]


def test_the_observer_reads_a_for_variables_value():
    observer = O.Observer.__new__(O.Observer)
    observer.v = _Variables(X=ForLoop(3, 6, 1, 3720, 2), T=[1, 2], M="Y")
    assert observer.get("X") == 3 and observer.number("X") == 3
    assert observer.numbers("T") == [1, 2] and observer.text("M") == "Y"
    with pytest.raises(VariableError, match="T holds"):
        observer.number("T")


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
