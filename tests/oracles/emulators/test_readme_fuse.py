"""The README's first Fuse command, run as written right after `make run`: `make run`'s own build lines run in a
fresh folder holding only roms/ (nothing else of the checkout), then the README's `cd roms && fuse-sdl ...`
line word for word under Xvfb, until Fuse's window shows the English edition's title. The screen is read from
Fuse's pixels (each cell's two colours back to bits, the cells matched against the game's font). Planted by
hand: the README's line loading the Russian tape instead timed out with the Russian title on the screen."""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from harness.spectrum.charset import koi7_char
from harness.spectrum.screen import read_screen
from helpers import ROOT, STARTS, fuse_tools, read_xwd  # noqa: F401  (fuse_tools: the module's autouse tool check)
from waiting import Budget, Exited, read_line, window_appears

pytestmark = pytest.mark.slow   # an oracle: Fuse under Xvfb
BORDER_X, BORDER_Y = 32, 24     # Fuse's 320x240 window at the screen's corner


def readme_fuse_command() -> str:
    (line,) = [l for l in (ROOT / "README.md").read_text(encoding="utf-8").splitlines() if "fuse-sdl" in l
               and l.startswith("cd roms")]
    return line


def make_run_builds() -> list[list[str]]:
    """`make run`'s build lines, as argument lists for the venv's cribbage-zx."""
    recipe = re.search(r"^run:[^\n]*\n((?:\t[^\n]*\n)+)", (ROOT / "Makefile").read_text(), re.M)[1]
    return [m[1].split() for m in re.finditer(r"\$\(VENV\)/bin/cribbage-zx (build[^#\n]*)", recipe)]


def display_rows(pixels: np.ndarray, memory: bytes) -> list[str]:
    """Fuse's 256x192 display read as text: in each 8x8 cell the commoner colour is paper; the fonts are
    *memory*'s (the game's own, found by CHARS as the program set it)."""
    rgb = pixels.astype(np.uint32)
    packed = (rgb[:, :, 0] << 16 | rgb[:, :, 1] << 8 | rgb[:, :, 2]).reshape(24, 8, 32, 8).transpose(0, 2, 1, 3)
    display = bytearray(6144)
    for r in range(24):
        for c in range(32):
            cell = packed[r, c]
            values, counts = np.unique(cell, return_counts=True)
            paper = values[np.argmax(counts)]
            for y in range(8):
                byte = sum(1 << (7 - x) for x in range(8) if cell[y, x] != paper)
                py = r * 8 + y
                display[((py & 0xC0) << 5) | ((py & 7) << 8) | ((py & 0x38) << 2) | c] = byte
    mem = bytearray(memory)
    mem[0x4000:0x5800] = display
    mem[0x5800:0x5B00] = bytes([0x38]) * 768
    return [row.rstrip() for row in read_screen(mem, font_text=koi7_char).rows]


def test_the_readmes_fuse_command_after_make_runs_builds_shows_the_title(tmp_path):
    shutil.copytree(ROOT / "roms", tmp_path / "roms")
    tool = Path(sys.executable).with_name("cribbage-zx")
    for argv in make_run_builds():
        subprocess.run([str(tool), *argv], cwd=tmp_path, check=True, capture_output=True, timeout=300)
    assert (tmp_path / "build" / "cribbage-en.tap").exists()
    from harness.play.session import PlaySession                      # the title as our machine shows it
    ours = PlaySession(tape=tmp_path / "build" / "cribbage-en.tap", scale=1).machine.read(0, 0x10000)
    command = readme_fuse_command()
    for attempt in range(STARTS):
        xvfb = subprocess.Popen(["Xvfb", "-displayfd", "1", "-screen", "0", "320x240x24", "-nolisten", "tcp"],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        fuse = None
        try:
            display = read_line(xvfb.stdout, 30, "Xvfb reporting its display").decode().strip()
            env = dict(os.environ, DISPLAY=":" + display, HOME=str(tmp_path), SDL_AUDIODRIVER="dummy")
            out = open(tmp_path / f"fuse-{attempt}.txt", "wb")
            fuse = subprocess.Popen(["bash", "-c", command], cwd=tmp_path, env=env, stdout=out, stderr=subprocess.STDOUT,
                                    start_new_session=True)
            try:
                window_appears(["--name", "^Fuse"], env, 30, "Fuse's window appearing", process=fuse)
            except Exited:
                continue                                                 # Fuse's SDL start-up gave up: again
            budget = Budget(120, "Fuse showing the English title")
            rows: list[str] = []
            while not budget.expired():
                shot = subprocess.run(["xwd", "-root", "-silent"], env=env, capture_output=True, timeout=30)
                rows = display_rows(read_xwd(shot.stdout)[BORDER_Y:BORDER_Y + 192, BORDER_X:BORDER_X + 256], ours)
                if any("WELCOME" in r for r in rows) and any("NEED INSTRUCTIONS? (Y/N):" in r for r in rows):
                    break
                time.sleep(0.5)
            else:
                raise AssertionError(f"{budget.message()}: {rows}\n{(tmp_path / f'fuse-{attempt}.txt').read_text()}")
            assert "couldn't open" not in (tmp_path / f"fuse-{attempt}.txt").read_text()
            return
        finally:
            for proc in (fuse, xvfb):
                if proc is not None and proc.poll() is None:
                    os.killpg(proc.pid, signal.SIGTERM) if proc is fuse else proc.terminate()
                    try:
                        proc.wait(timeout=20)
                    except subprocess.TimeoutExpired:
                        proc.kill()
    raise AssertionError(f"Fuse did not start in {STARTS} attempts")
