"""One game on the embedded Spectrum as a steppable object: keys in, frames run, the window's picture out.

`PlaySession` is built from a `PlaySettings` (settings.py) and has no clock and
no event loop of its own, so tests drive it frame by frame (with
SDL_VIDEODRIVER=dummy, or no display at all) and the window (window.py) paces
the same calls at 50 frames a second. The picture is the machine's own screen
render (`screen.render`, border included, scaled), the card pointer marked
over it (the machine's memory is never touched), the panel beside it (the
seed, a hint on H, the referee's lines) and a status line under both saying
in English what the program waits for (`waits`). It also says when the window
must keep real time in turbo (`needs_real_time`: a timed PAUSE, a message just
printed, the board demo), records or replays a game's keys (`record`), and
saves .z80 slots with their sidecar (`slots`). What it refuses names the file
or the setting at fault and marks the fix (`errors.needing`); the command
names its options.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Hashable

import numpy as np

from ..runtime import atomic
from ..errors import HarnessError, InputError, MachineError, UsageError, needing
from ..program.model import program as P
from ..program.records.frames import GameId, rzx_tag
from ..spectrum import z80snap
from ..spectrum.keyboard import parse_combo
from ..spectrum.loading import load_tape
from ..spectrum.machine import FRAME_T, PAUSE_RANGE, WaitState
from ..spectrum.screen import render
from ..spectrum.tape import read_tap
from ..spectrum.variables import BasicVariables
from .beeper import BeeperSpectrum, BeeperTrack
from .keymap import HeldKeys
from .record import KeyPlayer, KeyRecord, tape_digest
from .settings import PathLike, PlaySettings
from .slots import Sidecar, read_sidecar, shown_path, write_sidecar
from .waits import PAUSED_TEXT, status_text
from .translate import screen_texts, RANK_LEGEND, on_screen, panel_text
from .saved import is_saved_session, read_saved_session
from .hint import hint_at
from ..spectrum.rzx import write_rzx
from ..spectrum.recording import check_replays, RzxRecorder, CountingCore

if TYPE_CHECKING:
    from pygame import Surface

    from ..spectrum.recording import RzxRecorder
    from .referee import PanelLine, Referee
    from .translate import ScreenText

BORDER_W, BORDER_H = 320, 256      # the screen with its border, as screen.render draws it
PANEL_W = 300                      # the panel (seed, hint, referee), in unscaled pixels beside the screen
STATUS_H = 34                      # the status line and the window's messages under both, unscaled pixels
MESSAGE_READ_FRAMES = 75           # turbo keeps real time this long after the program prints a message (1.5 s)
#: needs_real_time's reasons that are only time to read (a timed PAUSE, a message just printed): without reading
#: time the window runs them unpaced too; the board demo is watched and a key is answered, so those keep real time
READING_TIME = frozenset({"pause", "message"})
FLASH_FRAMES = 16                  # FLASH swaps ink and paper every 16 frames
SEED_LINE = P.ASK_INSTRUCTIONS      # «ВАМ НУЖНА ИНСТРУКЦИЯ?»: RANDOMIZE at 7005 has just run
MAX_PARTIAL_FRAMES = 1000          # a frame cut short by traps this often is a machine fault, not a game
TRANSLATE_FRAMES = 10              # while the program draws, the screen's texts are read again this often at most


def _machine(counting: bool) -> BeeperSpectrum:
    """The session's Spectrum; on the core that counts fetches and keeps port reads when an RZX is recorded."""
    if not counting:
        return BeeperSpectrum(fast=False)
    return BeeperSpectrum(fast=False, core=CountingCore)


def _referee(machine: BeeperSpectrum, settings: PlaySettings) -> Referee | None:
    """The referee the settings ask for (honest or open), or None."""
    if settings.referee is None:
        return None
    from .referee import Referee  # lazy: the referee and its observer (47 ms) only when asked for
    return Referee(machine, settings.rules, honest=settings.referee == "honest")


