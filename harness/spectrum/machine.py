"""The embedded ZX Spectrum 48K: memory map, frames, interrupts, ports, traps and run control.

Timing model: 69,888 T-states per frame; the overshoot of the last instruction
is carried into the next frame; the ULA's interrupt is held active for its
first 32 T-states, so an interrupt refused right after EI or an index prefix
is offered again until that window closes (offering it once loses some).
Contended memory is not emulated: BASIC runs about 2.4 % fewer T-states per
statement than on a real 48K, which changes only how many frames pass, never
what the program computes.

Traps (breakpoints handled in Python): LD-BYTES serves tape blocks instantly
(checksum-verified, like Fuse's tape traps), MAIN-4 records every report, and
in fast mode BEEPER and PAUSE are skipped and recorded as events.

Where the Python work is (the core runs BASIC at about 550 M T-states a CPU
second; everything here is paid per frame or per trap, so it is kept out of
the common path):

* The frame loop is `run_frame` (interrupt, then `_run_ticks` until 69,888
  T-states, serving traps); `take_interrupt` is its first step alone (an RZX
  recording starts there); the CPU runs nowhere else. `run` calls `run_frame`
  once a frame and checks its stop conditions at each frame end. A hook that must see every frame (a recorder)
  belongs there, after `run_frame` returns True.
* Waits for a key are judged (`wait_state`) only at frame ends where one is
  possible: the ROM's WAIT-KEY (0x15D4, the only way into the editor's and
  INPUT's key loop) and PAUSE's HALT (0x1F3D, the only way into PAUSE's loop)
  are traps that raise a flag, cleared at the first frame end outside the
  routine (WAIT-KEY: its return address no longer on the stack at all;
  PAUSE, which calls nothing: PC out of its loop); INKEY$ polls are counted
  by the S_INKEY trap. Elsewhere a frame end costs one test. The result is the
  same as judging every frame end.
* The keyboard port is answered by the core from a 64K table of port values
  (a C-level ``bytes.__getitem__``, no Python call per read), rebuilt when a
  key goes up or down or the EAR output changes.
* `accelerate.accelerate(machine)` attaches harness/spectrum/accelerate.py:
  LINE-ADDR answered from a table of the ROM's own results, exactly (the
  games' machines have it by default: runs/loaded.py); this module does not
  import it (accelerate.py imports this one). It learns of Python's writes
  to memory through `on_memory_written`, of the CPU's through the core.
"""
from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Literal, Protocol, Sequence, TypedDict

from ..errors import MachineError
from .core import Core, Memory
from .cpu import Z80Core
from .keyboard import Keyboard, parse_combo
from .rom import ROM_SIZE, load_rom
from .sysvars import REPORTS, SYSVARS, report_code


FRAME_T = 69_888          # T-states per 48K frame
INT_LENGTH_T = 32         # the ULA holds /INT low for about 32 T-states
CPU_HZ = 3_500_000
FRAME_S = FRAME_T / CPU_HZ
_EAR_ON = bytes(b | 0x40 for b in range(256))   # a port value with bit 6 (EAR) set
_PORT_TABLES: dict[tuple[int, ...], tuple[bytes, bytes]] = {}   # keyboard rows -> the two port tables

# ROM addresses ("The Complete Spectrum ROM Disassembly")
LD_BYTES = 0x0556         # load a tape block: A=flag, IX=dest, DE=length, carry=LOAD
BEEPER = 0x03B5           # HL=pitch timing, DE=cycles
PAUSE_1 = 0x1F3D          # the HALT in PAUSE's loop; BC = frames left (0 = PAUSE 0)
PAUSE_END = 0x1F4F
MAIN_4 = 0x1303           # report printing starts here with ERR_NR set
S_INKEY = 0x2634          # INKEY$ evaluated by SCANNING
STMT_START = 0x1B2F       # in STMT-L-1, just after SUBPPC was incremented
WAIT_KEY = 0x15D4         # WAIT-KEY: the editor's and INPUT's wait for a key starts here (every CALL and JR)
WAIT_KEY1 = (0x15DE, 0x15E6)   # WAIT-KEY1: CALL INPUT-AD; RET C; JR Z,WAIT-KEY1
WAIT_KEY1_RET = 0x15E1         # its return address while INPUT-AD/KEY-INPUT look for a key
WAIT_KEY1_RET_BYTES = WAIT_KEY1_RET.to_bytes(2, "little")
PAUSE_RANGE = (0x1F3D, 0x1F4F)
CALL_SENTINEL = 0x5B00    # printer buffer: return address of Spectrum48.call


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
class _PyState:
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

    def copy(self) -> _PyState:
        """A copy that shares no list with this one (every field as it is, each list copied)."""
        out = object.__new__(_PyState)
        out.__dict__.update({k: (list(v) if isinstance(v, list) else v) for k, v in vars(self).items()})
        return out



