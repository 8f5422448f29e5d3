"""The page against the embedded machine: a key record replayed by both, compared at checkpoints.

`embedded_checkpoints` replays a `play --record` key record on the embedded machine (harness/play's
PlaySession, the window's own code) and keeps, at each checkpoint frame, the 48K of RAM, the screen as
screen.render draws it (border included, in the FLASH phase of that frame) and PPC. `differences` sets the
page's results (play.html's zxPage.replay) against them: each RAM, screen or highlighted-line mismatch is
one line naming the frame, and so is a status line or a reason of the turbo rule that is not the window's. `canvas_display` turns the canvas's pixels back into a display file, so the
project's own screen reader (harness/spectrum/screen.py) reads what the page shows.
"""
from __future__ import annotations

import base64
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..errors import InputError
from ..play.session import FLASH_FRAMES, PlaySession
from ..play.settings import PlaySettings
from ..spectrum.machine import Spectrum48
from ..spectrum.screen import PALETTE, render
from ..runtime.validate import expect, field
from ..program.records.events import Picture
from ..program.model.program import WAIT_LOOP_HEAD
from ..spectrum.rzx import read_rzx
from ..spectrum.recording import RzxPlayer

if TYPE_CHECKING:
    from ..program.records.events import Event

RAM = slice(0x4000, 0x10000)
CANVAS_W, CANVAS_H = 320, 256


@dataclass(frozen=True)
class Checkpoint:
    frame: int
    ram: bytes              # 0x4000-0xFFFF
    screen: np.ndarray      # (256, 320, 3) RGB, border included
    ppc: int
    status: str = ""        # the window's status line (PlaySession.status_line)
    real_time: str | None = None    # why turbo keeps real time (PlaySession.needs_real_time), or None


def checkpoint_frames(frames: int, count: int = 12) -> list[int]:
    """*count* frames spread over a record of *frames* frames, the last at its end."""
    if frames < count:
        raise InputError(f"a record of {frames} frames is too short for {count} checkpoints")
    return [round(frames * (i + 1) / count) for i in range(count)]


def embedded_checkpoints(tape: Path, record: Path, frames: list[int]) -> list[Checkpoint]:
    """Replay *record* on the embedded machine from *tape*, keeping each checkpoint's state."""
    s = PlaySession(PlaySettings(tape=tape, replay=record, scale=1))
    out = []
    for frame in frames:
        s.step(frame - s.frames)
        out.append(_checkpoint(frame, s.machine, s.machine.frames, s.status_line(), s.needs_real_time()))
    return out


