"""`cribbage-zx play --referee --no-reading-time` in a real X server (Xvfb): keys typed with xdotool (XTEST) through the
cut and one discard, the window photographed with xwd, and its pixels compared with the emulator's own render
of the game saved at that moment with F2 (the screen) and with the same game replayed in-process (the panel).
Also the real pacing, and how much faster --no-reading-time gets from the cut to the discard than real speed
(a figure, not an assert).
"""
from __future__ import annotations

import os
import time

import numpy as np
import pytest

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
pygame = pytest.importorskip("pygame", reason="pygame-ce is not installed (the play extra)")

pytestmark = pytest.mark.slow   # an oracle: the window under Xvfb

from harness.program.records.events import Deal
from harness.play.window import Window
from harness.play.cards import cards_text
from harness.play.session import BORDER_H, BORDER_W, STATUS_H, PlaySession
from harness.play.settings import PlaySettings
from waiting import Budget

from xvfb_play import SEED, SCALE, SELECTOR, DEADLINE, PlayInXvfb, rows, outside_marker, shows_render, still_window


def test_play_in_xvfb_through_the_cut_and_a_discard(tape, tmp_path):
    with PlayInXvfb(tmp_path, ["--tape", str(tape), "--referee", "--no-reading-time", "--seed", str(SEED),
                               "--scale", str(SCALE), "--no-sound"]) as x:
        x.wait_at((7060,))                              # «ВАМ НУЖНА ИНСТРУКЦИЯ? (Y/N):»
        x.key("n"), x.key("Return")
        x.wait_at((7405,))                              # muggins?
        x.key("n"), x.key("Return")
        cut = x.wait_at((4925,))
        assert "СНИМИТЕ КОЛОДУ - ЛЮБОЙ КЛАВИШЕЙ" in rows(cut)
        x.key("m")
        x.wait_at(SELECTOR)                             # the cut's PAUSEs and messages at full speed too
        shot, mem, border = still_window(x, SELECTOR)   # dealt: the six cards, waiting for the first discard
        hand = rows(mem)[16:18]
        assert hand[0][:4].strip() and hand[1][:4].strip()
        assert shot.shape == ((BORDER_H + STATUS_H) * SCALE, (BORDER_W + 300) * SCALE, 3)
        assert shows_render(outside_marker(shot[:BORDER_H * SCALE, :BORDER_W * SCALE]), mem, border)
        x.key("Return")                                 # the card under the pointer (slot 1) to the crib
        budget = Budget(DEADLINE, "the discarded card leaving the hand")
        while rows(mem)[16][:4].strip():
            assert not budget.expired(), budget.message()
            shot, mem, border = still_window(x, SELECTOR)
        assert rows(mem)[16][4:] == hand[0][4:]         # the other five stay
        assert shows_render(outside_marker(shot[:BORDER_H * SCALE, :BORDER_W * SCALE]), mem, border)
        final = shot
    # the same keys in-process: the same game, and the same panel, pixel for pixel
    replay = PlaySession(PlaySettings(tape=tape, referee="honest", seed=SEED, scale=SCALE))
    for answer in ("N", "N"):
        replay.tap(answer)
        replay.tap("ENTER")
        replay.run_until_wait()
    replay.tap("M")
    replay.run_until_wait()
    replay.tap("ENTER")
    replay.run_until_wait()
    assert replay.machine.read(0x4000, 0x1B00) == bytes(mem[0x4000:0x5B00])
    try:
        panel = pygame.surfarray.pixels3d(replay.surface()).transpose(1, 0, 2)[:BORDER_H * SCALE, BORDER_W * SCALE:]
        assert np.array_equal(final[:BORDER_H * SCALE, BORDER_W * SCALE:], panel)
        text = [line.text for line in replay.referee.lines()]
        deal = next(e for e in replay.referee.events if isinstance(e, Deal))
        assert f"  you:      {cards_text(deal.player)}" in text
    finally:
        pygame.quit()


REAL_FRAMES = 150      # the cut's first PAUSE 50 and message at real speed: 3 s


def _at_the_cut(tape) -> PlaySession:
    s = PlaySession(PlaySettings(tape=tape, referee="honest", seed=SEED, scale=SCALE))
    for answer in ("N", "N"):
        s.tap(answer)
        s.tap("ENTER")
        s.run_until_wait()
    s.tap("M", gap=1)
    return s


def test_real_speed_paces_every_frame_and_no_reading_time_runs_ahead_to_the_discard(tape, monkeypatch, capsys):
    """The real pacing, short: 150 frames from the cut at 50 a second (the machine the same as stepped with no
    window); then the computer's cut, shuffle and deal (1,600-odd frames, about 33 s at real speed) with no
    reading time. The speeds are figures, not asserts."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    figures = {}
    s = _at_the_cut(tape)
    window = Window(s, turbo=False)
    start, t = s.frames, time.perf_counter()
    try:
        window.run(until=lambda s: s.frames >= start + REAL_FRAMES)
    finally:
        window.close()
    figures["real"] = (s.frames - start, time.perf_counter() - t)
    assert window.paced_frames == {"turbo": 0, "real": REAL_FRAMES}          # every frame paced
    stepped = _at_the_cut(tape)
    stepped.step(REAL_FRAMES)
    assert stepped.machine.read(0x4000, 0xC000) == s.machine.read(0x4000, 0xC000)
    s = _at_the_cut(tape)
    window = Window(s, reading_time=False)
    start, t = s.frames, time.perf_counter()
    try:
        window.run(until=lambda s: (w := s.waiting()) is not None and w.line in SELECTOR)
    finally:
        window.close()
    figures["no reading time"] = (s.frames - start, time.perf_counter() - t)
    assert window.skipped_why.get("pause", 0) > 0 and window.paced_frames["turbo"] > window.paced_frames["real"]
    with capsys.disabled():
        for name, (frames, seconds) in figures.items():
            print(f"\nplay {name:15}: {frames} frames from the cut in {seconds:.2f} s = {frames / seconds:.1f} frames/s")
        print(f"play with no reading time is {figures['no reading time'][0] / figures['no reading time'][1] / 50:.1f}x "
              "real speed here")
