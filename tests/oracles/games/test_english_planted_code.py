"""The English edition's check sees a change planted outside the texts (a build of each edition)."""
from __future__ import annotations

from helpers import differences_outside_literals


def test_the_check_sees_a_planted_change_outside_the_texts(editions):
    ru, en = editions["ru"].program, bytearray(editions["en"].program)
    at = en.index(bytes([0xED]) + b"9900")                            # line 4: GO SUB 9900
    en[at + 1] = ord("8")                                             # GO SUB 8900: a code change
    found = differences_outside_literals(ru, bytes(en))
    assert len(found) == 1 and found[0].startswith("line 4 byte ") and found[0].endswith("0x39 -> 0x38")
    near = bytearray(editions["en"].program)
    near[near.index(b"TOTAL = ")] = ord("X")                          # inside a string: allowed
    assert differences_outside_literals(ru, bytes(near)) == []
