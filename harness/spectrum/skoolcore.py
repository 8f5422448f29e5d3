"""A second CPU core for the machine: SkoolKit's Z80 simulator behind the same adapter as `cpu.Z80Core`.

A test oracle only: SkoolKit is GPL-3, so it is an optional extra
(``pip install -e '.[oracle]'``, also in the test extra) and never the
default core. ``Spectrum48(core=SkoolKitCore)`` runs the same ROM, tape and
program on an independent implementation of the Z80; the tests play a
regress game and a sweep chunk on both cores and compare the transcripts
byte for byte (tests/oracles/cores/test_second_core.py).

SkoolKit's C simulator (``skoolkit.csimulator``, built with the wheel) runs
one instruction per `run()` call, which made a game ~60 CPU-s of Python
looping; the adapter runs it in batches instead (`CSimulator.trace`: C runs
to a T-state limit or one stop address, noting every address it executed),
speculatively: a batch that executed a breakpoint other than its stop
address, wrote a port, or might have ended on EI is undone and run again
exactly (to the first breakpoint it reached, or one instruction at a time),
so every instruction is still SkoolKit's and every stop the same as before.
Its pure-Python simulator is used, one instruction a call, when the C
extension is absent. What the adapter makes the same as the z80 core:

* a HALT leaves PC past the HALT while the CPU waits (SkoolKit keeps PC on
  it), so breakpoints and the machine's PC checks see what they see on the
  z80 core, and an interrupt returns past it;
* an interrupt is refused right after EI (SkoolKit's own rule; an index
  prefix never ends a step here, since SkoolKit runs DD/FD and the rest of
  the instruction as one);
* a breakpoint stops before the marked instruction, nothing executed;
* the ROM is read-only (SkoolKit's 48K memory never writes below 0x4000).

What differs and cannot matter to BASIC: SkoolKit does not keep MEMPTR, so
the undocumented flag bits 3 and 5 after BIT n,(HL) may differ; a frame may
end a few T-states later, after a whole DD/FD instruction where the z80
core stops between the prefix and the rest (the same instructions, the
interrupt at the same place between them).
"""
from __future__ import annotations

from array import array
from typing import Callable, MutableSequence, Protocol, Sequence

from ..errors import MachineError, UsageError

# SkoolKit's register list (skoolkit.simutils)
_A, _F, _B, _C, _D, _E, _H, _L, _IXH, _IXL, _IYH, _IYL, _SP, _I, _R = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15
_ALT = 16                          # ^A ^F ^B ^C ^D ^E ^H ^L at 16..23
_PC, _T, _IFF, _IM, _HALT = 24, 25, 26, 27, 28
HALT_OPCODE, EI_OPCODE = 0x76, 0xFB
ROM_END = 0x4000
#: T-states at the end of a run() taken one instruction at a time, so the last instruction's PC is known
#: (an EI there blocks the interrupt): more than the longest instruction (23)
TAIL_T = 32
TRACE_AT_STOP = 3                  # trace()'s first result when it stopped at its stop address
NO_STOP = -1                       # trace()'s stop address when none may be used (no 16-bit PC equals it)
#: the registers saved as u64 each, as the C simulator keeps them (the Python one keeps a list of ints)
REG_TYPECODE = "Q"

PAIRS = {"bc": (_B, _C), "de": (_D, _E), "hl": (_H, _L), "ix": (_IXH, _IXL), "iy": (_IYH, _IYL),
         "af": (_A, _F), "alt_af": (_ALT, _ALT + 1), "alt_bc": (_ALT + 2, _ALT + 3),
         "alt_de": (_ALT + 4, _ALT + 5), "alt_hl": (_ALT + 6, _ALT + 7)}
SINGLE = {"a": _A, "f": _F, "b": _B, "c": _C, "d": _D, "e": _E, "h": _H, "l": _L, "i": _I, "r": _R,
          "ixh": _IXH, "ixl": _IXL, "iyh": _IYH, "iyl": _IYL, "iff1": _IFF, "iff2": _IFF}


class _Tracer(Protocol):
    def read_port(self, registers: Sequence[int], port: int) -> int: ...

    def write_port(self, registers: Sequence[int], port: int, value: int, offset: int = 0) -> None: ...


class _Simulator(Protocol):
    """What the adapter uses of SkoolKit's Simulator and CSimulator (SkoolKit ships no type hints)."""
    memory: bytearray
    registers: MutableSequence[int]          # an array('Q') in the C simulator, a list in the Python one

    def run(self) -> None: ...

    def accept_interrupt(self, registers: MutableSequence[int], memory: bytearray, pc: int) -> int: ...

    def set_tracer(self, tracer: _Tracer) -> None: ...


