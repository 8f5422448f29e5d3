"""Exact acceleration of the ROM's LINE-ADDR (each call answered from a table of the ROM's own results) and of
LOOK-VARS's walk over the variables (answered from the variables' structure).

A quarter of a game's T-states go to LINE-ADDR (0x196E): every GO TO, GO SUB, RETURN and NEXT calls it,
and it walks the program from its first line through NEXT-ONE (`cribbage-zx bench` prints the profile).
What it does depends only on the line sought (HL), PROG and the line headers it walks (each line's
number and length), so it can be remembered. Exactness is the point, not an approximation:

* **The table** holds, per line sought, what the ROM's own routine did when it was first called for it:
  run twice from that call's state, with two fillings of the stack below SP and two fillings of the
  registers it overwrites (BC, DE, AF), then the machine put back. The record keeps the state the ROM
  left at its return, and at each pass of its loop (LINE-AD-1, 0x1974): the registers, MEMPTR, the core's
  last-read address, the R steps, the T-states taken and the stack bytes written. A state that the two
  runs disagree on depended on something the record does not know and is never used.
* **Valid while the program's structure is unchanged**: PROG and the four header bytes of every line are
  watched (the core reports each CPU write into them; the machine reports Python's writes: poke, write,
  a tape block, a restore). Any such write drops the machine's table; the next call finds the structure
  again (its bytes select a table among those the machines of a worker share, so a new game is not
  recorded again). No check is made per call, and none per frame.
* **Answered exactly in time**: a call whose whole walk ends before the current run's T-state limit (the
  frame's end) is answered at its return: registers, flags, SP, PC, MEMPTR, R, the stack bytes and the
  T-state counters as the ROM leaves them. One that would cross the limit is answered up to the last pass
  of its loop that starts before it, and the ROM runs the rest: the frame ends, and the frame's interrupt
  is taken, at the instruction the plain ROM reaches, so the whole machine is identical at every frame end
  and every statement start (tests/oracles/games/test_accelerate_lockstep.py plays golden games both ways).
* **Not answered** (the ROM runs as always): the end of a walk for a line sought past the program's
  last line (it reads the variables area; its passes are answered), a stack too low for the window, a
  walk that met a trap, wrote outside its stack window or changed a register outside its outputs.

LOOK-VARS (0x28B2), the other quarter, has its walk over the variables answered (V-RUN, 0x28FD, to V-EACH,
0x2900, at the last variable before the one sought): each pass over a variable not sought costs what the
ROM's instructions cost for its type (`skip_cost`), and the walk is kept while no byte it read is written
(first bytes, string and array lengths, longer names' letters, the area's end, VARS: marked in the core;
a write cuts the walk back to the variables before it). The pass over that last variable is the ROM's
own, and it rewrites all that the skipped passes left and the answer does not (A, F, DE, MEMPTR, the
last address read, the six stack bytes), so the machine is the plain ROM's when it ends; it must end
before the frame's end. The name's reading before the walk and the match after it are the ROM's (they
read the program's text at CH_ADD and write CH_ADD and FLAGS). RZX recordings count instruction fetches
per frame; they run on the plain ROM (`LoadedTape.machine`).
"""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from typing import NamedTuple

from .core import Memory, packed_state
from .cpu import CORE_FRAME_WRAP
from .machine import Spectrum48

PROG = 23635                  # the system variable PROG: where the program area starts
VARS = 23627                  # the system variable VARS: where the variables area starts
LINE_ADDR = 0x196E            # LINE-ADDR: HL = a line number -> HL = that line's address (or the next's)
LINE_AD_1 = 0x1974            # its loop: POP BC; CALL CP-LINES; RET NC; PUSH BC; CALL NEXT-ONE; EX DE,HL; JR
STACK_WINDOW = 32             # bytes below SP a routine may use (LINE-ADDR uses six)
V_RUN = 0x28FD                # LOOK-VARS at run time: LD HL,(VARS), then its walk over the variables
V_EACH = 0x2900               # the walk's loop: LD A,(HL); AND 7F; JR Z end; CP C; JR NZ next (NEXT-ONE)
RECORD_BUDGET_T = 2_000_000   # a recording run longer than this is abandoned (the ROM runs as always)