class PlaySession:
    """The machine, the keys held on it, its sound, the optional referee, and what the window shows of them."""

    def __init__(self, settings: PlaySettings):
        self.settings = settings
        self.scale = settings.scale
        self.rules = settings.rules
        self.ahead = settings.ahead           # how far a replay runs unpaced: "end" or a deal number
        self.rzx_path = settings.rzx_path()
        self.rzx: RzxRecorder | None = None   # the recorder of the RZX, from the first question
        self.rzx_frames = 0                   # frames in the RZX written at close
        self.tape_sha256: str | None = None   # the SHA-256 of the tape loaded (the RZX's creator data names it)
        self.machine = _machine(counting=self.rzx_path is not None)
        self.deals = 0                        # deals dealt since the tape loaded (7800: both hands dealt)
        self.frames = 0                       # frames stepped by this session (the machine's restart on load)
        self.held = HeldKeys()
        self._api_keys: set[str] = set()      # keys held through press()/release()
        self._applied: frozenset[str] = frozenset()
        self.track = BeeperTrack() if settings.sound else None
        self.audio: list[np.ndarray] = []     # samples of frames with beeper edges, for the window to play
        self.status = ""
        self.seed = settings.seed             # None: the machine's own (the same every time)
        self.paused = False
        self.hint_on = False
        self.help_on = False
        self.notice = ""                      # the window's last message (saved, loaded, ...)
        #: the count when ENTER on an empty slot was last ignored (2742: under 22), until the next key goes down
        self.ignored_go: int | None = None
        self._hint: tuple[Hashable, list[str]] | None = None    # (the wait it was made for, its lines)
        self._message_until = -1              # frame until which turbo keeps real time for a message
        self._panel: tuple[Hashable, Surface] | None = None   # (what it was drawn from, the drawn panel)
        self._screens: dict[tuple[bytes, int, bool], Surface] = {}   # (screen, border, FLASH phase) -> its Surface
        self._texts: tuple[ScreenText, ...] | None = None    # the program's Russian texts and their English (translate)
        self._translated: tuple[bytes, int, list[PanelLine]] | None = None   # (screen, frame, its panel lines)
        self.save_folder: Path | None = None  # where the window's slots go (the window says it)
        self.record_path = settings.record_path()
        self.record: KeyRecord | None = None
        self.player = self._replay(settings.replay) if settings.replay is not None else None
        self.referee_mode = settings.referee
        self.referee = _referee(self.machine, settings)
        self._start(settings)

    # ------------------------------------------------------------------ start
    def _replay(self, replay: PathLike) -> KeyPlayer:
        """The record's keys to play from the tape; its seed is the game's (another seed given is refused)."""
        rec = KeyRecord.read(replay)                  # an InputError naming the file
        if self.seed is not None and self.seed != rec.seed:
            raise needing(UsageError(f"seed {self.seed}: the record {replay} was played with seed {rec.seed}"),
                          "seed")
        self.seed = rec.seed
        return KeyPlayer(rec)

    def _start(self, settings: PlaySettings) -> None:
        """From the saved game or from the tape; then the session's own hook and the referee's."""
        if settings.load is not None:
            self.load(settings.load)
        elif settings.tape is None:
            raise UsageError("no tape and no snapshot to start from")
        else:
            self._start_tape(Path(settings.tape), self.seed, settings.replay)
        self.machine.add_statement_hook(self._on_statement)
        if self.referee is not None:
            self.referee.attach()
            if self.seed is not None:
                self.referee.note(f"seed {self.seed}: replay this game with --seed {self.seed}")

    def _start_tape(self, tape: Path, seed: int | None, replay: PathLike | None) -> None:
        try:
            data = tape.read_bytes()
            blocks = read_tap(tape)
        except OSError as exc:
            raise needing(InputError(f"{tape}: {exc.strerror or exc}"), "tape") from exc
        except HarnessError as exc:          # not a tape: the reader names the file and the block
            raise needing(InputError(str(exc)), "tape") from exc
        if not blocks:
            raise needing(InputError(f"{tape}: the tape is empty"), "tape")
        self.tape_sha256 = tape_digest(data)
        if self.player is not None and self.player.record.tape_sha256 != self.tape_sha256:
            raise needing(InputError(f"{replay}: recorded on another tape than {tape}"), "replay")
        if self.record_path is not None:
            if seed is None:
                raise UsageError("a key record needs a seed (give one, or replay a record)")
            self.record = KeyRecord(self.tape_sha256, seed)
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
        if self.rzx_path is not None:
            self._start_rzx()

    def _start_rzx(self) -> None:
        """--record-rzx: the recording starts at the first question, SEED set (as regress --rzx's), after the
        frame the tape's loading stopped in."""
        m = self.machine
        for _ in range(MAX_PARTIAL_FRAMES):
            if not m.mid_frame:
                break
            m.run_frame()
        self.rzx = recorder = RzxRecorder(m)
        recorder.start()

    def _on_statement(self, line: int, stmt: int) -> bool:
        if (line, stmt) == P.AT_MESSAGE:
            self._message_until = self.frames + MESSAGE_READ_FRAMES
        elif (line, stmt) == P.AT_DEALT:
            self.deals += 1
        elif (line, stmt) == P.AT_EMPTY_SLOT_REFUSED:
            try:
                count = int(BasicVariables(self.machine).number(P.V_COUNT))
            except HarnessError:
                return False
            if count < P.GO_THRESHOLD:        # 2742 goes back to the selector: say why in the status line
                self.ignored_go = count
        return False

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

    @property
    def replaying(self) -> bool:
        return self.player is not None and self.frames < self.player.record.frames

    def running_ahead(self) -> bool:
        """--replay-to: the record's keys run unpaced until its last key (end) or until deal N is dealt."""
        if self.ahead is None or not self.replaying:
            return False
        return self.ahead == "end" or self.deals < int(self.ahead)

    def _wanted_keys(self) -> frozenset[str]:
        if self.player is not None:
            keys = self.player.keys_at(self.frames)
            if keys is not None:
                return frozenset(keys)            # the record's keys; the person's wait until it ends
        return frozenset(self._api_keys) | self.held.spectrum_keys(self.frames)

    def keys_down(self) -> bool:
        """Whether any Spectrum key is held now (a person at the keyboard: time runs at real speed)."""
        return bool(self._wanted_keys())

    def _apply_keys(self) -> None:
        wanted = self._wanted_keys()
        if self.record is not None:
            self.record.note(self.frames, wanted)
        if wanted and not self._applied:
            self.ignored_go = None                # a key goes down: the last ENTER's reason is old news
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
                raise MachineError(f"a frame did not end after {MAX_PARTIAL_FRAMES} trap stops "
                                f"(line {m.ppc}:{m.subppc}, PC={m.cpu.pc:#06x})")
            self.frames += 1
            if self.record is not None:
                self.record.frames = self.frames
            w = m.wait_state()
            if w is not None:
                self._message_until = -1          # a person at a wait has had the message before them
                if self.referee is not None:
                    self.referee.at_wait(w.kind, w.line, self.caller())
            if self.track is not None and m.frame_edges:
                self.audio.append(self.track.frame(m.frame_edges, m.frame_level))
            elif self.track is not None:
                self.track.frame([], m.frame_level)       # keep the sample phase

    def caller(self) -> int | None:
        """The GO SUB return line of the routine running now (who called the card selector)."""
        stack = self.machine.gosub_stack()
        return stack[0][0] if stack else None

    def waiting(self) -> WaitState | None:
        """What the program waits for now (a key, INPUT...), or None while it runs."""
        return self.machine.wait_state()

    def run_until_wait(self, max_frames: int = 30_000) -> WaitState:
        """Step until the program waits for a key with no key held; a MachineError after *max_frames*."""
        previous = None
        for _ in range(max_frames):
            self.step()
            w = self.waiting()
            if w is not None and previous is not None and w.kind == previous.kind:
                return w
            previous = w
        m = self.machine
        raise MachineError(f"the program did not wait for a key within {max_frames} frames "
                        f"(at line {m.ppc}:{m.subppc})")

    def needs_real_time(self) -> str | None:
        """Why turbo must keep real time now, or None: a timed PAUSE n (its text was just printed), a
        message printed less than MESSAGE_READ_FRAMES ago, or the board demo (9100-9160)."""
        m = self.machine
        if PAUSE_RANGE[0] <= m.cpu.pc < PAUSE_RANGE[1] and m.cpu.get("bc") != 0:
            return "pause"
        lo, hi = P.DEMO_LINES
        if lo <= m.ppc < hi or any(lo <= line < hi for line, _ in m.gosub_stack()):
            return "demo"
        if self.frames < self._message_until:
            return "message"
        return None

    # ------------------------------------------------------------------ what the window shows
    def status_line(self) -> str:
        if self.paused:
            return PAUSED_TEXT
        w = self.waiting()
        text = status_text(w.line if w is not None else None, self.caller() if w is not None else None,
                           self.ignored_go)
        if self.replaying and self.player is not None:
            total = self.player.record.frames
            where = ("running ahead to its end" if self.ahead == "end" else
                     f"running ahead to deal {self.ahead}" if self.running_ahead() else "at real speed")
            text = (f"REPLAY {where}: frame {self.frames} of {total}, deal {self.deals} (the keys are yours "
                    f"when it ends) | {text}")
        return text

    def pointer_slot(self) -> int | None:
        """The card selector's slot X (1-based) while it waits for SPACE or ENTER, else None."""
        w = self.waiting()
        caller = self.caller()
        if w is None or w.line not in P.SELECTOR_WAITS or caller is None or caller not in P.SELECTOR_SLOTS:
            return None
        try:
            x = int(BasicVariables(self.machine).number(P.V_POINTER))
        except HarnessError:
            return None
        return x if 1 <= x <= P.SELECTOR_SLOTS[caller] else None

    def hint_lines(self) -> list[str]:
        """The engine's hint for this wait (H), made once per wait; empty where the program asks for no card."""
        w = self.waiting()
        caller = self.caller() if w is not None else None
        key = (w.line if w else None, caller, self.frames if w is None else self._hint_wait_key(w, caller))
        if self._hint is not None and self._hint[0] == key:
            return self._hint[1]
        try:
            hint = hint_at(self.machine, caller, self.rules) if w is not None and w.line in P.SELECTOR_WAITS else None
            lines = hint.lines() if hint is not None else ["Hint: none here (a hint is for a discard or a card "
                                                           "to play)"]
        except (HarnessError, ValueError, IndexError) as exc:   # the game goes on; the hint says what it missed
            lines = [f"Hint: could not read the cards ({type(exc).__name__}: {exc})"]
        self._hint = (key, lines)
        return lines

    def _hint_wait_key(self, w: WaitState, caller: int | None) -> tuple[Hashable, ...]:
        """What the hint depends on at a wait: the cards held and the series (SUM, N) and the first discard."""
        v = BasicVariables(self.machine)
        try:
            return tuple(v.numbers(P.V_HELD)) + (v.number(P.V_SERIES_LENGTH), v.number(P.V_COUNT),
                                                 tuple(v.numbers(P.V_SERIES)[:4]), caller)
        except HarnessError:
            return (caller,)

    def screen_texts(self) -> tuple[ScreenText, ...]:
        """The Russian texts of the program in the machine and their English (none on the English tape)."""
        if self._texts is None:
            self._texts = screen_texts(self.machine.program_bytes())
        return self._texts

    def translation_lines(self) -> list[PanelLine]:
        """The card letters' legend and the English of each Russian text on the screen now (the Russian tape);
        read again when the screen changed, at once at a wait and at most every TRANSLATE_FRAMES meanwhile."""
        from .referee import PanelLine  # lazy: the referee's module (47 ms) only for the panel's lines
        try:
            texts = self.screen_texts()
        except HarnessError as exc:           # a program the table does not cover (a --load from elsewhere)
            return [PanelLine(f"no English for this program's texts: {exc}", "note")]
        if not texts:
            return []
        m = self.machine
        screen = m.read(0x4000, 0x1B00)
        done = self._translated
        if done is None or (done[0] != screen and (self.waiting() is not None
                                                   or self.frames - done[1] >= TRANSLATE_FRAMES)):
            lines = [PanelLine(RANK_LEGEND, "legend")]
            lines += [PanelLine(panel_text(t), "translation") for t in on_screen(m.mem, texts)]
            self._translated = done = (screen, self.frames, lines)
        return done[2]

    def panel_lines(self) -> list[PanelLine]:
        """The panel's lines, top to bottom: the card legend and the screen's texts in English (Russian tape),
        the seed, the hint when asked, then the referee's."""
        from .referee import PanelLine  # lazy: the referee's module (47 ms) only for the panel's lines
        lines = list(self.translation_lines())
        if self.seed is not None and self.referee is None:
            lines.append(PanelLine(f"seed {self.seed}: replay with --seed {self.seed}", "note"))
        if self.save_folder is not None and self.referee is None:
            lines.append(PanelLine(f"saves (F2/F3): {shown_path(self.save_folder)}", "note"))
        if self.hint_on:
            lines += [PanelLine(t, "hint") for t in self.hint_lines()]
        if self.referee is not None:
            lines += self.referee.lines()
        elif not self.hint_on:
            lines.append(PanelLine("H: a hint; F1: every key; --referee: the engine's view of the deal", "note"))
        return lines

    def screen_pixels(self) -> np.ndarray:
        """The machine's screen and border as RGB (height, width, 3), scaled: the machine's own render."""
        m = self.machine
        flash = (m.frames // FLASH_FRAMES) % 2 == 1
        return render(m.mem, border=m.s.border, scale=self.scale, flash_phase=flash)

    def picture_key(self) -> tuple[Hashable, ...]:
        """Everything surface() draws from: the same key, the same picture. The window draws a frame only when
        it changed (at a wait, or during a PAUSE, most frames show what the last one did)."""
        m = self.machine
        screen = m.read(0x4000, 0x1B00)
        flash = max(screen[0x1800:]) >= 0x80 and (m.frames // FLASH_FRAMES) % 2 == 1    # FLASH, where set
        lines = tuple(self.panel_lines())
        return (screen, m.s.border, flash, self.pointer_slot(), lines,
                self.referee.version if self.referee else 0, self.status_line(), self.notice, self.help_on,
                self.scale, self.paused, self.hint_on)

    @property
    def size(self) -> tuple[int, int]:
        return (BORDER_W + PANEL_W) * self.scale, (BORDER_H + STATUS_H) * self.scale

    def surface(self) -> Surface:
        """A pygame Surface of the whole window: the screen with the pointer marked, the panel on its right,
        the status line under both, and the key help over everything when F1 asked for it."""
        import pygame  # lazy: pygame (optional) and the panel only for a window; a headless session never draws
        from . import panel as draw
        surf = pygame.Surface(self.size)
        m = self.machine
        drawn = (m.read(0x4000, 0x1B00), m.s.border, (m.frames // FLASH_FRAMES) % 2 == 1)
        screen = self._screens.get(drawn)
        if screen is None:                    # the machine's render, kept for the last few screens (FLASH: two)
            img = self.screen_pixels()
            screen = pygame.image.frombuffer(img.tobytes(), (img.shape[1], img.shape[0]), "RGB")
            if len(self._screens) >= 4:
                del self._screens[next(iter(self._screens))]
            self._screens[drawn] = screen
        w, h = screen.get_size()
        surf.blit(screen, (0, 0))
        slot = self.pointer_slot()
        if slot is not None:
            draw.draw_pointer(surf, slot, self.scale)
        lines = self.panel_lines()
        key = (tuple(lines), self.referee.version if self.referee else 0)
        if self._panel is None or self._panel[0] != key:
            panel = pygame.Surface((self.size[0] - w, h))
            draw.draw_panel(panel, panel.get_rect(), lines, self.scale)
            self._panel = (key, panel)
        surf.blit(self._panel[1], (w, 0))
        draw.draw_status(surf, pygame.Rect(0, h, self.size[0], self.size[1] - h), self.status_line(),
                         self.notice, self.scale)
        if self.paused:
            draw.draw_paused(surf, pygame.Rect(0, 0, w, h), self.scale)
        if self.help_on:
            draw.draw_help(surf, self.scale, self.toggles(),
                           [f"Save slots (F2/F3): {shown_path(self.save_folder)}"] if self.save_folder is not None
                           else [])
        return surf

    def toggles(self) -> dict[str, bool]:
        """The window's toggles and whether each is on now (F1's help says them)."""
        return {"F1": self.help_on, "H": self.hint_on, "P": self.paused}

    # ------------------------------------------------------------------ .z80
    def save(self, path: PathLike) -> Path:
        """Write the machine as a version 3 .z80, atomically (harness/atomic.py), and beside it the seed
        and the referee's count of deals, so a load numbers the deals on."""
        path = Path(path)
        data = z80snap.write_z80(z80snap.from_machine(self.machine))
        atomic.write_bytes(path, data)
        if self.referee is not None:                      # the panel as a person sees it now (veils included)
            write_sidecar(path, Sidecar(self.seed, self.referee.deals, tuple(self.referee.lines())))
        elif self.seed is not None:
            write_sidecar(path, Sidecar(self.seed))
        self.status = f"saved {path}"
        return path

    def load(self, path: PathLike) -> None:
        """Put the machine in the state of a .z80; the referee starts afresh at the next deal, numbered on
        from the deals the save had seen."""
        path = Path(path)
        if self.record is not None:
            raise UsageError(f"{path}: not loaded while the game's keys are recorded (the record would not replay)")
        if self.rzx is not None:
            raise UsageError(f"{path}: not loaded while an RZX is recorded (an RZX cannot hold a load)")
        side: Sidecar | None = None
        try:
            with open(path, "rb") as f:
                head = f.read(400)
            if is_saved_session(head):                 # a session saved by play.html: its .z80 and its seed
                saved = read_saved_session(path)
                # the page saves at a frame's end, the interrupt due (a version 1 .z80 cannot say so)
                snap = dataclasses.replace(z80snap.read_z80(saved.z80), tstates=FRAME_T - 1)
                side = Sidecar(seed=saved.record.seed)
            else:
                snap = z80snap.read_z80(path)
        except OSError as exc:
            raise InputError(f"{path}: {exc.strerror or exc}") from exc
        if side is None:                               # none beside it: a .z80 from elsewhere, deals counted from 1
            side = read_sidecar(path, panel=self.referee is not None)   # a bad one: one line naming it
        z80snap.to_machine(snap, self.machine)
        self.machine.forget_edges()
        self.release()
        self._applied = frozenset()
        self.player = None
        if side.seed is not None:
            self.seed = side.seed
        if self.referee is not None:
            self.referee.restart(f"loaded {path.name}", deals=side.deals, panel=side.panel)
        self.status = f"loaded {path}"

    def close(self) -> None:
        """Write the key record (--record) and the RZX (--record-rzx), each whole or not at all: the RZX's
        creator data names the session (records/frames.py's rzx_tag: no game, its seed, the tape's SHA-256), and an RZX
        that does not replay on the embedded core to this machine's state (`recording.check_replays`) is
        not written, and the MachineError says which frame fails."""
        if self.record is not None and self.record_path is not None:
            self.record.write(self.record_path)
        if self.rzx is not None and self.rzx_path is not None:
            recorder, self.rzx = self.rzx, None
            recording = recorder.stop()
            recording.custom = rzx_tag(GameId(None, self.seed, self.tape_sha256))   # a session played by hand
            check_replays(recording, z80snap.from_machine(self.machine), str(self.rzx_path))
            atomic.write_bytes(self.rzx_path, write_rzx(recording))
            self.rzx_frames = len(recording.frames)
