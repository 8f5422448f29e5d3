"""Issue 48: a recording closes each frame where a player takes the interrupt, and is checked when written.

A frame that ends right after an EI: this machine holds the interrupt for the ULA's 32 T-states and takes it
one instruction later; a player (RzxPlayer, Fuse, SkoolKit) offers it once at the frame's count and loses it.
`regress --rzx --games 2`'s game 1 (greedy, seed 15470) had such a frame at 6333 (the EI of BEEPER's
`EI; RET`) and did not replay. The machine code below (EI; IN A,(254); JR back, 27 T-states a turn) ends a
frame just after its EI in about one frame of seven.
"""
from __future__ import annotations

import pytest

from harness.errors import MachineError
from harness.program.runs import regress
from harness.spectrum import z80snap
from harness.spectrum.recording import RzxRecorder, check_replays, recording_machine, replay_problem
from harness.spectrum.rzx import RzxFrame, read_rzx

EI_LOOP = bytes([0xFB, 0xDB, 0xFE, 0x18, 0xFB])      # 8000: EI / IN A,(254) / JR 8000
FRAMES = 120


def _record(booted_snapshot, during=None):
    m = recording_machine()
    m.restore(booted_snapshot)
    m.write(0x8000, EI_LOOP)
    m.cpu.pc = 0x8000
    rec = RzxRecorder(m)
    rec.start()
    for n in range(FRAMES):
        m.run_frame()
        if during is not None:
            during(m, n)
    return m, rec


def test_a_frame_that_ends_after_ei_replays(booted_snapshot):
    m, rec = _record(booted_snapshot)
    rzx = rec.stop()
    assert len(rec.after_ei_frames) >= 5, "no frame ended just after EI: the case is untested"
    assert len(rzx.frames) == FRAMES
    assert replay_problem(rzx, z80snap.from_machine(m)) is None


def test_the_old_close_right_after_ei_is_caught(booted_snapshot):
    """Planted: the recording as the recorder made it before issue 48, which closed a frame right after its
    EI: the instruction after it (IN A,(254): one fetch, one reading) moved to the next frame. The replay
    loses the interrupt there, and the check names that frame."""
    m, rec = _record(booted_snapshot)
    rzx = rec.stop()
    k = rec.after_ei_frames[0]
    this, after = rzx.frames[k], rzx.frames[k + 1]
    assert this.inputs and m.read(0x8001, 2) == b"\xdb\xfe"
    rzx.frames[k] = RzxFrame(this.fetches - 1, this.inputs[:-1])
    rzx.frames[k + 1] = RzxFrame(after.fetches + 1, this.inputs[-1:] + after.inputs)
    problem = replay_problem(rzx, z80snap.from_machine(m))
    assert problem is not None and "\n" not in problem
    assert problem.startswith(f"RZX frame {k + 1}: ")


def test_one_frames_count_changed_is_refused_naming_the_frame(booted_snapshot):
    m, rec = _record(booted_snapshot)
    rzx = rec.stop()
    end = z80snap.from_machine(m)
    check_replays(rzx, end, "good.rzx")                             # the near miss: as recorded, it passes
    f = rzx.frames[60]
    rzx.frames[60] = RzxFrame(f.fetches + 1, f.inputs)              # planted: one fetch more in frame 60
    with pytest.raises(MachineError, match=r"^off\.rzx does not replay: ") as caught:
        check_replays(rzx, end, "off.rzx")
    assert "\n" not in str(caught.value)
    assert "RZX frame 6" in str(caught.value) or "end elsewhere" in str(caught.value)


def test_one_frames_readings_changed_is_refused(booted_snapshot):
    m, rec = _record(booted_snapshot)
    rzx = rec.stop()
    f = rzx.frames[40]
    assert f.inputs
    rzx.frames[40] = RzxFrame(f.fetches, f.inputs + b"\xbf")      # planted: a reading the replay never makes
    assert replay_problem(rzx, z80snap.from_machine(m)) == \
        f"RZX frame 40: 1 of its {len(f.inputs) + 1} port readings left unread"


def test_a_poke_from_python_during_the_recording_is_caught(booted_snapshot):
    """Planted: Python writes RAM while the recording runs (what the format cannot carry): the replay runs
    every frame, but ends with other RAM; the check says how many bytes and from where."""
    def poke(m, n):
        if n == 50:
            m.write(0x9000, b"\x55")
    m, rec = _record(booted_snapshot, poke)
    problem = replay_problem(rec.stop(), z80snap.from_machine(m))
    assert problem == f"its {FRAMES} frames replay, but end elsewhere than the recorded machine: " \
                      "1 bytes of RAM from 0x9000"


def test_regress_keeps_a_recording_that_replays_and_fails_one_that_does_not(booted_snapshot):
    """regress's finish_recording: the near miss keeps the RZX (it reads back with every frame); one frame's
    count changed is not kept, and the note, the game's failure, names the file and the frame."""
    m, rec = _record(booted_snapshot)
    kept, note, refused = regress.finish_recording(m, rec, 7, [])
    assert kept is not None and note is None and not refused
    assert len(read_rzx(kept.rzx).frames) == FRAMES

    m, rec = _record(booted_snapshot)
    rec.frames[30] = RzxFrame(rec.frames[30].fetches - 1, rec.frames[30].inputs)
    kept, note, refused = regress.finish_recording(m, rec, 7, [])
    assert kept is None and refused
    assert note is not None and note.startswith("game-007.rzx does not replay: ") and "\n" not in note