# offsets in the core's packed state (cpu.STATE_SIZE); tests compare whole states
_PC, _SP, _WZ, _LAST_READ = 8, 10, 12, 14
_R = 36
_INT_DISABLED = 40
_MEMORY = 44
_OVERWRITTEN = ((0, 2), (2, 4), (6, 8))     # BC, DE, AF: flipped in the second recording run (HL is the key)
#: the Z80's registers but R and the EI/prefix latch: the routine must leave them as they were
_UNCHANGED = ((24, _R), (_R + 1, _INT_DISABLED), (_INT_DISABLED + 1, _MEMORY))


def _stack_written(window_a: bytes, window_b: bytes) -> tuple[int, bytes] | None:
    """The bytes a routine wrote in its stack window, from the window after a run over 0x00s (*window_a*)
    and one over 0xFFs (*window_b*): (offset below SP of the first, the bytes up to the last), (0, b"")
    for none; None if it wrote what it read there, or not one run of bytes. A byte is written where the two
    runs agree; one left alone reads 0x00 and 0xFF."""
    n = len(window_a)
    ia = int.from_bytes(window_a, "big")
    x = ia ^ int.from_bytes(window_b, "big")
    xor = x.to_bytes(n, "big")
    if xor.translate(None, b"\x00\xff") or ia & x:
        return None                              # a byte that is neither written nor left alone
    first = xor.find(b"\x00")
    if first < 0:
        return 0, b""
    last = xor.rfind(b"\x00")
    if b"\xff" in xor[first:last]:
        return None                              # not one run of bytes (LINE-ADDR's are)
    return n - first, bytes(window_a[first:last + 1])


class _Point(NamedTuple):
    """The machine as the ROM leaves it at one point of a call: a pass of the loop, or the return."""
    ticks: int                    # T-states from the call's entry
    regs: bytes                   # BC, DE, HL, AF
    pc: int | None                # None: the return address
    sp: int                       # SP, relative to SP at entry
    wz: tuple[str, int]           # MEMPTR: ("ret", 0), ("sp", offset) or ("abs", value)
    last_read: tuple[str, int]
    r_steps: int
    int_disabled: int
    stack_lo: int                 # the bytes written below SP at entry: from SP - stack_lo ...
    stack: bytes                  # ... up


_Raw = tuple[int, bytes, bytes]      # a recording run at one point: T-states, the registers, the stack window


@dataclass
class _Answer:
    """A line sought: the return, and the passes of the loop (each checked when first used)."""
    end: _Point | None            # the return, or None (past the last line)
    head_ticks: list[int]         # T-states at each pass of the loop
    at_head: dict[int, int]       # a pass's index by the line address in HL there
    raw: list[tuple[_Raw, _Raw]]  # each pass as the two recording runs saw it
    sp0: int                      # SP at the recording's entry,
    ret: int                      # its return address,
    regs0: bytes                  # and its registers
    _heads: dict[int, _Point | None] = field(default_factory=dict)

    def head(self, i: int) -> _Point | None:
        """Pass *i* of the loop, or None if the runs disagree there (it depended on their fillings)."""
        try:
            return self._heads[i]
        except KeyError:
            a, b = self.raw[i]
            p = _point(a, b, self.sp0, self.ret, self.regs0)
            if p is not None and (p.pc != LINE_AD_1 or p.sp != 0xFFFE):
                p = None
            self._heads[i] = p
            return p


