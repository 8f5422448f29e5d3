"""The keyboard matrix checked against the documented hardware map (ZX Spectrum manual, ch. 23), not the code's table."""
import pytest

from harness.errors import InputError
from harness.spectrum.keyboard import Keyboard, key_name, parse_combo

# port, key, bit -- from the manual's table of IN 65278 ... IN 32766
DOCUMENTED = [
    (0xFEFE, "CAPS SHIFT", 0), (0xFEFE, "V", 4),
    (0xFDFE, "A", 0), (0xFDFE, "G", 4),
    (0xFBFE, "Q", 0), (0xFBFE, "T", 4),
    (0xF7FE, "1", 0), (0xF7FE, "5", 4),
    (0xEFFE, "0", 0), (0xEFFE, "6", 4),
    (0xDFFE, "P", 0), (0xDFFE, "Y", 4),
    (0xBFFE, "ENTER", 0), (0xBFFE, "H", 4),
    (0x7FFE, "SPACE", 0), (0x7FFE, "SYMBOL SHIFT", 1), (0x7FFE, "B", 4),
]


@pytest.mark.parametrize("port,key,bit", DOCUMENTED)
def test_key_pulls_its_bit_low_on_its_half_row_only(port, key, bit):
    kb = Keyboard()
    kb.press(key)
    assert kb.read(port) == 0x1F & ~(1 << bit)
    for other in (0xFEFE, 0xFDFE, 0xFBFE, 0xF7FE, 0xEFFE, 0xDFFE, 0xBFFE, 0x7FFE):
        if other != port:
            assert kb.read(other) == 0x1F


def test_a_read_selecting_several_rows_ands_them():
    kb = Keyboard()
    kb.press("Q")      # 0xFBFE bit 0
    kb.press("M")      # 0x7FFE bit 2
    assert kb.read(0x00FE) == 0x1F & ~1 & ~4
    assert kb.read(0x7BFE) == 0x1F & ~1 & ~4   # A10 and A15 low
    kb.release("Q")
    assert kb.read(0x00FE) == 0x1F & ~4


def test_forty_keys():
    names = {key_name(k) for k in "1234567890QWERTYUIOPASDFGHJKLZXCVBNM"}
    names |= {key_name(k) for k in ("ENTER", "SPACE", "CAPS SHIFT", "SYMBOL SHIFT")}
    assert len(names) == 40


def test_combinations_and_aliases():
    assert parse_combo("caps shift+2") == {"CAPS SHIFT", "2"}
    assert parse_combo("SS+p") == {"SYMBOL SHIFT", "P"}
    assert parse_combo(["symbol", "enter"]) == {"SYMBOL SHIFT", "ENTER"}


def test_a_wrong_key_name_is_an_error_naming_it():
    with pytest.raises(InputError, match="'F1'"):
        key_name("F1")
    with pytest.raises(InputError):
        parse_combo("CAPS SHIFT+")
