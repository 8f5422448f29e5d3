"""The play window: the Spectrum's screen, the referee's panel and the keys, paced at real time or turbo.

`Window` runs a `PlaySession` (harness/play/session.py) frame by frame: real speed by default, one frame
every 1/50 s; turbo runs frames as fast as the emulator goes while the program computes and keeps real
time whenever a person is needed or reading (`PlaySession.needs_real_time`); without reading time
(`reading_time=False`, play --no-reading-time) it keeps real time only while a key is awaited or held and for
the board demo. Either way the machine runs the same frames: only the host's waits between them are skipped.
The window's own keys are
`keymap.WINDOW_KEYS`; every other key goes to the Spectrum. `cribbage-zx play` (harness/commands/play.py)
opens it.
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Callable, Hashable, Mapping

from ..spectrum.machine import FRAME_S
from ..errors import HarnessError, UsageError
from .keymap import HINT_KEY, PAUSE_KEY
from .session import BORDER_H, BORDER_W, READING_TIME, PlaySession
from .slots import default_save, slot_path
import numpy as np

if TYPE_CHECKING:
    from pygame import Rect
    from pygame.event import Event
    from pygame.mixer import Channel

PROG = "cribbage-zx play"      # what its messages on stdout and stderr begin with
TITLE = "КРИБЕДЖ: cribbage-zx play"
WM_CLASS = "cribbage-zx"
HEADLESS_DRIVERS = ("dummy", "offscreen")
#: what the window shows: the session's picture_key and the window's size
Shown = tuple[tuple[Hashable, ...], tuple[int, int]]
CATCH_UP_LIMIT = 0.25            # seconds behind real time after which the clock starts again from now
TURBO_SLICE = 1 / 50             # seconds of unpaced frames between two looks at the keys and the window
NOTICE_SECONDS = 5               # a window message (saved, loaded...) stays this long under the screen
REDRAW_SECONDS = 5.0             # the picture is drawn at least this often, changed or not


def check_display(environ: Mapping[str, str] = os.environ) -> None:
    """A one-line reason when there is no display to open a window on."""
    if environ.get("SDL_VIDEODRIVER", "").lower() in HEADLESS_DRIVERS:
        return
    if not environ.get("DISPLAY") and not environ.get("WAYLAND_DISPLAY"):
        raise UsageError("no display (DISPLAY is not set; run under X or use xvfb-run)")


def import_pygame() -> ModuleType:
    """pygame, imported quietly, on SDL's plain framebuffer and under the window's class name (or a UsageError
    saying how to install it)."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    os.environ.setdefault("SDL_VIDEO_X11_WMCLASS", WM_CLASS)   # before pygame names it after argv[0]: X tools find it
    # the picture is composed on the CPU: SDL's plain framebuffer (XShm under X) shows it for ~0.2 ms a frame,
    # where its default "accelerated" one goes through OpenGL (on a machine without a GPU, Mesa's software
    # renderer: ~7 ms a frame, the window's main cost); SDL_FRAMEBUFFER_ACCELERATION=1 asks for it again
    os.environ.setdefault("SDL_FRAMEBUFFER_ACCELERATION", "0")
    try:
        import pygame  # lazy: pygame is optional (the play extra): a UsageError says how to install it
    except ImportError as exc:
        raise UsageError("pygame-ce is not installed (pip install -e '.[play]')") from exc
    return pygame


