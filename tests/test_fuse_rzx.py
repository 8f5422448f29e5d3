"""Fuse replays a recorded regress game (RZX) to our machine's final screen and BASIC variables.

`regress --rzx` recorded one whole game on our machine (tests/rzx_game.py).
Fuse (Debian's fuse-emulator-sdl, the real 48K ROM) plays it back with
``--playback`` under a private Xvfb, recording its own movie (FMF). At the
end of the playback its debugger (a breakpoint on the event ``rzx:end``)
prints the system variables and the whole BASIC variables area; the movie's
last frame is the display file and attributes. Both must equal ours at the
end of the recording, byte for byte.

Why they can be equal although the two machines differ in timing: Fuse
emulates contended memory, ours does not, so a frame of ours (69,888
T-states of uncontended execution) takes Fuse longer; the RZX file holds
instruction counts, not T-states, so Fuse runs exactly our instructions
between two interrupts and reads our port values, whatever its clock says.
(Fuse warns once that a frame is "longer than 79000 tstates", in a dialog
that the test dismisses: BASIC's program and variables sit in contended RAM.)
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest

from harness.spectrum.rzx import read_rzx
from harness.spectrum.sysvars import SYSVARS
from rzx_game import recorded_game
from waiting import Budget, read_line
from helpers import ROM, STARTS, fuse_tools, read_xwd  # noqa: F401 (fuse_tools: the same autouse check of the tools)

pytestmark = pytest.mark.slow   # an oracle: Fuse under Xvfb (pytest -m 'not slow' leaves it out)

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


@pytest.fixture(scope="module")
def playback(tmp_path_factory):
    game = recorded_game()
    work = tmp_path_factory.mktemp("fuse-rzx")
    (work / "game.rzx").write_bytes(game.rzx)
    memory = game.memory
    variables = list(range(word(memory, "VARS"), word(memory, "E_LINE")))
    addresses = list(range(*SYSVARS_AREA)) + variables
    for attempt in range(STARTS):              # Fuse's SDL start-up now and then gives up under a fresh Xvfb
        try:
            fuse = Playback(work, work / "game.rzx", addresses)
            break
        except AssertionError as exc:
            if "Fuse exited" not in str(exc) or attempt == STARTS - 1:
                raise
    try:
        shot = fuse.screenshot()
    finally:
        fuse.close()
    frames = len(read_rzx(game.rzx).frames)
    return game, fuse, addresses, shot, fuse.last_frame(frames)


def test_fuse_replays_the_game_to_our_final_screen(playback):
    game, _, _, shot, last = playback
    from PIL import Image
    Image.fromarray(shot).save(playback[1].dir / "fuse-window.png")  # Fuse's window at the end, to look at
    assert len(last) == 6912
    assert last == game.memory[0x4000:0x5B00]


def test_fuse_replays_the_game_to_our_basic_variables_and_system_variables(playback):
    game, fuse, addresses, _, _ = playback
    printed = fuse.printed()
    assert len(printed) == len(addresses)
    differ = {a: (v, game.memory[a]) for a, v in zip(addresses, printed) if v != game.memory[a]}
    assert differ == {}


def test_the_comparison_sees_a_byte_that_differs(playback):
    """The planted difference: one variable byte changed in our memory is reported, and only that one."""
    game, fuse, addresses, _, _ = playback
    ours = bytearray(game.memory)
    planted = addresses[-1]
    ours[planted] ^= 0x01
    differ = [a for a, v in zip(addresses, fuse.printed()) if v != ours[a]]
    assert differ == [planted]


def same_picture(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal up to the palette: every colour of *a* stands for one colour of *b* and back."""
    pairs = {tuple(p) for p in np.concatenate([a.reshape(-1, 3), b.reshape(-1, 3)], axis=1)}
    return len(pairs) == len({p[:3] for p in pairs}) == len({p[3:] for p in pairs})


def test_fuses_window_shows_our_screen_in_one_of_its_flash_phases(playback):
    """Live, Fuse's window is our screen drawn with its own palette; the one FLASH cell (the peg that
    moves) may be caught in either phase, and a picture a cell off is not the same."""
    from harness.spectrum.screen import render
    game, _, _, shot, _ = playback
    window = shot[24:216, 32:288]                     # the display inside Fuse's 32x24 border
    phases = [render(game.memory, flash_phase=p) for p in (False, True)]
    assert any(same_picture(window, ours) for ours in phases)
    assert not any(same_picture(np.roll(window, 8, axis=1), ours) for ours in phases)
