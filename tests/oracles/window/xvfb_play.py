"""The play window in a real X server (Xvfb), as the window's tests drive it: `PlayInXvfb` starts
`cribbage-zx play` there, types keys with xdotool and photographs the window with xwd; and the readings of its
pixels and memory the tests compare (tests/oracles/window/test_play_xvfb*.py)."""
from __future__ import annotations

import checkout
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
pygame = pytest.importorskip("pygame", reason="pygame-ce is not installed (the play extra)")

from harness.program.model.program import UDG_TEXT
from harness.play.window import WM_CLASS
from harness.play.panel import POINTER_COLOUR, pointer_rect
from harness.spectrum import z80snap
from harness.spectrum.charset import koi7_char
from harness.spectrum.screen import read_screen, render
from helpers import read_xwd
from waiting import Budget, read_line, window_appears

ROOT = checkout.ROOT
TOOLS = ("Xvfb", "xdotool", "xwd")
SEED = 99
SCALE = 2
SELECTOR = (3725, 3730, 3750)      # the card selector 3700 polls INKEY$
HOLD, GAP = 0.12, 0.25             # seconds a key is down / up (6 and 12 frames at 50 Hz)
DEADLINE = 60                      # seconds for any one step of the game to show on an idle machine (waiting.Budget)


class PlayInXvfb:
    """Xvfb and `python -m harness play` in it; a context manager that always stops both."""

    def __init__(self, workdir: Path, args: list[str], name: str = "play"):
        self.dir = workdir
        self.name = name
        self.save = workdir / f"{name}-1.z80"            # F2 then 1: slot 1 of --save NAME.z80
        self.xvfb = self.play = None
        try:
            self.xvfb = subprocess.Popen(["Xvfb", "-displayfd", "1", "-screen", "0", "1280x600x24", "-nolisten", "tcp"],
                                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            display = read_line(self.xvfb.stdout, 30, "Xvfb reporting its display").decode().strip()
            self.env = dict(os.environ, DISPLAY=":" + display, SDL_AUDIODRIVER="dummy")
            self.env.pop("SDL_VIDEODRIVER", None)
            self.out = open(workdir / f"{name}.out", "wb")
            self.play = subprocess.Popen([sys.executable, "-m", "harness", "play", "--save", str(workdir / f"{name}.z80"),
                                          "--seconds", "600", *args],
                                         cwd=ROOT, env=self.env, stdout=self.out, stderr=subprocess.STDOUT)
            self.window = self._find_window()
            self.xdo("mousemove", "--window", self.window, "20", "20")     # focus follows the pointer (no WM)
        except BaseException:
            self.close()
            raise

    def _find_window(self) -> str:
        try:
            return window_appears(["--class", WM_CLASS], self.env, 30, "the play window appearing", process=self.play)
        except AssertionError as exc:
            raise AssertionError(f"{exc}: {self.output()}") from None

    def output(self) -> str:
        return (self.dir / f"{self.name}.out").read_text(errors="replace")[-2000:]

    def xdo(self, *args: str) -> None:
        subprocess.run(["xdotool", *args], env=self.env, timeout=30, check=True, capture_output=True)

    def key(self, name: str) -> None:
        self.xdo("keydown", name, "sleep", str(HOLD), "keyup", name, "sleep", str(GAP))

    def window_keys(self, *names: str) -> None:
        """Keys the window takes for itself (F2 and a slot's digit): typed at once, none goes to the Spectrum,
        so they need no hold for its keyboard scan and no gap for its repeat."""
        self.xdo("key", *names)

    def saved(self) -> z80snap.Z80Snapshot:
        """F2 and 1, then the .z80 the window wrote in slot 1 (atomically: it appears whole or not at all)."""
        self.save.unlink(missing_ok=True)
        self.window_keys("F2", "1")
        budget = Budget(DEADLINE, f"F2 writing {self.save}")
        while not self.save.exists():
            assert self.play.poll() is None, f"play exited ({self.play.returncode}): {self.output()}"
            assert not budget.expired(), f"{budget.message()}: {self.output()}"
            time.sleep(0.1)
        return z80snap.read_z80(self.save)

    def wait_at(self, lines: tuple[int, ...]) -> bytearray:
        """Save with F2 until the program is at one of *lines*; the memory then."""
        budget = Budget(DEADLINE, f"the program reaching line {lines}")
        while True:
            mem = memory(self.saved())
            if mem[23621] | mem[23622] << 8 in lines:
                return mem
            assert not budget.expired(), budget.message()
            time.sleep(0.3)

    def grab(self) -> np.ndarray:
        shot = subprocess.run(["xwd", "-id", self.window, "-silent"], env=self.env, capture_output=True, timeout=30)
        return read_xwd(shot.stdout)

    def close(self) -> None:
        for proc in (self.play, self.xvfb):
            if proc is None or proc.poll() is not None:
                continue
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=20)
        if getattr(self, "out", None):
            self.out.close()

    def __enter__(self) -> "PlayInXvfb":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def memory(snap: z80snap.Z80Snapshot) -> bytearray:
    mem = bytearray(0x10000)
    mem[0x4000:] = snap.ram
    return mem


def rows(mem) -> list[str]:
    return [r.rstrip() for r in read_screen(mem, udg_text=UDG_TEXT, font_text=koi7_char).rows]


MARKER = POINTER_COLOUR


def outside_marker(pixels: np.ndarray) -> np.ma.MaskedArray:
    """The screen's pixels with the window's pointer marker (wherever it is drawn) left out."""
    mask = np.zeros(pixels.shape[:2], bool)
    for slot in range(1, 7):
        box = pointer_rect(slot, SCALE)
        if (pixels[box.top, box.left:box.right] == MARKER).all():
            mask[box.top:box.bottom, box.left:box.right] = True
    return np.ma.MaskedArray(pixels, np.repeat(mask[:, :, None], 3, axis=2))


def shows_render(pixels, mem, border: int) -> bool:
    keep = ~np.ma.getmaskarray(pixels)
    data = np.ma.getdata(pixels)
    return any(np.array_equal(data[keep], render(mem, border=border, scale=SCALE, flash_phase=p)[keep])
               for p in (False, True))


def still_window(x: PlayInXvfb, lines: tuple[int, ...]) -> tuple[np.ndarray, bytearray, int]:
    """A photo of the window with the machine saved before and after it, the screen the same in both."""
    for _ in range(10):
        before = x.saved()
        shot = x.grab()
        after = x.saved()
        mem = memory(after)
        if memory(before)[0x4000:0x5B00] == mem[0x4000:0x5B00] and mem[23621] | mem[23622] << 8 in lines:
            return shot, mem, after.border
    raise AssertionError("the screen never held still for a photo")
