"""The watch page's frames against the machine in the quick tier (issue 51, item 2): `picture_frame_differences`
takes each wait picture's frame from the frames file and the line from the transcript, and asks the recorded
machine (RzxPlayer) where it stood at that frame, so a frames file consistently off, which the page and its
test would agree on, is caught. The slow test (tests/oracles/games/test_watch_frames_machine.py) does this on a
whole regress game; this one on a recording of a few frames.

The recording: a booted machine whose machine code adds one to PPC (the system variable of the BASIC line
being run) after each frame's interrupt and halts, so the machine is at another "line" each frame. The lines
the pictures name are read from the recording machine after each frame it ran (the machine, not the player
nor the frames file). Planted: every frame one late, two early, and one picture one frame late (named
exactly); the near miss is the frames file as recorded. Well under a CPU-second.
"""
from __future__ import annotations

import pytest

from harness.program.records.events import Picture
from harness.spectrum.recording import RzxRecorder, recording_machine
from harness.spectrum.rzx import write_rzx
from harness.web.compare import picture_frame_differences

FRAMES = 8
FIRST_LINE = 1000            # PPC set before the first frame; no polling loop of the program starts here
# HALT / LD HL,(PPC) / INC HL / LD (PPC),HL / JR back to HALT: PPC one more after each interrupt
CODE = bytes([0x76, 0x2A, 0x45, 0x5C, 0x23, 0x22, 0x45, 0x5C, 0x18, 0xF6])


def _picture(line: int, moment: str = "input") -> Picture:
    return Picture(moment=f"{moment} {line}", line=line, slots={}, pegs={}, rows={}, board=False, flag=False,
                   variables={})


@pytest.fixture(scope="module")
def recorded(booted_snapshot):
    """The recording's bytes and, for each frame played (1..FRAMES), the line the recording machine stood at."""
    m = recording_machine()
    m.restore(booted_snapshot)
    m.write(0x8000, CODE)
    m.poke("PPC", FIRST_LINE)
    m.cpu.pc = 0x8000
    rec = RzxRecorder(m)
    rec.start()
    lines = []
    for _ in range(FRAMES):
        m.run_frames(1)
        lines.append(m.ppc)
    return write_rzx(rec.stop()), lines


def test_the_machine_is_at_another_line_each_frame(recorded):
    _, lines = recorded
    assert len(set(lines)) == FRAMES and lines == sorted(lines)


def test_near_miss_the_frames_as_recorded_pass(recorded):
    rzx, lines = recorded
    events = [_picture(n) for n in lines]
    assert picture_frame_differences(events, list(range(1, FRAMES + 1)), rzx) == []


@pytest.mark.parametrize("shift", [1, -2])
def test_a_frames_file_consistently_off_is_caught_at_each_picture(recorded, shift):
    rzx, lines = recorded
    # the pictures at frames 3..6, so that moved either way they stay inside the recording
    events = [_picture(n) for n in lines[2:6]]
    moved = [f + shift for f in range(3, 7)]
    assert picture_frame_differences(events, moved, rzx) == [
        f"event {i} (input {lines[2 + i]}): at frame {3 + i + shift} the machine is at line "
        f"{lines[2 + i + shift]}, the picture at {lines[2 + i]}" for i in range(4)]


def test_one_picture_one_frame_late_is_named_alone(recorded):
    rzx, lines = recorded
    events = [_picture(n, moment) for n, moment in zip(lines, ["input", "inkey", "pause", "select"] * 2)]
    frames = list(range(1, FRAMES + 1))
    frames[4] += 1
    assert picture_frame_differences(events, frames, rzx) == [
        f"event 4 (input {lines[4]}): at frame 6 the machine is at line {lines[5]}, the picture at {lines[4]}"]
