"""The Spectrum 5-byte number format (harness.spectrum.floats).

Expected bytes come from the ROM itself (its calculator constants table at
0x32C5, and what the 48K ROM stored after literals typed into it), from
the ZX Spectrum manual, or are worked out by hand in the comment.
"""
import checkout
import math
import random
from fractions import Fraction

import pytest

from harness.spectrum.floats import decode, encode, encode_literal

ROM = checkout.ROOT / "roms" / "48.rom"

# (value, bytes, where the bytes come from)
KNOWN = [
    (0, "00 00 00 00 00"),                 # ROM stk-zero
    (1, "00 00 01 00 00"),                 # ROM stk-one; manual: small integer 1
    (-1, "00 ff ff ff 00"),                # manual: sign FF, 65536-1 = FFFF
    (10, "00 00 0a 00 00"),                # ROM stk-ten
    (64600, "00 00 58 fc 00"),             # 64600 = 0xFC58; stored thus after "64600" by the ROM
    (65535, "00 00 ff ff 00"),             # largest small integer
    (-65535, "00 ff 01 00 00"),            # smallest small integer: 65536-65535 = 0001
    (-2, "00 ff fe ff 00"),                # 65536-2 = FFFE
    (7.0, "00 00 07 00 00"),               # integral float -> small form (the ROM stores "7.0" so)
    (0.5, "80 00 00 00 00"),               # ROM stk-half: 0.5 * 2^0, exponent 128
    (-0.5, "80 80 00 00 00"),              # sign bit set in the first mantissa byte
    (2.5, "82 20 00 00 00"),               # 0.625 * 2^2: mantissa A0.. with top bit dropped
    (65536, "91 00 00 00 00"),             # 0.5 * 2^17: too big for the small form
    (-65536, "91 80 00 00 00"),            # not small either (the small form stops at -65535)
    (100000, "91 43 50 00 00"),            # stored thus by the ROM after "100000"
    (1e10, "a2 15 02 f9 00"),              # stored thus by the ROM after "1E10"
    (Fraction(3, 2000), "77 44 9b a5 e3"),  # 0.0015, stored thus by the ROM after "1.5E-3"
    (math.pi / 2, "81 49 0f da a2"),       # ROM stk-pi/2 (compressed F1 49 0F DA A2 at 0x32CE)
    (0.1, "7d 4c cc cc cd"),               # correctly rounded (zmakebas agrees; the ROM gives ...cc)
    (Fraction(3, 10), "7f 19 99 99 9a"),   # correctly rounded (the ROM gives ...99)
]


@pytest.mark.parametrize("value,expected", KNOWN)
def test_encode_known_patterns(value, expected):
    assert encode(value).hex(" ") == expected


@pytest.mark.parametrize("value,expected", KNOWN)
def test_decode_known_patterns(value, expected):
    got = decode(bytes.fromhex(expected))
    if expected.startswith("00"):  # small-integer form decodes to an int
        assert got == value and isinstance(got, int)
    elif float(value) == got:  # exactly representable
        assert isinstance(got, float)
    else:
        assert got == pytest.approx(float(value), rel=2 ** -31)


def test_rom_constants_table_holds_the_compressed_forms():
    rom = ROM.read_bytes()
    # stk-zero, stk-one, stk-half, stk-pi/2, stk-ten as laid out in the ROM disassembly
    assert rom[0x32C5:0x32D7].hex(" ") == ("00 b0 00 "        # stk-zero
                                           "40 b0 00 01 "     # stk-one
                                           "30 00 "           # stk-half
                                           "f1 49 0f da a2 "  # stk-pi/2: exponent 0x31+0x50 = 0x81
                                           "40 b0 00 0a")     # stk-ten


def test_decode_of_the_roms_pi_over_two_is_within_one_ulp():
    assert decode(bytes.fromhex("81490fdaa2")) == pytest.approx(math.pi / 2, abs=2 ** -31)


def test_decoded_floats_are_exact():
    # 81 49 0F DA A2 = 0xC90FDAA2 * 2^(1-32), exactly
    assert Fraction(decode(bytes.fromhex("81490fdaa2"))) == Fraction(0xC90FDAA2, 2 ** 31)


ROUNDING = [
    (1 + Fraction(1, 2 ** 32), "81 00 00 00 00"),   # mantissa 2^31 + 1/2: tie, to even (down)
    (1 + Fraction(3, 2 ** 32), "81 00 00 00 02"),   # 2^31 + 3/2: tie, to even (up)
    (1 + Fraction(3, 2 ** 33), "81 00 00 00 01"),   # 2^31 + 3/4: nearest is +1
    (1 - Fraction(1, 2 ** 34), "81 00 00 00 00"),   # 2^32 - 1/4 rounds to 2^32: carries into exponent
    (Fraction(2 ** 32 - 1, 2 ** 32) * 2 ** 127, "ff 7f ff ff ff"),  # the largest number
    (Fraction(1, 2 ** 128), "01 00 00 00 00"),      # 0.5 * 2^-127: smallest exponent byte
    (Fraction(1, 2 ** 129), "00 00 00 00 00"),      # too small: becomes 0, as in the ROM
]


@pytest.mark.parametrize("value,expected", ROUNDING)
def test_rounding_and_range_edges(value, expected):
    assert encode(value).hex(" ") == expected


def test_too_big_raises_overflow():
    with pytest.raises(OverflowError):
        encode(2 ** 127)


@pytest.mark.parametrize("bad", [math.inf, math.nan, "1"])
def test_non_numbers_are_refused(bad):
    with pytest.raises((ValueError, TypeError)):
        encode(bad)


def test_small_integers_round_trip():
    for n in range(-65535, 65536, 7):
        b = encode(n)
        assert b[0] == 0 and decode(b) == n


def test_representable_floats_round_trip():
    rng = random.Random(1982)
    for _ in range(2000):
        mantissa = rng.randrange(2 ** 31, 2 ** 32)
        exponent = rng.randrange(-127, 128)
        value = math.ldexp(mantissa, exponent - 32)
        if value.is_integer() and abs(value) <= 65535:
            continue
        sign = rng.choice((1, -1))
        assert decode(encode(sign * value)) == sign * value


@pytest.mark.parametrize("bad", ["00 01 05 00 00", "00 00 00 00", "00 00 00 00 00 00"])
def test_decode_refuses_malformed(bad):
    with pytest.raises(ValueError):
        decode(bytes.fromhex(bad))


LITERALS = [
    ("10", "00 00 0a 00 00"),      # small integer
    ("7.0", "00 00 07 00 00"),     # integral value: small form (as the ROM)
    ("1E3", "00 00 e8 03 00"),     # 1000 (as the ROM)
    (".5", "80 00 00 00 00"),      # exact half (the ROM's DEC-TO-FP gives 7F 7F FF FF FF)
    ("0.1", "7d 4c cc cc cd"),     # correctly rounded (the ROM gives 7D 4C CC CC CC)
    ("3.14159265", "82 49 0f da 9e"),  # same as the ROM stores
]


@pytest.mark.parametrize("text,expected", LITERALS)
def test_encode_literal(text, expected):
    assert encode_literal(text).hex(" ") == expected


def test_encode_literal_refuses_non_numbers():
    with pytest.raises(ValueError):
        encode_literal("1.2.3")
