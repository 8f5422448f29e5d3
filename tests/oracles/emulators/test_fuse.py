"""Fuse, an independent emulator, plays our tape, WAV, TZX and .z80 as a person would, and sees what our machine sees.

Fuse (Debian's fuse-emulator-sdl, the real 48K ROM passed to it) runs in a
private Xvfb display. What it shows is read two ways:

* live, from screenshots of its window (xwd): the 256x192 display inside the
  border is cut into 8x8 cells, each cell's two colours become ink and paper
  again, and our screen reader matches the cells against the fonts (the
  glyph or its inverse, so which colour is ink does not matter);
* exactly, at the end, from Fuse's own movie of every frame (FMF, turned
  into .scr files by Debian's fmfconv): the last frame's display file and
  attributes must equal ours byte for byte.

Keys go in through XTEST (xdotool), held for some emulated frames as a finger
would. Fuse's debugger reports the lines the program reaches (a breakpoint on
the ROM's STMT-L-1 with a condition on PPC) and puts the same SEED as our
session's after RANDOMIZE, so both deal the same cards. Every wait has a
finite deadline; Fuse is stopped with SIGTERM (a clean exit that closes the
movie) and killed if it does not go.
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

from harness.spectrum import audio, tzx, z80snap
from harness.spectrum.charset import koi7_char
from harness.spectrum.screen import read_screen, render
from harness.spectrum.tape import read_tap
from helpers import (ANSWERS, DEAL_LINE, ROM, SEED, STARTS, WELCOME, first_session, fuse_tools,  # noqa: F401
                     game_tape, new_machine, read_xwd, start_loading)      # fuse_tools: this module's check of its tools
from harness.program.model import snapshot as snapshot_cmd
from waiting import Budget, Exited, read_line, window_appears

pytestmark = pytest.mark.slow   # an oracle: Fuse, an independent emulator (pytest -m 'not slow' leaves it out)

SPEED = 1000            # per cent: 500 frames a second
HOLD, GAP = 0.04, 0.08  # seconds a key is down / up: 20 and 40 emulated frames at SPEED
STMT_L_1 = 0x1B2F       # the ROM's statement loop, just after SUBPPC is incremented
BORDER_X, BORDER_Y = 32, 24   # Fuse's window is 320x240 with the "normal" filter
START_S = 30            # seconds for Xvfb's display and Fuse's window on an idle machine (tests/waiting.py scales it)


# ---------------------------------------------------------------- pixels -> display file
def display_from_pixels(display: np.ndarray) -> bytes:
    """The 6144-byte bitmap behind 256x192 RGB pixels: in each cell the commoner colour is paper.

    A cell with more than two colours cannot come from a Spectrum; it is
    filled with a pattern no font has, so the screen reader reports it.
    """
    rgb = display.astype(np.uint32)
    packed = rgb[:, :, 0] << 16 | rgb[:, :, 1] << 8 | rgb[:, :, 2]
    cells = packed.reshape(24, 8, 32, 8).transpose(0, 2, 1, 3)         # row, column, line, pixel
    bitmap = bytearray(6144)
    for row in range(24):
        for col in range(32):
            cell = cells[row, col]
            colours, counts = np.unique(cell, return_counts=True)
            if len(colours) > 2:
                lines = [0x5A] * 8
            else:
                paper = colours[np.argmax(counts)]
                lines = np.packbits(cell != paper, axis=1)[:, 0]
            for line in range(8):
                bitmap[(row // 8) * 2048 + line * 256 + (row % 8) * 32 + col] = lines[line]
    return bytes(bitmap)


def pixel_rows(display: np.ndarray, fonts: bytes) -> list[str]:
    """Text rows of 256x192 pixels, read with the fonts (CHARS, UDG, ROM) of the 64K memory *fonts*."""
    mem = bytearray(fonts)
    mem[0x4000:0x5800] = display_from_pixels(display)
    return [r.rstrip() for r in read_screen(mem, font_text=koi7_char).rows]


def expected_rows(memory: bytes) -> list[str]:
    """Our machine's screen read the same way: rendered to pixels first, so that both go through one reader."""
    return pixel_rows(render(memory), memory)


