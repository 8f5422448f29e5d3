"""Fuse plays the play window's RZX (cribbage-zx play --record-rzx) back to the same screen (the recording itself: tests/commands/test_play_rzx.py)."""
from __future__ import annotations

import os

import pytest

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from harness.program.model import program as P
from harness.play.session import PlaySession
from play_keys import keys
from helpers import answer_wait

SEED = 4321


pytestmark = pytest.mark.usefixtures("dummy_video")      # tests/conftest.py


def to_the_discard(s: PlaySession) -> None:
    keys(s, "N", "ENTER")
    keys(s, "N", "ENTER")
    keys(s, "M")                                          # the cut, then «ВЫ СДАЕТЕ» or «Я СДАЮ»
    for _ in range(4):
        if s.waiting().line in P.SELECTOR_WAITS:
            return
        keys(s, "ENTER")


def play_a_while(s: PlaySession) -> dict[str, bytes]:
    """To the discard, both cards laid, the play, to «ВСКРЫВАЮ КРИБ?» after the hands' show: a still screen (the
    card selector's pointer flashes by PRINT, so a recording ending there ends on either of two screens)."""
    to_the_discard(s)
    screens = {"discard": s.machine.read(0x4000, 0x1B00)}
    for n in range(60):
        w = s.waiting()
        if w.line == P.SHOW_PAUSE:
            break
        answer_wait(s, w, n)
    assert s.waiting().line == P.SHOW_PAUSE
    s.step(50)                                            # a second of the still wait
    return screens


@pytest.fixture(scope="module")
def recorded(tape_path, tmp_path_factory):
    folder = tmp_path_factory.mktemp("rzx")
    rzx, keys_file = folder / "game.rzx", folder / "game.keys.json"
    s = PlaySession(tape=tape_path(), seed=SEED, scale=1, record=keys_file, record_rzx=rzx)
    screens = play_a_while(s)
    s.close()
    return {"rzx": rzx, "keys": keys_file, "frames": s.frames, "rzx_frames": s.rzx_frames,
            "end": bytes(s.machine.mem[0x4000:0x5B00]), "screens": screens, "tape": tape_path()}


@pytest.mark.slow
def test_fuse_plays_the_windows_rzx_back_to_the_same_screen(recorded, tmp_path, monkeypatch):
    """Fuse (the real 48K ROM, tests/test_fuse_rzx.py's playback under Xvfb) ends on the screen the window
    showed when it closed; the near miss: not the screen of an earlier moment of the same game."""
    pytest.importorskip("test_fuse_rzx")
    from helpers import STARTS
    from fuse_playback import Playback
    import shutil
    for tool in ("fuse-sdl", "Xvfb", "xdotool", "fmfconv", "xwd", "stdbuf"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed (tools/install-system-deps.sh)")
    monkeypatch.delenv("SDL_VIDEODRIVER")      # Fuse draws in its Xvfb (SDL's dummy driver hides its dialog)
    (tmp_path / "game.rzx").write_bytes(recorded["rzx"].read_bytes())
    for attempt in range(STARTS):              # Fuse's SDL start-up now and then gives up under a fresh Xvfb
        try:
            fuse = Playback(tmp_path, tmp_path / "game.rzx", [])
            break
        except AssertionError as exc:
            if "Fuse exited" not in str(exc) or attempt == STARTS - 1:
                raise
    fuse.close()
    last = fuse.last_frame(recorded["rzx_frames"])
    assert len(last) == 6912
    assert last == recorded["end"]
    assert last != recorded["screens"]["discard"]
