"""LINE-ADDR's table (accelerate.py answers from it): what the ROM's own routine did for a line sought,
recorded by running it twice from the call's state, and the state both runs agreed on at each pass of its
loop and at its return (see accelerate.py's note for why the answer is exact).

The recording runs the core itself, between two of the machine's instructions, and puts it back.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, NamedTuple

from .core import PackedStateCore

LINE_ADDR = 0x196E            # LINE-ADDR: HL = a line number -> HL = that line's address (or the next's)
LINE_AD_1 = 0x1974            # its loop: POP BC; CALL CP-LINES; RET NC; PUSH BC; CALL NEXT-ONE; EX DE,HL; JR
STACK_WINDOW = 32             # bytes below SP a routine may use (LINE-ADDR uses six)
RECORD_BUDGET_T = 2_000_000   # a recording run longer than this is abandoned (the ROM runs as always)

# offsets in the core's packed state (cpu.STATE_SIZE); tests compare whole states
AT_PC, AT_SP, AT_WZ, AT_LAST_READ = 8, 10, 12, 14
AT_R = 36
AT_INT_DISABLED = 40
AT_MEMORY = 44
OVERWRITTEN = ((0, 2), (2, 4), (6, 8))     # BC, DE, AF: flipped in the second recording run (HL is the key)
#: the Z80's registers but R and the EI/prefix latch: the routine must leave them as they were
UNCHANGED = ((24, AT_R), (AT_R + 1, AT_INT_DISABLED), (AT_INT_DISABLED + 1, AT_MEMORY))


def stack_written(window_a: bytes, window_b: bytes) -> tuple[int, bytes] | None:
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


class Point(NamedTuple):
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


Raw = tuple[int, bytes, bytes]      # a recording run at one point: T-states, the registers, the stack window


@dataclass
class Answer:
    """A line sought: the return, and the passes of the loop (each checked when first used)."""
    end: Point | None            # the return, or None (past the last line)
    head_ticks: list[int]         # T-states at each pass of the loop
    at_head: dict[int, int]       # a pass's index by the line address in HL there
    raw: list[tuple[Raw, Raw]]  # each pass as the two recording runs saw it
    sp0: int                      # SP at the recording's entry,
    ret: int                      # its return address,
    regs0: bytes                  # and its registers
    _heads: dict[int, Point | None] = field(default_factory=dict)

    def head(self, i: int) -> Point | None:
        """Pass *i* of the loop, or None if the runs disagree there (it depended on their fillings)."""
        try:
            return self._heads[i]
        except KeyError:
            a, b = self.raw[i]
            p = agreed_point(a, b, self.sp0, self.ret, self.regs0)
            if p is not None and (p.pc != LINE_AD_1 or p.sp != 0xFFFE):
                p = None
            self._heads[i] = p
            return p


def relation(value: int, sp0: int, ret: int) -> tuple[str, int]:
    """An address a routine left in MEMPTR or the core's last-read address, as the answer replays it: the
    caller's return address, a place in the stack window (relative to SP at entry), or itself."""
    if value == ret:
        return ("ret", 0)
    offset = (value - sp0) & 0xFFFF
    if offset < 2 or offset >= 0x10000 - STACK_WINDOW:
        return ("sp", offset)                # the stack the routine used, or its return address
    return ("abs", value)


def resolve(rel: tuple[str, int], sp0: int, ret: int) -> int:
    kind, v = rel
    return ret if kind == "ret" else (sp0 + v) & 0xFFFF if kind == "sp" else v


