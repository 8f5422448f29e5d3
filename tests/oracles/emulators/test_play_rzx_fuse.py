"""Fuse plays the play window's RZX (cribbage-zx play --record-rzx) back to the same screen (the recording itself: tests/commands/test_play_rzx.py)."""
from __future__ import annotations

import os

import pytest

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


SEED = 4321


pytestmark = pytest.mark.usefixtures("dummy_video")      # tests/conftest.py


@pytest.mark.slow
def test_fuse_plays_the_windows_rzx_back_to_the_same_screen(window_rzx_game, tmp_path, monkeypatch):
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
    (tmp_path / "game.rzx").write_bytes(window_rzx_game["rzx"].read_bytes())
    for attempt in range(STARTS):              # Fuse's SDL start-up now and then gives up under a fresh Xvfb
        try:
            fuse = Playback(tmp_path, tmp_path / "game.rzx", [])
            break
        except AssertionError as exc:
            if "Fuse exited" not in str(exc) or attempt == STARTS - 1:
                raise
    fuse.close()
    last = fuse.last_frame(window_rzx_game["rzx_frames"])
    assert len(last) == 6912
    assert last == window_rzx_game["end"]
    assert last != window_rzx_game["screens"]["discard"]