def _checkpoint(frame: int, m: Spectrum48, flash_clock: int, status: str = "", real_time: str | None = None) -> Checkpoint:
    """Machine *m*'s RAM, screen (in the FLASH phase of frame *flash_clock*) and PPC, at checkpoint *frame*."""
    flash = (flash_clock // FLASH_FRAMES) % 2 == 1
    return Checkpoint(frame, m.read(RAM.start, RAM.stop - RAM.start), render(m.mem, border=m.s.border, flash_phase=flash),
                      m.ppc, status, real_time)


def rzx_checkpoints(rzx: bytes, frames: list[int], name: str = "<rzx>") -> list[Checkpoint]:
    """Play *rzx* on the embedded machine (harness/spectrum/recording.py's RzxPlayer), keeping at each
    checkpoint (RZX frames played) the RAM, the screen in that frame's FLASH phase and PPC, as the watch
    mode's page draws them."""
    p = RzxPlayer(read_rzx(rzx, name))
    out = []
    for frame in frames:
        p.play(frame - p.frame)
        out.append(_checkpoint(frame, p.m, p.frame))
    return out


def watch_differences(expected: dict[int, int], shown: dict[str, int]) -> list[str]:
    """Each judgement the watch page showed at another frame than *expected* (judgement number -> frames
    played when it is due), or never, or that it made up; one line each (empty: every one at its frame)."""
    out = []
    got = {int(n): f for n, f in shown.items()}
    for n, frame in sorted(expected.items()):
        if n not in got:
            out.append(f"judgement {n}: never shown (due at frame {frame})")
        elif got[n] != frame:
            out.append(f"judgement {n}: shown at frame {got[n]}, its action is at frame {frame}")
    out += [f"judgement {n}: shown at frame {got[n]}, and there is no such judgement" for n in sorted(got.keys() - expected.keys())]
    return out


WAIT_MOMENTS = ("input ", "inkey ", "pause ", "select ")     # a picture taken where the program waits for a person


def picture_frame_differences(events: list[Event], frames: list[int], rzx: bytes, name: str = "<rzx>") -> list[str]:
    """The frames file (*frames*, one per event) against the recorded machine: each picture taken at a wait
    (its moment "input N", "inkey N", "pause N", "select N") is the machine's state once the RZX has played
    its frame (the wait is seen at a frame's end, so the frames before it are played): there the player's PPC
    must be the picture's line (a polling loop named by its head, program.WAIT_LOOP_HEAD). One line for each
    picture where it is not (empty: every wait picture at its frame); the events before the recording are
    left out. The frames come from the file, the lines from the transcript, PPC from the machine."""
    if len(frames) != len(events):
        raise InputError(f"{len(frames)} frames for {len(events)} events")
    recording = read_rzx(rzx, name)
    p = RzxPlayer(recording)
    out = []
    for i, e in enumerate(events):
        if not isinstance(e, Picture) or not e.moment.startswith(WAIT_MOMENTS) or frames[i] < 0:
            continue
        if frames[i] < p.frame or frames[i] > len(recording.frames):
            out.append(f"event {i} ({e.moment}): frame {frames[i]} is outside the recording's "
                       f"{len(recording.frames)} frames or before the event before it")
            continue
        p.play(frames[i] - p.frame)
        ppc = WAIT_LOOP_HEAD.get(p.m.ppc, p.m.ppc)
        if ppc != e.line:
            out.append(f"event {i} ({e.moment}): at frame {frames[i]} the machine is at line {ppc}, the picture "
                       f"at {e.line}")
    return out


def canvas_rgb(canvas_b64: str) -> np.ndarray:
    """The page's canvas (zxPage.canvasRGBA, 320x256 RGBA in base64) as (256, 320, 3) RGB."""
    data = np.frombuffer(base64.b64decode(canvas_b64), dtype=np.uint8)
    if data.size != CANVAS_W * CANVAS_H * 4:
        raise InputError(f"the canvas gave {data.size} bytes, not {CANVAS_W * CANVAS_H * 4}")
    return data.reshape(CANVAS_H, CANVAS_W, 4)[:, :, :3]


@dataclass(frozen=True)
class PageCheckpoint:
    """One checkpoint as play.html's zxPage.replay gives it (page_checkpoints reads it)."""
    frame: int
    ram: str                        # the 64K, base64
    canvas: str                     # zxPage.canvasRGBA
    highlighted: int | None         # the listing's highlighted line
    status: str | None = None       # None: the page gave no status line (it is not held to the window's)
    real_time: str | None = None    # why turbo keeps real time (None: it does not, or the page did not say)
    says_real_time: bool = False    # the page said it (a page that does not is not held to the window's)


def page_checkpoints(page: object, where: str = "the page's checkpoints") -> list[PageCheckpoint]:
    """The page's checkpoints (the JSON zxPage.replay returns) as records, an InputError naming a field that
    is missing or of another type."""
    out = []
    for i, item in enumerate(expect(page, list, where)):
        at = f"{where}[{i}]"
        p: dict[str, object] = expect(item, dict, at)
        out.append(PageCheckpoint(field(p, "frame", int, at), field(p, "ram", str, at), field(p, "canvas", str, at),
                                  field(p, "highlighted", (int, type(None)), at),
                                  field(p, "status", str, at, None), field(p, "real_time", (str, type(None)), at, None),
                                  "real_time" in p))
    return out


def differences(embedded: list[Checkpoint], page: object) -> list[str]:
    """Each way the page's checkpoints (zxPage.replay's JSON) differ from the embedded machine's, one line each
    (empty: the same)."""
    out = []
    shown_at = page_checkpoints(page)
    if [c.frame for c in embedded] != [p.frame for p in shown_at]:
        return [f"checkpoints at frames {[p.frame for p in shown_at]}, expected {[c.frame for c in embedded]}"]
    for c, p in zip(embedded, shown_at):
        ram = base64.b64decode(p.ram)[RAM]
        if ram != c.ram:
            diff = [i for i in range(len(ram)) if ram[i] != c.ram[i]]
            out.append(f"frame {c.frame}: RAM differs at {len(diff)} bytes, the first at {RAM.start + diff[0]:#06x}")
        shown = canvas_rgb(p.canvas)
        if not np.array_equal(shown, c.screen):
            rows = sorted({int(y) for y in np.nonzero((shown != c.screen).any(axis=2))[0]})
            out.append(f"frame {c.frame}: the screen differs on {len(rows)} pixel rows, the first {rows[0]}")
        if p.highlighted != c.ppc:
            out.append(f"frame {c.frame}: the listing highlights line {p.highlighted}, PPC is {c.ppc}")
        if p.status is not None and p.status != c.status:
            out.append(f"frame {c.frame}: the status line says {p.status!r}, the window's {c.status!r}")
        if p.says_real_time and p.real_time != c.real_time:
            out.append(f"frame {c.frame}: turbo keeps real time for {p.real_time!r}, the window for {c.real_time!r}")
    return out


def canvas_display(rgb: np.ndarray) -> bytes:
    """The display file (6,144 bitmap bytes and 768 attributes) that draws *rgb* (256x320 with the border).

    Each cell's two colours become paper (its top-left pixel's) and ink; a pixel is set where it is not the
    paper. Where the page drew ink and paper the other way round, the glyph comes out inverted, which the
    screen reader also matches. A colour outside the palette, or a third colour in a cell, is an InputError.
    """
    inner = rgb[32:224, 32:288]
    colours = {tuple(int(v) for v in c): i for i, c in reversed(list(enumerate(PALETTE)))}   # black: index 0
    bitmap = bytearray(6144)
    attrs = bytearray(768)
    for row in range(24):
        for col in range(32):
            cell = inner[row * 8:row * 8 + 8, col * 8:col * 8 + 8]
            paper = tuple(int(v) for v in cell[0, 0])
            ink_pixels = (cell != cell[0, 0]).any(axis=2)
            others = {tuple(int(v) for v in px) for px in cell[ink_pixels]}
            if len(others) > 1 or paper not in colours or not others <= colours.keys():
                raise InputError(f"cell {row},{col} of the canvas is not two colours of the Spectrum's palette")
            p = colours[paper]
            i = colours[next(iter(others))] if others else p
            bright = 1 if (p >= 8 or i >= 8) else 0
            attrs[row * 32 + col] = bright << 6 | (p & 7) << 3 | (i & 7)
            for line in range(8):
                y = row * 8 + line
                addr = (y & 0xC0) << 5 | (y & 7) << 8 | (y & 0x38) << 2 | col
                bitmap[addr] = int(np.packbits(ink_pixels[line])[0])
    return bytes(bitmap + attrs)
