"""play --no-reading-time: the window runs the program's reading time (its timed PAUSEs, a message's 1.5 s)
unpaced, and the machine is the same, frame for frame: the same frames, T-states, registers and memory as the
game stepped with no window at all. The window's clock is a stand-in here (time.sleep adds to it), so the
host's waits are counted, not waited: the real pacing's own figure is tests/oracles/window/test_play_xvfb.py's.
"""
from __future__ import annotations

from types import SimpleNamespace

import pytest

pygame = pytest.importorskip("pygame", reason="pygame-ce is not installed (the play extra)")

from harness.commands import play as command
from harness.play import window as window_module
from harness.play.session import MESSAGE_READ_FRAMES, READING_TIME, PlaySession
from harness.play.settings import PlaySettings
from harness.program.model import program as P
from harness.spectrum.machine import FRAME_S
from play_keys import keys

pytestmark = pytest.mark.usefixtures("dummy_window")

#: the cut for deal's two PAUSE 50 (4915, 7470), at least: the frames turbo keeps at real time for a PAUSE
PAUSE_FRAMES = 98


class Clock:
    """time for window.py: it moves only when the window sleeps, and counts what it slept."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.slept = 0.0

    def read(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += max(0.0, seconds)
        self.slept += max(0.0, seconds)


def at_the_cut(tape) -> PlaySession:
    """Seed 99 with no instructions and no muggins, M cutting the pack: the stretch to the first discard holds two
    timed PAUSEs, six messages and the shuffle (1,640 frames)."""
    s = PlaySession(PlaySettings(tape=tape, seed=99, scale=1))
    keys(s, "N", "ENTER")
    keys(s, "N", "ENTER")
    s.tap("M", gap=1)
    return s


def at_the_discard(s: PlaySession) -> bool:
    return (w := s.waiting()) is not None and w.line in P.SELECTOR_WAITS


def machine_state(s: PlaySession) -> tuple:
    """The session's frames and the whole machine: the core's state (registers, memory, its T-states) and the
    machine's own (its frame count and the frame's T-state)."""
    core, own = s.machine.snapshot()
    return s.frames, own.frames, own.t, bytes(core), bytes(s.machine.read(0, 0x10000))


@pytest.fixture(scope="module")
def stepped(tape):
    """The stretch run with no window: s.step() to the discard, no pace at all."""
    s = at_the_cut(tape)
    while not at_the_discard(s):
        s.step()
    return machine_state(s)


def windowed(tape, monkeypatch, reading_time: bool) -> tuple[tuple, window_module.Window, Clock]:
    """The same stretch in a turbo window on the stand-in clock, with or without reading time."""
    s = at_the_cut(tape)
    clock = Clock()
    monkeypatch.setattr(window_module, "time",
                        SimpleNamespace(perf_counter=clock.read, monotonic=clock.read, sleep=clock.sleep))
    window = window_module.Window(s, turbo=True, reading_time=reading_time)
    try:
        window.run(until=at_the_discard)
    finally:
        window.close()
    return machine_state(s), window, clock


def test_without_reading_time_pauses_and_messages_are_not_waited_and_the_machine_is_the_same(tape, monkeypatch,
                                                                                           stepped):
    state, window, clock = windowed(tape, monkeypatch, reading_time=False)
    assert state == stepped                                   # frame for frame, T-state for T-state
    assert window.skipped_why.get("pause", 0) >= PAUSE_FRAMES and window.skipped_why.get("message", 0) > 0
    assert set(window.skipped_why) <= READING_TIME
    assert not set(window.paced_why) & READING_TIME, window.paced_why
    real = window.paced_frames["real"]
    assert real < 10 and clock.slept <= (real + 1) * FRAME_S   # only the frames the cut's key is held
    assert "no reading time" in window.title()


def test_turbo_with_reading_time_waits_them_on_the_same_machine(tape, monkeypatch, stepped):
    """The near miss: turbo as it was, the PAUSEs and the messages' reading time waited at 50 frames a second."""
    state, window, clock = windowed(tape, monkeypatch, reading_time=True)
    assert state == stepped
    assert window.skipped_why == {}
    assert window.paced_why.get("pause", 0) >= PAUSE_FRAMES and window.paced_why.get("message", 0) > 0
    waited = window.paced_why["pause"] + window.paced_why["message"]
    assert clock.slept >= (waited - 5) * FRAME_S >= (PAUSE_FRAMES + MESSAGE_READ_FRAMES) * FRAME_S


def test_a_reading_time_skipped_by_cutting_a_pause_short_is_caught(tape, monkeypatch, stepped):
    """Planted: the option 'skips' a timed PAUSE by ending it (BC, its frames left, set to 1) instead of running
    its frames unpaced: fewer frames to the discard, another machine."""
    step_ahead_as_built = window_module.Window.step_ahead

    def cut_short(self) -> None:
        if self.session.needs_real_time() == "pause":
            self.session.machine.cpu.set("bc", 1)
        step_ahead_as_built(self)
    monkeypatch.setattr(window_module.Window, "step_ahead", cut_short)
    state, window, _ = windowed(tape, monkeypatch, reading_time=False)
    assert state[0] < stepped[0] and state != stepped


def test_the_command_gives_the_window_no_reading_time(tape, monkeypatch, capsys):
    made: list[window_module.Window] = []

    class Seen(window_module.Window):
        def __init__(self, *args, **kw) -> None:
            super().__init__(*args, **kw)
            made.append(self)
    monkeypatch.setattr(command, "Window", Seen)
    for argv, reading_time in ((["--no-reading-time"], False), (["--turbo"], True)):
        assert command.main(["--tape", str(tape), "--seconds", "0.1", "--scale", "1", "--no-sound", *argv]) == 0
        assert (made[-1].turbo, made[-1].reading_time) == (True, reading_time), argv
    assert "--no-reading-time" in command_help(capsys)


def command_help(capsys) -> str:
    with pytest.raises(SystemExit):
        command.main(["--help"])
    return capsys.readouterr().out
