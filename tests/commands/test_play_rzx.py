"""`play --record-rzx FILE`: the window's game as RZX, from the first question (SEED set) to the window's close,
which Fuse plays back to the same screen; `--replay-to` running a key record ahead (to its end, or to a deal)
and the screen it reaches the recorded one; pause shown on the screen itself."""
from __future__ import annotations

import os

import numpy as np
import pytest

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
pygame = pytest.importorskip("pygame", reason="pygame-ce is not installed (the play extra)")

from harness.errors import UsageError
from harness.play import window as window_module
from harness.play.panel import PAUSED_BACKGROUND
from harness.play.session import BORDER_H, BORDER_W, PlaySession
from harness.play.settings import PlaySettings
from harness.spectrum.rzx import read_rzx

SEED = 4321


pytestmark = pytest.mark.usefixtures("dummy_video")      # tests/conftest.py


def test_the_rzx_holds_the_game_from_the_first_question(window_rzx_game):
    data = read_rzx(window_rzx_game["rzx"].read_bytes(), str(window_rzx_game["rzx"]))
    assert len(data.frames) == window_rzx_game["rzx_frames"]
    assert window_rzx_game["frames"] - 1 <= len(data.frames) <= window_rzx_game["frames"] + 1     # the session's frames
    assert data.snapshot and sum(f.fetches for f in data.frames) > 100_000
    assert any(f.inputs for f in data.frames)              # the keyboard's port reads are in it


def test_the_rzx_names_the_session_its_seed_and_its_tape(window_rzx_game):
    """Its creator data names no game (a session played by hand), the seed it was played with and the tape's
    SHA-256 (hashed here, not by the harness); a regress game's reader refuses it (tests/edition)."""
    import hashlib
    import json
    data = read_rzx(window_rzx_game["rzx"].read_bytes(), str(window_rzx_game["rzx"]))
    assert data.creator == "cribbage-zx"
    assert json.loads(data.custom) == {"game": None, "seed": SEED,
                                       "tape_sha256": hashlib.sha256(window_rzx_game["tape"].read_bytes()).hexdigest()}


def test_record_rzx_refuses_a_load_and_a_start_from_a_snapshot(tape_path, tmp_path):
    s = PlaySession(PlaySettings(tape=tape_path(), seed=SEED, scale=1, record_rzx=tmp_path / "x.rzx"))
    with pytest.raises(UsageError, match="not loaded while an RZX is recorded"):
        s.load(tmp_path / "any.z80")
    with pytest.raises(UsageError, match="an RZX recording starts from the tape"):
        PlaySession(PlaySettings(load=tmp_path / "any.z80", record_rzx=tmp_path / "y.rzx"))


# ---------------------------------------------------------------- --replay-to
def run_window(s: PlaySession, until, seconds: float = 240) -> window_module.Window:
    window = window_module.Window(s, max_seconds=seconds)
    try:
        window.run(until=until)
    finally:
        window.close()
    return window


def test_replay_to_the_end_runs_the_record_unpaced_to_the_same_screen(window_rzx_game):
    s = PlaySession(PlaySettings(tape=window_rzx_game["tape"], scale=1, replay=window_rzx_game["keys"], ahead="end"))
    assert s.running_ahead() and "REPLAY running ahead to its end" in s.status_line()
    window = run_window(s, until=lambda s: not s.replaying)
    assert not s.replaying and s.frames == window_rzx_game["frames"]
    assert bytes(s.machine.mem[0x4000:0x5B00]) == window_rzx_game["end"]
    assert window.paced_frames["turbo"] >= window_rzx_game["frames"] - 10 and window.paced_frames["real"] <= 10


def test_replay_to_a_deal_runs_ahead_until_it_is_dealt_then_at_real_speed(window_rzx_game):
    s = PlaySession(PlaySettings(tape=window_rzx_game["tape"], scale=1, replay=window_rzx_game["keys"], ahead=1))
    window = run_window(s, until=lambda s: not s.running_ahead())
    assert s.deals == 1 and s.replaying                   # deal 1 dealt, the record not over
    assert "REPLAY at real speed" in s.status_line() and "deal 1" in s.status_line()
    assert window.paced_frames["real"] == 0
    near = PlaySession(PlaySettings(tape=window_rzx_game["tape"], scale=1, replay=window_rzx_game["keys"]))       # without --replay-to
    assert not near.running_ahead()


def test_replay_to_is_refused_without_a_replay_and_below_deal_1(window_rzx_game, capsys):
    with pytest.raises(UsageError, match="running ahead needs a key record to replay"):
        PlaySession(PlaySettings(tape=window_rzx_game["tape"], scale=1, ahead="end"))
    with pytest.raises(UsageError, match="numbered from 1"):
        PlaySession(PlaySettings(tape=window_rzx_game["tape"], scale=1, replay=window_rzx_game["keys"], ahead=0))
    from harness.commands import play as command
    assert command.main(["--tape", str(window_rzx_game["tape"]), "--replay-to", "x"]) == 2
    assert "'end' or a deal number" in capsys.readouterr().err
    assert command.main(["--tape", str(window_rzx_game["tape"]), "--replay-to", "end"]) == 2   # the command's words
    assert capsys.readouterr().err == "cribbage-zx play: --replay-to runs a --replay ahead: give --replay FILE\n"


# ---------------------------------------------------------------- pause on the screen
def test_pause_is_a_banner_on_the_screen_and_goes_with_it(window_rzx_game):
    s = PlaySession(PlaySettings(tape=window_rzx_game["tape"], seed=SEED, scale=1))
    before = pygame.surfarray.array3d(s.surface())
    s.paused = True
    paused = pygame.surfarray.array3d(s.surface())
    screen = (slice(0, BORDER_W), slice(0, BORDER_H))
    banner = np.all(paused[screen] == PAUSED_BACKGROUND, axis=-1)
    assert banner.sum() > 0.05 * BORDER_W * BORDER_H               # a band across the Spectrum's screen
    assert not np.all(before[screen] == PAUSED_BACKGROUND, axis=-1).any()
    assert s.status_line().startswith("PAUSED")
    s.paused = False
    assert np.array_equal(pygame.surfarray.array3d(s.surface()), before)