def simulator_class(python: bool = False) -> tuple[Callable[..., _Simulator], str]:
    """SkoolKit's C simulator if built (and not *python*), else its Python one; with a name for reports."""
    try:
        from skoolkit.simulator import Simulator  # type: ignore[import-untyped]  # lazy: an optional oracle (GPL-3)
    except ImportError:
        raise UsageError("the second core needs SkoolKit (GPL-3, a test oracle only): "
                              "pip install -e '.[oracle]'") from None
    if python:
        return Simulator, "SkoolKit Simulator (Python)"
    try:
        from skoolkit.csimulator import CSimulator  # type: ignore[import-untyped]  # lazy: an optional oracle (GPL-3)
        return CSimulator, "SkoolKit CSimulator"
    except ImportError:
        return Simulator, "SkoolKit Simulator (Python)"


class _Ports:
    """SkoolKit's tracer interface, forwarding IN and OUT to the machine's handlers. While a batch is run
    speculatively (`held`), an OUT is only counted: the batch is then undone and run again one instruction at
    a time, the OUT made for real. An IN is always the machine's (its port table: reading changes nothing)."""

    border = 0                     # read by CSimulator.trace (for its screen drawing, which is not used)

    def __init__(self, read: Callable[[int], int], write: Callable[[int, int], None]):
        self._read, self._write = read, write
        self.held = False
        self.writes_held = 0

    def read_port(self, registers: Sequence[int], port: int) -> int:
        return self._read(port) & 0xFF

    def write_port(self, registers: Sequence[int], port: int, value: int, offset: int = 0) -> None:
        if self.held:
            self.writes_held += 1
        else:
            self._write(port, value)


