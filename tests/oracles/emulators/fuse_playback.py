"""Fuse playing an RZX under its own Xvfb, its debugger printing the bytes asked for at the end of the playback
(tests/oracles/emulators/test_fuse_rzx.py, test_play_rzx_fuse.py)."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import numpy as np

from harness.spectrum.sysvars import SYSVARS
from waiting import Budget, read_line
from helpers import ROM, read_xwd

MARK = 0x1234                  # printed first at the end of the playback: what follows are the bytes asked for
SYSVARS_AREA = (23552, 23734)  # KSTATE .. the end of the system variables
SPEED = 5000                   # per cent: Fuse plays the ten-minute game in about 15 s


def word(memory: bytes, name: str) -> int:
    a = SYSVARS[name][0]
    return memory[a] | memory[a + 1] << 8


class Playback:
    """Fuse playing an RZX in its own Xvfb; the debugger's output and the movie stay in *workdir*."""

    def __init__(self, workdir: Path, rzx: Path, addresses: list[int], timeout: float = 240):
        self.dir, self.out, self.movie = workdir, workdir / "fuse.out", workdir / "movie.fmf"
        shutil.copy(ROM, workdir / "48.rom")
        commands = ["break event rzx:end", "commands 1", f"print {MARK}",
                    *(f"print [{a}]" for a in addresses), "continue", "end"]
        self.xvfb = subprocess.Popen(["Xvfb", "-displayfd", "1", "-screen", "0", "320x240x24", "-nolisten", "tcp"],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.fuse = None
        try:
            display = read_line(self.xvfb.stdout, 30, "Xvfb reporting its display").decode().strip()
            self.env = dict(os.environ, DISPLAY=":" + display, HOME=str(workdir), SDL_AUDIODRIVER="dummy")
            with open(self.out, "wb") as out:
                self.fuse = subprocess.Popen(
                    ["stdbuf", "-oL", "fuse-sdl", "--machine", "48", "--rom-48", "48.rom", "--no-sound",
                     "--graphics-filter", "normal", "--no-confirm-actions", "--no-autosave-settings",
                     "--speed", str(SPEED), "--movie-start", self.movie.name,
                     "--debugger-command", "\n".join(commands), "--playback", rzx.name],
                    cwd=workdir, env=self.env, stdout=out, stderr=subprocess.STDOUT)
            self._wait(timeout)
        except BaseException:
            self.close()
            raise

    def _wait(self, timeout: float) -> None:
        """Until the debugger has printed the end; meanwhile Return dismisses Fuse's warning dialog
        (during a playback the keyboard does not reach the emulated Spectrum). *timeout*: seconds on an idle
        machine, stretched by the load (tests/waiting.py)."""
        budget = Budget(timeout, "Fuse finishing the playback")
        while not budget.expired():
            if f"0x{MARK:x}" in self.out.read_text(errors="replace"):
                time.sleep(1)                       # the rest of the prints
                return
            assert self.fuse.poll() is None, f"Fuse exited ({self.fuse.returncode}): {self.out.read_text()[-800:]}"
            subprocess.run(["xdotool", "key", "Return"], env=self.env, capture_output=True, timeout=30)
            time.sleep(0.5)
        raise AssertionError(f"{budget.message()}: {self.out.read_text()[-800:]}")

    def printed(self) -> list[int]:
        """The values printed after the mark, in order."""
        words = self.out.read_text(errors="replace").split()
        values = [int(w, 16) for w in words if w.startswith("0x")]
        return values[values.index(MARK) + 1:]

    def screenshot(self) -> np.ndarray:
        shot = subprocess.run(["xwd", "-root", "-silent"], env=self.env, capture_output=True, timeout=30)
        return read_xwd(shot.stdout)

    def close(self) -> None:
        for proc in (self.fuse, self.xvfb):
            if proc is None or proc.poll() is not None:
                continue
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=20)

    def last_frame(self, frames: int) -> bytes:
        """The display file and attributes of the movie's last frame (after close): fmfconv writes only the
        last few of the *frames* the playback made."""
        out = self.dir / "frames"
        out.mkdir(exist_ok=True)
        subprocess.run(["fmfconv", "-y", "-f", "raw", "-C", f"0-{max(0, frames - 10)}", "-S", str(self.movie),
                        str(out / "f.scr")], capture_output=True, timeout=300, check=True)
        return sorted(out.glob("f-*.scr"))[-1].read_bytes()