@dataclass
class Stats:
    answered: int = 0             # calls answered to their return
    partial: int = 0              # calls answered to a pass of the loop before the run's limit
    resumed: int = 0              # calls answered onwards from a pass of the loop the ROM reached itself
    recorded: int = 0             # lines sought recorded (the ROM ran, twice)
    declined: int = 0             # calls the ROM ran whole
    ticks_saved: int = 0          # T-states charged without being emulated
    invalidated: int = 0          # tables dropped: a write into the program's structure
    vars_answered: int = 0        # LOOK-VARS walks answered up to their last variable skipped
    vars_partial: int = 0         # ... up to a variable before it (the frame's end is near)
    vars_declined: int = 0        # LOOK-VARS walks the ROM ran whole (fewer than two variables to skip)
    vars_ticks_saved: int = 0     # of ticks_saved, those of LOOK-VARS walks
    vars_invalidated: int = 0     # variables' tables dropped: a write into the variables' structure


def skip_cost(mem: Memory, a: int) -> tuple[int, int, int, int] | None:
    """One pass of LOOK-VARS's walk (V-EACH, 0x2900, to V-EACH) over the variable at *a* that is not the
    one sought: (T-states, R steps, the next variable's address, the bytes from *a* the pass reads that
    decide it), from the ROM's instructions (V-EACH's test, V-NEXT's PUSH BC, CALL NEXT-ONE, EX DE,HL,
    POP BC, JR, and NEXT-ONE's path for the variable's type); None for a byte below 0x40 (NEXT-ONE
    takes it for a line). Every pass writes the same six stack bytes and leaves BC as it was.

    Common to every type: V-EACH's test 37 T (5 R), V-NEXT 54 T (5 R), NEXT-ONE's head (PUSH HL, LD A,(HL),
    CP 40, JR C, BIT 5,A) 40 T (6 R) and its tail from 0x19DB 73 T (10 R): 204 T, 26 R. Then by type:
    a string or an array (bit 5 clear) reads its length: 44 T, 6 R; a one-letter number 79 T, 10 R; a FOR
    control 81 T, 11 R; a number of a longer name of L letters reads them all: 54 + 29L T, 7 + 4L R."""
    b = mem[a]
    if b < 0x40:
        return None
    if not b & 0x20:                                     # 010 string, 100 / 110 array: a length word
        n = mem[a + 1] | mem[a + 2] << 8
        return 248, 32, a + 3 + n, 3
    kind = b & 0xE0
    if kind == 0x60:                                     # one letter: 5 bytes of value
        return 283, 36, a + 6, 1
    if kind == 0xE0:                                     # a FOR control: 18 bytes
        return 285, 37, a + 19, 1
    last = 1                                             # 101: the name's letters, the last with bit 7
    while not mem[a + last] & 0x80:
        last += 1
        if a + last > 0xFFFF:
            return None
    length = last + 1
    return 258 + 29 * length, 33 + 4 * length, a + length + 5, length


class _Walk:
    """LOOK-VARS's walk over the variables area as far as it has been asked: each variable's address, the
    last byte its pass reads, and the T-states and R steps from V-RUN (LD HL,(VARS): 16 T, 1 R) to V-EACH
    at it. Valid while no byte it read was written: a write cuts it back to the variables before it."""

    __slots__ = ("start", "addrs", "tops", "land_t", "land_r", "fin_t", "first", "cursor", "t", "r", "end")

    def __init__(self, start: int):
        self.start = start
        self.addrs: list[int] = []
        self.tops: list[int] = []         # the last byte of variable j its pass reads
        self.land_t: list[int] = []       # T-states from V-RUN to V-EACH at variable j
        self.land_r: list[int] = []       # R steps likewise
        self.fin_t: list[int] = []        # ... to the end of its pass (V-EACH at the next)
        self.first: dict[int, int] = {}   # a variable's first byte (bit 7 off) -> the first one walked
        self.cursor, self.t, self.r = start, 16, 1
        self.end = False                  # the byte at the cursor ends the walk (0x80, or one it cannot skip)

    def cut(self, i: int) -> None:
        """Keep variables 0 .. i-1; the walk goes on from variable i's address."""
        if i < len(self.addrs):
            self.cursor, self.t, self.r = self.addrs[i], self.land_t[i], self.land_r[i]
            for lst in (self.addrs, self.tops, self.land_t, self.land_r, self.fin_t):
                del lst[i:]
            self.first = {k: v for k, v in self.first.items() if v < i}
        self.end = False


