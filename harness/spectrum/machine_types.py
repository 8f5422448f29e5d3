"""What the embedded Spectrum hands its users and keeps outside its CPU core: the frame's timing, the
records of a run (reports, events, waits, the reason a run stopped) and the machine's own state, which a
snapshot saves beside the core's.

Here rather than in machine.py so that the machine's parts (its memory access, its wait detector) can name
them without importing the machine; machine.py re-exports every name.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Literal, Protocol, TypedDict

from ..errors import MachineError
from .core import Core

FRAME_T = 69_888          # T-states per 48K frame
INT_LENGTH_T = 32         # the ULA holds /INT low for about 32 T-states
CPU_HZ = 3_500_000
FRAME_S = FRAME_T / CPU_HZ

#: what the machine did that a person would see or hear (Event.kind)
EventKind = Literal["beep", "pause", "border", "tape"]
#: what the program waits for (WaitState.kind): INPUT, the editor, PAUSE 0, an INKEY$ polling loop
WaitKind = Literal["input", "editor", "pause", "inkey"]
#: why a run stopped (StopReason.kind): at the line asked for, a statement hook's request, a wait for a
#: key, a report, the caller's condition
StopKind = Literal["line", "hook", "wait", "report", "condition"]


class TapeBlockLike(Protocol):
    """What the deck reads of a tape block (tape.TapeBlock is one)."""

    @property
    def flag(self) -> int: ...

    @property
    def data(self) -> bytes: ...


class MachineOptions(TypedDict, total=False):
    """Spectrum48's keyword arguments, for the functions that build one for their caller (z80snap.load)."""
    rom: bytes | str | Path | None
    fast: bool
    core: Callable[[], Core]
    screenshot_dir: str | Path | None


class RunTimeout(MachineError):
    """A run-until condition was not met within its frame limit."""

    def __init__(self, message: str, screenshot: Path | None = None):
        super().__init__(message + (f" (screenshot: {screenshot})" if screenshot else ""))
        self.screenshot = screenshot


@dataclass(frozen=True)
class Report:
    """A BASIC report as the ROM prints it: code, text, and where it happened."""
    code: str
    message: str
    line: int
    statement: int
    frame: int

    @property
    def is_error(self) -> bool:
        return self.code not in ("0", "9")

    def __str__(self) -> str:
        return f"{self.code} {self.message}, {self.line}:{self.statement}"


@dataclass(frozen=True)
class Event:
    """Something the machine did that a person would see or hear, stamped with its frame."""
    frame: int
    kind: EventKind
    detail: tuple[int | str, ...] = ()


@dataclass(frozen=True)
class WaitState:
    """What the program is waiting for: 'input', 'editor', 'pause' (PAUSE 0) or 'inkey' (polling)."""
    kind: WaitKind
    line: int
    statement: int


@dataclass
class StopReason:
    kind: StopKind
    wait: WaitState | None = None
    report: Report | None = None


@dataclass
class MachineState:
    """Everything of the machine's that lives outside the CPU core, for snapshots."""
    t: int = 0
    frames: int = 0
    border: int = 7
    ear_out: int = 0
    beeper_edges: int = 0
    tape_pos: int = 0
    inkey_frames: list[int] = field(default_factory=list)   # recent frames in which INKEY$ was evaluated
    mid_frame: bool = False      # a trap stopped the CPU inside the current frame
    at_bp: bool = False          # ... right at a breakpoint, to be stepped over first
    events: list[Event] = field(default_factory=list)
    reports: list[Report] = field(default_factory=list)
    keys: list[int] = field(default_factory=lambda: [0x1F] * 8)
    # a wait may be under way (set by the WAIT-KEY and PAUSE traps, cleared at a frame end outside the
    # loop); True when unknown, e.g. after a restore, so that wait_state is then asked
    maybe_key_wait: bool = True
    maybe_pause: bool = True

    def copy(self) -> MachineState:
        """A copy that shares no list with this one (every field as it is, each list copied)."""
        out = object.__new__(MachineState)
        out.__dict__.update({k: (list(v) if isinstance(v, list) else v) for k, v in vars(self).items()})
        return out


#: a whole machine state in memory (`Spectrum48.snapshot`, `restore`): the core's state and the machine's own
MachineSnapshot = tuple[bytes, MachineState]
