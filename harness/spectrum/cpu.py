"""A small adapter around the CPU core, so that the machine never touches the core's API directly.

The machine needs only: memory, a few registers, "run for n T-states or until
a breakpoint", one interrupt, and port callbacks. Keeping that surface small
means a second backend (e.g. another C core) can be dropped in and measured
against this one in the same benchmark run.
"""
from __future__ import annotations

from functools import cache
from importlib import metadata
from typing import Callable

import z80

from ..errors import MachineError

CORE_FRAME_WRAP = 100_000  # the z80 package counts its own "frames" of 100,000 T-states
#: the z80 releases whose internals this adapter was checked against (pinned in pyproject.toml)
CHECKED_RANGE = "z80>=1.2.0,<1.3"
#: what the adapter uses of z80.Z80Machine beyond its documented registers
REQUIRED = ("_BREAKPOINT_HIT", "WRITE_MARK", "unmark_addrs", "get_state_view", "run", "step_over_breakpoint",
            "on_handle_active_int", "set_breakpoint", "clear_breakpoint", "set_input_callback",
            "set_output_callback", "set_write_callback", "mark_addrs", "frame_tick", "ticks_to_stop",
            "int_disabled", "iff1", "pc")
#: the packed state of z80 1.2: 8 register pairs, ticks_to_stop and frame_tick (u32 each), 20 bytes of
#: the Z80's own registers and flags, the 64K memory; save_state/load_state copy it whole
STATE_SIZE = 16 + 8 + 20 + 0x10000


def _layout_problem() -> str | None:
    """What differs from the layout the adapter was written for, or None."""
    missing = [name for name in REQUIRED if not hasattr(z80.Z80Machine, name)]
    if missing:
        return "Z80Machine has no " + ", ".join(missing)
    m = z80.Z80Machine()
    state = m.get_state_view()
    if len(state) != STATE_SIZE:
        return f"its state is {len(state)} bytes, not {STATE_SIZE}"
    counters = state[16:24].cast("I")
    m.ticks_to_stop = 12345
    if counters[0] != 12345:
        return "ticks_to_stop is not the u32 at byte 16 of the state"
    m.memory[0] = 0x00                  # NOP: 4 T-states
    counters[1] = CORE_FRAME_WRAP - 2
    counters[0] = 4
    m.run()
    if m.pc == 1 and state[8] | state[9] << 8 != 1:
        return "PC is not the u16 at byte 8 of the state"
    if m.pc != 1 or m.frame_tick != counters[1] or counters[1] != 2:
        return (f"frame_tick is not the u32 at byte 20 counting T-states modulo {CORE_FRAME_WRAP} "
                f"(after a NOP from {CORE_FRAME_WRAP - 2}: pc {m.pc}, frame_tick {m.frame_tick}, state {counters[1]})")
    return None


@cache
def check_core_layout() -> None:
    """Refuse, in one line, a z80 release whose internals differ from those this adapter reads.

    The adapter reads the core's packed state directly (the hot loop needs it), which no public
    API promises; a changed layout would otherwise give wrong timings, not an error.
    """
    problem = _layout_problem()
    if problem is not None:
        try:
            version = metadata.version("z80")
        except metadata.PackageNotFoundError:
            version = "(unknown version)"
        raise MachineError(f"z80 {version}: the CPU core's internal layout differs from the one "
                              f"harness/spectrum/cpu.py was checked against ({CHECKED_RANGE}): {problem}")


