"""Exact acceleration of ROM routines: each answered from a cache of the ROM's own results.

About half of a BASIC program's T-states go to the ROM walking its lists:
every GO TO, GO SUB, RETURN and NEXT calls LINE-ADDR (0x196E), which searches
the program from its first line. The answer depends only on the line sought,
PROG and the line headers before the one found, so it can be remembered.

Exactness is the point, not an approximation:

* The first call with given inputs runs the ROM's own routine (twice, from the
  same state, with two different fillings of the stack below SP, so that the
  bytes it writes there are known exactly; the machine is then put back) and
  records what it did: the registers it returns, the T-states and R steps it
  took, the bytes it left below SP, and the memory it read.
* A later call with the same inputs, and the same bytes in the memory read,
  is answered from the record: the registers, SP, PC (the return address),
  MEMPTR, R, the stack bytes and the T-state counters are set exactly as the
  ROM would have left them, and the frame's clock is charged the same T-states.
* A call is answered only outside the interrupt's window and when the
  charged T-states end before the current run's limit, or (by default) in the
  next frame when the limit is the frame's end: the frame's interrupt, which
  the ROM would have taken inside the routine, is then taken as it returns, in
  the same frame and after the same number of T-states. The interrupt routine
  saves every register and reads nothing the routine changes, so what differs
  is only what no program reads: the stack bytes below SP the interrupt
  scribbles on, the R register, and where PC is at that frame's end. With
  ``cross_frames=False`` the whole machine state stays byte-identical.
  Otherwise, or when the record was not clean (the routine met a trap, wrote
  outside its stack window, or changed a register not in its outputs), the
  ROM runs as always.
* Use the plain ROM (the default) when every instruction counts, e.g. to
  record per-frame instruction counts (RZX).

The accelerator knows only the ROM: a routine is its entry address, the
registers and system variables that are its inputs, and the memory it reads.
`tests/test_accelerate.py` compares whole machine states with and without it.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import numpy.typing as npt

from .core import Memory, packed_state
from .cpu import CORE_FRAME_WRAP
from .machine import FRAME_T, INT_LENGTH_T, Spectrum48

PROG = 23635                  # the system variable PROG: where the program area starts
STACK_WINDOW = 32             # bytes below SP a routine may use (LINE-ADDR uses six)
RECORD_BUDGET_T = 200_000     # a recording run longer than this is abandoned (the ROM runs as always)
ISR_MARGIN_T = 8_000          # an answer may end this far before the next frame's end (the interrupt's time)

# offsets in the core's packed state (cpu.STATE_SIZE), found by setting each register; tests/test_accelerate.py
# compares whole states
_REGS = slice(0, 8)           # BC, DE, HL, AF
_PC, _SP, _WZ, _LAST_READ = 8, 10, 12, 14
_Z80_REGS = slice(24, 44)     # IX, IY, the alternate set, R, I, IFF1/2, IM, ...
_R = 36
_INT_DISABLED = 40            # set right after an EI or prefix (then iff1 38, iff2 39; halted 41); a RET clears it
_MEMORY = 44

#: a routine's inputs: its entry address, then what its `Routine.key` read
Key = tuple[int, ...]


@dataclass(frozen=True)
class Routine:
    """A ROM routine the accelerator may answer: its entry point, its inputs and the memory it reads."""
    name: str
    entry: int
    #: the inputs besides memory: registers and system variables, read from (state view, memory)
    key: Callable[[memoryview, Memory], Key]
    #: the addresses of the memory the routine read, from its inputs, the registers it returned and memory
    reads: Callable[[Key, bytes, Memory], list[int]]


def _line_addr_key(state: memoryview, mem: Memory) -> Key:
    hl = state[4] | state[5] << 8
    return hl, mem[PROG] | mem[PROG + 1] << 8


def _line_addr_reads(key: Key, regs: bytes, mem: Memory) -> list[int]:
    """The number and length of every line walked from PROG, and the number of the line found (HL
    returned). Not the lines' bodies: the ROM writes into those (DEF FN's argument slots)."""
    found, a = regs[4] | regs[5] << 8, key[1]
    out: list[int] = []
    while a < found:
        out += (a, a + 1, a + 2, a + 3)
        a += 4 + (mem[a + 2] | mem[a + 3] << 8)
    if a != found:
        raise ValueError("LINE-ADDR's walk did not meet the line it returned")
    return out + [found, found + 1]


#: LINE-ADDR: HL = a line number -> HL = the address of that line or the next, DE = the previous line's
LINE_ADDR = Routine("LINE-ADDR", 0x196E, _line_addr_key, _line_addr_reads)
ROUTINES = (LINE_ADDR,)


@dataclass
class _Answer:
    addresses: npt.NDArray[np.intp]     # the memory read ...
    read: npt.NDArray[np.uint8]         # ... as it was
    regs: bytes                   # BC, DE, HL, AF returned
    ticks: int
    r_steps: int
    wz: tuple[str, int]           # ("ret", 0) or ("sp", offset) or ("abs", value)
    last_read: tuple[str, int]
    int_disabled: int
    stack: tuple[tuple[int, int], ...]      # (offset below SP at entry, byte) written


@dataclass
class Stats:
    answered: int = 0             # calls answered from the cache
    recorded: int = 0             # calls recorded (the ROM ran, twice)
    declined: int = 0             # calls the ROM ran as always (no time left, a changed memory, ...)
    ticks_saved: int = 0          # T-states charged without being emulated
    by_routine: dict[str, int] = field(default_factory=dict)


class _Unseen(enum.Enum):
    """A call whose inputs are not in the cache yet (None there means: cannot be answered)."""
    UNSEEN = 0


#: answers by their routine's inputs (None: that call cannot be answered); machines may share one
Cache = dict[Key, "_Answer | None"]


def _word(buf: bytes, pos: int) -> int:
    """The little-endian word at *pos* of a saved state."""
    return buf[pos] | buf[pos + 1] << 8


def _relation(value: int, sp0: int, ret: int) -> tuple[str, int]:
    if value == ret:
        return ("ret", 0)
    offset = (value - sp0) & 0xFFFF
    if offset < 0x100 or offset > 0xFF00:
        return ("sp", offset)
    return ("abs", value)


def _resolve(rel: tuple[str, int], sp0: int, ret: int) -> int:
    kind, v = rel
    return ret if kind == "ret" else (sp0 + v) & 0xFFFF if kind == "sp" else v


class Accelerator:
    """Traps on the routines' entry points in a Spectrum48, answering them from the cache."""

    def __init__(self, machine: Spectrum48, routines: tuple[Routine, ...] = ROUTINES, cache: Cache | None = None,
                 cross_frames: bool = True):
        self.m = machine
        self.cpu = packed_state(machine.cpu, "the ROM accelerator")
        self.cross_frames = cross_frames
        self._mem = np.frombuffer(self.cpu.memory, dtype=np.uint8)     # a view, for the checks
        self.routines = routines
        # Each answer is checked against the memory it read before it is used, so machines may share a cache.
        self.cache: Cache = {} if cache is None else cache
        self.stats = Stats()
        for r in routines:
            machine._add_trap(r.entry, self._handler(r))

    def detach(self) -> None:
        for r in self.routines:
            self.m._remove_trap(r.entry)

    def _handler(self, routine: Routine) -> Callable[[], bool]:
        def trap() -> bool:
            return self._call(routine)
        return trap

    # ------------------------------------------------------------------ answering
    def _call(self, routine: Routine) -> bool:
        cpu, m = self.cpu, self.m
        state, mem = cpu.state_view, cpu.memory
        key = (routine.entry,) + routine.key(state, mem)
        answer = self.cache.get(key, _Unseen.UNSEEN)
        if answer is _Unseen.UNSEEN:
            answer = self.cache[key] = self._record(routine, key)
            self.stats.recorded += 1
        if answer is None:
            self.stats.declined += 1
            return False
        s = m.s
        end = s.t + answer.ticks
        if s.t < INT_LENGTH_T or (end >= m._limit and not (
                self.cross_frames and m._limit == FRAME_T and end < 2 * FRAME_T - ISR_MARGIN_T)):
            self.stats.declined += 1        # the interrupt's window, or a stop, would fall inside the routine
            return False
        if not np.array_equal(self._mem[answer.addresses], answer.read):
            self.stats.declined += 1        # the program changed: record again next time
            del self.cache[key]
            return False
        self._apply(answer)
        s.t += answer.ticks
        self.stats.answered += 1
        self.stats.ticks_saved += answer.ticks
        self.stats.by_routine[routine.name] = self.stats.by_routine.get(routine.name, 0) + 1
        return True

    def _apply(self, a: _Answer) -> None:
        state, mem = self.cpu.state_view, self.cpu.memory
        sp0 = state[_SP] | state[_SP + 1] << 8
        ret = mem[sp0] | mem[(sp0 + 1) & 0xFFFF] << 8
        for offset, byte in a.stack:
            mem[(sp0 - offset) & 0xFFFF] = byte
        state[_REGS] = a.regs
        sp1 = (sp0 + 2) & 0xFFFF
        for pos, value in ((_PC, ret), (_SP, sp1), (_WZ, _resolve(a.wz, sp0, ret)),
                           (_LAST_READ, _resolve(a.last_read, sp0, ret))):
            state[pos], state[pos + 1] = value & 0xFF, value >> 8
        r = state[_R]
        state[_R] = (r & 0x80) | ((r + a.r_steps) & 0x7F)
        state[_INT_DISABLED] = a.int_disabled
        counters = self.cpu.counters
        counters[1] = (counters[1] + a.ticks) % CORE_FRAME_WRAP

    # ------------------------------------------------------------------ recording
    def _record(self, routine: Routine, key: Key) -> _Answer | None:
        """Run the ROM's routine from here twice (two fillings of the stack window), put the machine
        back, and return what it did, or None if it cannot be replayed exactly."""
        cpu = self.cpu
        before = cpu.save_state()
        sp0 = before[_SP] | before[_SP + 1] << 8
        if sp0 < STACK_WINDOW + 0x4000:
            return None
        runs = []
        for fill in (0x00, 0xFF):
            cpu.load_state(before)
            cpu.memory[sp0 - STACK_WINDOW:sp0] = bytes([fill]) * STACK_WINDOW
            ticks = self._run_to_return(sp0)
            runs.append((fill, ticks, cpu.save_state()))
        cpu.load_state(before)
        (_, ticks_a, after_a), (_, ticks_b, after_b) = runs
        if ticks_a is None or ticks_b != ticks_a:
            return None
        lo, hi = _MEMORY + sp0 - STACK_WINDOW, _MEMORY + sp0
        written = tuple((sp0 - (lo + i - _MEMORY), after_a[lo + i]) for i in range(STACK_WINDOW)
                        if after_a[lo + i] != 0x00 or after_b[lo + i] != 0xFF)
        if any(after_b[_MEMORY + sp0 - off] != byte for off, byte in written):
            return None                                  # it wrote what it read from below SP
        # nothing else may differ from the state before, but for what the record replays
        if after_a[:lo] != after_b[:lo] or after_a[hi:] != after_b[hi:]:
            return None                                  # it read what it had not written below SP
        if after_a[_MEMORY:lo] != before[_MEMORY:lo] or after_a[hi:] != before[hi:]:
            return None                                  # it wrote outside its stack window
        ret = before[_MEMORY + sp0] | before[_MEMORY + sp0 + 1] << 8
        if _word(after_a, _PC) != ret or _word(after_a, _SP) != (sp0 + 2) & 0xFFFF:
            return None
        z80_before, z80_after = bytearray(before[_Z80_REGS]), bytearray(after_a[_Z80_REGS])
        r_steps = (z80_after[_R - 24] - z80_before[_R - 24]) & 0x7F
        for b in (z80_before, z80_after):
            b[_R - 24] = 0
            b[_INT_DISABLED - 24] = 0
        if z80_before != z80_after:
            return None                                  # it changed a register outside its outputs
        regs = bytes(after_a[_REGS])
        try:
            addresses = np.array(routine.reads(key[1:], regs, cpu.memory), dtype=np.intp)
        except (ValueError, IndexError):
            return None
        if addresses.size and not (0 <= addresses.min() and addresses.max() < 0x10000):
            return None
        return _Answer(addresses, self._mem[addresses].copy(), regs, ticks_a, r_steps,
                       _relation(_word(after_a, _WZ), sp0, ret), _relation(_word(after_a, _LAST_READ), sp0, ret),
                       after_a[_INT_DISABLED], written)

    def _run_to_return(self, sp0: int) -> int | None:
        """Run the core from the routine's entry until it returns to its caller (SP back above *sp0*);
        the T-states taken, or None if it met another breakpoint or took too long."""
        cpu, mem = self.cpu, self.cpu.memory
        ret = mem[sp0] | mem[(sp0 + 1) & 0xFFFF] << 8
        had_bp = ret in self.m._traps
        if not had_bp:
            cpu.set_breakpoint(ret)
        try:
            ticks = cpu.step_over_breakpoint()            # the entry is a breakpoint itself
            while ticks < RECORD_BUDGET_T:
                elapsed, at_bp = cpu.run(min(50_000, RECORD_BUDGET_T - ticks))   # below the core's wrap
                ticks += elapsed
                if not at_bp:
                    continue
                if cpu.pc == ret and cpu.get("sp") == (sp0 + 2) & 0xFFFF:
                    return ticks
                return None                               # another trap (or a recursion): not replayable
            return None
        finally:
            if not had_bp:
                cpu.clear_breakpoint(ret)


def accelerate(machine: Spectrum48, on: bool = True, cache: Cache | None = None) -> None:
    """Answer *machine*'s ROM routines from a cache of the ROM's own results: the same machine states,
    frames and screens, in less CPU time. Off by default; machines may share *cache* (a dict). Here and
    not a method of the machine, which may not import this module back."""
    if on and machine.accelerator is None:
        machine.accelerator = Accelerator(machine, cache=cache)
    elif not on and isinstance(machine.accelerator, Accelerator):
        machine.accelerator.detach()
        machine.accelerator = None
