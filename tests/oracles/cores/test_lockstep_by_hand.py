"""The lockstep's comparison by hand (issue 51): `LockstepCore._compare` after one instruction, with both cores
in one state and then one thing planted on z80-python's side (a register, a byte written, a port written, the
T-states), both ways where a value can be more or less; and `_known_f`, the documented F differences it lets
through (a repeating block instruction's bits 3/5, and H and P/V for INxR/OTxR; SCF/CCF's bits 3/5), each
beside the same difference one bit outside its mask. Builds z80-python beside our core (an oracle), runs no
instruction: well under a CPU-second."""
from __future__ import annotations

import pytest

from harness.oracle import lockstep

pytest.importorskip("z80_python", reason="the lockstep needs z80-python: pip install -e '.[oracle]'")
PC = 0x8000


@pytest.fixture
def core():
    c = lockstep.LockstepCore()
    c.set("pc", PC)
    c.set("f", 0x00)
    return c


def _diverged(core, our_t: int = 4, their_t: int = 4, code: bytes = b"\x00\x00\x00\x00"):
    try:
        core._compare(PC, code, our_t, their_t)
    except lockstep.Diverged as d:
        return d.divergence
    return None


def test_one_state_is_no_divergence(core):
    core._our_writes[:] = core._their_writes[:] = [(0x9000, 1), (0x9001, 2)]
    core._our_ports[:] = core._their_ports[:] = [(0xFE, 7)]
    assert _diverged(core) is None


@pytest.mark.parametrize("reg,theirs", [("b", "b"), ("ix", "ix"), ("alt_hl", "hl_"), ("sp", "sp"), ("r", "r")])
@pytest.mark.parametrize("delta", [1, -1])
def test_a_register_one_off_either_way_is_named(core, reg, theirs, delta):
    ours = core.get(reg)
    width = 0xFFFF if reg in ("ix", "alt_hl", "sp") else 0xFF
    setattr(core.theirs, theirs, (ours + delta) & width)
    d = _diverged(core)
    assert (d.field, d.ours, d.theirs, d.pc, d.instruction) == (reg, ours, (ours + delta) & width, PC, 0)


def test_the_interrupt_state_is_compared(core):
    core.theirs.iff1 = not core.theirs.iff1
    assert _diverged(core).field == "iff1"


@pytest.mark.parametrize("theirs", [[(0x9000, 2)], [(0x9001, 1)], [(0x9000, 1), (0x9000, 1)], []])
def test_a_byte_written_wrong_elsewhere_twice_or_not_at_all_is_named(core, theirs):
    core._our_writes[:] = [(0x9000, 1)]
    core._their_writes[:] = theirs
    d = _diverged(core)
    assert (d.field, d.ours, d.theirs) == ("writes", [(0x9000, 1)], theirs)


def test_the_writes_in_another_order_are_a_divergence(core):
    core._our_writes[:] = [(0x9000, 1), (0x9001, 2)]
    core._their_writes[:] = [(0x9001, 2), (0x9000, 1)]
    assert _diverged(core).field == "writes"


def test_a_port_written_wrong_is_named(core):
    core._our_ports[:] = [(0xFE, 7)]
    core._their_ports[:] = [(0xFE, 6)]
    d = _diverged(core)
    assert (d.field, d.ours, d.theirs) == ("port writes", [(0xFE, 7)], [(0xFE, 6)])


@pytest.mark.parametrize("their_t", [3, 5])
def test_the_t_states_one_off_either_way_are_named(core, their_t):
    d = _diverged(core, our_t=4, their_t=their_t)
    assert (d.field, d.ours, d.theirs) == ("T-states", 4, their_t)


def test_the_divergence_says_where_in_one_line(core):
    core.tally.instructions = 1234
    core.theirs.b = (core.get("b") + 1) & 0xFF
    d = _diverged(core, code=bytes((0xDD, 0x7E, 0x05, 0x00)))
    assert d.instruction == 1234
    assert d.describe() == (f"instruction 1,234 at 8000 (DD 7E 05 00): b is {core.get('b')!r} on z80, "
                            f"{(core.get('b') + 1) & 0xFF!r} on z80-python")


# ----------------------------------------------------------------------------- the known F differences
def _known(core, code: bytes, ours_f: int, theirs_f: int, moved: bool = False) -> bool:
    ours = {"f": ours_f, "pc": PC + 2 if moved else PC}
    theirs = {"f": theirs_f, "pc": PC + 2 if moved else PC}
    core.theirs._f = theirs_f
    return core._known_f(PC, code, ours, theirs)


