"""Issue 48: `regress --rzx` checks each recording when it writes it and fails the game loudly when it does not
replay: one line on stderr naming the file and the frame, exit status 1, no game-NNN.rzx written.

The game is the thorough set's shortest: the stopper's game seeded 42754 (`--seed 14`, spread as the run's
game 13 of seed 1), whose recording is ten frames. Planted: the recorder closes frame 3 with one fetch more
than it ran. The near miss: the same command unchanged writes the recording and exits 0.
"""
from __future__ import annotations

from harness.commands import regress as regress_command
from harness.spectrum.recording import RzxRecorder
from harness.spectrum.rzx import RzxFrame, read_rzx

ARGS = ["--rzx", "--games", "1", "--seed", "14", "--strategy", "stopper", "--workers", "1", "--no-html", "--quiet"]


def test_a_recording_that_replays_is_written(tmp_path, capsys):
    assert regress_command.main([*ARGS, "--out", str(tmp_path / "run")]) == 0
    rzx = read_rzx((tmp_path / "run" / "game-000.rzx").read_bytes())
    assert 0 < len(rzx.frames) < 100
    assert "does not replay" not in capsys.readouterr().err


def test_a_recording_with_one_frames_count_changed_fails_the_game_in_one_line(tmp_path, capsys, monkeypatch):
    stop = RzxRecorder.stop

    def one_more_in_frame_3(self):
        rzx = stop(self)
        f = rzx.frames[3]
        rzx.frames[3] = RzxFrame(f.fetches + 1, f.inputs)
        return rzx
    monkeypatch.setattr(RzxRecorder, "stop", one_more_in_frame_3)
    assert regress_command.main([*ARGS, "--out", str(tmp_path / "run")]) == 1
    said = [line for line in capsys.readouterr().err.splitlines() if "does not replay" in line]
    assert len(said) == 1
    assert said[0].startswith("cribbage-zx regress: game 0 (seed 42754, stopper): harness failure: "
                              "game-000.rzx does not replay: ")
    assert not (tmp_path / "run" / "game-000.rzx").exists()
