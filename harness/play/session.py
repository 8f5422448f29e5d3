"""One game on the embedded Spectrum as a steppable object: keys in, frames run, the window's picture out.

`PlaySession` has no clock and no event loop of its own, so tests drive it
frame by frame (with SDL_VIDEODRIVER=dummy, or no display at all) and the
window loop in `command` paces the same calls at 50 frames a second. The
picture is the machine's own screen render (`screen.render`, border
included, scaled) with the referee's panel beside it when there is one.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

import numpy as np

from ..cribbage.rules import STANDARD, Rules
from ..errors import HarnessError
from ..game import program as P
from ..spectrum import z80snap
from ..spectrum.keyboard import parse_combo
from ..spectrum.loading import load_tape
from ..spectrum.machine import WaitState
from ..spectrum.screen import render
from ..spectrum.tape import read_tap
from .beeper import BeeperSpectrum, BeeperTrack
from .keymap import HeldKeys

BORDER_W, BORDER_H = 320, 256      # the screen with its border, as screen.render draws it
PANEL_W = 300                      # the referee's panel, in unscaled pixels beside the screen
FLASH_FRAMES = 16                  # FLASH swaps ink and paper every 16 frames
SEED_LINE = P.ASK_INSTRUCTIONS      # «ВАМ НУЖНА ИНСТРУКЦИЯ?»: RANDOMIZE at 7005 has just run
MAX_PARTIAL_FRAMES = 1000          # a frame cut short by traps this often is a machine fault, not a game


class PlayError(HarnessError):
    """A play session could not start or do what was asked: names the file or the option."""


class PlaySession:
    """The machine, the keys held on it, its sound and the optional referee."""

    def __init__(self, tape: str | os.PathLike | None = None, load: str | os.PathLike | None = None,
                 referee: bool = False, scale: int = 2, seed: int | None = None, sound: bool = False,
                 rules: Rules = STANDARD):
        if scale < 1:
            raise PlayError(f"--scale {scale}: the scale is a whole number from 1")
        self.scale = scale
        self.machine = BeeperSpectrum(fast=False)
        self.frames = 0                       # frames stepped by this session (the machine's restart on load)
        self.held = HeldKeys()
        self._api_keys: set[str] = set()      # keys held through press()/release()
        self._applied: frozenset[str] = frozenset()
        self.track = BeeperTrack() if sound else None
        self.audio: list[np.ndarray] = []     # samples of frames with beeper edges, for the window to play
        self.status = ""
        self._panel: tuple | None = None      # (referee version, its drawn panel)
        self.referee = None
        if referee:
            from .referee import Referee
            self.referee = Referee(self.machine, rules)
        if load is not None:
            self.load(load)
        else:
            if tape is None:
                raise PlayError("no tape and no snapshot to start from")
            self._start_tape(Path(tape), seed)
        if self.referee is not None:
            self.referee.attach()

    # ------------------------------------------------------------------ start
    def _start_tape(self, tape: Path, seed: int | None) -> None:
        try:
            blocks = read_tap(tape)
        except OSError as exc:
            raise PlayError(f"--tape {tape}: {exc.strerror or exc}") from exc
        except HarnessError as exc:          # not a tape: the reader names the file and the block
            raise PlayError(f"--tape: {exc}") from exc
        if not blocks:
            raise PlayError(f"--tape {tape}: the tape is empty")
        m = self.machine
        m.boot()
        if seed is not None:
            def plant_seed(line: int, stmt: int) -> bool:
                if line == SEED_LINE:
                    m.poke("SEED", seed % 65536)
                    m.remove_statement_hook(plant_seed)
                return False
            m.add_statement_hook(plant_seed)
        load_tape(m, blocks)          # the program runs to its first question, as after LOAD "" on a real 48K
        self.status = f"loaded {tape.name}"

    # ------------------------------------------------------------------ keys
    def press(self, keys: str | list[str]) -> None:
        """Hold Spectrum keys (names or 'CAPS SHIFT+2' combinations) until release()."""
        self._api_keys |= parse_combo(keys)

    def release(self, keys: str | list[str] | None = None) -> None:
        """Let go of keys held by press(), or of every key (host keys too) when none are named."""
        if keys is None:
            self._api_keys.clear()
            self.held.clear()
        else:
            self._api_keys -= parse_combo(keys)

    def tap(self, keys: str | list[str], hold: int = 3, gap: int = 6) -> None:
        """Press keys for *hold* frames, then let go for *gap* frames (the ROM's repeat delay has passed)."""
        self.press(keys)
        self.step(hold)
        self.release(keys)
        self.step(gap)

    def host_key_down(self, name: str) -> None:
        """A host key (pygame's name for it) went down; see keymap.HOST_KEYS."""
        self.held.down(name, self.frames)

    def host_key_up(self, name: str) -> None:
        self.held.up(name, self.frames)

    def keys_down(self) -> bool:
        """Whether any Spectrum key is held now (a person at the keyboard: time runs at real speed)."""
        return bool(self._api_keys) or bool(self.held.spectrum_keys(self.frames))

    def _apply_keys(self) -> None:
        wanted = frozenset(self._api_keys) | self.held.spectrum_keys(self.frames)
        if wanted != self._applied:
            self.machine.release()
            if wanted:
                self.machine.press(sorted(wanted))
            self._applied = wanted

    # ------------------------------------------------------------------ frames
    def step(self, frames: int = 1) -> None:
        """Run *frames* whole frames, with the keys held now; collect the beeper's sound."""
        m = self.machine
        for _ in range(frames):
            self._apply_keys()
            for _ in range(MAX_PARTIAL_FRAMES):
                if m.run_frame():
                    break
            else:
                raise PlayError(f"a frame did not end after {MAX_PARTIAL_FRAMES} trap stops "
                                f"(line {m.ppc}:{m.subppc}, PC={m.cpu.pc:#06x})")
            self.frames += 1
            if self.referee is not None:
                self._tell_referee()
            if self.track is not None and m.frame_edges:
                self.audio.append(self.track.frame(m.frame_edges, m.frame_level))
            elif self.track is not None:
                self.track.frame([], m.frame_level)       # keep the sample phase

    def _tell_referee(self) -> None:
        w = self.machine.wait_state()
        if w is not None and self.referee is not None:
            stack = self.machine.gosub_stack()
            self.referee.at_wait(w.kind, w.line, stack[0][0] if stack else None)

    def waiting(self) -> WaitState | None:
        """What the program waits for now (a key, INPUT...), or None while it runs."""
        return self.machine.wait_state()

    def run_until_wait(self, max_frames: int = 30_000) -> WaitState:
        """Step until the program waits for a key with no key held; PlayError after *max_frames*."""
        previous = None
        for _ in range(max_frames):
            self.step()
            w = self.waiting()
            if w is not None and previous is not None and w.kind == previous.kind:
                return w
            previous = w
        m = self.machine
        raise PlayError(f"the program did not wait for a key within {max_frames} frames "
                        f"(at line {m.ppc}:{m.subppc})")

    # ------------------------------------------------------------------ picture
    def screen_pixels(self) -> np.ndarray:
        """The machine's screen and border as RGB (height, width, 3), scaled: what the window shows."""
        m = self.machine
        flash = (m.frames // FLASH_FRAMES) % 2 == 1
        return render(m.mem, border=m.s.border, scale=self.scale, flash_phase=flash)

    @property
    def size(self) -> tuple[int, int]:
        panel = PANEL_W if self.referee is not None else 0
        return (BORDER_W + panel) * self.scale, BORDER_H * self.scale

    def surface(self):
        """A pygame Surface of the whole window: the screen, and the referee's panel on its right."""
        import pygame
        surf = pygame.Surface(self.size)
        img = self.screen_pixels()
        h, w = img.shape[:2]
        surf.blit(pygame.image.frombuffer(img.tobytes(), (w, h), "RGB"), (0, 0))
        if self.referee is not None:
            if self._panel is None or self._panel[0] != self.referee.version:
                from .panel import draw_panel
                panel = pygame.Surface((self.size[0] - w, h))
                draw_panel(panel, panel.get_rect(), self.referee.lines(), self.scale)
                self._panel = (self.referee.version, panel)
            surf.blit(self._panel[1], (w, 0))
        return surf

    # ------------------------------------------------------------------ .z80
    def save(self, path: str | os.PathLike) -> Path:
        """Write the machine as a version 3 .z80, atomically (a temporary file renamed over *path*)."""
        path = Path(path)
        data = z80snap.write_z80(z80snap.from_machine(self.machine))
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        self.status = f"saved {path}"
        return path

    def load(self, path: str | os.PathLike) -> None:
        """Put the machine in the state of a .z80; the referee starts afresh at the next deal."""
        path = Path(path)
        try:
            snap = z80snap.read_z80(path)
        except OSError as exc:
            raise PlayError(f"{path}: {exc.strerror or exc}") from exc
        except z80snap.SnapshotError as exc:
            raise PlayError(str(exc)) from exc
        z80snap.to_machine(snap, self.machine)
        self.machine.forget_edges()
        self.release()
        self._applied = frozenset()
        if self.referee is not None:
            self.referee.restart(f"loaded {path.name}")
        self.status = f"loaded {path}"