#: the tables by the program's structure (PROG and every line header); machines may share one
Cache = dict[bytes, dict[int, "_Answer | None"]]


def _relation(value: int, sp0: int, ret: int) -> tuple[str, int]:
    """An address a routine left in MEMPTR or the core's last-read address, as the answer replays it: the
    caller's return address, a place in the stack window (relative to SP at entry), or itself."""
    if value == ret:
        return ("ret", 0)
    offset = (value - sp0) & 0xFFFF
    if offset < 2 or offset >= 0x10000 - STACK_WINDOW:
        return ("sp", offset)                # the stack the routine used, or its return address
    return ("abs", value)


def _resolve(rel: tuple[str, int], sp0: int, ret: int) -> int:
    kind, v = rel
    return ret if kind == "ret" else (sp0 + v) & 0xFFFF if kind == "sp" else v


def _point(a: tuple[int, bytes, bytes], b: tuple[int, bytes, bytes], sp0: int, ret: int,
           before: bytes) -> _Point | None:
    """The state both recording runs reached at one point, or None if they differ (it depended on the
    fillings) or a register outside the routine's outputs changed (*before*: the registers at entry)."""
    ticks, regs_a, window_a = a
    _, regs_b, window_b = b
    if regs_a != regs_b:
        return None
    for lo, hi in _UNCHANGED:
        if regs_a[lo:hi] != before[lo:hi]:
            return None                              # it changed a register outside its outputs
    stack = _stack_written(window_a, window_b)
    if stack is None:
        return None
    stack_lo, data = stack
    pc = regs_a[_PC] | regs_a[_PC + 1] << 8
    sp = regs_a[_SP] | regs_a[_SP + 1] << 8
    wz = regs_a[_WZ] | regs_a[_WZ + 1] << 8
    lr = regs_a[_LAST_READ] | regs_a[_LAST_READ + 1] << 8
    return _Point(ticks, bytes(regs_a[0:8]), None if pc == ret and sp == (sp0 + 2) & 0xFFFF else pc,
                  (sp - sp0) & 0xFFFF, _relation(wz, sp0, ret), _relation(lr, sp0, ret),
                  (regs_a[_R] - before[_R]) & 0x7F, regs_a[_INT_DISABLED], stack_lo, data)


