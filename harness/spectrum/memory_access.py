"""The embedded Spectrum's memory as its users read and write it: bytes, words and system variables by name,
the BASIC program and its GO SUB stack, the run's counts, and the tape deck.

A part of `Spectrum48` (machine.py), which inherits it: what is here touches memory and the machine's own
state, never the CPU's run. Every write from Python is told to `on_memory_written` (the ROM accelerator
drops what the write makes stale); the CPU's own writes are the core's to report.
"""
from __future__ import annotations

from typing import Callable, Sequence

from ..errors import MachineError
from .core import Memory
from .machine_types import FRAME_S, Event, MachineState, Report, TapeBlockLike
from .rom import ROM_SIZE
from .sysvars import SYSVARS
from .basic import detokenise


class MachineMemory:
    """Memory, system variables, the run's records and the tape deck of a `Spectrum48` (which sets these)."""

    mem: Memory
    s: MachineState
    tape: list[TapeBlockLike]
    #: told (address, size) of every write to memory made from Python, or None (see Spectrum48.__init__)
    on_memory_written: Callable[[int, int], None] | None

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