class Z80Core:
    """kosarev's ``z80.Z80Machine`` (C++ core, MIT) behind the adapter interface."""

    name = "z80"

    def __init__(self) -> None:
        check_core_layout()
        self._m = z80.Z80Machine()
        self._state = self._m.get_state_view()
        self.memory: memoryview = self._m.memory  # writable memoryview of the 64K address space
        self._breakpoint_hit = z80.Z80Machine._BREAKPOINT_HIT
        # The core's packed state: 8 register bytes, PC, SP, WZ, last read address (16 bytes),
        # then ticks_to_stop and frame_tick as u32 -- read directly, as the hot loop needs them.
        self._ticks = self._state[16:24].cast("I")
        self._run = self._m.run
        self._step_over = self._m.step_over_breakpoint
        self._protected = (0, 0)
        #: called with the address after each CPU write into a watched range (`watch_writes`), or None
        self.on_watched_write: Callable[[int], None] | None = None

    @property
    def state_view(self) -> memoryview:
        """The core's packed state, writable (registers at 0-43, then the 64K memory; see STATE_SIZE)."""
        return self._state

    @property
    def counters(self) -> memoryview:
        """ticks_to_stop and frame_tick, as a writable u32 pair."""
        return self._ticks

    # -- registers -----------------------------------------------------------
    def get(self, reg: str) -> int:
        value: int = getattr(self._m, reg)       # a register property of z80.Z80Machine, by name
        return value

    def set(self, reg: str, value: int) -> None:
        setattr(self._m, reg, value)

    @property
    def pc(self) -> int:
        state = self._state                    # the packed state's PC (bytes 8-9): read at every trap
        return state[8] | state[9] << 8

    @pc.setter
    def pc(self, value: int) -> None:
        self._m.pc = value

    @property
    def iff1(self) -> bool:
        return self._m.iff1

    @property
    def int_blocked(self) -> bool:
        """True right after EI or an index prefix, when the core refuses an interrupt."""
        return self._m.int_disabled

    # -- running -------------------------------------------------------------
    def run(self, ticks: int) -> tuple[int, bool]:
        """Run at least one instruction until *ticks* T-states have passed or a breakpoint is reached.

        Returns (T-states elapsed, stopped at a breakpoint). A breakpoint stops
        *before* the marked instruction, with nothing executed.
        """
        counters = self._ticks
        start = counters[1]
        counters[0] = ticks
        events = self._run()
        return (counters[1] - start) % CORE_FRAME_WRAP, bool(events & self._breakpoint_hit)

    def step_over_breakpoint(self) -> int:
        """Execute the instruction at a breakpoint; returns its T-states."""
        counters = self._ticks                # read directly: the core's properties are Python code
        start = counters[1]
        counters[0] = 0
        self._step_over()
        return (counters[1] - start) % CORE_FRAME_WRAP

    def interrupt(self) -> bool:
        """Offer a maskable interrupt; False if refused (DI, or right after EI/prefix)."""
        return self._m.on_handle_active_int()

    def set_breakpoint(self, addr: int) -> None:
        self._m.set_breakpoint(addr)

    def clear_breakpoint(self, addr: int) -> None:
        self._m.clear_breakpoint(addr)

    # -- ports and memory protection ----------------------------------------
    def set_port_handlers(self, read: Callable[[int], int], write: Callable[[int, int], None]) -> None:
        self._m.set_input_callback(read)
        self._m.set_output_callback(write)

    def set_port_reader(self, read: Callable[[int], int]) -> None:
        """Replace the IN handler alone: e.g. a 64K table's ``bytes.__getitem__``, which the core calls
        without running any Python."""
        self._m.set_input_callback(read)

    def protect(self, start: int, size: int) -> None:
        """Make [start, start+size) read-only (writes are dropped, as a ROM does)."""
        self._protected = (start, start + size)
        self._m.set_write_callback(self._marked_write)
        self._m.mark_addrs(start, size, z80.Z80Machine.WRITE_MARK)

    def _marked_write(self, addr: int, value: int) -> None:
        """A CPU write to a marked address: dropped in the protected range, else made and reported."""
        lo, hi = self._protected
        if lo <= addr < hi:
            return
        self.memory[addr] = value
        if self.on_watched_write is not None:
            self.on_watched_write(addr)

    def watch_writes(self, start: int, size: int) -> None:
        """Report every CPU write into [start, start+size) to `on_watched_write(addr)`, after making it
        (a Python call per such write: for bytes a program seldom writes). Not the protected range."""
        self._m.set_write_callback(self._marked_write)
        self._m.mark_addrs(start, size, z80.Z80Machine.WRITE_MARK)

    def unwatch_writes(self, start: int, size: int) -> None:
        """Stop reporting writes into [start, start+size) (the protected range stays protected)."""
        lo, hi = self._protected
        for a, b in ((start, min(start + size, lo)), (max(start, hi), start + size)):
            if a < b:
                self._m.unmark_addrs(a, b - a, z80.Z80Machine.WRITE_MARK)

    # -- whole state ---------------------------------------------------------
    def save_state(self) -> bytes:
        return bytes(self._state)

    def load_state(self, data: bytes) -> None:
        self._state[:] = data


def run_raw_frames(core: Z80Core, frames: int, frame_t: int) -> None:
    """The bare core at full speed: one interrupt and *frame_t* T-states per frame, no Python work.

    Used by the benchmark as the ceiling the harness is measured against.
    """
    m, counters, run = core._m, core._ticks, core._run
    for _ in range(frames):
        m.on_handle_active_int()
        left = frame_t
        while left > 0:
            start = counters[1]
            counters[0] = left
            run()
            left -= (counters[1] - start) % CORE_FRAME_WRAP
