"""The English edition's check sees a change planted outside the texts (a build of each edition)."""
from __future__ import annotations

import checkout
import sys

import pytest

from harness.program.model import build as build_mod
from harness.spectrum.basic import split_program

ROOT = checkout.ROOT
sys.path.insert(0, str(ROOT))


@pytest.fixture(scope="module")
def editions(build_of) -> dict[str, build_mod.Build]:
    """The run's one build of each edition (tests/conftest.py); the build command is run below."""
    return {lang: build_of(lang) for lang in ("ru", "en")}


# ---------------------------------------------------------------- an independent scan of the bytes
def literal_mask(body: bytes) -> list[bool]:
    """True for every byte of a line body inside a string literal or a REM's text (quotes excluded)."""
    mask = [False] * len(body)
    in_string = False
    i = 0
    while i < len(body) - 1:
        b = body[i]
        if in_string:
            if b == 0x22:
                in_string = False
            else:
                mask[i] = True
        elif b == 0x22:
            in_string = True
        elif b == 0xEA:                       # REM: the rest of the line but its 0x0D
            for k in range(i + 1, len(body) - 1):
                mask[k] = True
            break
        elif b == 0x0E:                       # a hidden number: 5 bytes that may look like anything
            i += 5
        i += 1
    return mask


def differences_outside_literals(ru: bytes, en: bytes) -> list[str]:
    """Where two program areas differ other than inside strings and REMs (empty if nowhere)."""
    a, b = split_program(ru), split_program(en)
    if [n for n, _ in a] != [n for n, _ in b]:
        return ["the line numbers differ"]
    found = []
    for (number, x), (_, y) in zip(a, b):
        if len(x) != len(y):
            found.append(f"line {number}: {len(x)} bytes, {len(y)} in the English")
            continue
        mask_x, mask_y = literal_mask(x), literal_mask(y)
        found += [f"line {number} byte {i}: {x[i]:#04x} -> {y[i]:#04x}"
                  for i in range(len(x)) if (x[i] != y[i] or mask_x[i] != mask_y[i]) and not (mask_x[i] and mask_y[i])]
    return found


def test_the_check_sees_a_planted_change_outside_the_texts(editions):
    ru, en = editions["ru"].program, bytearray(editions["en"].program)
    at = en.index(bytes([0xED]) + b"9900")                            # line 4: GO SUB 9900
    en[at + 1] = ord("8")                                             # GO SUB 8900: a code change
    found = differences_outside_literals(ru, bytes(en))
    assert len(found) == 1 and found[0].startswith("line 4 byte ") and found[0].endswith("0x39 -> 0x38")
    near = bytearray(editions["en"].program)
    near[near.index(b"TOTAL = ")] = ord("X")                          # inside a string: allowed
    assert differences_outside_literals(ru, bytes(near)) == []