class Accelerator:
    """Traps LINE-ADDR in a Spectrum48 and answers it from the table of the program's structure."""

    def __init__(self, machine: Spectrum48, cache: Cache | None = None, lookvars: bool = True):
        self.m = machine
        self.cpu = packed_state(machine.cpu, "the ROM accelerator")
        self._state, self._counters = self.cpu.state_view, self.cpu.counters    # the core's, written in place
        self.cache: Cache = {} if cache is None else cache
        self.stats = Stats()
        self._table: dict[int, _Answer | None] | None = None     # None: the structure must be found again
        self._lines: list[int] = []          # the line addresses of the structure watched
        self._watched: list[tuple[int, int]] = []
        self._lines_lo, self._lines_hi = PROG, PROG + 1      # the bytes the program's watch covers
        self.lookvars = lookvars
        self._walk: _Walk | None = None          # None: the variables' structure must be walked again
        self._vars_lo, self._vars_hi = VARS, VARS - 1        # the bytes the variables' marks cover (none)
        self.cpu.on_watched_write = self._written
        machine.on_memory_written = self._python_wrote
        machine.add_trap(LINE_ADDR, self._call)
        machine.add_trap(LINE_AD_1, self._resume)
        if lookvars:
            self.cpu.watch_writes(VARS, 2)
            machine.add_trap(V_RUN, self._vars_call)

    def detach(self) -> None:
        self.m.remove_trap(LINE_ADDR)
        self.m.remove_trap(LINE_AD_1)
        if self.lookvars:
            self.m.remove_trap(V_RUN)
            self.cpu.unwatch_writes(VARS, 2)
        self._unwatch()
        self._unwatch_vars(self._vars_lo)
        self.cpu.on_watched_write = None
        self.m.on_memory_written = None

    # ------------------------------------------------------------------ the structure
    def _written(self, addr: int) -> None:
        """A CPU write into a watched byte: PROG or a line header (the line table no longer holds), VARS or
        a byte of the variables' structure a walk read (the walk is cut back to the variables before it).
        A table is dropped whenever the byte lies in the span its marks cover."""
        if self._vars_lo <= addr <= self._vars_hi or VARS <= addr <= VARS + 1:
            self.vars_written(addr)
        if self._lines_lo <= addr <= self._lines_hi or PROG <= addr <= PROG + 1:
            if self._table is not None:
                self._table = None
                self.stats.invalidated += 1

    def _python_wrote(self, addr: int, size: int) -> None:
        if self._table is not None and (addr < PROG + 2 and addr + size > PROG
                                        or any(addr < a + 4 and addr + size > a for a in self._lines)):
            self._table = None
            self.stats.invalidated += 1
        if addr < VARS + 2 and addr + size > VARS:
            self.vars_written(VARS)
        elif addr <= self._vars_hi and addr + size > self._vars_lo:
            self.vars_written(max(addr, self._vars_lo))

    def vars_written(self, addr: int) -> None:
        """*addr* (VARS, or a byte in the walk's span) was written: cut the walk back to the variables whose
        bytes all lie below it, and unmark the rest."""
        walk = self._walk
        self.stats.vars_invalidated += 1
        if walk is None:
            return
        if addr <= VARS + 1 or addr < walk.start:
            self._walk = None
            self._unwatch_vars(self._vars_lo)
            return
        i = bisect_left(walk.addrs, addr + 1) - 1        # the variable at or before the byte written
        if i < 0:
            i = 0                                        # no variable walked: the end's byte
        elif addr > walk.tops[i]:
            i += 1                                       # past its bytes read: a byte after it
        walk.cut(i)
        self._unwatch_vars(walk.cursor)

    def _unwatch(self) -> None:
        for start, size in self._watched:
            self.cpu.unwatch_writes(start, size)
        self._watched = []
        if self._vars_lo <= self._lines_hi and self._lines_lo <= self._vars_hi and self._walk is not None:
            self._walk = None                         # the spans met: the variables walked again
            self._unwatch_vars(self._vars_lo)

    def _unwatch_vars(self, frm: int) -> None:
        """Unmark the variables' bytes from *frm* on (one span: nothing else of ours is marked there)."""
        lo, hi = self._vars_lo, self._vars_hi
        frm = max(frm, lo)
        if frm <= hi:
            self.cpu.unwatch_writes(frm, hi - frm + 1)
            if frm <= self._lines_hi and self._lines_lo <= hi:
                self._rewatch(self._watched)          # the spans met: the program's marks kept
        self._vars_hi = min(hi, frm - 1)

    def _rewatch(self, ranges: list[tuple[int, int]]) -> None:
        for start, size in ranges:
            self.cpu.watch_writes(start, size)

    def _find_structure(self) -> dict[int, _Answer | None]:
        """Walk the program's line headers from PROG as LINE-ADDR does, watch them, and select their table."""
        mem = self.cpu.memory
        a = mem[PROG] | mem[PROG + 1] << 8
        lines, parts = [], [bytes(mem[PROG:PROG + 2])]
        while a <= 0xFFFF - 4 and mem[a] < 0x40:
            lines.append(a)
            parts.append(bytes(mem[a:a + 4]))
            a += 4 + (mem[a + 2] | mem[a + 3] << 8)
        self._unwatch()
        watched = [(PROG, 2)] + [(x, 4) for x in lines]
        for start, size in watched:
            self.cpu.watch_writes(start, size)
        self._watched, self._lines = watched, lines
        self._lines_lo = min(a for a, _ in watched)
        self._lines_hi = max(a + n - 1 for a, n in watched)
        table = self._table = self.cache.setdefault(b"".join(parts), {})
        return table

    # ------------------------------------------------------------------ answering
    def _call(self) -> bool:
        table = self._table
        if table is None:
            table = self._find_structure()
        state = self.cpu.state_view
        hl = state[4] | state[5] << 8
        try:
            answer = table[hl]
        except KeyError:
            answer = table[hl] = self.record_line(hl)
            self.stats.recorded += 1
        if answer is None:
            self.stats.declined += 1
            return False
        s = self.m.s
        room = self.m.tick_limit - s.t
        end = answer.end
        if end is not None and end.ticks < room:
            self.stats.answered += 1
        else:
            i = bisect_left(answer.head_ticks, room) - 1
            end = answer.head(i) if i >= 0 else None
            if end is None:
                self.stats.declined += 1
                return False
            self.stats.partial += 1
            s.at_bp = True               # the pass it lands on is a breakpoint (ours): run, not answered
        self._apply(end, state, state[_SP] | state[_SP + 1] << 8, 0, 0)
        s.t += end.ticks
        self.stats.ticks_saved += end.ticks
        return True

    def _resume(self) -> bool:
        """A pass of LINE-ADDR's loop the ROM reached itself (after a call answered up to the frame's end,
        and the frame's interrupt): answered onwards from here, if a whole pass of the loop lies between
        (every stack byte the answer writes is then written after the interrupt's)."""
        table = self._table
        if table is None:
            return False
        state, mem = self.cpu.state_view, self.cpu.memory
        sp = state[_SP] | state[_SP + 1] << 8
        answer = table.get(mem[sp] | mem[(sp + 1) & 0xFFFF] << 8)
        if answer is None:
            return False
        k = answer.at_head.get(state[4] | state[5] << 8)
        if k is None:
            return False
        here = answer.head(k)
        if here is None or state[0:8] != here.regs:
            return False
        room = self.m.tick_limit - self.m.s.t + here.ticks
        end = answer.end
        if end is None or end.ticks >= room or k == len(answer.raw) - 1:
            i = bisect_left(answer.head_ticks, room) - 1
            if i <= k:
                return False
            end = answer.head(i)
            if end is None:
                return False
        self._apply(end, state, (sp - here.sp) & 0xFFFF, here.ticks, here.r_steps)
        took = end.ticks - here.ticks
        self.m.s.t += took
        self.stats.resumed += 1
        self.stats.ticks_saved += took
        return True

    def _apply(self, p: _Point, state: memoryview, sp0: int, ticks0: int, r0: int) -> None:
        """Put the machine where the ROM is at point *p* of a call entered with SP = *sp0*, from its point
        *ticks0* T-states and *r0* R steps after the entry (0, 0: the entry itself)."""
        mem = self.cpu.memory
        ret = mem[sp0] | mem[(sp0 + 1) & 0xFFFF] << 8
        if p.stack:
            lo = sp0 - p.stack_lo
            mem[lo:lo + len(p.stack)] = p.stack
        state[0:8] = p.regs
        pc = ret if p.pc is None else p.pc
        sp = (sp0 + p.sp) & 0xFFFF
        wz = _resolve(p.wz, sp0, ret)
        lr = _resolve(p.last_read, sp0, ret)
        state[8:16] = bytes((pc & 0xFF, pc >> 8, sp & 0xFF, sp >> 8, wz & 0xFF, wz >> 8, lr & 0xFF, lr >> 8))
        r = state[_R]
        state[_R] = (r & 0x80) | ((r + p.r_steps - r0) & 0x7F)
        state[_INT_DISABLED] = p.int_disabled
        counters = self.cpu.counters
        counters[1] = (counters[1] + p.ticks - ticks0) % CORE_FRAME_WRAP

    # ------------------------------------------------------------------ LOOK-VARS
    def _new_walk(self) -> _Walk:
        """The variables' structure was never walked, or VARS changed: a new walk from VARS."""
        self._unwatch_vars(self._vars_lo)
        mem = self.cpu.memory
        walk = self._walk = _Walk(mem[VARS] | mem[VARS + 1] << 8)
        self._vars_lo, self._vars_hi = walk.start, walk.start - 1
        return walk

    def extend_walk(self, walk: _Walk, key: int) -> None:
        """Walk on (and watch what the walk reads) until a variable whose first byte, bit 7 off, is *key*,
        or the end of the area."""
        mem, cpu = self.cpu.memory, self.cpu
        a, t, r = walk.cursor, walk.t, walk.r
        first = walk.first
        top = self._vars_hi
        while True:
            if a > 0xFFFF - 3:                  # past the top of memory: the ROM's own walk from here
                walk.end = True
                break
            b = mem[a]
            k = b & 0x7F
            step = None if k == 0 else skip_cost(mem, a)
            if step is None:                    # the end of the area (0x80), or a byte the walk cannot skip
                cpu.watch_writes(a, 1)
                walk.end, top = True, a
                break
            ticks, r_steps, nxt, read = step
            cpu.watch_writes(a, read)
            top = a + read - 1
            first.setdefault(k, len(walk.addrs))
            walk.addrs.append(a)
            walk.tops.append(top)
            walk.land_t.append(t)
            walk.land_r.append(r)
            t += ticks
            r += r_steps
            walk.fin_t.append(t)
            a = nxt
            if k == key:
                break
        walk.cursor, walk.t, walk.r = a, t, r
        self._vars_hi = top

    def _vars_call(self) -> bool:
        """LOOK-VARS at run time, at V-RUN (LD HL,(VARS)): the walk answered up to V-EACH at the last
        variable before the one sought (or before the area's end), and the ROM runs that pass and the rest.
        The pass it runs writes everything the skipped passes left that the answer does not (A, F, DE,
        MEMPTR, the last address read, the six stack bytes), so the machine is the plain ROM's when that
        pass ends, and it ends before the frame's end (else the answer stops at an earlier variable)."""
        state = self._state
        if state[_INT_DISABLED]:
            return False
        walk = self._walk
        if walk is None:
            walk = self._new_walk()
        key = state[0]                                   # C: the name sought, as V-EACH compares it
        n = walk.first.get(key)
        if n is None:
            if not walk.end:
                self.extend_walk(walk, key)
            n = walk.first.get(key, len(walk.addrs))
        j = n - 1                                        # the ROM runs the pass over variable j
        stats = self.stats
        if j < 1 or (state[_SP] | state[_SP + 1] << 8) - 6 <= self._vars_hi:
            stats.vars_declined += 1                     # nothing to skip; or a stack in the structure
            return False
        s = self.m.s
        room = self.m.tick_limit - s.t
        if walk.fin_t[j] < room:
            stats.vars_answered += 1
        else:
            j = bisect_left(walk.fin_t, room, 0, j) - 1
            if j < 1:
                stats.vars_declined += 1
                return False
            stats.vars_partial += 1
        a, t = walk.addrs[j], walk.land_t[j]
        r = state[_R]
        state[4:10] = bytes((a & 0xFF, a >> 8, state[6], state[7], V_EACH & 0xFF, V_EACH >> 8))   # HL, AF, PC
        state[_R] = (r & 0x80) | ((r + walk.land_r[j]) & 0x7F)
        counters = self._counters
        counters[1] = (counters[1] + t) % CORE_FRAME_WRAP
        s.t += t
        stats.ticks_saved += t
        stats.vars_ticks_saved += t
        return True

    # ------------------------------------------------------------------ recording
    def record_line(self, hl: int) -> _Answer | None:
        """Run LINE-ADDR from here twice, put the machine back, and return what it did (None: it cannot
        be replayed exactly)."""
        cpu = self.cpu
        before = cpu.save_state()
        sp0 = before[_SP] | before[_SP + 1] << 8
        if not 0x4000 + STACK_WINDOW <= sp0 <= 0xFFFD:
            return None
        runs = []
        for fill in (0x00, 0xFF):
            cpu.load_state(before)
            state = cpu.state_view
            if fill:
                for lo, hi in _OVERWRITTEN:
                    state[lo:hi] = bytes(b ^ 0xFF for b in before[lo:hi])
            cpu.memory[sp0 - STACK_WINDOW:sp0] = bytes([fill]) * STACK_WINDOW
            runs.append(self._run_to_return(sp0))
        cpu.load_state(before)
        (points_a, after_a), (points_b, after_b) = runs
        if after_a is None or after_b is None or [p[0] for p in points_a] != [p[0] for p in points_b]:
            return None
        lo, hi = _MEMORY + sp0 - STACK_WINDOW, _MEMORY + sp0
        if after_a[_MEMORY:lo] != before[_MEMORY:lo] or after_a[hi:] != before[hi:] \
                or after_b[_MEMORY:lo] != before[_MEMORY:lo] or after_b[hi:] != before[hi:]:
            return None                                  # it wrote outside its stack window
        ret = before[_MEMORY + sp0] | before[_MEMORY + sp0 + 1] << 8
        regs0 = before[:_MEMORY]
        end = _point(points_a[-1], points_b[-1], sp0, ret, regs0)
        if end is None or end.pc is not None:
            return None
        found = end.regs[4] | end.regs[5] << 8
        if found not in self._lines:
            end = None                                   # past the last line: it read the variables area
        raw = list(zip(points_a[:-1], points_b[:-1]))
        at_head = {a[1][4] | a[1][5] << 8: i for i, (a, _) in enumerate(raw)}
        if len(at_head) != len(raw):
            return None
        return _Answer(end, [a[0] for a, _ in raw], at_head, raw, sp0, ret, regs0)

    def _run_to_return(self, sp0: int) -> tuple[list[tuple[int, bytes, bytes]], bytes | None]:
        """Run the core from LINE-ADDR's entry until it returns (SP back above *sp0*), noting the state at
        each pass of its loop and at the return: (T-states, the registers, the stack window) each, and the
        whole state at the return (None if it met another breakpoint or took too long)."""
        cpu, mem = self.cpu, self.cpu.memory
        state = cpu.state_view
        ret = mem[sp0] | mem[(sp0 + 1) & 0xFFFF] << 8
        ours = [a for a in (ret, LINE_AD_1) if not self.m.has_trap(a)]
        for a in ours:
            cpu.set_breakpoint(a)
        points: list[tuple[int, bytes, bytes]] = []
        try:
            ticks = cpu.step_over_breakpoint()            # the entry is a breakpoint itself
            while ticks < RECORD_BUDGET_T:
                elapsed, at_bp = cpu.run(min(50_000, RECORD_BUDGET_T - ticks))   # below the core's wrap
                ticks += elapsed
                if not at_bp:
                    continue
                pc = cpu.pc
                here = (ticks, bytes(state[0:_MEMORY]), bytes(mem[sp0 - STACK_WINDOW:sp0]))
                if pc == ret and cpu.get("sp") == (sp0 + 2) & 0xFFFF:
                    points.append(here)
                    return points, cpu.save_state()
                if pc != LINE_AD_1:
                    return points, None                   # another trap: not replayable
                points.append(here)
                ticks += cpu.step_over_breakpoint()
            return points, None
        finally:
            for a in ours:
                cpu.clear_breakpoint(a)


def accelerate(machine: Spectrum48, on: bool = True, cache: Cache | None = None, lookvars: bool = True) -> None:
    """Answer *machine*'s LINE-ADDR from the ROM's own results: the same machine states, frames and
    screens, in less CPU time. Machines may share *cache* (a dict). Here and not a method of the machine,
    which may not import this module back."""
    if on and machine.accelerator is None:
        machine.accelerator = Accelerator(machine, cache=cache, lookvars=lookvars)
    elif not on and isinstance(machine.accelerator, Accelerator):
        machine.accelerator.detach()
        machine.accelerator = None
