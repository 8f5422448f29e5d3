"""conformance.Known.explains by hand (issue 51): a documented disagreement explains only its own page, field,
lone core and opcodes, a repeating one only while the instruction repeats, a register only within its mask
(one bit outside is unexplained), a field that is not a register whatever the values. Expected verdicts written
out here; no core is run (beside the conformance oracle's tests, whose module it tests)."""
from __future__ import annotations

from harness.oracle.conformance import Known

BIT = Known("SkoolKit", "CB", frozenset((0x46,)), "f", 0x28, "bits 3 and 5")
REPEAT = Known("z80", "ED", frozenset((0xB0,)), "f", 0x28, "repeat", True, True)
WZ = Known("z80", "ED", frozenset((0xA2,)), "wz", 0xFFFF, "memptr", True)      # every bit: any value
PORTS = Known("z80", "ED", frozenset((0xA2,)), "ports", 0, "port writes", True)   # not a register
SP = Known("z80", "ED", frozenset((0xA2,)), "sp", 0x0001, "a word", True)


def _values(lone: str, mine: int, others: int) -> dict[str, object]:
    cores = ("z80", "z80-python", "SkoolKit")
    return {c: (mine if c == lone else others) for c in cores}


def test_its_own_disagreement_is_explained_within_the_mask():
    assert BIT.explains("CB", 0x46, "f", "SkoolKit", _values("SkoolKit", 0x28, 0x00))
    assert not BIT.explains("CB", 0x46, "f", "SkoolKit", _values("SkoolKit", 0x29, 0x00))    # C too
    assert SP.explains("ED", 0xA2, "sp", "z80", _values("z80", 0x8001, 0x8000))              # a word register
    assert not SP.explains("ED", 0xA2, "sp", "z80", _values("z80", 0x8002, 0x8000))


def test_another_page_field_core_or_opcode_is_not_explained():
    v = _values("SkoolKit", 0x28, 0x00)
    assert not BIT.explains("ED", 0x46, "f", "SkoolKit", v)
    assert not BIT.explains("CB", 0x46, "a", "SkoolKit", v)
    assert not BIT.explains("CB", 0x46, "f", "z80", _values("z80", 0x28, 0x00))
    assert not BIT.explains("CB", 0x4E, "f", "SkoolKit", v)          # the page, field and core right, the opcode not


def test_a_repeating_disagreement_only_while_it_repeats():
    v = _values("z80", 0x28, 0x00)
    assert REPEAT.explains("ED", 0xB0, "f", "z80", v, repeated=True)
    assert not REPEAT.explains("ED", 0xB0, "f", "z80", v, repeated=False)
    assert not REPEAT.explains("ED", 0xB0, "f", "z80", v)             # by default: not repeating


def test_a_field_that_is_not_a_register_is_explained_whatever_its_values():
    assert WZ.explains("ED", 0xA2, "wz", "z80", _values("z80", 0x1234, 0x4321))        # mask 0xFFFF
    assert not WZ.explains("ED", 0xA3, "wz", "z80", _values("z80", 0x1234, 0x4321))
    writes = {"z80": [(0xFE, 1)], "z80-python": [(0xFE, 2)], "SkoolKit": [(0xFE, 2)]}
    assert PORTS.explains("ED", 0xA2, "ports", "z80", writes)
    assert not PORTS.explains("ED", 0xA2, "ports", "SkoolKit", writes)