class SkoolKitCore:
    """SkoolKit's simulator with the interface of `cpu.Z80Core` (see that class for each method's contract)."""

    def __init__(self, python: bool = False) -> None:
        cls, self.name = simulator_class(python)
        # int_active 0: HALT never decides on its own that an interrupt is due; the machine raises it
        self._sim = cls(bytearray(0x10000), {"PC": 0}, config={"int_active": 0})
        self.memory: bytearray = self._sim.memory       # the simulator's own 64K (it copies what it is given)
        self._regs = self._sim.registers
        self._step = self._sim.run
        self._breakpoints: set[int] = set()
        self._last_pc = -1                   # PC of the last instruction run: EI there blocks an interrupt
        self._accept = self._sim.accept_interrupt
        self._trace: Callable[..., tuple[int, int]] | None = getattr(self._sim, "trace", None)   # C's batches
        self._executed: set[int] = set()     # the addresses a batch executed (trace's exec_map)
        self._stop = NO_STOP                 # a batch's stop address: the breakpoint last stopped at

    @property
    def registers(self) -> MutableSequence[int]:
        """SkoolKit's own register list (skoolkit.simutils' order: A F B C D E H L IXh IXl IYh IYl SP _ I R,
        the alternate set, PC, T-states, IFF, IM, HALT), writable: harness/oracle/conformance.py sets every
        field of a random state through it."""
        return self._regs

    # -- registers -----------------------------------------------------------
    def get(self, reg: str) -> int:
        r = self._regs
        if reg in PAIRS:
            hi, lo = PAIRS[reg]
            return r[hi] << 8 | r[lo]
        if reg == "sp":
            return r[_SP]
        if reg == "pc":
            return self.pc
        if reg in SINGLE:
            return r[SINGLE[reg]]
        raise MachineError(f"register {reg!r} is not offered by the SkoolKit adapter")

    def set(self, reg: str, value: int) -> None:
        r = self._regs
        if reg in PAIRS:
            hi, lo = PAIRS[reg]
            r[hi], r[lo] = value >> 8 & 0xFF, value & 0xFF
        elif reg == "sp":
            r[_SP] = value & 0xFFFF
        elif reg == "pc":
            self.pc = value
        elif reg in SINGLE:
            r[SINGLE[reg]] = value & 0xFF
        else:
            raise MachineError(f"register {reg!r} is not offered by the SkoolKit adapter")

    @property
    def pc(self) -> int:
        r = self._regs
        return (r[_PC] + 1) & 0xFFFF if r[_HALT] else r[_PC]

    @pc.setter
    def pc(self, value: int) -> None:
        self._regs[_PC] = value & 0xFFFF
        self._regs[_HALT] = 0
        self._last_pc = -1

    @property
    def iff1(self) -> bool:
        return bool(self._regs[_IFF])

    @property
    def int_blocked(self) -> bool:
        return self._last_pc >= 0 and self.memory[self._last_pc] == EI_OPCODE

    # -- running -------------------------------------------------------------
    def run(self, ticks: int) -> tuple[int, bool]:
        if self._trace is None or ticks <= 2 * TAIL_T:
            return self._run_steps(ticks)
        elapsed, at_bp = self._run_batch(ticks - TAIL_T)
        if at_bp or elapsed >= ticks:
            return elapsed, at_bp
        more, at_bp = self._run_steps(ticks - elapsed)
        return elapsed + more, at_bp

    def _run_batch(self, ticks: int) -> tuple[int, bool]:
        """run() in C: to *ticks* or the first breakpoint, exactly as _run_steps would stop, or undone and
        left to _run_steps where the batch cannot tell (a port written, the last instruction perhaps EI)."""
        r, bps, mem, executed, trace = self._regs, self._breakpoints, self.memory, self._executed, self._trace
        start, pc, halted = r[_T], r[_PC], r[_HALT]
        if trace is None:
            return self._run_steps(ticks)
        if not halted and pc in bps:
            return 0, True
        saved = self.save_state()
        stop = NO_STOP if halted or self._stop not in bps else self._stop
        while True:
            executed.clear()
            self._ports.held, self._ports.writes_held = True, 0
            try:
                cond, _ = trace(pc, stop, 0, start + ticks, False, None, executed, None, None, None)
            finally:
                self._ports.held = False
            if halted:
                executed.discard(pc)         # no interrupt in a batch: a HALT run at its start never ends
            hit = executed & bps
            end = r[_PC]
            if hit and not self._ports.writes_held:
                stop = self._stop = hit.pop()            # it was reached: run again to it (or one before it)
                self.load_state(saved)
                continue
            if self._ports.writes_held or (not r[_HALT] and mem[(end - 1) & 0xFFFF] == EI_OPCODE):
                self.load_state(saved)
                return self._run_steps(ticks)
            self._last_pc = end if r[_HALT] else -1      # not EI (EI would have been at end - 1)
            return r[_T] - start, cond == TRACE_AT_STOP

    def _run_steps(self, ticks: int) -> tuple[int, bool]:
        """run() one SkoolKit instruction per call, the breakpoints checked before each."""
        r, step, bps = self._regs, self._step, self._breakpoints
        start = r[_T]
        while True:
            pc = r[_PC]
            if not r[_HALT] and pc in bps:
                return r[_T] - start, True
            step()
            self._last_pc = pc
            if r[_T] - start >= ticks:
                return r[_T] - start, False

    def step_over_breakpoint(self) -> int:
        r = self._regs
        start, pc = r[_T], r[_PC]
        self._step()
        self._last_pc = pc
        return r[_T] - start

    def interrupt(self) -> bool:
        r = self._regs
        if not r[_IFF] or self.int_blocked:
            return False
        if r[_HALT]:
            r[_PC] = (r[_PC] + 1) & 0xFFFF       # the interrupt returns past the HALT
            r[_HALT] = 0
        # SkoolKit's accept_interrupt looks at the opcode at its third argument for EI or a prefix; that
        # check is made above (int_blocked), so it is given address 0, whose opcode (DI) is neither
        ok = self._accept(r, self.memory, 0)
        if ok:
            self._last_pc = -1
        return bool(ok)

    def set_breakpoint(self, addr: int) -> None:
        self._breakpoints.add(addr)

    def clear_breakpoint(self, addr: int) -> None:
        self._breakpoints.discard(addr)

    # -- ports and memory protection ----------------------------------------
    def set_port_handlers(self, read: Callable[[int], int], write: Callable[[int, int], None]) -> None:
        self._ports = _Ports(read, write)
        self._sim.set_tracer(self._ports)

    def set_port_reader(self, read: Callable[[int], int]) -> None:
        """Replace the IN handler alone (the machine's port table), as Z80Core.set_port_reader does."""
        self.set_port_handlers(read, self._ports._write)

    def protect(self, start: int, size: int) -> None:
        if (start, size) != (0, ROM_END):
            raise MachineError(f"SkoolKit's 48K memory protects 0x0000-0x3FFF only, not {start:#06x}+{size}")

    # -- whole state ---------------------------------------------------------
    def save_state(self) -> bytes:
        extra = (self._last_pc & 0x1FFFF).to_bytes(3, "little")
        return bytes(self.memory) + array(REG_TYPECODE, self._regs).tobytes() + extra

    def load_state(self, data: bytes) -> None:
        regs = array(REG_TYPECODE)
        n = len(self._regs) * regs.itemsize
        self.memory[:] = data[:0x10000]
        regs.frombytes(data[0x10000:0x10000 + n])
        for i, v in enumerate(regs):
            self._regs[i] = v
        last = int.from_bytes(data[0x10000 + n:0x10000 + n + 3], "little")
        self._last_pc = -1 if last == 0x1FFFF else last
