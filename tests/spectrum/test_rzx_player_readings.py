"""RzxPlayer given a frame whose recorded port readings do not match what the program takes (issue 51): one
reading more than the frame's INs (the failure of the recording that does not replay) and one fewer, each
refused naming the frame and the count; the near miss, the same number of readings with other values, plays
to the end (the program ignores what it reads), as does the recording untouched.

The recording: a booted machine running LD IX,0 / IN A,(254) / JR back for a few frames, made by the
recorder (CountingCore counts the INs the machine ran: the expected counts come from the machine that ran
them, not from the player). No outside program; well under a CPU-second."""
from __future__ import annotations

import re

import pytest

from harness.errors import MachineError
from harness.spectrum import z80snap
from harness.spectrum.recording import RzxPlayer
from harness.spectrum.rzx import RzxFrame
from helpers import machine_code_recording

FRAMES = 6
AT = 3                       # the frame planted


@pytest.fixture(scope="module")
def recorded(booted_snapshot):
    m, _, rzx = machine_code_recording(booted_snapshot, FRAMES)
    return rzx, z80snap.from_machine(m)


def _with(rzx, inputs: bytes):
    """A copy of the recording with frame AT's readings replaced."""
    planted = type(rzx)(snapshot=rzx.snapshot, frames=list(rzx.frames), tstates=rzx.tstates)
    planted.frames[AT] = RzxFrame(rzx.frames[AT].fetches, inputs)
    return planted


def test_the_recording_reads_the_port_in_every_frame(recorded):
    rzx, _ = recorded
    assert len(rzx.frames) == FRAMES
    # one IN every 3 instructions of 4 + 11 + 12 T-states: hundreds a frame, and every one recorded
    assert all(len(f.inputs) > 100 for f in rzx.frames[:AT + 2])


def test_a_frame_with_one_reading_more_than_its_ins_is_refused_at_that_frame(recorded):
    rzx, _ = recorded
    n = len(rzx.frames[AT].inputs)
    p = RzxPlayer(_with(rzx, rzx.frames[AT].inputs + b"\xbf"))
    with pytest.raises(MachineError) as refused:
        p.play(FRAMES)
    assert str(refused.value) == f"RZX frame {AT}: 1 of its {n + 1} port readings left unread"
    assert p.frame == AT                       # the frames before it played


def test_a_frame_with_one_reading_fewer_than_its_ins_is_refused_at_that_frame(recorded):
    rzx, _ = recorded
    n = len(rzx.frames[AT].inputs)
    p = RzxPlayer(_with(rzx, rzx.frames[AT].inputs[:-1]))
    with pytest.raises(MachineError) as refused:
        p.play(FRAMES)
    assert re.fullmatch(rf"RZX frame {AT}: an IN from port 0x[0-9a-f]{{2}}fe past the frame's {n - 1} recorded "
                        rf"readings", str(refused.value)), refused.value
    assert p.frame == AT


def test_near_miss_as_many_readings_with_other_values_play_to_the_end(recorded):
    rzx, ours = recorded
    # bits 5 and 7 changed: not the keys (bits 0-4, which the ROM's keyboard scan acts on) nor EAR (bit 6)
    other = bytes(b ^ 0xA0 for b in rzx.frames[AT].inputs)
    assert other != rzx.frames[AT].inputs and len(other) == len(rzx.frames[AT].inputs)
    p = RzxPlayer(_with(rzx, other))
    p.play(FRAMES)
    assert p.frame == FRAMES
    # and the recording as made ends where the recorded machine did (one interrupt later: PC at 0038)
    q = RzxPlayer(rzx)
    q.play(FRAMES)
    sp = ours.regs["sp"]
    assert q.m.cpu.pc == 0x0038 and q.m.cpu.get("sp") == sp - 2
    assert [hex(0x4000 + i) for i, (a, b) in enumerate(zip(q.ram(), ours.ram)) if a != b and 0x4000 + i not in (sp - 2, sp - 1)] == []
