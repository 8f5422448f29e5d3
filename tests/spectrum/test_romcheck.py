"""The ROM's own DEC-TO-FP and line entry, run in the embedded machine, judge the tokeniser."""
import pytest

from harness.spectrum.basic import tokenise_program
from harness.spectrum.romcheck import RomNumberEncoder, enter_program


@pytest.fixture(scope="module")
def rom_numbers():
    return RomNumberEncoder()


# Five-byte forms as the 48K ROM produces them (small integers exact; decimals as DEC-TO-FP computes
# them, which is not always the correctly rounded value -- see "The Complete Spectrum ROM Disassembly").
ROM_FORMS = [
    ("1", "00 00 01 00 00"),        # small integer form
    ("64600", "00 00 58 fc 00"),    # 64600 = 0xFC58, small integer form
    ("65536", "91 00 00 00 00"),    # too big for the small form: 2^16
    ("1.5", "81 40 00 00 00"),      # exact binary fraction
    ("12.5", "84 48 00 00 00"),
]


@pytest.mark.parametrize("text,expected", ROM_FORMS)
def test_rom_conversion_of_exact_literals(rom_numbers, text, expected):
    assert rom_numbers(text).hex(" ") == expected


def test_rom_conversion_differs_from_correct_rounding_where_the_rom_truncates(rom_numbers):
    # 0.1 correctly rounded has mantissa ...cd; DEC-TO-FP's repeated division leaves ...cc.
    assert rom_numbers(".1").hex(" ") == "7d 4c cc cc cc"
    # .25 is not even exact: DEC-TO-FP computes 2 * (1/10) + 5 * (1/100) in its own 5-byte arithmetic.
    assert rom_numbers(".25").hex(" ") == "7e 7f ff ff ff"


def test_bench_program_and_def_fn_are_stored_byte_identical_by_the_rom(rom_numbers):
    src = (
        "10 DIM A(52): LET S=0\n"
        "60 DEF FN T(X)=(X>9)*10+(X<10)*X\n"
        "70 DEF FN S(X)=10*(X-INT (X))\n"
        "7365 FOR Y=.1 TO .4 STEP .1: REM (R=L)\n"
        '9010 PRINT AT 7,8; FLASH 1;"HI";AT 0,0;: IF INKEY$<>" " THEN GO TO 9010\n'
    )
    verdicts, m = enter_program(tokenise_program(src, number_encoder=rom_numbers))
    assert [v.number for v in verdicts] == [10, 60, 70, 7365, 9010]
    for v in verdicts:
        assert v.accepted and v.identical, (v.number, v.expected.hex(" "), v.stored)


def test_a_line_the_rom_rejects_is_reported_not_stored(rom_numbers):
    prog = tokenise_program('10 PRINT AT 2,28 "E"\n20 PRINT 1\n', number_encoder=rom_numbers)
    verdicts, m = enter_program(prog)
    assert [(v.number, v.accepted) for v in verdicts] == [(10, False), (20, True)]
    assert verdicts[0].stored is None and verdicts[0].error_offset is not None
