"""Our core and z80-python in lockstep on our own workload, compared after every instruction.

`LockstepCore` is a `Core` for `Spectrum48`: each instruction is run first by z80-python (its writes and
port writes held aside; it reads the machine's memory and port table), then by our core (`cpu.Z80Core`,
every RAM write seen through its write callback); after it every register (WZ aside, see below), the
interrupt state, each byte written (address and value, in order), each port written and the T-states
must be the same, or the run stops at a `Divergence` naming the instruction, its address and the field.
Interrupts are offered to both and must be taken or refused alike. What the machine does between
instructions (its ROM traps: the tape's blocks, the key and PAUSE waits, pokes) writes the one memory
both read and sets the registers of both.

The workload (`run_workload`): power on, LOAD "" of the game's tape, the title, the answers N, N and a
key to cut, to the wait after the first deal (the machine is deterministic: RANDOMIZE reads its frame
count, the same on both); with an instruction budget for the suite. Known differences (conformance.KNOWN, ours_wrong) the ROM reaches are
not a divergence but counted: F's bits 3/5 (and H, P/V for INxR/OTxR) while a block instruction repeats,
SCF/CCF's bits 3/5 after an instruction that wrote no flags (z80-python keeps Q, our core does not),
and WZ, which is not compared here at all (conformance compares it); after a known F difference
z80-python is given our F, so the run goes on from one state.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Protocol, cast

from ..errors import MachineError, UsageError
from ..program.model import program as P
from ..spectrum.cpu import Z80Core
from ..spectrum.machine import Spectrum48
from ..spectrum.tape import read_tap
from ..spectrum.typist import Typist
from .conformance import _IN_OT_R, _LD_CP_R, _PREFIX_AT, MAX_PREFIX_STEPS, packed_registers

ROM_END = 0x4000
ANSWERS = (P.NO, P.NO, "M")        # no instructions, no muggins, any key to cut
DEAL_LINE = P.DEAL_START           # the deal routine: the workload ends at the first deal
LOAD_COMMAND = b'\xef""\r'         # LOAD "" ENTER
#: z80-python's register names for the names the machine uses (Core.get/set)
_THEIRS = {"alt_af": "af_", "alt_bc": "bc_", "alt_de": "de_", "alt_hl": "hl_"}
_PAIRS = {"bc": ("b", "c"), "de": ("d", "e"), "hl": ("h", "l"), "af": ("a", "f")}
#: the fields compared after each instruction, read the same way from both
COMPARED = ("a", "f", "b", "c", "d", "e", "h", "l", "ix", "iy", "sp", "pc", "i", "r", "alt_af", "alt_bc",
            "alt_de", "alt_hl", "iff1", "iff2", "im", "halted")


@dataclass(frozen=True)
class Divergence:
    instruction: int          # how many instructions (and interrupts) both had run before it
    pc: int
    code: bytes
    field: str
    ours: object
    theirs: object

    def describe(self) -> str:
        return (f"instruction {self.instruction:,} at {self.pc:04X} ({self.code.hex(' ').upper()}): "
                f"{self.field} is {self.ours!r} on z80, {self.theirs!r} on z80-python")


class Diverged(MachineError):
    def __init__(self, divergence: Divergence):
        super().__init__(divergence.describe())
        self.divergence = divergence


class BudgetSpent(MachineError):
    """The instruction budget is used up (the suite's form): caught by the lockstep run, not a failure; a
    MachineError should one ever escape it (the run stopped, said in one line)."""


def _ours_values(s: memoryview) -> dict[str, int]:
    values = dict(packed_registers(s))
    del values["wz"]                 # not compared here (conformance compares it; KNOWN items differ in the ROM)
    return values


class TheirCore(Protocol):
    """What the lockstep reads and sets of z80-python's `Z80CPU` (its registers by name, F as ``_f``)."""
    a: int
    _f: int
    b: int
    c: int
    d: int
    e: int
    h: int
    l: int
    ix: int
    iy: int
    sp: int
    pc: int
    i: int
    r: int
    af_: int
    bc_: int
    de_: int
    hl_: int
    iff1: bool
    iff2: bool
    im: int
    halted: bool
    _ei_delay: int
    read_port: Callable[[int], int]
    write_port: Callable[[int, int], None]

    def step(self) -> int: ...
    def request_maskable_interrupt(self, data: int) -> None: ...
    def clear_maskable_interrupt(self) -> None: ...


#: makes the other core from a memory reader and writer (z80-python's Z80CPU, or a test's stand-in)
TheirCoreMaker = Callable[[Callable[[int], int], Callable[[int, int], None]], TheirCore]


def _theirs_values(c: TheirCore) -> dict[str, int]:
    return {"a": c.a, "f": c._f, "b": c.b, "c": c.c, "d": c.d, "e": c.e, "h": c.h, "l": c.l, "ix": c.ix,
            "iy": c.iy, "sp": c.sp, "pc": c.pc, "i": c.i, "r": c.r, "alt_af": c.af_, "alt_bc": c.bc_,
            "alt_de": c.de_, "alt_hl": c.hl_, "iff1": int(c.iff1), "iff2": int(c.iff2), "im": c.im,
            "halted": int(c.halted)}


@dataclass
class Tally:
    instructions: int = 0
    interrupts: int = 0
    known_block_f: int = 0         # block-repeat F differences (a finding against our core), resynced
    known_scf_ccf: int = 0         # SCF/CCF after an instruction that wrote no flags (Q), resynced
    opcodes: set[str] = field(default_factory=set)   # the distinct opcodes compared (opcode_name)


def opcode_name(code: bytes) -> str:
    """An instruction's opcode in hex, its operands left out: "3E", "ED B0", "DD 7E", "FD CB 46" (the
    DDCB/FDCB forms by their fourth byte): what a lockstep of some length has compared."""
    if code[0] in (0xCB, 0xED) or (code[0] in (0xDD, 0xFD) and code[1] != 0xCB):
        return f"{code[0]:02X} {code[1]:02X}"
    if code[0] in (0xDD, 0xFD):
        return f"{code[0]:02X} CB {code[3]:02X}"
    return f"{code[0]:02X}"


class LockstepCore:
    """Our core and z80-python as one `Core`: every instruction run on both and compared."""

    name = "z80 + z80-python in lockstep"

    def __init__(self, budget: int | None = None, theirs: TheirCoreMaker | None = None):
        try:
            from z80_python import Z80CPU      # lazy: an optional package (the oracle extra)
        except ImportError:
            raise UsageError("the lockstep needs z80-python (MIT): pip install -e '.[oracle]'") from None
        self.ours = Z80Core()
        self._s = self.ours.state_view
        self.memory = self.ours.memory
        self._overlay: dict[int, int] = {}
        self._their_writes: list[tuple[int, int]] = []
        self._our_writes: list[tuple[int, int]] = []
        self._their_ports: list[tuple[int, int]] = []
        self._our_ports: list[tuple[int, int]] = []
        mem = self.memory

        def their_read(addr: int) -> int:
            v = self._overlay.get(addr)
            return mem[addr] if v is None else v

        def their_write(addr: int, value: int) -> None:
            self._their_writes.append((addr, value))
            if addr >= ROM_END:
                self._overlay[addr] = value

        self.theirs: TheirCore = (theirs or cast(TheirCoreMaker, Z80CPU))(their_read, their_write)
        self._m = self.ours._m
        # every RAM write of our core through a callback: recorded, then made
        self._m.set_write_callback(self._our_write)
        self._m.mark_addrs(0, 0x10000, self._m.WRITE_MARK)
        self._breakpoints: set[int] = set()
        self.budget = budget
        self.tally = Tally()
        self._read: Callable[[int], int] = lambda port: 0xFF
        self._write: Callable[[int, int], None] = lambda port, value: None
        self._sync()

    def _sync(self) -> None:
        """z80-python's registers made ours (at power-on: the two start from one state)."""
        for reg, value in _ours_values(self._s).items():
            self.set(reg, value)

    def _our_write(self, addr: int, value: int) -> None:
        self._our_writes.append((addr, value))
        if addr >= ROM_END:
            self.memory[addr] = value

    # -- registers: read from ours, set on both -------------------------------
    def get(self, reg: str) -> int:
        return self.ours.get(reg)

    def set(self, reg: str, value: int) -> None:
        if reg == "halted":
            self._s[41] = value
        else:
            self.ours.set(reg, value)
        if reg == "f":
            self.theirs._f = value
        elif reg == "halted":
            self.theirs.halted = bool(value)
        elif reg in _PAIRS:
            hi, lo = _PAIRS[reg]
            setattr(self.theirs, hi, value >> 8 & 0xFF)
            setattr(self.theirs, lo, value & 0xFF)
        elif reg in ("iff1", "iff2"):
            setattr(self.theirs, reg, bool(value))
        else:
            setattr(self.theirs, _THEIRS.get(reg, reg), value)

    @property
    def pc(self) -> int:
        return self.ours.pc

    @pc.setter
    def pc(self, value: int) -> None:
        self.ours.pc = value
        self.theirs.pc = value
        self.theirs.halted = False
        self._s[41] = 0

    @property
    def iff1(self) -> bool:
        return self.ours.iff1

    @property
    def int_blocked(self) -> bool:
        return self.ours.int_blocked

    # -- running ---------------------------------------------------------------
    def _step(self) -> int:
        if self.budget is not None and self.tally.instructions >= self.budget:
            raise BudgetSpent
        s = self._s
        pc = self.ours.pc
        code = bytes(self.memory[(pc + i) & 0xFFFF] for i in range(4))
        self._overlay.clear()
        self._their_writes.clear()
        self._our_writes.clear()
        self._their_ports.clear()
        self._our_ports.clear()
        their_t = self.theirs.step()
        our_t = 0
        for _ in range(MAX_PREFIX_STEPS):
            our_t += self.ours.run(1)[0]
            if s[_PREFIX_AT] == 0:
                break
        self._compare(pc, code, our_t, their_t)
        self.tally.opcodes.add(opcode_name(code))
        self.tally.instructions += 1
        return our_t

    def _compare(self, pc: int, code: bytes, our_t: int, their_t: int) -> None:
        ours, theirs = _ours_values(self._s), _theirs_values(self.theirs)
        n = self.tally.instructions
        if ours != theirs:
            for f in COMPARED:
                if ours[f] == theirs[f]:
                    continue
                if f == "f" and self._known_f(pc, code, ours, theirs):
                    continue
                raise Diverged(Divergence(n, pc, code, f, ours[f], theirs[f]))
        if self._our_writes != self._their_writes:
            raise Diverged(Divergence(n, pc, code, "writes", list(self._our_writes), list(self._their_writes)))
        if self._our_ports != self._their_ports:
            raise Diverged(Divergence(n, pc, code, "port writes", list(self._our_ports), list(self._their_ports)))
        if our_t != their_t:
            raise Diverged(Divergence(n, pc, code, "T-states", our_t, their_t))

    def _known_f(self, pc: int, code: bytes, ours: dict[str, int], theirs: dict[str, int]) -> bool:
        """A known F difference (conformance.KNOWN, against our core): a repeating block instruction's bits
        3/5 (and H, P/V for INxR/OTxR), or SCF/CCF's bits 3/5 where z80-python's Q says the instruction
        before wrote no flags; counted, and z80-python given our F so the run goes on from one state."""
        op = code.lstrip(b"\xdd\xfd")[:2]
        if op[:1] == b"\xed" and ours["pc"] == theirs["pc"] == pc:      # a repeat leaves PC on the instruction
            mask = 0x28 if op[1] in _LD_CP_R else 0x3C if op[1] in _IN_OT_R else 0
            tally = "known_block_f"
        elif op[:1] in (b"\x37", b"\x3f"):
            mask, tally = 0x28, "known_scf_ccf"
        else:
            return False
        if not mask or (int(ours["f"]) ^ int(theirs["f"])) & ~mask & 0xFF:
            return False
        self.theirs._f = ours["f"]
        setattr(self.tally, tally, getattr(self.tally, tally) + 1)
        return True

    def run(self, ticks: int) -> tuple[int, bool]:
        elapsed = 0
        bps = self._breakpoints
        while True:
            if self.ours.pc in bps and not self._s[41]:
                return elapsed, True
            elapsed += self._step()
            if elapsed >= ticks:
                return elapsed, False

    def step_over_breakpoint(self) -> int:
        return self._step()

    def interrupt(self) -> bool:
        th = self.theirs
        would = bool(th.iff1) and th._ei_delay == 0
        self._overlay.clear()
        self._their_writes.clear()
        self._our_writes.clear()
        pc = self.ours.pc
        taken = self.ours.interrupt()
        if taken != would:
            raise Diverged(Divergence(self.tally.instructions, pc, b"", "interrupt taken", taken, would))
        if taken:
            th.request_maskable_interrupt(0xFF)
            their_t = th.step()
            th.clear_maskable_interrupt()
            self._compare(pc, b"", their_t, their_t)
            self.tally.interrupts += 1
        return taken

    def set_breakpoint(self, addr: int) -> None:
        self._breakpoints.add(addr)

    def clear_breakpoint(self, addr: int) -> None:
        self._breakpoints.discard(addr)

    # -- ports -------------------------------------------------------------------
    def set_port_handlers(self, read: Callable[[int], int], write: Callable[[int, int], None]) -> None:
        self._write = write

        def our_write(port: int, value: int) -> None:
            self._our_ports.append((port, value))
            write(port, value)
        self.ours.set_port_handlers(read, our_write)
        self.set_port_reader(read)
        self.theirs.write_port = lambda port, value: self._their_ports.append((port, value))

    def set_port_reader(self, read: Callable[[int], int]) -> None:
        self._read = read
        self.ours.set_port_reader(read)
        self.theirs.read_port = read

    def protect(self, start: int, size: int) -> None:
        if (start, size) != (0, ROM_END):
            raise MachineError(f"the lockstep core protects 0x0000-0x3FFF only, not {start:#06x}+{size}")

    def save_state(self) -> bytes:
        raise MachineError("the lockstep core keeps no saved states (z80-python's state is not in ours)")

    def load_state(self, data: bytes) -> None:
        raise MachineError("the lockstep core keeps no saved states")


@dataclass
class LockstepResult:
    instructions: int
    interrupts: int
    known_block_f: int
    known_scf_ccf: int
    cpu_s: float
    reached: str                   # how far the workload got: "budget", or the last milestone
    divergence: Divergence | None = None
    milestones: list[str] = field(default_factory=list)
    opcodes: frozenset[str] = frozenset()     # the distinct opcodes compared

    def describe(self) -> str:
        head = (f"lockstep z80 / z80-python: {self.instructions:,} instructions ({len(self.opcodes)} distinct "
                f"opcodes) and {self.interrupts:,} interrupts compared in {self.cpu_s:.1f} CPU s ({self.instructions / max(self.cpu_s, 1e-9):,.0f} "
                f"a second), reached: {self.reached}; known F differences: {self.known_block_f:,} in repeating block "
                f"instructions, {self.known_scf_ccf:,} in SCF/CCF after no flags written (Q)")
        return head + ("\nDIVERGED: " + self.divergence.describe() if self.divergence else "")


def run_workload(tape: bytes, budget: int | None = None, theirs: TheirCoreMaker | None = None,
                 max_frames: int = 100_000) -> LockstepResult:
    """The tape's LOAD, the title, the answers and the first deal on both cores, to *budget* instructions."""
    core_box: list[LockstepCore] = []

    def make() -> LockstepCore:
        core = LockstepCore(budget, theirs)
        core_box.append(core)
        return core
    start = time.process_time()
    milestones: list[str] = []
    reached = "power on"
    divergence = None
    try:
        m = Spectrum48(fast=True, core=make)
        m.boot()
        milestones.append("booted")
        m.insert_tape(read_tap(tape))
        Typist(m).type_codes(LOAD_COMMAND)
        answers = list(ANSWERS)
        while True:
            stop = m.run(max_frames, until_line=(DEAL_LINE, None), until_wait=True, what=f"line {DEAL_LINE}")
            if stop.kind == "line":
                break
            if stop.kind != "wait" or stop.wait is None or not answers:
                raise MachineError(f"the lockstep workload stopped: {stop}")
            milestones.append(f"wait at line {stop.wait.line} answered {answers[0]!r}")
            if stop.wait.kind == "input":
                Typist(m).answer(answers.pop(0))
            else:
                m.tap(answers.pop(0))
        m.run_until_wait(max_frames)
        milestones.append("the wait after the first deal")
        reached = milestones[-1]
    except BudgetSpent:
        reached = f"budget ({milestones[-1] if milestones else 'booting'})"
    except Diverged as d:
        divergence = d.divergence
        reached = f"diverged ({milestones[-1] if milestones else 'booting'})"
    core = core_box[0]
    t = core.tally
    return LockstepResult(t.instructions, t.interrupts, t.known_block_f, t.known_scf_ccf,
                          time.process_time() - start, reached, divergence, milestones, frozenset(t.opcodes))
