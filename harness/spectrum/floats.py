"""The ZX Spectrum's 5-byte number format.

The ROM stores every number (on the calculator stack, in variables and
hidden after each number literal of a program line) in five bytes:

* small-integer form, for whole numbers -65535..65535:
  ``00 sign lo hi 00`` where sign is 00 (positive) or FF (negative) and
  ``lo hi`` is the number as a 16-bit two's-complement word
  (1 -> ``00 00 01 00 00``, -1 -> ``00 FF FF FF 00``);
* floating-point form, for everything else: an exponent byte ``e + 128``
  and a 4-byte mantissa ``m`` (0.5 <= m < 1, most significant byte first)
  with value ``m * 2**e``; as the top mantissa bit is always 1 it is
  replaced by the sign bit (0.5 -> ``80 00 00 00 00``).

`encode` rounds to the nearest representable value (ties to even).  The
ROM's own decimal-to-float routine (DEC-TO-FP, 0x2C9B) is not always
correctly rounded ("0.1" gives ``7D 4C CC CC CC``, not ``...CD``), so a
program line tokenised with `encode` may differ from one typed into a real
Spectrum in the last mantissa bit; see ``harness.spectrum.basic``.
"""

from __future__ import annotations

import math
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from numbers import Rational

#: what `encode` stores: int, bool, float, Fraction (any Rational) or Decimal
Number = float | Rational | Decimal

__all__ = ["encode", "decode", "encode_literal", "SMALL_INT_MAX"]

#: Largest magnitude stored in small-integer form.
SMALL_INT_MAX = 65535

_MANTISSA_BITS = 32


def _exact(x: object) -> Fraction:
    """Turn *x* into an exact Fraction; reject NaN/infinity and non-numbers."""
    if isinstance(x, bool):
        return Fraction(int(x))
    if isinstance(x, float):
        if not math.isfinite(x):
            raise ValueError(f"cannot encode {x!r}: not a finite number")
        return Fraction(x)
    if isinstance(x, (int, Rational, Decimal)):
        return Fraction(x)
    raise TypeError(f"cannot encode {x!r}: not a number")


def encode(x: Number) -> bytes:
    """Encode a number (int, float, Fraction or Decimal) as the ROM stores it.

    Whole numbers in -65535..65535 use the small-integer form (as the ROM
    does, also for values like 7.0 or 1E3); anything else is rounded to the
    nearest 32-bit mantissa.  Magnitudes too small for the exponent byte
    become 0, as in the ROM; too large ones raise OverflowError (the ROM's
    report 6 "Number too big").
    """
    q = _exact(x)
    if q.denominator == 1 and -SMALL_INT_MAX <= q <= SMALL_INT_MAX:
        n = int(q)
        word = n & 0xFFFF
        return bytes((0, 0xFF if n < 0 else 0, word & 0xFF, word >> 8, 0))
    negative = q < 0
    a = -q if negative else q
    # Find e with 2**(e-1) <= a < 2**e, so that a / 2**e is in [0.5, 1).
    e = a.numerator.bit_length() - a.denominator.bit_length()
    while a >= Fraction(2) ** e:
        e += 1
    while a < Fraction(2) ** (e - 1):
        e -= 1
    mantissa = round(a * Fraction(2) ** (_MANTISSA_BITS - e))  # ties to even
    if mantissa == 1 << _MANTISSA_BITS:  # rounding carried into a new bit
        mantissa >>= 1
        e += 1
    exponent = e + 128
    if exponent > 0xFF:
        raise OverflowError(f"{_short(x)} is too big for the Spectrum (report 6)")
    if exponent < 1:
        return bytes(5)
    mantissa &= 0x7FFFFFFF
    first = (mantissa >> 24) | (0x80 if negative else 0)
    return bytes((exponent, first, (mantissa >> 16) & 0xFF,
                  (mantissa >> 8) & 0xFF, mantissa & 0xFF))


def decode(b: bytes) -> int | float:
    """Decode 5 bytes exactly: an int for the small-integer form, else a float.

    A 32-bit mantissa always fits a Python float, so the result is exact.
    The fifth byte of the small-integer form is ignored, as the ROM does.
    """
    b = bytes(b)
    if len(b) != 5:
        raise ValueError(f"a Spectrum number is 5 bytes, got {len(b)}: {b.hex(' ')}")
    if b[0] == 0:
        word = b[2] | (b[3] << 8)
        if b[1] == 0x00:
            return word
        if b[1] == 0xFF:
            return word - 0x10000
        raise ValueError(f"small-integer form needs sign byte 00 or FF: {b.hex(' ')}")
    mantissa = ((b[1] | 0x80) << 24) | (b[2] << 16) | (b[3] << 8) | b[4]
    value = math.ldexp(mantissa, b[0] - 128 - _MANTISSA_BITS)
    return -value if b[1] & 0x80 else value


def encode_literal(text: str) -> bytes:
    """Encode a decimal literal as written in a program ("10", ".5", "1E3").

    Uses the exact decimal value (not a Python float first), so the result
    is the correctly rounded number; the ROM's DEC-TO-FP may differ.
    """
    try:
        value = Decimal(text.strip())       # no digit limit (int(str) stops at 4,300 digits), and no power yet
    except InvalidOperation:
        raise ValueError(f"not a number literal: {_short(text)}") from None
    if not value.is_finite():
        raise ValueError(f"not a number literal: {_short(text)}")
    if value and value.adjusted() > 38:     # 10**39 and more: past the largest, about 1.7E38, whatever the digits
        raise OverflowError(f"about 1E{value.adjusted()}: too big for the "
                            f"Spectrum (report 6)")
    if value and value.adjusted() < -60:    # below the smallest, about 2.9E-39: 0, as in the ROM
        return encode(0)
    return encode(value)


def _short(x: object, limit: int = 40) -> str:
    """*x* as an error quotes it: at most *limit* characters and its length (a literal may be 5,000 digits)."""
    text = x if isinstance(x, str) else str(x)
    shown = repr(text[:limit]) if isinstance(x, str) else text[:limit]
    return shown if len(text) <= limit else f"{shown}... ({len(text):,} characters)"
