"""RZX recordings: the format (our reader and writer, Debian's rzxdump), the fetch counts, and a whole regress
game replayed by SkoolKit's rzxplay.py to our machine's memory.

SkoolKit's player ends by taking the interrupt due after the last frame; ours
stops before it. So its memory differs from ours in the two bytes that
interrupt pushes (our PC, just below our SP), and PC, SP and R (the
acknowledge's fetch) differ as well; everything else must be equal.
"""
from __future__ import annotations

import re
import zlib

import pytest

from harness.errors import InputError, MachineError
from harness.spectrum import z80snap
from harness.spectrum.machine import Spectrum48
from harness.spectrum.recording import CountingCore, RzxPlayer, RzxRecorder
from harness.spectrum.rzx import Rzx, RzxFrame, read_rzx, write_rzx
from helpers import machine_code_recording

FRAMES = [RzxFrame(3, b"\x1f\xbf"), RzxFrame(5, b"\x1f\xbf"), RzxFrame(7, b"")]
# The same recording written out by hand from the 0.13 specification (uncompressed)
BY_HAND = (b"RZX!\x00\x0d\x00\x00\x00\x00"
           + b"\x10" + (29).to_bytes(4, "little") + b"cribbage-zx".ljust(20, b"\0") + b"\x00\x00\x01\x00"
           + b"\x30" + (21).to_bytes(4, "little") + b"\0\0\0\0" + b"z80\0" + (4).to_bytes(4, "little") + b"SNAP"
           + b"\x80" + (32).to_bytes(4, "little") + (3).to_bytes(4, "little") + b"\0" + (12).to_bytes(4, "little")
           + b"\0\0\0\0" + b"\x03\x00\x02\x00\x1f\xbf" + b"\x05\x00\xff\xff" + b"\x07\x00\x00\x00")


# ---------------------------------------------------------------- the format
def test_the_writer_writes_the_specifications_bytes_and_the_reader_reads_them_back():
    rzx = Rzx(snapshot=b"SNAP", frames=FRAMES, tstates=12)
    assert write_rzx(rzx, compress=False) == BY_HAND
    back = read_rzx(BY_HAND)
    assert (back.snapshot, back.frames, back.tstates, back.creator) == (b"SNAP", FRAMES, 12, "cribbage-zx")
    packed = read_rzx(write_rzx(rzx))                     # zlib-compressed blocks read back the same
    assert (packed.snapshot, packed.frames) == (b"SNAP", FRAMES)


def test_the_creators_own_data_is_written_after_its_version_and_read_back():
    """The format's custom data of the creator block (this tool names the game recorded there): the block
    grows by its length, the data reads back, the rest of the file is the same; a file without it (BY_HAND)
    reads back with none; data past the cap is refused on writing."""
    rzx = Rzx(snapshot=b"SNAP", frames=FRAMES, tstates=12, custom=b'{"game":0}')
    data = write_rzx(rzx, compress=False)
    assert data[10:15] == b"\x10" + (29 + 10).to_bytes(4, "little") and data[39:49] == b'{"game":0}'
    assert data[:10] + data[10:11] + (29).to_bytes(4, "little") + data[15:39] + data[49:] == BY_HAND
    assert read_rzx(data).custom == b'{"game":0}' and read_rzx(data).frames == FRAMES
    assert read_rzx(BY_HAND).custom == b""
    with pytest.raises(InputError, match="more than the 4096"):
        write_rzx(Rzx(snapshot=b"S", custom=b"x" * 4097))


@pytest.mark.parametrize("damage, message", [
    (lambda d: b"RZY!" + d[4:], "not an RZX file"),
    (lambda d: d[:-3], "runs past the end"),
    (lambda d: d[:-4] + b"\x07\x00\x05\x00", "5 port readings, 0 present"),
    (lambda d: d[:-32] + b"\x80" + (20).to_bytes(4, "little") + d[-27:-14] + b"\x03\x00", "frame 0 of 3 cut short"),
])
def test_damaged_files_are_refused_with_the_byte(damage, message):
    with pytest.raises(InputError, match=message):
        read_rzx(damage(BY_HAND), "game.rzx")


def test_a_block_the_reader_does_not_know_is_passed_over():
    """Near miss: a block of another kind (0x20 security information) between two known ones is no damage."""
    unknown = b"\x20" + (9).to_bytes(4, "little") + b"\0\0\0\0"
    at = BY_HAND.index(b"\x80" + (32).to_bytes(4, "little"))
    assert read_rzx(BY_HAND[:at] + unknown + BY_HAND[at:]).frames == FRAMES


