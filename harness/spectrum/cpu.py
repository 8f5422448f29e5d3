"""A small adapter around the CPU core, so that the machine never touches the core's API directly.

The machine needs only: memory, a few registers, "run for n T-states or until
a breakpoint", one interrupt, and port callbacks. Keeping that surface small
means a second backend (e.g. another C core) can be dropped in and measured
against this one in the same benchmark run.
"""
from __future__ import annotations

from typing import Callable

import z80

CORE_FRAME_WRAP = 100_000  # the z80 package counts its own "frames" of 100,000 T-states


class Z80Core:
    """kosarev's ``z80.Z80Machine`` (C++ core, MIT) behind the adapter interface."""

    name = "z80"

    def __init__(self) -> None:
        self._m = z80.Z80Machine()
        self._state = self._m.get_state_view()
        self.memory = self._m.memory  # writable memoryview of the 64K address space
        self._breakpoint_hit = z80.Z80Machine._BREAKPOINT_HIT
        # The core's packed state: 8 register bytes, PC, SP, WZ, last read address (16 bytes),
        # then ticks_to_stop and frame_tick as u32 -- read directly, as the hot loop needs them.
        self._ticks = self._state[16:24].cast("I")
        self._run = self._m.run

    # -- registers -----------------------------------------------------------
    def get(self, reg: str) -> int:
        return getattr(self._m, reg)

    def set(self, reg: str, value: int) -> None:
        setattr(self._m, reg, value)

    @property
    def pc(self) -> int:
        return self._m.pc

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
        m = self._m
        start = m.frame_tick
        m.ticks_to_stop = 0
        m.step_over_breakpoint()
        return (m.frame_tick - start) % CORE_FRAME_WRAP

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

    def protect(self, start: int, size: int) -> None:
        """Make [start, start+size) read-only (writes are dropped, as a ROM does)."""
        self._m.set_write_callback(lambda addr, value: None)
        self._m.mark_addrs(start, size, z80.Z80Machine.WRITE_MARK)

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
