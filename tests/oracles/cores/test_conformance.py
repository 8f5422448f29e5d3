"""cribbage-zx conformance: our Z80 core against z80-python (certified) and SkoolKit, and the lockstep.

The quick form (K = 1: every opcode of every group once) must show no unexplained disagreement; a wrong
flag planted in a wrapped core must be caught, and the same wrong bit inside a documented modelling
difference must not. The lockstep runs our workload on z80 and z80-python for as many instructions as
fit in about a minute, and a one-instruction divergence planted in z80-python is caught at that instruction.
"""
from __future__ import annotations

import checkout
import json

import pytest

pytest.importorskip("z80_python", reason="z80-python is not installed (pip install -e '.[test]')")
pytest.importorskip("skoolkit", reason="SkoolKit is not installed (pip install -e '.[test]')")

from harness.commands import conformance as command
from harness.errors import OutputError, UsageError
from harness.oracle import conformance, lockstep
from harness.oracle.conformance import Outcome, SkoolKitStepper

ROOT = checkout.ROOT
PAGE = ROOT / "docs" / "CONFORMANCE.md"


def test_quick_conformance_every_group_no_unexplained_disagreement():
    result = conformance.run(k=1, seed=7)
    assert set(result.groups) == set(conformance.GROUPS)
    for name, g in result.groups.items():
        assert g.cases == len(conformance.GROUPS[name]) == g.opcodes, name
    assert result.groups["unprefixed"].cases == 252 and result.groups["DDCB"].cases == 256
    assert result.unexplained == [], "\n".join(d.describe() for d in result.unexplained[:5])
    print("\n" + conformance.table(result))


class _WrongFlag:
    """A core wrapped so that one opcode's result has F's bits *flip* inverted."""

    def __init__(self, inner, group: str, code_end: int, flip: int):
        self.inner, self.group, self.code_end, self.flip = inner, group, code_end, flip
        self.name, self.keeps = inner.name, inner.keeps

    def execute(self, case, memory):
        out = self.inner.execute(case, memory)
        if case.group == self.group and case.code[-1] == self.code_end:
            values = dict(out.values)
            values["f"] = int(values["f"]) ^ self.flip
            return Outcome(values)
        return out


def _cores(wrap):
    ours, theirs, skool = conformance.steppers()
    return [wrap(ours) if wrap.__name__ == "ours" else ours, theirs,
            wrap(skool) if wrap.__name__ == "skool" else skool]


def test_a_wrong_carry_on_one_opcode_of_our_core_is_caught_with_who_agrees():
    def ours(core):
        return _WrongFlag(core, "unprefixed", 0x80, 0x01)          # ADD A,B with the carry inverted
    result = conformance.run(k=2, seed=3, groups=["unprefixed"], cores=_cores(ours))
    bad = result.unexplained
    assert len(bad) == 2 and {d.case.code for d in bad} == {b"\x80"}
    assert all(d.field == "f" and d.agree == (("z80-python", "SkoolKit"), ("z80",)) for d in bad)
    assert "ADD" not in bad[0].describe() and "unprefixed 80 at PC=" in bad[0].describe()
    assert result.groups["unprefixed"].unexplained == 2


def test_near_miss_the_documented_bits_of_bit_n_hl_on_skoolkit_are_explained_not_unexplained():
    def skool(core):
        return _WrongFlag(core, "CB", 0x46, 0x28)                  # BIT 0,(HL): only bits 3 and 5 (KNOWN)
    result = conformance.run(k=4, seed=3, groups=["CB"], cores=_cores(skool))
    assert result.unexplained == []
    assert result.groups["CB"].explained >= 4


def test_the_same_opcode_with_a_bit_outside_the_documented_mask_is_unexplained():
    def skool(core):
        return _WrongFlag(core, "CB", 0x46, 0x01)                  # BIT 0,(HL) with the carry inverted
    result = conformance.run(k=2, seed=3, groups=["CB"], cores=_cores(skool))
    assert len(result.unexplained) == 2 and all(d.agree[1] == ("SkoolKit",) for d in result.unexplained)


def test_skoolkit_keeps_no_wz_so_wz_is_not_compared_for_it():
    assert "wz" not in SkoolKitStepper.keeps
    assert any(m.core == "SkoolKit" and m.field == "wz" for m in conformance.MODELLING)


def test_the_command_refuses_bad_options_in_one_line():
    with pytest.raises(UsageError, match="-k 0"):
        command.main(["-k", "0"])
    with pytest.raises(UsageError, match="--budget"):
        command.main(["--budget", "5"])
    with pytest.raises(UsageError, match="^--opcodes JSON goes with --lockstep$"):
        command.main(["--opcodes", "x.json"])
    with pytest.raises(OutputError, match="--opcodes no/such/x.json: its folder does not exist \\(no is missing\\)"):
        command.main(["--lockstep", "--budget", "5", "--opcodes", "no/such/x.json"])