# ---------------------------------------------------------------- Fuse under Xvfb
class Fuse:
    """One Fuse in its own X display; a context manager that always stops both."""

    def __init__(self, workdir: Path, media: list[str], watch: list[int], seed_at: tuple[int, int] | None):
        self.dir = workdir
        self.out = workdir / "fuse.out"
        self.movie = workdir / "movie.fmf"
        shutil.copy(ROM, workdir / "48.rom")   # by its default name: a "custom" ROM path would turn auto-load off
        commands, n = [], 0
        if seed_at:
            n += 1
            commands += [f"break {STMT_L_1:#x} if ([23621]+256*[23622])=={seed_at[0]} && [23623]=={seed_at[1]}",
                         f"commands {n}", f"set 23670 {SEED & 0xFF}", f"set 23671 {SEED >> 8}", "continue", "end"]
        for line in sorted(set(watch)):
            n += 1
            commands += [f"break {STMT_L_1:#x} if ([23621]+256*[23622])=={line}",
                         f"commands {n}", f"print {line}", "continue", "end"]
        self.command = ["stdbuf", "-oL", "fuse-sdl", "--machine", "48", "--rom-48", "48.rom", "--no-sound",
                        "--graphics-filter", "normal", "--no-confirm-actions", "--no-autosave-settings",
                        "--speed", str(SPEED), "--movie-start", self.movie.name,
                        "--debugger-command", "\n".join(commands), *media]
        self.xvfb = self.fuse = None
        try:
            for _ in range(STARTS):
                if self._launch():
                    break
                self.close()
            else:
                raise AssertionError(f"Fuse did not start in {STARTS} attempts:\n{self.out.read_text()[-1500:]}")
        except BaseException:
            self.close()
            raise
        self.last: np.ndarray | None = None

    def _launch(self) -> bool:
        """Start Xvfb and Fuse; True once Fuse's window is up, False if Fuse gave up starting.

        Fuse 1.6's SDL start-up now and then fails under a fresh Xvfb
        ("error initialising -- giving up!"); the caller then starts both again.
        """
        self.xvfb = subprocess.Popen(["Xvfb", "-displayfd", "1", "-screen", "0", "320x240x24", "-nolisten", "tcp"],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        display = read_line(self.xvfb.stdout, START_S, "Xvfb reporting its display").decode().strip()
        self.env = dict(os.environ, DISPLAY=":" + display, HOME=str(self.dir), SDL_AUDIODRIVER="dummy")
        self.movie.unlink(missing_ok=True)
        with open(self.out, "wb") as out:
            self.fuse = subprocess.Popen(self.command, cwd=self.dir, env=self.env, stdout=out, stderr=subprocess.STDOUT)
        try:
            window_appears(["--name", "^Fuse"], self.env, START_S, "Fuse's window appearing", process=self.fuse)
        except Exited:
            return False
        return True

    def __enter__(self) -> "Fuse":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def xdo(self, *args: str) -> None:
        subprocess.run(["xdotool", *args], env=self.env, timeout=30, check=True, capture_output=True)

    def lines(self) -> set[int]:
        """Lines the program has reached, as Fuse's debugger printed them."""
        text = self.out.read_text(errors="replace")
        return {int(w, 16) for w in text.split() if w.startswith("0x")}

    def screenshot(self) -> np.ndarray:
        shot = subprocess.run(["xwd", "-root", "-silent"], env=self.env, capture_output=True, timeout=30)
        self.last = read_xwd(shot.stdout)
        return self.last

    def display(self) -> np.ndarray:
        return self.screenshot()[BORDER_Y:BORDER_Y + 192, BORDER_X:BORDER_X + 256]

    def wait_for(self, line: int, rows: list[str], fonts: bytes, timeout: float = 120) -> list[str]:
        """Wait until the program has reached *line* and the screen reads *rows*; returns what it read.
        *timeout* is the budget on an idle machine, stretched by the load (tests/waiting.py)."""
        budget = Budget(timeout, f"Fuse reaching line {line} with the expected screen")
        seen: list[str] = []
        while not budget.expired():
            assert self.fuse.poll() is None, f"Fuse exited ({self.fuse.returncode}): {self.out.read_text()[-1000:]}"
            if line in self.lines():
                seen = pixel_rows(self.display(), fonts)
                if seen == rows:
                    return seen
            time.sleep(0.25)
        shot = self.dir / "timeout.png"
        if self.last is not None:
            from PIL import Image
            Image.fromarray(self.last).save(shot)
        raise AssertionError(f"{budget.message()} "
                             f"(lines reached: {sorted(self.lines())}; screenshot {shot}):\n"
                             + "\n".join(seen) + "\n--- expected:\n" + "\n".join(rows))

    def key(self, name: str) -> None:
        self.xdo("keydown", name, "sleep", str(HOLD), "keyup", name, "sleep", str(GAP))

    def answer(self, kind: str, text: str) -> None:
        if kind == "input":
            for ch in text:
                self.key(ch.lower())
            self.key("Return")
        else:
            self.key(text.lower() if text else "Return")

    def close(self) -> None:
        for proc, sig in ((self.fuse, signal.SIGTERM), (self.xvfb, signal.SIGTERM)):
            if proc is None or proc.poll() is not None:
                continue
            proc.send_signal(sig)                  # Fuse ends cleanly on SIGTERM, closing its movie
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=20)

    def last_frame(self) -> bytes:
        """The display file and attributes of the movie's last frame (call after close)."""
        frames = self.dir / "frames"
        frames.mkdir(exist_ok=True)
        subprocess.run(["fmfconv", "-y", "-f", "1", "-S", str(self.movie), str(frames / "f.scr")],
                       capture_output=True, timeout=300, check=True)
        return sorted(frames.glob("f-*.scr"))[-1].read_bytes()


