"""What the machine uses of a CPU core, as a typed seam: `Core`, and `PackedStateCore` for the z80 package's.

`Spectrum48(core=...)` takes any ``Callable[[], Core]``: the z80 package's core
(`cpu.Z80Core`, the default), the same core counting fetches for an RZX recording
(`recording.CountingCore`) and SkoolKit's simulator (`skoolcore.SkoolKitCore`, a
test oracle). mypy checks each against this Protocol where it is passed, and
tests/test_core_protocol.py checks them at run time, so a method the machine
starts to use must be added here and to every core.

The accelerator (accelerate.py) and the .z80 snapshot reader/writer (z80snap.py)
reach into the z80 package's packed state, which only `PackedStateCore` offers;
they refuse any other core in one line.
"""
from __future__ import annotations

from typing import Callable, Protocol, runtime_checkable

from ..errors import MachineError

#: the 64K address space as a core keeps it: a writable buffer indexed by address
Memory = bytearray | memoryview


@runtime_checkable
class Core(Protocol):
    """The CPU core behind `Spectrum48`: memory, registers, run/step, one interrupt, ports, ROM protection."""

    @property
    def name(self) -> str:
        """A short name for reports and benchmarks."""
        ...

    @property
    def memory(self) -> Memory:
        """The 64K address space, writable (the ROM's 16K too: `protect` makes the CPU's writes drop)."""
        ...

    # -- registers -----------------------------------------------------------
    def get(self, reg: str) -> int:
        """A register by its z80-package name: a f b c ... bc de hl ix iy sp pc i r alt_af ... iff1 iff2."""
        ...

    def set(self, reg: str, value: int) -> None:
        ...

    @property
    def pc(self) -> int:
        ...

    @pc.setter
    def pc(self, value: int) -> None:
        ...

    @property
    def iff1(self) -> bool:
        ...

    @property
    def int_blocked(self) -> bool:
        """True right after EI (or an index prefix), when the core refuses an interrupt."""
        ...

    # -- running -------------------------------------------------------------
    def run(self, ticks: int) -> tuple[int, bool]:
        """Run at least one instruction, until *ticks* T-states have passed or a breakpoint is reached:
        (T-states elapsed, stopped at a breakpoint). A breakpoint stops before its instruction."""
        ...

    def step_over_breakpoint(self) -> int:
        """Execute the instruction at a breakpoint; its T-states."""
        ...

    def interrupt(self) -> bool:
        """Offer a maskable interrupt; False if refused."""
        ...

    def set_breakpoint(self, addr: int) -> None:
        ...

    def clear_breakpoint(self, addr: int) -> None:
        ...

    # -- ports and memory protection ----------------------------------------
    def set_port_handlers(self, read: Callable[[int], int], write: Callable[[int, int], None]) -> None:
        ...

    def set_port_reader(self, read: Callable[[int], int]) -> None:
        """Replace the IN handler alone."""
        ...

    def protect(self, start: int, size: int) -> None:
        """Make [start, start+size) read-only to the CPU."""
        ...

    # -- whole state ---------------------------------------------------------
    def save_state(self) -> bytes:
        ...

    def load_state(self, data: bytes) -> None:
        ...


@runtime_checkable
class PackedStateCore(Core, Protocol):
    """A core whose registers and memory are one writable buffer laid out as the z80 package's
    (cpu.STATE_SIZE): what the accelerator and the .z80 snapshot code read and write directly."""

    @property
    def state_view(self) -> memoryview:
        """The packed state: registers at 0-43, then the 64K memory."""
        ...

    @property
    def counters(self) -> memoryview:
        """ticks_to_stop and frame_tick, as a writable u32 pair."""
        ...

    @property
    def on_watched_write(self) -> Callable[[int], None] | None:
        """Called with the address after each CPU write into a watched range, or None."""
        ...

    @on_watched_write.setter
    def on_watched_write(self, value: Callable[[int], None] | None) -> None:
        ...

    def watch_writes(self, start: int, size: int) -> None:
        """Call `on_watched_write(addr)` after every CPU write into [start, start+size)."""
        ...

    def unwatch_writes(self, start: int, size: int) -> None:
        ...


def packed_state(core: Core, user: str) -> PackedStateCore:
    """*core* as a `PackedStateCore`, or a one-line refusal naming *user* and the core."""
    if not isinstance(core, PackedStateCore):
        raise MachineError(f"{user} needs the z80 package's core (its packed state); "
                        f"this machine runs on {core.name}")
    return core
