"""SkoolKit, an independent implementation, agrees with our machine about the tape and our snapshots.

tap2sna.py runs the 48K ROM's own LD-BYTES on the tape's pulses (fast
loading off) in its Z80 simulator and saves the result; our machine restores
that .z80 and runs on to the program's first INPUT, where its memory must be
ours byte for byte, save for what legitimately differs:

* FRAMES (23672-23674): how long the machine has been on; tap2sna starts
  from its own prepared state and plays the tape in real time, our trap loads
  each block at once;
* SEED (23670-23671): RANDOMIZE copies FRAMES (and the session fixes it);
* KSTATE (23552-23559): the keyboard's debounce counters, which depend on
  the keys typed and when;
* free memory below the machine stack pointer: what earlier calls left there.

snapinfo.py and SkoolKit's own .z80 reader read our snapshots: the same
registers, the same 48K.
"""
from __future__ import annotations

import re

import pytest

from harness.commands import snapshot as snapshot_cmd_cmd
from harness.program.model import snapshot as snapshot_cmd
from harness.spectrum import z80snap
from harness.spectrum.charset import koi7_char
from harness.spectrum.screen import read_screen
from harness.spectrum.sysvars import SYSVARS
from helpers import (ANSWERS, DEAL_LINE, first_session, game_tape, new_machine, run_tool,
                          start_loading, tap2sna, tool)

FONT = (64600, 64600 + 768)


def allowed_differences(memory: bytes, sp: int) -> set[int]:
    """Addresses where a tape loaded by tap2sna may differ from ours (see the module's note)."""
    allowed = set(range(23552, 23560))                                   # KSTATE
    allowed |= set(range(23670, 23672)) | set(range(23672, 23675))       # SEED, FRAMES
    stkend = memory[SYSVARS["STKEND"][0]] | memory[SYSVARS["STKEND"][0] + 1] << 8
    allowed |= set(range(stkend, sp))                                    # free memory below the stack
    return allowed


def word(memory: bytes, name: str) -> int:
    a = SYSVARS[name][0]
    return memory[a] | memory[a + 1] << 8


def test_tap2sna_loads_the_tape_through_the_rom_and_the_memory_is_ours(tmp_path):
    tape = tmp_path / "game.tap"
    tape.write_bytes(game_tape())
    theirs = tap2sna(tape, tmp_path / "tap2sna.z80")
    stop = theirs.run_until_wait()
    ours = first_session(game_tape()).steps[0]
    assert (stop.wait.kind, stop.wait.line, stop.wait.statement) == (ours.kind, ours.line, ours.statement)
    assert [r.rstrip() for r in read_screen(theirs.mem, font_text=koi7_char).rows] == ours.rows
    mem = bytes(theirs.mem)
    prog, e_line = word(ours.memory, "PROG"), word(ours.memory, "E_LINE")
    assert (word(mem, "PROG"), word(mem, "E_LINE")) == (prog, e_line)
    assert mem[prog:e_line] == ours.memory[prog:e_line], "program and variables"
    assert mem[FONT[0]:FONT[1]] == ours.memory[FONT[0]:FONT[1]], "the chr font"
    assert mem[0x4000:0x5B00] == ours.memory[0x4000:0x5B00], "the screen"
    sp = min(theirs.cpu.get("sp"), z80snap.read_z80(tmp_path / "tap2sna.z80").regs["sp"])
    differing = {a for a in range(0x4000, 0x10000) if mem[a] != ours.memory[a]}
    assert differing <= allowed_differences(ours.memory, sp), \
        sorted(f"{a:#06x}" for a in differing - allowed_differences(ours.memory, sp))


def _snapinfo_registers(text: str) -> dict[str, int]:
    regs = {name.lower().replace("'", "_alt"): int(value)
            for name, value in re.findall(r"\b([A-Z]{1,2}'?)\s+(\d+)\s+[0-9A-F]{2,4}\b", text)}
    flags = re.search(r"^\s*F ([01]{8})\s+F' ([01]{8})", text, re.M)
    regs["f"], regs["f_alt"] = int(flags.group(1), 2), int(flags.group(2), 2)
    return regs


@pytest.fixture(scope="module")
def deal_snapshot(tmp_path_factory):
    """Our machine at the first deal and its .z80, made by `cribbage-zx snapshot`."""
    folder = tmp_path_factory.mktemp("deal")
    tape = folder / "game.tap"
    tape.write_bytes(game_tape())
    path = folder / "deal.z80"
    answers = [a for text in ANSWERS for a in ("--answer", text)]
    snapshot_cmd_cmd.main(["--tape", str(tape), "--at", str(DEAL_LINE), *answers, str(path)])
    machine = new_machine()
    start_loading(machine, game_tape())
    snapshot_cmd.run_to_line(machine, DEAL_LINE, None, list(ANSWERS))
    return machine, path


def test_snapinfo_reads_our_registers(deal_snapshot):
    machine, path = deal_snapshot
    text = run_tool(tool("snapinfo.py"), path)
    assert "Machine: 48K Spectrum" in text and "Interrupt mode: 1" in text
    assert f"Border: {machine.s.border}" in text and f"T-states: {machine.s.t}" in text
    regs = _snapinfo_registers(text)
    cpu = machine.cpu
    expected = {"pc": cpu.pc, "sp": cpu.get("sp"), "ix": cpu.get("ix"), "iy": cpu.get("iy"),
                "i": cpu.get("i"), "r": cpu.get("r"), "bc": cpu.get("bc"), "de": cpu.get("de"),
                "hl": cpu.get("hl"), "a": cpu.get("a"), "f": cpu.get("f"),
                "bc_alt": cpu.get("alt_bc"), "de_alt": cpu.get("alt_de"), "hl_alt": cpu.get("alt_hl"),
                "a_alt": cpu.get("alt_af") >> 8, "f_alt": cpu.get("alt_af") & 0xFF}
    assert {k: regs[k] for k in expected} == expected
    assert expected["pc"] == 0x1B2F                        # STMT-L-1: the start of a statement


def test_skoolkits_reader_sees_our_memory(deal_snapshot):
    from skoolkit.snapshot import Snapshot
    machine, path = deal_snapshot
    theirs = Snapshot.get(str(path))
    assert bytes(theirs.ram()) == machine.read(0x4000, 0xC000)
    assert (theirs.pc, theirs.sp, theirs.im, theirs.border) == (machine.cpu.pc, machine.cpu.get("sp"), 1, machine.s.border)
    assert theirs.tstates == machine.s.t
