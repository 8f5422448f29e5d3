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
* Waits for a key are judged (`wait_state`, waits.py) only at frame ends
  where one is possible: traps on the ROM's ways into its key loops raise a
  flag. Elsewhere a frame end costs one test.
* The keyboard port is answered by the core from a 64K table of port values
  (a C-level ``bytes.__getitem__``, no Python call per read), rebuilt when a
  key goes up or down or the EAR output changes.
* `accelerate.accelerate(machine)` attaches harness/spectrum/accelerate.py:
  LINE-ADDR answered from a table of the ROM's own results, exactly (the
  games' machines have it by default: runs/loaded.py); this module does not
  import it (accelerate.py imports this one). It learns of Python's writes
  to memory through `on_memory_written`, of the CPU's through the core.

The machine's parts: machine_types.py (timing, the records of a run, the
state outside the core), memory_access.py (peek, poke, the program, the tape
deck), waits.py (the wait detector); Spectrum48 inherits the last two, and
this module re-exports the names of all three that its users import.
"""
from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Callable

from ..errors import MachineError
from .core import Core
from .cpu import Z80Core
from .keyboard import Keyboard, parse_combo
from .machine_types import (CPU_HZ, FRAME_S, FRAME_T, INT_LENGTH_T, Event, EventKind, MachineOptions,
                            MachineSnapshot, MachineState, Report, RunTimeout, StopKind, StopReason,
                            TapeBlockLike, WaitKind, WaitState)
from .rom import ROM_SIZE, load_rom
from .sysvars import REPORTS, SYSVARS, report_code
from .waits import PAUSE_RANGE, WAIT_KEY, WaitDetector

__all__ = ["Spectrum48", "CPU_HZ", "FRAME_S", "FRAME_T", "INT_LENGTH_T", "PAUSE_RANGE", "Event", "EventKind",
           "MachineOptions", "MachineSnapshot", "MachineState", "Report", "RunTimeout", "StopKind", "StopReason",
           "TapeBlockLike", "WaitKind", "WaitState"]

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
CALL_SENTINEL = 0x5B00    # printer buffer: return address of Spectrum48.call


class Spectrum48(WaitDetector):
    """A 48K Spectrum built on a CPU core adapter; knows nothing of any particular program.

    Its memory access is `MachineMemory`'s (memory_access.py), its wait detector `WaitDetector`'s (waits.py)."""

    def __init__(self, rom: bytes | str | Path | None = None, fast: bool = False,
                 core: Callable[[], Core] = Z80Core, screenshot_dir: str | Path | None = None):
        rom_bytes = rom if isinstance(rom, (bytes, bytearray)) else load_rom(rom)
        if len(rom_bytes) != ROM_SIZE:
            raise MachineError(f"ROM image must be {ROM_SIZE} bytes, got {len(rom_bytes)}")
        self.cpu = core()
        self.mem = self.cpu.memory
        self.mem[0:ROM_SIZE] = rom_bytes
        self.cpu.protect(0, ROM_SIZE)
        self.keyboard = Keyboard()
        self.keyboard.on_change = self._keys_changed
        self.fast = fast
        self.tape = []
        self.s = MachineState()
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
        #: the frame T-state the run under way stops at (its frame's end, or take_interrupt's step): a trap
        #: that answers a routine (the accelerator) moves the clock, s.t, no further than this
        self.tick_limit = 0
        self.frames_run = 0           # frames this object ran (not skipped, not restored): for the benchmark
        #: the ROM accelerator answering routines on this machine (accelerate.py attaches it), or None
        self.accelerator: object | None = None
        #: told (address, size) of every write to memory made from Python (poke, write, a tape block
        #: loaded, a restore: the whole of it), or None; the CPU's own writes are the core's to report
        self.on_memory_written = None
        self._traps: dict[int, Callable[[], bool]] = {}
        self.add_trap(LD_BYTES, self._trap_ld_bytes)
        self.add_trap(MAIN_4, self._trap_report)
        self.add_trap(S_INKEY, self._trap_inkey)
        self.add_trap(BEEPER, self._trap_beeper)
        self.add_trap(PAUSE_1, self._trap_pause)
        self.add_trap(WAIT_KEY, self._trap_wait_key)

    # ------------------------------------------------------------------ traps
    def add_trap(self, addr: int, handler: Callable[[], bool]) -> None:
        """Call *handler* each time the CPU is about to run the instruction at *addr* (one handler an address:
        a new one replaces the last). It returns True when it has moved the CPU on itself (answered the
        routine, as the accelerator does), False to have the instruction run as usual."""
        self._traps[addr] = handler
        self.cpu.set_breakpoint(addr)

    def remove_trap(self, addr: int) -> None:
        """Trap *addr* no more (nothing happens if it was not trapped)."""
        self._traps.pop(addr, None)
        self.cpu.clear_breakpoint(addr)

    def has_trap(self, addr: int) -> bool:
        """Whether *addr* is trapped, by the machine itself or by another's `add_trap`."""
        return addr in self._traps

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

    def _trap_beeper(self) -> bool:
        de, hl = self.cpu.get("de"), self.cpu.get("hl")
        self._event("beep", (de, hl))
        if self.fast:
            self._ret()
            return True
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
            self.add_trap(STMT_START, self._trap_statement)
        self._statement_hooks += (hook,)

    def remove_statement_hook(self, hook: Callable[[int, int], bool]) -> None:
        hooks = list(self._statement_hooks)
        hooks.remove(hook)
        self._statement_hooks = tuple(hooks)
        if not self._statement_hooks and self._statement_counts is None:
            self.remove_trap(STMT_START)

    def count_statements(self, last_line: int = 9999) -> list[int]:
        """Count every BASIC statement run from now on: the list returned, indexed by line*256+statement,
        fills as the program runs (a profiler's data, at the cost of one list increment a statement)."""
        if self._statement_counts is None and not self._statement_hooks:
            self.add_trap(STMT_START, self._trap_statement)
        self._statement_counts = [0] * ((last_line + 1) << 8)
        return self._statement_counts

    def stop_counting_statements(self) -> None:
        self._statement_counts = None
        if not self._statement_hooks:
            self.remove_trap(STMT_START)

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
        self.tick_limit = limit
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

    @property
    def mid_frame(self) -> bool:
        """True when the CPU stopped inside a frame whose interrupt was taken (a trap asked to stop, a call
        returned, a snapshot was loaded there): the next `run_frame` runs on from there to the frame's end."""
        return self.s.mid_frame

    def place_in_frame(self, t: int | None = None) -> None:
        """Count the machine as inside a frame whose interrupt is taken, at frame T-state *t* (None: the
        T-state it is at): the next `run_frame` offers no interrupt (an RZX recording's start, a .z80
        snapshot taken inside a frame)."""
        if t is not None:
            self.s.t = t
        self.s.mid_frame = True

    def place_at_frame_start(self) -> None:
        """Count the machine as at the start of a frame, its interrupt due (a .z80 snapshot taken at a
        frame's end)."""
        self.s.t, self.s.mid_frame = 0, False

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

    def _timeout_screenshot(self) -> Path | None:
        try:
            from .screen import save_png  # lazy: screen.py brings numpy (80 ms), which bench --cores and workers skip
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
        self.add_trap(CALL_SENTINEL, returned)
        try:
            for _ in range(max_frames):
                self.run_frame()
                if done:
                    break
            else:
                raise RunTimeout(f"routine {addr:#06x} did not return within {max_frames} frames "
                                 f"(PC={self.cpu.pc:#06x})", self._timeout_screenshot())
        finally:
            self.remove_trap(CALL_SENTINEL)
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