class Window:
    """The real-time loop: events to keys, frames paced at 50 Hz (or unpaced in turbo), the picture, the sound,
    and the window's own keys (help, hint, pause, save slots, full screen)."""

    def __init__(self, session: PlaySession, turbo: bool = False, save_path: Path | None = None,
                 max_seconds: float | None = None, reading_time: bool = True):
        self.pygame = pg = import_pygame()
        self.session = session
        self.turbo = turbo or not reading_time        # no reading time is a turbo that skips the reading too
        self.reading_time = reading_time
        self.save_path = save_path = Path(save_path) if save_path is not None else default_save()
        session.save_folder = save_path.parent
        self.max_seconds = max_seconds
        self.slot = 1                      # the last slot saved or loaded
        self.asking: str | None = None     # "save" or "load": F2/F3 wait for the slot's digit
        self._notice_until = 0.0
        self.paced_frames = {"turbo": 0, "real": 0}      # frames run unpaced and at real time (the figures)
        self.paced_why: dict[str, int] = {}              # real-time frames in turbo, by why
        self.skipped_why: dict[str, int] = {}            # frames of reading time run unpaced (no reading time)
        if os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
            os.environ.setdefault("SDL_VIDEODRIVER", "x11")     # X only: no Wayland probe, no fallback
        try:
            pg.display.init()
        except pg.error as exc:
            raise UsageError(f"no display (cannot open DISPLAY={os.environ.get('DISPLAY', '')!r}: {exc}; "
                            f"run under X or use xvfb-run)") from exc
        driver = pg.display.get_driver()
        if driver in HEADLESS_DRIVERS and os.environ.get("SDL_VIDEODRIVER", "").lower() not in HEADLESS_DRIVERS:
            pg.display.quit()          # SDL could not open the display it was given and fell back to drawing nowhere
            raise UsageError(f"no display (cannot open DISPLAY={os.environ.get('DISPLAY', '')!r}; "
                            f"run under X or use xvfb-run)")
        pg.font.init()
        try:
            self.screen = pg.display.set_mode(session.size, pg.RESIZABLE)
        except pg.error as exc:
            raise UsageError(f"no display ({exc})") from exc
        pg.display.set_caption(self.title())
        self.channel = self._open_audio(session.track.rate) if session.track is not None else None
        self.running = True
        self._shown: Shown | None = None  # what the window shows: (picture_key, the window size)
        self._shown_at = 0.0               # when it was drawn (time.monotonic)
        self.redraws = 0                   # frames drawn (the figure: most frames at a wait draw nothing)

    def title(self, text: str = "") -> str:
        s = self.session
        seed = f" - seed {s.seed} (replay with --seed {s.seed})" if s.seed is not None else ""
        speed = " [turbo]" if self.reading_time else " [turbo, no reading time]"
        return TITLE + (speed if self.turbo else "") + seed + (f": {text}" if text else "")

    def _open_audio(self, rate: int) -> Channel | None:
        pg = self.pygame
        try:
            pg.mixer.init(frequency=rate, size=-16, channels=1, buffer=512)
            channel: Channel = pg.mixer.Channel(0)
            return channel
        except pg.error as exc:
            print(f"{PROG}: no sound ({exc})", file=sys.stderr)
            self.session.track = None
            return None

    # ------------------------------------------------------------------ events
    def handle(self, event: Event) -> None:
        pg = self.pygame
        s = self.session
        if event.type in (pg.WINDOWEXPOSED, pg.WINDOWSIZECHANGED, pg.WINDOWSHOWN, pg.WINDOWRESTORED,
                          pg.VIDEOEXPOSE):
            self._shown = None                # the window lost its picture or changed size: draw it again
        if event.type == pg.QUIT:
            self.running = False
        elif event.type == pg.KEYDOWN and self.asking is not None:
            self._answer_slot(event)
        elif event.type == pg.KEYDOWN and event.key == pg.K_F10:
            self.running = False
        elif event.type == pg.KEYDOWN and event.key in (pg.K_F2, pg.K_F3):
            self.asking = "save" if event.key == pg.K_F2 else "load"
            self._say(f"{self.asking} which slot? press 1-9 (ENTER or F{2 if self.asking == 'save' else 3} "
                      f"again: slot {self.slot}; Esc: never mind) - {slot_path(self.save_path, 0).parent}",
                      echo=False)
        elif event.type == pg.KEYDOWN and event.key == pg.K_F1:
            s.help_on = not s.help_on
        elif event.type == pg.KEYDOWN and event.key == pg.K_ESCAPE and s.help_on:
            s.help_on = False
        elif event.type == pg.KEYDOWN and event.key == pg.K_F11:
            self._toggle_full_screen()
        elif event.type == pg.KEYDOWN and self._window_letter(event, PAUSE_KEY, pg.K_PAUSE):
            s.paused = not s.paused
            s.release()
        elif event.type == pg.KEYDOWN and self._window_letter(event, HINT_KEY):
            s.hint_on = not s.hint_on
        elif event.type == pg.KEYDOWN:
            if not s.paused:
                s.host_key_down(pg.key.name(event.key))
        elif event.type == pg.KEYUP:
            s.host_key_up(pg.key.name(event.key))
        elif event.type in (pg.WINDOWFOCUSLOST,):
            s.release()                       # keys held when the focus went would stay down for ever

    def _window_letter(self, event: Event, letter: str, also: int | None = None) -> bool:
        """P and H are the window's, except at an INPUT, where a person types them (Pause still pauses)."""
        if also is not None and event.key == also:
            return True
        if self.pygame.key.name(event.key) != letter:
            return False
        w = self.session.waiting()
        return w is None or w.kind not in ("input", "editor")

    def _answer_slot(self, event: Event) -> None:
        pg = self.pygame
        what, self.asking = self.asking, None
        name = pg.key.name(event.key).strip("[]")
        if event.key == pg.K_ESCAPE:
            self._say(f"no {what}", echo=False)
            return
        if event.key in (pg.K_RETURN, pg.K_KP_ENTER, pg.K_F2 if what == "save" else pg.K_F3):
            slot = self.slot
        elif name in "123456789" and len(name) == 1:
            slot = int(name)
        else:
            self._say(f"no {what}: a slot is 1-9", echo=False)
            return
        path = slot_path(self.save_path, slot)
        s = self.session
        if what == "save":
            try:
                path.parent.mkdir(parents=True, exist_ok=True)     # the data folder, made at the first save
                self._say(f"saved slot {slot}: {s.save(path)}")
                self.slot = slot
            except OSError as exc:            # a full disk or a folder we may not write: the game goes on
                self._say(f"could not save slot {slot} ({path}): {exc.strerror or exc}")
        else:
            try:
                s.load(path)
                self._say(f"loaded slot {slot}: {path}")
                self.slot = slot
            except HarnessError as exc:         # a usage or file problem: said in the window
                self._say(f"could not load slot {slot}: {exc}")

    def _say(self, text: str, echo: bool = True) -> None:
        """A message under the screen for a few seconds, in the title, and (done things) on stdout."""
        if echo:
            print(f"{PROG}: {text}", flush=True)
        self.session.notice = text
        self._notice_until = time.monotonic() + NOTICE_SECONDS
        self.pygame.display.set_caption(self.title(text))

    def _toggle_full_screen(self) -> None:
        pg = self.pygame
        flags = self.screen.get_flags()
        self._shown = None
        try:
            if flags & pg.FULLSCREEN:
                self.screen = pg.display.set_mode(self.session.size, pg.RESIZABLE)
            else:
                self.screen = pg.display.set_mode((0, 0), pg.FULLSCREEN)
        except pg.error as exc:
            self._say(f"no full screen ({exc})", echo=False)

    # ------------------------------------------------------------------ loop
    def present(self) -> None:
        """Draw the session's picture, unless the window already shows it (the same picture_key and size,
        drawn less than REDRAW_SECONDS ago): a still screen costs no render and no blit to the display."""
        pg = self.pygame
        now = time.monotonic()
        if self.session.notice and now > self._notice_until:
            self.session.notice = ""
        target = self.screen.get_size()
        shown = (self.session.picture_key(), target)
        if shown == self._shown and now - self._shown_at < REDRAW_SECONDS:
            return
        before, self._shown, self._shown_at = self._shown, shown, now
        self.redraws += 1
        picture = self.session.surface()
        if target == picture.get_size():
            self.screen.blit(picture, (0, 0))
            changed = self._changed_parts(before, shown)
            if changed is not None:
                pg.display.update(changed)     # only what changed goes to the display (a notice: its line)
                return
        else:                                  # resized or full screen: the whole picture, its shape kept
            pw, ph = picture.get_size()
            k = min(target[0] / pw, target[1] / ph)
            size = (max(1, int(pw * k)), max(1, int(ph * k)))
            self.screen.fill((0, 0, 0))
            self.screen.blit(pg.transform.scale(picture, size), ((target[0] - size[0]) // 2,
                                                                 (target[1] - size[1]) // 2))
        pg.display.flip()

    def _changed_parts(self, before: Shown | None, now: Shown) -> list[Rect] | None:
        """The window's parts (screen, panel, status line) whose picture_key items differ, as rectangles; None
        for the whole window (nothing shown yet, another size, the key help, or the periodic redraw)."""
        if before is None or before[1] != now[1] or before == now or before[0][8] or now[0][8]:
            return None
        a, b = before[0], now[0]
        k = self.session.scale
        width, height = now[1]
        w, h = BORDER_W * k, BORDER_H * k
        parts = [(a[:4] != b[:4] or a[10:11] != b[10:11], (0, 0, w, h)),      # the screen, or pause's banner on it
                 (a[4:6] != b[4:6], (w, 0, width - w, h)),
                 (a[6:8] != b[6:8], (0, h, width, height - h))]
        return [self.pygame.Rect(rect) for differs, rect in parts if differs]

    def _play_sound(self) -> None:
        audio = self.session.audio
        if self.channel is None or not audio:
            audio.clear()
            return
        if self.channel.get_queue() is None:
            sound = self.pygame.mixer.Sound(buffer=np.concatenate(audio).tobytes())
            (self.channel.queue if self.channel.get_busy() else self.channel.play)(sound)
            audio.clear()
        elif len(audio) > 10:                   # the device is behind: drop rather than lag
            audio.clear()

    def _may_hurry(self) -> bool:
        """Turbo runs ahead only while nobody is needed or reading: no key awaited and none held (a held key
        at full speed would be taken for many, the ROM's auto-repeat starting after 35 frames), no timed
        message, no board demo; without reading time, through timed PAUSEs and messages too."""
        s = self.session
        if s.keys_down() or s.waiting() is not None:
            return False
        why = s.needs_real_time()
        return why is None or (not self.reading_time and why in READING_TIME)

    def step_ahead(self) -> None:
        """One frame run ahead, counted as turbo's (and, without reading time, the reading it skipped)."""
        s = self.session
        why = None if self.reading_time or not self.turbo else s.needs_real_time()
        s.step()
        self.paced_frames["turbo"] += 1
        if why is not None:
            self.skipped_why[why] = self.skipped_why.get(why, 0) + 1

    def _hurry(self) -> bool:
        """Frames unpaced now: a --replay running ahead (--replay-to), or turbo while nobody is needed."""
        return self.session.running_ahead() or (self.turbo and self._may_hurry())

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
            if s.paused:
                self.present()
                time.sleep(FRAME_S)
                next_frame = time.perf_counter()
                continue
            if self._hurry():
                slice_end = now + TURBO_SLICE
                while time.perf_counter() < slice_end and self._hurry():
                    self.step_ahead()
                s.audio.clear()                   # sound at turbo speed would be noise
                next_frame = time.perf_counter()
                self.present()
                continue
            if self.turbo:
                why = s.needs_real_time() or ("key" if s.keys_down() or s.waiting() is not None else "other")
                self.paced_why[why] = self.paced_why.get(why, 0) + 1
            s.step()
            self.paced_frames["real"] += 1
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
