"""Issue 48: `play --record-rzx` checks the RZX when the window closes: one that replays on the embedded core to
the machine's state is written (the near miss); one whose frame count was changed (planted) is not written,
and the MachineError names the file and says it does not replay."""
from __future__ import annotations

import os

import pytest

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
pytest.importorskip("pygame", reason="pygame-ce is not installed (the play extra)")

from harness.errors import MachineError
from harness.play.session import PlaySession
from harness.play.settings import PlaySettings
from harness.spectrum.recording import RzxRecorder
from harness.spectrum.rzx import RzxFrame, read_rzx

pytestmark = pytest.mark.usefixtures("dummy_video")      # tests/conftest.py


def _session(tape_path, path):
    s = PlaySession(PlaySettings(tape=tape_path(), seed=4321, scale=1, record_rzx=path))
    s.step(40)                                            # the first question's wait, recorded
    return s


def test_an_rzx_that_replays_is_written_at_close(tape_path, tmp_path):
    s = _session(tape_path, tmp_path / "good.rzx")
    s.close()
    assert len(read_rzx((tmp_path / "good.rzx").read_bytes()).frames) == s.rzx_frames >= 40


def test_an_rzx_with_one_frames_count_changed_is_not_written(tape_path, tmp_path, monkeypatch):
    stop = RzxRecorder.stop

    def one_more_in_frame_10(self):
        rzx = stop(self)
        f = rzx.frames[10]
        rzx.frames[10] = RzxFrame(f.fetches + 1, f.inputs)
        return rzx
    monkeypatch.setattr(RzxRecorder, "stop", one_more_in_frame_10)
    s = _session(tape_path, tmp_path / "off.rzx")
    with pytest.raises(MachineError, match=r"off\.rzx does not replay: ") as caught:
        s.close()
    assert "\n" not in str(caught.value)
    assert not (tmp_path / "off.rzx").exists()
