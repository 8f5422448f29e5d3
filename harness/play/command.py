"""`cribbage-zx play [--tape PATH] [--turbo] [--referee] [--load PATH.z80]`: the game in a window.

Real speed by default: one frame every 1/50 s, the beeper played where the
machine has audio. `--turbo` runs frames as fast as the emulator goes
whenever the program is not waiting for a key and no key is held (the
computer's thinking and the shuffle take a moment), at real speed otherwise.
F2 saves the game as a .z80 (`--save`, written atomically), F3 loads it
back, F10 or closing the window quits; every other key goes to the Spectrum
(`keymap.HOST_KEYS`). `--referee` adds the engine's view of the deal beside
the screen (`referee`).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Callable

from ..build import DEFAULT_TAP
from ..cliargs import command_parser, int_in
from ..cribbage.rules import PRESETS
from ..errors import HarnessError
from ..spectrum.machine import FRAME_S
from .session import PlayError, PlaySession

PROG = "cribbage-zx play"
TITLE = "КРИБЕДЖ: cribbage-zx play"
WM_CLASS = "cribbage-zx"
HEADLESS_DRIVERS = ("dummy", "offscreen")
CATCH_UP_LIMIT = 0.25            # seconds behind real time after which the clock starts again from now
TURBO_SLICE = 1 / 50             # seconds of unpaced frames between two looks at the keys and the window


class UsageError(PlayError):
    """A bad command line."""


def check_display(environ=os.environ) -> None:
    """A one-line reason when there is no display to open a window on."""
    if environ.get("SDL_VIDEODRIVER", "").lower() in HEADLESS_DRIVERS:
        return
    if not environ.get("DISPLAY") and not environ.get("WAYLAND_DISPLAY"):
        raise PlayError("no display (DISPLAY is not set; run under X or use xvfb-run)")


def import_pygame():
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    os.environ.setdefault("SDL_VIDEO_X11_WMCLASS", WM_CLASS)   # before pygame names it after argv[0]: X tools find it
    try:
        import pygame
    except ImportError as exc:
        raise PlayError("pygame-ce is not installed (pip install -e '.[play]')") from exc
    return pygame


class Window:
    """The real-time loop: events to keys, frames paced at 50 Hz (or unpaced in turbo), the picture, the sound."""

    def __init__(self, session: PlaySession, turbo: bool = False, save_path: Path = Path("cribbage.z80"),
                 max_seconds: float | None = None):
        self.pygame = pg = import_pygame()
        self.session = session
        self.turbo = turbo
        self.save_path = save_path
        self.max_seconds = max_seconds
        if os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
            os.environ.setdefault("SDL_VIDEODRIVER", "x11")     # X only: no Wayland probe, no fallback
        try:
            pg.display.init()
        except pg.error as exc:
            raise PlayError(f"no display (cannot open DISPLAY={os.environ.get('DISPLAY', '')!r}: {exc}; "
                            f"run under X or use xvfb-run)") from exc
        driver = pg.display.get_driver()
        if driver in HEADLESS_DRIVERS and os.environ.get("SDL_VIDEODRIVER", "").lower() not in HEADLESS_DRIVERS:
            pg.display.quit()          # SDL could not open the display it was given and fell back to drawing nowhere
            raise PlayError(f"no display (cannot open DISPLAY={os.environ.get('DISPLAY', '')!r}; "
                            f"run under X or use xvfb-run)")
        pg.font.init()
        try:
            self.screen = pg.display.set_mode(session.size)
        except pg.error as exc:
            raise PlayError(f"no display ({exc})") from exc
        pg.display.set_caption(TITLE + (" [turbo]" if turbo else ""))
        self.channel = self._open_audio() if session.track is not None else None
        self.running = True

    def _open_audio(self):
        pg = self.pygame
        try:
            pg.mixer.init(frequency=self.session.track.rate, size=-16, channels=1, buffer=512)
            return pg.mixer.Channel(0)
        except pg.error as exc:
            print(f"{PROG}: no sound ({exc})", file=sys.stderr)
            self.session.track = None
            return None

    # ------------------------------------------------------------------ events
    def handle(self, event) -> None:
        pg = self.pygame
        s = self.session
        if event.type == pg.QUIT:
            self.running = False
        elif event.type == pg.KEYDOWN and event.key == pg.K_F10:
            self.running = False
        elif event.type == pg.KEYDOWN and event.key == pg.K_F2:
            try:
                self._say(f"saved {s.save(self.save_path)}")
            except OSError as exc:            # a full disk or a folder we may not write: the game goes on
                self._say(f"could not save {self.save_path}: {exc.strerror or exc}")
        elif event.type == pg.KEYDOWN and event.key == pg.K_F3:
            try:
                s.load(self.save_path)
                self._say(f"loaded {self.save_path}")
            except PlayError as exc:
                self._say(str(exc))
        elif event.type == pg.KEYDOWN:
            s.host_key_down(pg.key.name(event.key))
        elif event.type == pg.KEYUP:
            s.host_key_up(pg.key.name(event.key))
        elif event.type in (pg.WINDOWFOCUSLOST,):
            s.release()                       # keys held when the focus went would stay down for ever

    def _say(self, text: str) -> None:
        print(f"{PROG}: {text}", flush=True)
        self.pygame.display.set_caption(f"{TITLE}: {text}")

    # ------------------------------------------------------------------ loop
    def present(self) -> None:
        self.screen.blit(self.session.surface(), (0, 0))
        self.pygame.display.flip()

    def _play_sound(self) -> None:
        audio = self.session.audio
        if self.channel is None or not audio:
            audio.clear()
            return
        if self.channel.get_queue() is None:
            import numpy as np
            sound = self.pygame.mixer.Sound(buffer=np.concatenate(audio).tobytes())
            (self.channel.queue if self.channel.get_busy() else self.channel.play)(sound)
            audio.clear()
        elif len(audio) > 10:                   # the device is behind: drop rather than lag
            audio.clear()

    def _may_hurry(self) -> bool:
        """Turbo runs ahead only while nobody is needed: no key awaited and none held (a held key
        at full speed would be taken for many, the ROM's auto-repeat starting after 35 frames)."""
        return not self.session.keys_down() and self.session.waiting() is None

    def run(self, until: Callable[[PlaySession], bool] | None = None) -> None:
        """Until the window is closed, F10, --seconds have passed, or *until(session)* holds (for tests)."""
        pg = self.pygame
        s = self.session
        start = next_frame = time.perf_counter()
        while self.running:
            for event in pg.event.get():
                self.handle(event)
            if not self.running:
                break
            now = time.perf_counter()
            if self.max_seconds is not None and now - start >= self.max_seconds:
                break
            if until is not None and until(s):
                break
            if self.turbo and self._may_hurry():
                slice_end = now + TURBO_SLICE
                while time.perf_counter() < slice_end and self._may_hurry():
                    s.step()
                s.audio.clear()                   # sound at turbo speed would be noise
                next_frame = time.perf_counter()
                self.present()
                continue
            s.step()
            self._play_sound()
            self.present()
            next_frame += FRAME_S
            delay = next_frame - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            elif -delay > CATCH_UP_LIMIT:
                next_frame = time.perf_counter()     # fell behind (a stall): start the clock again

    def close(self) -> None:
        self.pygame.quit()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tape", type=Path, default=DEFAULT_TAP, help="tape to load (default: the built game)")
    parser.add_argument("--load", type=Path, metavar="PATH.z80", help="start from a saved game instead")
    parser.add_argument("--save", type=Path, default=Path("cribbage.z80"), metavar="PATH.z80",
                        help="where F2 saves and F3 loads (default: cribbage.z80)")
    parser.add_argument("--turbo", action="store_true",
                        help="full speed whenever no key is awaited or held")
    parser.add_argument("--referee", action="store_true", help="the engine's view of the deal beside the screen")
    parser.add_argument("--rules", choices=sorted(PRESETS), default="standard",
                        help="the rules the referee judges by (default standard, regress's verdict)")
    parser.add_argument("--scale", type=int_in(1, 8), default=2, help="window pixels per Spectrum pixel (1..8, default 2)")
    parser.add_argument("--seed", type=int_in(0, 65535), default=None,
                        help="SEED after RANDOMIZE (default: the machine's own, the same every time)")
    parser.add_argument("--no-sound", action="store_true", help="do not play the beeper")
    parser.add_argument("--seconds", type=float, default=None, help="quit after this many seconds (for tests)")


def execute(args: argparse.Namespace) -> int:
    """Play; a PlayError is one line on stderr and status 2."""
    try:
        return _play(args)
    except HarnessError as exc:             # PlayError, and the machine's or a file reader's own errors
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2


def main(argv: list[str]) -> int:
    try:
        args = command_parser(sys.modules[__name__], PROG, UsageError).parse_args(argv)
    except UsageError as exc:
        print(str(exc), file=sys.stderr)     # argparse's message already names the command
        return 2
    return execute(args)


def _play(args: argparse.Namespace) -> int:
    check_display()
    import_pygame()
    tape = None
    if args.load is None:
        from ..snapshot_cmd import ensure_tape
        try:
            tape = ensure_tape(args.tape)
        except Exception as exc:           # a missing tape file, or a listing that does not build
            if isinstance(exc, HarnessError) or type(exc).__module__.startswith("harness"):
                raise PlayError(f"--tape: {exc}") from exc
            raise
    session = PlaySession(tape=tape, load=args.load, referee=args.referee, scale=args.scale, seed=args.seed,
                          sound=not args.no_sound, rules=PRESETS[args.rules])
    window = Window(session, turbo=args.turbo, save_path=args.save, max_seconds=args.seconds)
    try:
        window.run()
    finally:
        window.close()
    return 0