def test_a_compressed_block_that_does_not_inflate_is_refused():
    rzx = write_rzx(Rzx(snapshot=b"SNAP" * 100, frames=FRAMES))
    at = rzx.index(zlib.compress(b"SNAP" * 100, 9))
    with pytest.raises(InputError, match="does not inflate"):
        read_rzx(rzx[:at + 2] + b"\xff\xff" + rzx[at + 4:])


def test_fetch_counts_that_do_not_fit_a_word_are_refused():
    with pytest.raises(InputError, match="70000 fetches"):
        write_rzx(Rzx(snapshot=b"S", frames=[RzxFrame(70000)]))


# ---------------------------------------------------------------- counting fetches
def test_the_counting_core_counts_every_fetch_of_a_frame():
    """DI, then JR $ (12 T-states, one fetch) forever: a frame from T-state t0 holds ceil((69888-t0)/12) JRs."""
    m = Spectrum48(core=CountingCore)
    m.write(0x8000, bytes([0xF3, 0x18, 0xFE]))
    m.cpu.pc = 0x8000
    m.cpu.counting = True
    m.run_frame()
    assert m.cpu.take_frame().fetches == 1 + -(-(69888 - 4) // 12)      # DI (4 T) and 5824 JRs, ending at 69892
    m.run_frame()
    assert m.cpu.take_frame().fetches == -(-(69888 - 4) // 12)          # from the overshoot of 4


def test_a_counting_core_refuses_a_z80_core_that_keeps_r_elsewhere(monkeypatch):
    """R is read from the core's packed state (the counting loop's speed); a layout where byte R_AT is not R
    is refused in one line, and the layout of the z80 release pinned is accepted (the near miss)."""
    from harness.spectrum import recording
    CountingCore()
    monkeypatch.setattr(recording, "R_AT", recording.R_AT + 1)          # I's byte, not R's
    with pytest.raises(MachineError, match=r"keeps R elsewhere than byte 37 of its state") as caught:
        CountingCore()
    assert "\n" not in str(caught.value)


def test_a_recording_needs_the_counting_core_and_real_timing():
    with pytest.raises(MachineError, match="core=CountingCore"):
        RzxRecorder(Spectrum48())
    with pytest.raises(MachineError, match="fast=False"):
        RzxRecorder(Spectrum48(core=CountingCore, fast=True))


def assert_replayed_to(played: z80snap.Z80Snapshot, ours: z80snap.Z80Snapshot) -> None:
    """*played* is *ours* after one more interrupt (see the module's note)."""
    sp = ours.regs["sp"]
    assert played.regs["sp"] == sp - 2 and played.regs["pc"] == 0x0038
    pushed = played.ram[sp - 2 - 0x4000] | played.ram[sp - 1 - 0x4000] << 8
    assert pushed == ours.regs["pc"]
    differ = [hex(0x4000 + i) for i in range(0xC000) if played.ram[i] != ours.ram[i] and 0x4000 + i not in (sp - 2, sp - 1)]
    assert differ == []
    regs = {k: v for k, v in ours.regs.items() if k not in ("pc", "sp", "r")}
    assert {k: played.regs[k] for k in regs} == regs


def test_our_player_replays_a_recording_of_prefixed_instructions_and_port_reads(booted_snapshot):
    """RzxPlayer (the watch mode's reference) ends where the recorded machine did, one interrupt later."""
    m, _, rzx = machine_code_recording(booted_snapshot)
    p = RzxPlayer(rzx)
    p.play(len(rzx.frames))
    assert_replayed_to(z80snap.from_machine(p.m), z80snap.from_machine(m))
    with pytest.raises(MachineError, match="none is left to play"):
        p.play()


def test_our_player_tells_a_recording_one_fetch_off_apart(booted_snapshot):
    """Planted: frame 75 one fetch more: a frame off its count is refused, naming it, or the end is elsewhere."""
    m, _, rzx = machine_code_recording(booted_snapshot)
    rzx.frames[75] = RzxFrame(rzx.frames[75].fetches + 1, rzx.frames[75].inputs)
    p = RzxPlayer(rzx)
    try:
        p.play(len(rzx.frames))
    except MachineError as exc:
        assert re.match(r"RZX frame (7[5-9]|[89]\d|1[0-4]\d): ", str(exc)), exc
        return
    with pytest.raises(AssertionError):
        assert_replayed_to(z80snap.from_machine(p.m), z80snap.from_machine(m))
