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
  a tape block, a restore). Every such write drops the machine's table; the next call finds the structure
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

LOOK-VARS (0x28B2), the other quarter, has its walk over the variables answered too: lookvars.py says how.
LINE-ADDR's table is recorded by lineaddr.py.
"""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass

from .core import packed_state
from .cpu import CORE_FRAME_WRAP
from .lineaddr import (AT_INT_DISABLED, AT_R, AT_SP, LINE_AD_1, LINE_ADDR, RECORD_BUDGET_T, STACK_WINDOW, Answer,
                       Point, record_line, resolve)
from .lookvars import V_EACH, V_RUN, VARS, Walk, skip_cost
from .machine import Spectrum48

__all__ = ["Accelerator", "accelerate", "Cache", "Stats", "skip_cost", "PROG", "VARS", "LINE_ADDR", "LINE_AD_1",
           "STACK_WINDOW", "V_RUN", "V_EACH", "RECORD_BUDGET_T"]

PROG = 23635                  # the system variable PROG: where the program area starts


@dataclass
class Stats:
    """What the accelerator did on its machine (`cribbage-zx bench` and the tests read it)."""
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


#: the tables by the program's structure (PROG and every line header); machines may share one
Cache = dict[bytes, dict[int, "Answer | None"]]


class Accelerator:
    """Traps LINE-ADDR in a Spectrum48 and answers it from the table of the program's structure, and LOOK-VARS's
    walk over the variables from theirs."""

    def __init__(self, machine: Spectrum48, cache: Cache | None = None, lookvars: bool = True):
        self.m = machine
        self.cpu = packed_state(machine.cpu, "the ROM accelerator")
        self._state, self._counters = self.cpu.state_view, self.cpu.counters    # the core's, written in place
        self.cache: Cache = {} if cache is None else cache
        self.stats = Stats()
        self._table: dict[int, Answer | None] | None = None     # None: the structure must be found again
        self._lines: list[int] = []          # the line addresses of the structure watched
        self._watched: list[tuple[int, int]] = []
        self._lines_lo, self._lines_hi = PROG, PROG + 1      # the bytes the program's watch covers
        self.lookvars = lookvars
        self._walk: Walk | None = None          # None: the variables' structure must be walked again
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

    def _find_structure(self) -> dict[int, Answer | None]:
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
        self._apply(end, state, state[AT_SP] | state[AT_SP + 1] << 8, 0, 0)
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
        sp = state[AT_SP] | state[AT_SP + 1] << 8
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

    def _apply(self, p: Point, state: memoryview, sp0: int, ticks0: int, r0: int) -> None:
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
        wz = resolve(p.wz, sp0, ret)
        lr = resolve(p.last_read, sp0, ret)
        state[8:16] = bytes((pc & 0xFF, pc >> 8, sp & 0xFF, sp >> 8, wz & 0xFF, wz >> 8, lr & 0xFF, lr >> 8))
        r = state[AT_R]
        state[AT_R] = (r & 0x80) | ((r + p.r_steps - r0) & 0x7F)
        state[AT_INT_DISABLED] = p.int_disabled
        counters = self.cpu.counters
        counters[1] = (counters[1] + p.ticks - ticks0) % CORE_FRAME_WRAP

    # ------------------------------------------------------------------ LOOK-VARS
    def _new_walk(self) -> Walk:
        """The variables' structure was never walked, or VARS changed: a new walk from VARS."""
        self._unwatch_vars(self._vars_lo)
        mem = self.cpu.memory
        walk = self._walk = Walk(mem[VARS] | mem[VARS + 1] << 8)
        self._vars_lo, self._vars_hi = walk.start, walk.start - 1
        return walk

    def extend_walk(self, walk: Walk, key: int) -> None:
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
        if state[AT_INT_DISABLED]:
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
        if j < 1 or (state[AT_SP] | state[AT_SP + 1] << 8) - 6 <= self._vars_hi:
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
        r = state[AT_R]
        state[4:10] = bytes((a & 0xFF, a >> 8, state[6], state[7], V_EACH & 0xFF, V_EACH >> 8))   # HL, AF, PC
        state[AT_R] = (r & 0x80) | ((r + walk.land_r[j]) & 0x7F)
        counters = self._counters
        counters[1] = (counters[1] + t) % CORE_FRAME_WRAP
        s.t += t
        stats.ticks_saved += t
        stats.vars_ticks_saved += t
        return True
    # ------------------------------------------------------------------ recording
    def record_line(self, hl: int) -> Answer | None:
        """Run LINE-ADDR from here twice, put the machine back, and return what it did (None: it cannot
        be replayed exactly): lineaddr.record_line."""
        return record_line(self.cpu, hl, self._lines, self.m.has_trap)


def accelerate(machine: Spectrum48, on: bool = True, cache: Cache | None = None, lookvars: bool = True) -> None:
    """Answer *machine*'s LINE-ADDR from the ROM's own results: the same machine states, frames and
    screens, in less CPU time. Machines may share *cache* (a dict). Here and not a method of the machine,
    which may not import this module back."""
    if on and machine.accelerator is None:
        machine.accelerator = Accelerator(machine, cache=cache, lookvars=lookvars)
    elif not on and isinstance(machine.accelerator, Accelerator):
        machine.accelerator.detach()
        machine.accelerator = None