def test_the_command_prints_the_table_and_exit_0(capsys):
    assert command.main(["-k", "1", "--groups", "ED", "DDCB"]) == 0
    out = capsys.readouterr().out
    assert "| ED | 256 | 256 |" in out and "| DDCB | 256 | 256 |" in out and "UNEXPLAINED" not in out


@pytest.mark.slow
def test_the_page_holds_the_current_table():
    result = conformance.run(conformance.DOCS_K, conformance.DOCS_SEED)
    page = PAGE.read_text(encoding="utf-8")
    assert conformance.docs_block(result) in page, \
        "docs/CONFORMANCE.md is stale: cribbage-zx conformance --write-docs docs/CONFORMANCE.md"
    assert result.unexplained == []


# ---------------------------------------------------------------- lockstep
#: every distinct opcode our workload's first 2,500,000 instructions use (`cribbage-zx conformance --lockstep
#: --budget 2500000 --opcodes ...`): all are first met by instruction ~898,000 (the rest boots on the same ones)
OPCODES = json.loads((checkout.DATA / "lockstep-opcodes.json").read_text(encoding="utf-8"))
#: issue 37: 1,000,000 instructions (~25 CPU s), not 2,500,000: the same opcodes compared, asserted below
SUITE_BUDGET = 1_000_000


@pytest.fixture(scope="module")
def tap(build_of) -> bytes:
    return build_of().tap                      # the run's one build (tests/conftest.py), not one per test


@pytest.mark.slow   # an oracle: z80-python steps every instruction beside ours (~45,000 a second)
def test_lockstep_on_every_opcode_of_our_workload_and_a_known_block_repeat_bit_is_counted_not_a_divergence(tap):
    """The lockstep and the near miss in one run (issue 37: the near miss replayed the lockstep's first
    650,000 instructions): z80-python with bit 3 of F inverted at the ROM's first repeating LDIR after
    instruction 1,000 (instruction 639,010, a documented block-repeat difference) steps our workload beside
    our core. That one F is counted and resynced, not a divergence; every other instruction of the
    1,000,000 is compared as in a lockstep without the plant, and they hold every opcode that the first
    2,500,000 hold (tests/data/lockstep-opcodes.json)."""
    faulty = _faulty(0x08, at_repeat=True)
    result = lockstep.run_workload(tap, budget=SUITE_BUDGET, theirs=faulty)
    print("\n" + result.describe())
    assert result.divergence is None, result.describe()
    assert result.instructions == SUITE_BUDGET and result.interrupts > 40
    assert result.milestones[:1] == ["booted"]
    assert faulty.hit is not None and 600_000 < faulty.hit < 700_000 and result.known_block_f >= 1
    assert OPCODES["instructions"] == 2_500_000 and len(OPCODES["opcodes"]) > 250
    assert sorted(result.opcodes) == OPCODES["opcodes"], set(OPCODES["opcodes"]) ^ result.opcodes


def test_an_opcode_is_named_without_its_operands():
    assert [lockstep.opcode_name(bytes(c)) for c in ((0x3E, 7, 0, 0), (0xED, 0xB0, 1, 2), (0xDD, 0x7E, 5, 0),
                                                      (0xFD, 0xCB, 5, 0x46), (0xCB, 0x11, 0, 0))] == \
        ["3E", "ED B0", "DD 7E", "FD CB 46", "CB 11"]
    # near miss: the displacement of an indexed bit instruction is an operand, not the opcode
    assert lockstep.opcode_name(bytes((0xDD, 0xCB, 9, 0x46))) == lockstep.opcode_name(bytes((0xDD, 0xCB, 1, 0x46)))


def _faulty(flip: int, at_repeat: bool):
    """z80-python with one instruction's F wrong: the first repeating LDIR/LDDR iteration after 1,000 (at_repeat),
    or instruction 5,000 (not at_repeat); F's bits *flip* inverted."""
    from z80_python import Z80CPU

    class Faulty(Z80CPU):
        count = 0
        hit: int | None = None

        def step(self):
            pc = self.pc
            code = (self.read_byte(pc), self.read_byte((pc + 1) & 0xFFFF))
            t = super().step()
            Faulty.count += 1
            if Faulty.hit is None and Faulty.count > (1000 if at_repeat else 4999) and (
                    not at_repeat or (code in ((0xED, 0xB0), (0xED, 0xB8)) and self.pc == pc)):
                Faulty.hit = Faulty.count - 1
                self._f ^= flip
            return t
    return Faulty


def test_a_one_instruction_divergence_is_caught_at_that_instruction(tap):
    faulty = _faulty(0x01, at_repeat=False)
    result = lockstep.run_workload(tap, budget=20_000, theirs=faulty)
    assert result.divergence is not None and result.divergence.field == "f"
    assert result.divergence.instruction == faulty.hit == 4999
    assert result.divergence.ours ^ result.divergence.theirs == 0x01
    # the reach check of the lockstep above fails on a lockstep this short: fewer opcodes compared
    assert result.opcodes < set(OPCODES["opcodes"]) and sorted(result.opcodes) != OPCODES["opcodes"]


