"""A subroutine's outputs: a number by `output`, a numeric array of one dimension by `output_array`; anything
else under an array's name is a MachineError naming it."""
import pytest

from harness.errors import MachineError
from harness.program.model.subroutine import Subroutine


class _Variables:
    def __init__(self, **values):
        self.values = values

    def get(self, name):
        return self.values[name]

    def number(self, name):
        return self.values[name]


def _routine(**values):
    sub = Subroutine.__new__(Subroutine)
    sub.v = _Variables(**values)
    return sub


def test_an_array_is_read_whole_and_a_number_alone():
    sub = _routine(**{"T()": [2, 5.5], "S": 4})
    assert sub.output_array("T()") == [2, 5.5] and sub.output("S") == 4


@pytest.mark.parametrize("value", ["AB", [1, "2"], [[1, 2], [3, 4]], 7, [True]])
def test_an_array_of_another_kind_is_named(value):
    with pytest.raises(MachineError, match=r"T\(\) is not a numeric array of one dimension"):
        _routine(**{"T()": value}).output_array("T()")
