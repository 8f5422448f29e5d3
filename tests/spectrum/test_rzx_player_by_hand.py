"""RzxPlayer by hand (issue 51): the ROM it is given, real timing, a machine idle in HALT (4 T-states a
fetch: a run one T-state a fetch too long would pass the count), the end of the recording, the readings
handed out in order and none before a frame is played, and the 48K it gives. Expected values written out
here or taken from the recorded machine; no outside program."""
from __future__ import annotations

import pytest

from harness.errors import MachineError
from harness.spectrum import z80snap
from harness.spectrum.recording import RzxPlayer, RzxRecorder, recording_machine
from harness.spectrum.rom import load_rom


def _record(booted_snapshot, frames: int, code: bytes | None = None):
    m = recording_machine()
    m.restore(booted_snapshot)
    if code is not None:
        m.write(0x8000, code)
        m.cpu.pc = 0x8000
    rec = RzxRecorder(m)
    rec.start()
    m.run_frames(frames)
    return rec.stop(), z80snap.from_machine(m)


@pytest.fixture(scope="module")
def idle(booted_snapshot):
    """The booted machine at the K cursor: the ROM waits for a key in HALT, every fetch 4 T-states."""
    return _record(booted_snapshot, 8)


def test_a_machine_idle_in_halt_replays_to_the_recorded_machine(idle):
    rzx, ours = idle
    p = RzxPlayer(rzx)
    p.play(len(rzx.frames))
    sp = ours.regs["sp"]
    assert p.m.cpu.pc == 0x0038 and p.m.cpu.get("sp") == sp - 2
    assert [hex(0x4000 + i) for i, (a, b) in enumerate(zip(p.ram(), ours.ram)) if a != b
            and 0x4000 + i not in (sp - 2, sp - 1)] == []
    assert len(p.ram()) == 0xC000


def test_the_player_plays_one_frame_at_a_time_and_refuses_past_the_end(idle):
    rzx, _ = idle
    p = RzxPlayer(rzx)
    p.play()
    assert p.frame == 1
    p.play(len(rzx.frames) - 1)
    assert p.frame == len(rzx.frames)
    with pytest.raises(MachineError) as refused:
        p.play()
    assert str(refused.value) == f"the recording has {len(rzx.frames)} frames; none is left to play"
    assert p.frame == len(rzx.frames)


def test_the_player_runs_on_the_rom_it_is_given_with_real_timing(idle):
    rzx, _ = idle
    rom = bytearray(load_rom(None))
    rom[0x3CFF] ^= 0xFF                               # a byte of the ROM's unused tail (3CFF is never run)
    p = RzxPlayer(rzx, rom=bytes(rom))
    assert p.m.read(0, 0x4000) == bytes(rom)
    assert p.m.fast is False
    assert RzxPlayer(rzx).m.read(0, 0x4000) == load_rom(None)


def test_the_readings_are_handed_out_in_order_and_none_before_a_frame(idle):
    rzx, _ = idle
    p = RzxPlayer(rzx)
    with pytest.raises(MachineError) as refused:
        p._in(0xFEFE)
    assert str(refused.value) == "RZX frame 0: an IN from port 0xfefe past the frame's 0 recorded readings"
    p._inputs, p._read = b"\x01\x02\x03", 0
    assert [p._in(0x7FFE) for _ in range(3)] == [1, 2, 3]
    with pytest.raises(MachineError, match="past the frame's 3 recorded readings"):
        p._in(0x7FFE)


def test_the_last_frame_ends_without_its_interrupt_where_the_recording_stopped(idle):
    rzx, ours = idle
    p = RzxPlayer(rzx)
    p.play(len(rzx.frames), last_interrupt=False)
    # every frame's interrupt but the last's: the recorded machine exactly (FRAMES counted once a frame)
    assert (p.m.cpu.pc, p.m.cpu.get("sp")) == (ours.regs["pc"], ours.regs["sp"]) != (0x0038, ours.regs["sp"] - 2)
    assert p.ram() == bytes(ours.ram)