def agreed_point(a: tuple[int, bytes, bytes], b: tuple[int, bytes, bytes], sp0: int, ret: int,
           before: bytes) -> Point | None:
    """The state both recording runs reached at one point, or None if they differ (it depended on the
    fillings) or a register outside the routine's outputs changed (*before*: the registers at entry)."""
    ticks, regs_a, window_a = a
    _, regs_b, window_b = b
    if regs_a != regs_b:
        return None
    for lo, hi in UNCHANGED:
        if regs_a[lo:hi] != before[lo:hi]:
            return None                              # it changed a register outside its outputs
    stack = stack_written(window_a, window_b)
    if stack is None:
        return None
    stack_lo, data = stack
    pc = regs_a[AT_PC] | regs_a[AT_PC + 1] << 8
    sp = regs_a[AT_SP] | regs_a[AT_SP + 1] << 8
    wz = regs_a[AT_WZ] | regs_a[AT_WZ + 1] << 8
    lr = regs_a[AT_LAST_READ] | regs_a[AT_LAST_READ + 1] << 8
    return Point(ticks, bytes(regs_a[0:8]), None if pc == ret and sp == (sp0 + 2) & 0xFFFF else pc,
                  (sp - sp0) & 0xFFFF, relation(wz, sp0, ret), relation(lr, sp0, ret),
                  (regs_a[AT_R] - before[AT_R]) & 0x7F, regs_a[AT_INT_DISABLED], stack_lo, data)




def record_line(cpu: PackedStateCore, hl: int, lines: list[int],
                trapped: Callable[[int], bool]) -> Answer | None:
    """Run LINE-ADDR (called for line *hl*) from here twice, put the machine back, and return what it
    did (None: it cannot be replayed exactly). *lines*: the program's line addresses; *trapped*: whether
    the machine traps an address (a run that meets one is not replayable)."""
    before = cpu.save_state()
    sp0 = before[AT_SP] | before[AT_SP + 1] << 8
    if not 0x4000 + STACK_WINDOW <= sp0 <= 0xFFFD:
        return None
    runs = []
    for fill in (0x00, 0xFF):
        cpu.load_state(before)
        state = cpu.state_view
        if fill:
            for lo, hi in OVERWRITTEN:
                state[lo:hi] = bytes(b ^ 0xFF for b in before[lo:hi])
        cpu.memory[sp0 - STACK_WINDOW:sp0] = bytes([fill]) * STACK_WINDOW
        runs.append(_run_to_return(cpu, sp0, trapped))
    cpu.load_state(before)
    (points_a, after_a), (points_b, after_b) = runs
    if after_a is None or after_b is None or [p[0] for p in points_a] != [p[0] for p in points_b]:
        return None
    lo, hi = AT_MEMORY + sp0 - STACK_WINDOW, AT_MEMORY + sp0
    if after_a[AT_MEMORY:lo] != before[AT_MEMORY:lo] or after_a[hi:] != before[hi:] \
            or after_b[AT_MEMORY:lo] != before[AT_MEMORY:lo] or after_b[hi:] != before[hi:]:
        return None                                  # it wrote outside its stack window
    ret = before[AT_MEMORY + sp0] | before[AT_MEMORY + sp0 + 1] << 8
    regs0 = before[:AT_MEMORY]
    end = agreed_point(points_a[-1], points_b[-1], sp0, ret, regs0)
    if end is None or end.pc is not None:
        return None
    found = end.regs[4] | end.regs[5] << 8
    if found not in lines:
        end = None                                   # past the last line: it read the variables area
    raw = list(zip(points_a[:-1], points_b[:-1]))
    at_head = {a[1][4] | a[1][5] << 8: i for i, (a, _) in enumerate(raw)}
    if len(at_head) != len(raw):
        return None
    return Answer(end, [a[0] for a, _ in raw], at_head, raw, sp0, ret, regs0)

def _run_to_return(cpu: PackedStateCore, sp0: int,
                   trapped: Callable[[int], bool]) -> tuple[list[tuple[int, bytes, bytes]], bytes | None]:
    """Run the core from LINE-ADDR's entry until it returns (SP back above *sp0*), noting the state at
    each pass of its loop and at the return: (T-states, the registers, the stack window) each, and the
    whole state at the return (None if it met another breakpoint or took too long)."""
    mem = cpu.memory
    state = cpu.state_view
    ret = mem[sp0] | mem[(sp0 + 1) & 0xFFFF] << 8
    ours = [a for a in (ret, LINE_AD_1) if not trapped(a)]
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
            here = (ticks, bytes(state[0:AT_MEMORY]), bytes(mem[sp0 - STACK_WINDOW:sp0]))
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