@pytest.mark.parametrize("op", [0xB0, 0xB1, 0xB8, 0xB9])
def test_a_repeating_ld_or_cp_block_differs_in_bits_3_and_5_only(core, op):
    code = bytes((0xED, op, 0, 0))
    assert _known(core, code, 0x00, 0x28) and core.theirs._f == 0x00 and core.tally.known_block_f == 1
    assert _known(core, code, 0x28, 0x08) and core.tally.known_block_f == 2
    assert not _known(core, code, 0x00, 0x2C)                  # H too: outside LDIR/CPIR's mask
    assert not _known(core, code, 0x00, 0x29)                  # C too
    assert not _known(core, code, 0x00, 0x28, moved=True)      # the last iteration (PC moved on): not a repeat
    assert core.tally.known_block_f == 2 and core.tally.known_scf_ccf == 0


@pytest.mark.parametrize("op", [0xB2, 0xB3, 0xBA, 0xBB])
def test_a_repeating_in_or_out_block_differs_in_bits_2_to_5_only(core, op):
    code = bytes((0xED, op, 0, 0))
    assert _known(core, code, 0x00, 0x3C) and core.tally.known_block_f == 1
    assert _known(core, code, 0x00, 0x04)
    assert not _known(core, code, 0x00, 0x3D)                  # C too
    assert not _known(core, code, 0x00, 0x40)                  # Z
    assert not _known(core, code, 0x00, 0x80)                  # S


def test_another_ed_instruction_and_a_plain_one_have_no_known_difference(core):
    assert not _known(core, bytes((0xED, 0x44, 0, 0)), 0x00, 0x28)      # NEG
    assert not _known(core, bytes((0xED, 0xA0, 0, 0)), 0x00, 0x28)      # LDI, not repeating
    assert not _known(core, bytes((0x3E, 0x00, 0, 0)), 0x00, 0x28)      # LD A,n
    assert core.tally.known_block_f == 0 and core.tally.known_scf_ccf == 0


@pytest.mark.parametrize("op", [0x37, 0x3F])
def test_scf_and_ccf_differ_in_bits_3_and_5_only(core, op):
    code = bytes((op, 0, 0, 0))
    assert _known(core, code, 0x01, 0x29) and core.tally.known_scf_ccf == 1 and core.theirs._f == 0x01
    assert not _known(core, code, 0x01, 0x00)                  # C
    assert not _known(core, code, 0x01, 0x39)                  # H too
    # behind an index prefix the same (DD 37 runs as SCF)
    assert _known(core, bytes((0xDD, op, 0, 0)), 0x01, 0x09) and core.tally.known_scf_ccf == 2
    assert core.tally.known_block_f == 0


def test_a_known_f_difference_is_let_through_by_compare_and_counted(core):
    core.theirs._f = 0x28
    assert _diverged(core, code=bytes((0xED, 0xB0, 0, 0))) is None and core.tally.known_block_f == 1
    core.theirs._f = 0x01
    assert _diverged(core, code=bytes((0xED, 0xB0, 0, 0))).field == "f"


def test_a_known_f_difference_does_not_hide_another_field_of_the_same_instruction(core):
    core.theirs._f = 0x28
    core.theirs.b = (core.get("b") + 1) & 0xFF
    assert _diverged(core, code=bytes((0xED, 0xB0, 0, 0))).field == "b"


def test_an_ed_instruction_outside_the_lists_lets_no_bit_through(core):
    assert not _known(core, bytes((0xED, 0x44, 0, 0)), 0x00, 0x01)      # NEG, PC unchanged, C only


def test_only_index_prefixes_are_passed_over_before_the_opcode(core):
    # 58 is LD E,B (and the letter X): an SCF byte after it is an operand, not SCF
    assert not _known(core, bytes((0x58, 0x37, 0, 0)), 0x01, 0x29)
    assert _known(core, bytes((0xFD, 0x37, 0, 0)), 0x01, 0x29)


def test_each_index_prefix_is_named_with_its_opcode():
    assert [lockstep.opcode_name(bytes(c)) for c in ((0xFD, 0x21, 0, 0), (0xDD, 0x21, 0, 0), (0xDD, 0xCB, 9, 0x46),
                                                      (0xFD, 0xCB, 9, 0x4E), (0xED, 0x44, 0, 0), (0xCB, 0x27, 0, 0),
                                                      (0x21, 0, 0x40, 0))] == \
        ["FD 21", "DD 21", "DD CB 46", "FD CB 4E", "ED 44", "CB 27", "21"]