#: a whole machine state in memory (`Spectrum48.snapshot`, `restore`): the core's state and the machine's own
MachineSnapshot = tuple[bytes, _PyState]

class Spectrum48:
    """A 48K Spectrum built on a CPU core adapter; knows nothing of any particular program."""

    def __init__(self, rom: bytes | str | Path | None = None, fast: bool = False,
                 core: Callable[[], Core] = Z80Core, screenshot_dir: str | Path | None = None):
        rom_bytes = rom if isinstance(rom, (bytes, bytearray)) else load_rom(rom)
        if len(rom_bytes) != ROM_SIZE:
            raise MachineError(f"ROM image must be {ROM_SIZE} bytes, got {len(rom_bytes)}")
        self.cpu: Core = core()
        self.mem: Memory = self.cpu.memory
        self.mem[0:ROM_SIZE] = rom_bytes
        self.cpu.protect(0, ROM_SIZE)
        self.keyboard = Keyboard()
        self.keyboard.on_change = self._keys_changed
        self.fast = fast
        self.tape: list[TapeBlockLike] = []
        self.s = _PyState()
        self._statement_hooks: tuple[Callable[[int, int], bool], ...] = ()   # replaced, never mutated
        self._statement_counts: list[int] | None = None
        self._hook_stop = False
        self._stop_now = False
        self._report_hit: Report | None = None
        #: called at the end of every whole frame, after its count; None costs one test a frame. The RZX
        #: recorder (recording.py) closes a frame of its recording here.
        self.on_frame_end: Callable[[], None] | None = None
        self.screenshot_dir = Path(screenshot_dir) if screenshot_dir else None
        self.cpu.set_port_handlers(self._port_read, self._port_write)
        self._port_tables: tuple[bytes, bytes] = (b"", b"")     # set by _keys_changed, just below
        self._keys_changed()
        self._limit = 0               # the T-state limit of the _run_ticks under way (for the accelerator)
        self.frames_run = 0           # frames this object ran (not skipped, not restored): for the benchmark
        #: the ROM accelerator answering routines on this machine (accelerate.py attaches it), or None
        self.accelerator: object | None = None
        #: told (address, size) of every write to memory made from Python (poke, write, a tape block
        #: loaded, a restore: the whole of it), or None; the CPU's own writes are the core's to report
        self.on_memory_written: Callable[[int, int], None] | None = None
        self._traps: dict[int, Callable[[], bool]] = {}
        self._add_trap(LD_BYTES, self._trap_ld_bytes)
        self._add_trap(MAIN_4, self._trap_report)
        self._add_trap(S_INKEY, self._trap_inkey)
        self._add_trap(BEEPER, self._trap_beeper)
        self._add_trap(PAUSE_1, self._trap_pause)
        self._add_trap(WAIT_KEY, self._trap_wait_key)

    # ------------------------------------------------------------------ traps
    def _add_trap(self, addr: int, handler: Callable[[], bool]) -> None:
        self._traps[addr] = handler
        self.cpu.set_breakpoint(addr)

    def _remove_trap(self, addr: int) -> None:
        self._traps.pop(addr, None)
        self.cpu.clear_breakpoint(addr)

    def _ret(self) -> None:
        """Return from the current routine: pop PC as RET would."""
        sp = self.cpu.get("sp")
        self.cpu.pc = self.mem[sp] | self.mem[(sp + 1) & 0xFFFF] << 8
        self.cpu.set("sp", (sp + 2) & 0xFFFF)

    def _trap_ld_bytes(self) -> bool:
        cpu = self.cpu
        if self.s.tape_pos >= len(self.tape):
            raise MachineError(f"LOAD at line {self.ppc}:{self.subppc} asked for tape block "
                          f"{self.s.tape_pos + 1}, but the tape has only {len(self.tape)} block(s)")
        block = self.tape[self.s.tape_pos]
        self.s.tape_pos += 1
        flag, length, dest = cpu.get("a"), cpu.get("de"), cpu.get("ix")
        is_load = cpu.get("f") & 1
        data = bytes(block.data)
        ok = block.flag == flag and len(data) == length   # checksums were verified by read_tap
        if ok:
            if is_load:
                for i, b in enumerate(data):
                    a = (dest + i) & 0xFFFF
                    if a >= ROM_SIZE:
                        self.mem[a] = b
                if self.on_memory_written is not None:
                    self.on_memory_written(0, 0x10000)
            else:
                ok = all(self.mem[(dest + i) & 0xFFFF] == b for i, b in enumerate(data))
        cpu.set("ix", (dest + (length if ok else 0)) & 0xFFFF)
        if ok:
            cpu.set("de", 0)
        cpu.set("f", (cpu.get("f") & 0xFE) | (1 if ok else 0))
        self._event("tape", (self.s.tape_pos, block.flag, len(data), "ok" if ok else "fail"))
        self.s.border = self.peek("BORDCR") >> 3 & 7
        self._ret()
        return True

    def _trap_report(self) -> bool:
        err = self.peek("ERR_NR")
        code = report_code(err)
        rep = Report(code, REPORTS.get(code, "?"), self.ppc, self.subppc, self.s.frames)
        self.s.reports.append(rep)
        self._report_hit = rep
        return False

    def _trap_inkey(self) -> bool:
        if self.keyboard.any_pressed():
            return False          # a poll that finds a key is being answered, not waiting
        seen = self.s.inkey_frames
        if not seen or seen[-1] != self.s.frames:
            seen.append(self.s.frames)
            del seen[:-4]
        return False

    def _trap_beeper(self) -> bool:
        de, hl = self.cpu.get("de"), self.cpu.get("hl")
        self._event("beep", (de, hl))
        if self.fast:
            self._ret()
            return True
        return False


    def _trap_wait_key(self) -> bool:
        self.s.maybe_key_wait = True
        return False

    def _trap_pause(self) -> bool:
        self.s.maybe_pause = True
        bc = self.cpu.get("bc")
        if not self.fast or bc == 0 or self.keyboard.any_pressed():
            return False
        # Fast-forward the remaining frames: FRAMES advances as if they had passed.
        self._event("pause", (bc,))
        self._add_frames(bc)
        self.cpu.pc = PAUSE_END
        return True

    def _trap_statement(self) -> bool:
        mem = self.mem                         # PPC and SUBPPC read directly: this runs every statement
        line, stmt = mem[23621] | mem[23622] << 8, mem[23623]
        counts = self._statement_counts
        if counts is not None:
            try:
                counts[line << 8 | stmt] += 1
            except IndexError:                 # a direct command (line 65534) or past the program's last line
                pass
        for hook in self._statement_hooks:
            if hook(line, stmt):
                self._hook_stop = self._stop_now = True
        return False

    def add_statement_hook(self, hook: Callable[[int, int], bool]) -> None:
        """Call ``hook(line, statement)`` before every BASIC statement; a true result stops the run there."""
        if not self._statement_hooks and self._statement_counts is None:
            self._add_trap(STMT_START, self._trap_statement)
        self._statement_hooks += (hook,)

    def remove_statement_hook(self, hook: Callable[[int, int], bool]) -> None:
        hooks = list(self._statement_hooks)
        hooks.remove(hook)
        self._statement_hooks = tuple(hooks)
        if not self._statement_hooks and self._statement_counts is None:
            self._remove_trap(STMT_START)

    def count_statements(self, last_line: int = 9999) -> list[int]:
        """Count every BASIC statement run from now on: the list returned, indexed by line*256+statement,
        fills as the program runs (a profiler's data, at the cost of one list increment a statement)."""
        if self._statement_counts is None and not self._statement_hooks:
            self._add_trap(STMT_START, self._trap_statement)
        self._statement_counts = [0] * ((last_line + 1) << 8)
        return self._statement_counts

    def stop_counting_statements(self) -> None:
        self._statement_counts = None
        if not self._statement_hooks:
            self._remove_trap(STMT_START)

    # ------------------------------------------------------------------ ports
    def _port_read(self, port: int) -> int:
        """The value an IN from *port* reads (the core reads it from the port table, see _keys_changed)."""
        if port & 1:
            return 0xFF  # no peripherals; the floating bus is not emulated
        return self.keyboard.read(port) | 0xA0 | (self.s.ear_out << 6)

    def _keys_changed(self) -> None:
        """Set the port tables (EAR output 0 and 1) for the keys down now: _port_read for every port."""
        held = tuple(self.keyboard.rows)
        tables = _PORT_TABLES.get(held)
        if tables is None:
            rows = []
            for high in range(256):
                value = self.keyboard.read(high << 8) | 0xA0
                rows.append(bytes((value, 0xFF)) * 128)
            low = b"".join(rows)
            tables = _PORT_TABLES[held] = (low, low.translate(_EAR_ON))
            if len(_PORT_TABLES) > 64:                       # a few combinations are ever held
                del _PORT_TABLES[next(iter(_PORT_TABLES))]
        self._port_tables = tables
        self.cpu.set_port_reader(tables[self.s.ear_out].__getitem__)

    def _port_write(self, port: int, value: int) -> None:
        if port & 1:
            return
        border, ear = value & 7, value >> 4 & 1
        if border != self.s.border:
            self.s.border = border
            if not self.fast:
                self._event("border", (border,))
        if ear != self.s.ear_out:
            self.s.ear_out = ear
            self.s.beeper_edges += 1
            self.cpu.set_port_reader(self._port_tables[ear].__getitem__)

    def _event(self, kind: EventKind, detail: tuple[int | str, ...]) -> None:
        self.s.events.append(Event(self.s.frames, kind, detail))

    # ------------------------------------------------------------------ frames
    def _add_frames(self, n: int) -> None:
        """Count *n* frames as passed without running them (FRAMES included)."""
        self.s.frames += n
        a = SYSVARS["FRAMES"][0]
        f = (self.mem[a] | self.mem[a + 1] << 8 | self.mem[a + 2] << 16) + n
        self.mem[a:a + 3] = (f & 0xFFFFFF).to_bytes(3, "little")

    def _run_ticks(self, limit: int) -> None:
        """Run until the frame's T-state counter reaches *limit*, serving traps on the way.

        A trap may ask to stop at once (``_stop_now``): the CPU is then left
        before the trapped instruction, which is executed first on resuming.
        """
        cpu, traps, s = self.cpu, self._traps, self.s
        self._limit = limit
        while s.t < limit and not self._stop_now:
            if s.at_bp:
                s.at_bp = False
                s.t += cpu.step_over_breakpoint()
                continue
            elapsed, at_bp = cpu.run(limit - s.t)
            s.t += elapsed
            if at_bp:
                handler = traps.get(cpu.pc)
                if handler is None or not handler():
                    if self._stop_now:
                        s.at_bp = True
                        return
                    s.t += cpu.step_over_breakpoint()

    def take_interrupt(self) -> None:
        """Offer the frame's interrupt, as `run_frame` does first (held for the ULA's 32 T-states; lost if
        refused that long). The CPU runs only inside `run_frame` and here: a profiler that wraps these two
        methods (tests/cpu_durations.py) sees all the emulator's time."""
        cpu = self.cpu
        if not cpu.iff1:
            return
        while not cpu.interrupt():
            if self.s.t >= INT_LENGTH_T or not cpu.iff1:
                return  # the ULA has let go of /INT: this frame's interrupt is lost
            self._run_ticks(self.s.t + 1)

    def run_frame(self) -> bool:
        """One frame: the interrupt, then the CPU until 69,888 T-states have passed.

        Returns False if a trap stopped the CPU mid-frame; the next call resumes there.
        """
        s = self.s
        if not s.mid_frame:
            self.take_interrupt()
        self._stop_now = False
        self._run_ticks(FRAME_T)
        if self._stop_now:
            s.mid_frame = True
            return False
        s.mid_frame = False
        s.t -= FRAME_T
        s.frames += 1
        self.frames_run += 1
        if self.on_frame_end is not None:
            self.on_frame_end()
        return True

    def run_frames(self, n: int) -> None:
        for _ in range(n):
            self.run_frame()

    # ------------------------------------------------------------------ run control
    def run(self, max_frames: int, *, until_line: tuple[int, int | None] | None = None,
            until_wait: bool = False, until: Callable[["Spectrum48"], bool] | None = None,
            stop_on_report: bool = True, what: str = "condition") -> StopReason:
        """Run frames until a condition holds; raise RunTimeout (with a screenshot) after *max_frames*.

        A report printed since the last run returned (e.g. while a command was
        being typed) is pending and stops this run at once.
        """
        line_hook = None
        if until_line is not None:
            target_line, target_stmt = until_line

            def at_line(line: int, stmt: int) -> bool:
                return line == target_line and (target_stmt is None or stmt == target_stmt)
            line_hook = at_line
            self.add_statement_hook(line_hook)
        previous_wait: WaitState | None = None
        self._hook_stop = False
        try:
            for _ in range(max_frames):
                self.run_frame()
                if self._hook_stop:
                    self._hook_stop = False
                    return StopReason("line" if until_line is not None else "hook")
                if stop_on_report and self._report_hit is not None:
                    report, self._report_hit = self._report_hit, None
                    return StopReason("report", report=report)
                if until_wait:
                    w = self.wait_state() if self._maybe_waiting() else None
                    # the same kind of wait at two frame ends (a polling loop may span several lines)
                    if w is not None and previous_wait is not None and w.kind == previous_wait.kind:
                        return StopReason("wait", wait=w)
                    previous_wait = w
                if until is not None and until(self):
                    return StopReason("condition")
        finally:
            if line_hook is not None:
                self.remove_statement_hook(line_hook)
        shot = self._timeout_screenshot()
        raise RunTimeout(f"{what} not reached within {max_frames} frames; "
                         f"at line {self.ppc}:{self.subppc}, PC={self.cpu.pc:#06x}", shot)

    def run_until_line(self, line: int, statement: int | None = None, max_frames: int = 50_000) -> StopReason:
        return self.run(max_frames, until_line=(line, statement), what=f"line {line}:{statement or 1}")

    def run_until_wait(self, max_frames: int = 50_000) -> StopReason:
        """Run until the program waits for a key (INKEY$ polling, PAUSE 0, INPUT, the editor) or reports."""
        return self.run(max_frames, until_wait=True, what="a wait for a key")

    def run_until_report(self, max_frames: int = 50_000) -> StopReason:
        return self.run(max_frames, what="a report")

    def wait_state(self) -> WaitState | None:
        """What the program is waiting for right now, judged at a frame boundary."""
        if self.keyboard.any_pressed():
            return None
        pc = self.cpu.pc
        line, stmt = self.ppc, self.subppc
        if self._in_wait_key() and not self.peek("FLAGS") & 0x20:
            return WaitState("input" if self.peek("FLAGX") & 0x20 else "editor", line, stmt)
        if PAUSE_RANGE[0] <= pc < PAUSE_RANGE[1] and self.cpu.get("bc") == 0:
            return WaitState("pause", line, stmt)
        # INKEY$ polled in at least two of the last six frames: a BASIC loop waiting for a key
        # (one pass of a loop far down a long program can take more than a frame: GO TO searches)
        recent = [f for f in self.s.inkey_frames if f >= self.s.frames - 6]
        if len(recent) >= 2:
            return WaitState("inkey", line, stmt)
        return None

    def _maybe_waiting(self) -> bool:
        """False when wait_state() is sure to be None at this frame end: not in WAIT-KEY's loop nor PAUSE's
        since their traps last fired, and INKEY$ polled in fewer than two of the last six frames."""
        s = self.s
        if s.maybe_key_wait:
            if self._inside_wait_key():
                return True
            s.maybe_key_wait = False     # out of the loop: only WAIT-KEY (a trap) leads back in
        if s.maybe_pause:
            if PAUSE_RANGE[0] <= self.cpu.pc < PAUSE_RANGE[1]:
                return True
            s.maybe_pause = False        # out of the loop: only its HALT at PAUSE_1 (a trap) leads back in
        seen = s.inkey_frames            # ascending frame numbers
        return len(seen) >= 2 and seen[-2] >= s.frames - 6

    def _inside_wait_key(self) -> bool:
        """Somewhere in WAIT-KEY or below it, however deep (INPUT-AD's return address anywhere in the
        512 bytes above SP, at any alignment; the editor moves ERR_SP below it while it prints): a
        superset of _in_wait_key, true until WAIT-KEY has returned (or by chance, which costs only time)."""
        pc = self.cpu.pc
        if WAIT_KEY <= pc < WAIT_KEY1[1]:
            return True
        sp = self.cpu.get("sp")
        return WAIT_KEY1_RET_BYTES in bytes(self.mem[sp:min(sp + 512, 0x10000)])

    def _in_wait_key(self) -> bool:
        """In the editor's WAIT-KEY1 loop, or below it in INPUT-AD/KEY-INPUT (its return address is on
        the stack). PC ranges alone would also match printing, which shares CALL-SUB with INPUT-AD."""
        pc = self.cpu.pc
        if WAIT_KEY1[0] <= pc < WAIT_KEY1[1]:
            return True
        sp = self.cpu.get("sp")
        mem = self.mem
        return any((mem[(sp + i) & 0xFFFF] | mem[(sp + i + 1) & 0xFFFF] << 8) == WAIT_KEY1_RET
                   for i in range(0, 12, 2))

    def _timeout_screenshot(self) -> Path | None:
        try:
            from .screen import save_png
            folder = self.screenshot_dir or _private_dir()      # never a fixed name in a shared folder
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"timeout-frame{self.s.frames}.png"
            save_png(self, path, border=True, scale=2)
            return path
        except Exception:  # a screenshot must never hide the timeout itself
            return None

    def call(self, addr: int, max_frames: int = 50, **regs: int) -> None:
        """CALL a routine with the given registers and run until it returns (interrupts go on meanwhile).

        The return address is a sentinel in the printer buffer (unused on a 48K
        without a printer), trapped so that the CPU stops exactly on return.
        """
        done: list[bool] = []

        def returned() -> bool:
            done.append(True)
            self._stop_now = True
            return False

        sp = (self.cpu.get("sp") - 2) & 0xFFFF
        self.mem[sp:sp + 2] = CALL_SENTINEL.to_bytes(2, "little")
        self.cpu.set("sp", sp)
        for reg, value in regs.items():
            self.cpu.set(reg, value)
        self.cpu.pc = addr
        self._add_trap(CALL_SENTINEL, returned)
        try:
            for _ in range(max_frames):
                self.run_frame()
                if done:
                    break
            else:
                raise RunTimeout(f"routine {addr:#06x} did not return within {max_frames} frames "
                                 f"(PC={self.cpu.pc:#06x})", self._timeout_screenshot())
        finally:
            self._remove_trap(CALL_SENTINEL)
        self.s.at_bp = False          # the sentinel is not an instruction to resume
        sp = self.cpu.get("sp")
        self.cpu.set("sp", (sp + 2) & 0xFFFF)

    # ------------------------------------------------------------------ keyboard
    def press(self, combo: str | list[str]) -> None:
        """Hold keys down. INKEY$ polls seen so far no longer count as waiting: the program is answered."""
        self.s.inkey_frames.clear()
        for key in parse_combo(combo):
            self.keyboard.press(key)

    def release(self, combo: str | list[str] | None = None) -> None:
        self.s.inkey_frames.clear()
        if combo is None:
            self.keyboard.release_all()
        else:
            for key in parse_combo(combo):
                self.keyboard.release(key)

    def tap(self, combo: str | list[str], hold: int = 2, gap: int = 6) -> None:
        """Press a key combination for *hold* frames, then release it for *gap* frames.

        Two interrupts down is enough for KEYBOARD to register a new key; six
        frames up lets the ROM's KSTATE counter (5) expire, so the same key
        pressed again counts as new rather than as a repeat.
        """
        self.press(combo)
        self.run_frames(hold)
        self.release(combo)
        self.run_frames(gap)

    def inject_key(self, code: int, frames: int = 1) -> None:
        """Hand the ROM a decoded key code as KEYBOARD would (LAST_K + FLAGS bit 5)."""
        self.poke("LAST_K", code)
        self.poke("FLAGS", self.peek("FLAGS") | 0x20)
        self.run_frames(frames)

    # ------------------------------------------------------------------ memory and sysvars
    def peek(self, what: str | int, size: int | None = None) -> int:
        """A system variable by name (little-endian, its documented size) or a byte/word at an address."""
        if isinstance(what, str):
            addr, default = SYSVARS[what]
            size = size or default
        else:
            addr, size = what, size or 1
        return int.from_bytes(bytes(self.mem[addr:addr + size]), "little")

    def poke(self, what: str | int, value: int, size: int | None = None) -> None:
        if isinstance(what, str):
            addr, default = SYSVARS[what]
            size = size or default
        else:
            addr, size = what, size or 1
        if addr < ROM_SIZE:
            raise MachineError(f"cannot write to ROM address {addr:#06x}")
        self.mem[addr:addr + size] = (value % (1 << 8 * size)).to_bytes(size, "little")
        if self.on_memory_written is not None:
            self.on_memory_written(addr, size)

    def read(self, addr: int, length: int) -> bytes:
        return bytes(self.mem[addr:addr + length])

    def write(self, addr: int, data: bytes) -> None:
        if addr < ROM_SIZE:
            raise MachineError(f"cannot write to ROM address {addr:#06x}")
        self.mem[addr:addr + len(data)] = data
        if self.on_memory_written is not None:
            self.on_memory_written(addr, len(data))

    @property
    def ppc(self) -> int:
        return self.peek("PPC")

    @property
    def subppc(self) -> int:
        return self.peek("SUBPPC")

    def program_bytes(self) -> bytes:
        """The BASIC program area, PROG to VARS, as the ROM stores it."""
        prog = self.peek("PROG")
        return self.read(prog, self.peek("VARS") - prog)

    def listing(self) -> str:
        """The BASIC program in memory listed back as text (the tokeniser's source conventions)."""
        from .basic import detokenise
        prog = self.peek("PROG")
        return detokenise(self.read(prog, self.peek("VARS") - prog))

    def gosub_stack(self) -> list[tuple[int, int]]:
        """The BASIC GO SUB stack, innermost first: (line, statement) each RETURN will go back to.

        The ROM keeps it just under RAMTOP, above the error return address at
        ERR_SP, three bytes an entry (line, then statement), ended by 0x3E00.
        """
        a, end = self.peek("ERR_SP") + 2, self.peek("RAMTOP") - 1
        out: list[tuple[int, int]] = []
        while a + 3 <= end:
            out.append((self.mem[a] | self.mem[a + 1] << 8, self.mem[a + 2]))
            a += 3
        return out

    @property
    def frames(self) -> int:
        return self.s.frames

    @property
    def events(self) -> list[Event]:
        return self.s.events

    @property
    def reports(self) -> list[Report]:
        return self.s.reports

    @property
    def last_report(self) -> Report | None:
        return self.s.reports[-1] if self.s.reports else None

    @property
    def emulated_seconds(self) -> float:
        return self.s.frames * FRAME_S

    # ------------------------------------------------------------------ tape
    def insert_tape(self, blocks: Sequence[TapeBlockLike]) -> None:
        """Put a list of tape blocks (objects with .flag and .data) in the deck, rewound."""
        self.tape = list(blocks)
        self.s.tape_pos = 0

    @property
    def tape_blocks_left(self) -> int:
        return len(self.tape) - self.s.tape_pos

    # ------------------------------------------------------------------ snapshots
    def snapshot(self) -> MachineSnapshot:
        """The whole machine state, in memory; restore() brings it back exactly."""
        state = self.s.copy()
        state.keys = list(self.keyboard.rows)
        return self.cpu.save_state(), state

    def restore(self, snap: MachineSnapshot) -> None:
        core_state, py = snap
        self.cpu.load_state(core_state)
        if self.on_memory_written is not None:
            self.on_memory_written(0, 0x10000)
        self.s = py.copy()
        self.s.maybe_key_wait = self.s.maybe_pause = True      # unknown until the next frame end
        self.keyboard.rows = list(py.keys)
        self._keys_changed()

    # ------------------------------------------------------------------ boot
    def boot(self, max_frames: int = 300) -> None:
        """Power on and run until the ROM's editor waits for the first key (the © message)."""
        self.run_until_wait(max_frames)


_PRIVATE_DIR: list[Path] = []


def _private_dir() -> Path:
    """This process's own scratch folder (tempfile.mkdtemp: mode 0700, an unguessable name), made once."""
    if not _PRIVATE_DIR:
        _PRIVATE_DIR.append(Path(tempfile.mkdtemp(prefix="cribbage-zx-")))
    return _PRIVATE_DIR[0]