def start(tmp_path: Path, media: list[str], watch: list[int], seed: bool = True) -> Fuse:
    session = first_session(game_tape())
    return Fuse(tmp_path, media, watch, session.seed_at if seed else None)


# ---------------------------------------------------------------- the tests
def test_fuse_plays_the_tape_from_the_welcome_to_the_first_deal(tmp_path):
    session = first_session(game_tape())
    tape = tmp_path / "cribbage.tap"
    tape.write_bytes(game_tape())
    watch = [s.line for s in session.steps] + [DEAL_LINE, session.deal.line]
    with start(tmp_path, ["--auto-load", "--tape", tape.name], watch) as fuse:
        welcome = fuse.wait_for(session.steps[0].line, expected_rows(session.steps[0].memory), session.steps[0].memory)
        assert all(any(text in row for row in welcome) for text in WELCOME)
        for step in session.steps:
            fuse.wait_for(step.line, expected_rows(step.memory), step.memory)
            fuse.answer(step.kind, step.answer)
        deal = fuse.wait_for(session.deal.line, expected_rows(session.deal.memory), session.deal.memory)
        assert DEAL_LINE in fuse.lines()
        (tmp_path / "deal.txt").write_text("\n".join(deal), encoding="utf-8")
        time.sleep(2)                              # a still second or more for the movie's last frame
    assert fuse.last_frame() == session.deal.memory[0x4000:0x5B00]


def test_fuse_loads_our_wav_through_its_tape_input(tmp_path):
    """No traps for audio: Fuse's ROM loader reads the edges of our WAV (fast-forwarded, not shortened)."""
    session = first_session(game_tape())
    wav = tmp_path / "cribbage.wav"
    audio.write_wav(wav, read_tap(game_tape()))
    welcome = session.steps[0]
    with start(tmp_path, ["--auto-load", "--tape", wav.name], [welcome.line]) as fuse:
        fuse.wait_for(welcome.line, expected_rows(welcome.memory), welcome.memory, timeout=300)


def test_fuse_loads_our_tzx(tmp_path):
    session = first_session(game_tape())
    path = tmp_path / "cribbage.tzx"
    path.write_bytes(tzx.tap_to_tzx(read_tap(game_tape())))
    welcome = session.steps[0]
    with start(tmp_path, ["--auto-load", "--no-traps", "--tape", path.name], [welcome.line]) as fuse:
        fuse.wait_for(welcome.line, expected_rows(welcome.memory), welcome.memory, timeout=300)


def test_fuse_continues_our_z80_snapshot_to_the_same_deal(tmp_path):
    """Our machine stopped at the deal line, saved as .z80: Fuse opens it and deals the same cards as we do."""
    session = first_session(game_tape())
    machine = new_machine()
    start_loading(machine, game_tape())
    machine.run_until_line(*session.seed_at, max_frames=5000)
    machine.poke("SEED", SEED)
    snapshot_cmd.run_to_line(machine, DEAL_LINE, None, list(ANSWERS))
    path = tmp_path / "deal.z80"
    z80snap.save(machine, path)
    with start(tmp_path, ["--snapshot", path.name], [session.deal.line], seed=False) as fuse:
        fuse.wait_for(session.deal.line, expected_rows(session.deal.memory), session.deal.memory)
        time.sleep(2)
    assert fuse.last_frame() == session.deal.memory[0x4000:0x5B00]


# ---------------------------------------------------------------- the English edition (cribbage-zx build --lang en)
WELCOME_EN = ("WELCOME", "NEED INSTRUCTIONS? (Y/N):")


def test_fuse_plays_the_english_tape_from_the_welcome_to_the_first_deal(tmp_path, build_of):
    """As the guide (docs/PLAYING.md) tells a player: the ROM by its default name, --auto-load, the English tape."""
    english_tape = build_of("en").tap
    session = first_session(english_tape)
    tape = tmp_path / "cribbage-en.tap"
    tape.write_bytes(english_tape)
    watch = [s.line for s in session.steps] + [DEAL_LINE, session.deal.line]
    with Fuse(tmp_path, ["--auto-load", "--tape", tape.name], watch, session.seed_at) as fuse:
        welcome = fuse.wait_for(session.steps[0].line, expected_rows(session.steps[0].memory), session.steps[0].memory)
        assert all(any(text in row for row in welcome) for text in WELCOME_EN)
        for step in session.steps:
            fuse.wait_for(step.line, expected_rows(step.memory), step.memory)
            fuse.answer(step.kind, step.answer)
        deal = fuse.wait_for(session.deal.line, expected_rows(session.deal.memory), session.deal.memory)
        assert any("YOU DEAL" in row or "I DEAL" in row for row in deal)
        time.sleep(2)                              # a still second or more for the movie's last frame
    assert fuse.last_frame() == session.deal.memory[0x4000:0x5B00]
