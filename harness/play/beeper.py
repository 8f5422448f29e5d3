"""The beeper as sound: the ear bit's edges in each frame, with their T-states, turned into samples.

The machine only counts the edges of port 0xFE's bit 4; `BeeperSpectrum`
also notes when each happened (the core's own T-state counter, which wraps at
100,000, anchored at
the end of each frame), and `BeeperTrack` samples the square wave at
44.1 kHz, frame after frame, so a BEEP sounds at its pitch. The interrupt's
few T-states that the machine does not count make an edge off by at most
a quarter of a sample.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from ..spectrum.core import Core
from ..spectrum.cpu import CORE_FRAME_WRAP, Z80Core
from ..spectrum.machine import CPU_HZ, FRAME_T, MachineSnapshot, Spectrum48

SAMPLE_RATE = 44_100


class BeeperSpectrum(Spectrum48):
    """A Spectrum48 that keeps the ear bit's edges of the last whole frame: ``frame_edges``, ``frame_level``."""

    def __init__(self, fast: bool = False, core: Callable[[], Core] = Z80Core):
        super().__init__(fast=fast, core=core)
        self._pending: list[tuple[int, int]] = []     # (core tick, new level) this frame so far
        self._level_at_start = self.s.ear_out
        self.frame_edges: list[tuple[int, int]] = []  # (T-state within the frame, new level)
        self.frame_level = self.s.ear_out             # the level the last whole frame began with

    def _port_write(self, port: int, value: int) -> None:
        before = self.s.ear_out
        super()._port_write(port, value)
        if self.s.ear_out != before:
            self._pending.append((self.cpu.get("frame_tick"), self.s.ear_out))

    def run_frame(self) -> bool:
        done = super().run_frame()
        if done:
            end_tick, end_t = self.cpu.get("frame_tick"), FRAME_T + self.s.t   # s.t is the overshoot now
            self.frame_edges = [(min(max(end_t - (end_tick - tick) % CORE_FRAME_WRAP, 0), FRAME_T - 1), level)
                                for tick, level in self._pending]
            self.frame_level = self._level_at_start
            self._pending = []
            self._level_at_start = self.s.ear_out
        return done

    def restore(self, snap: MachineSnapshot) -> None:
        super().restore(snap)
        self.forget_edges()

    def forget_edges(self) -> None:
        """Start the record afresh (after the machine's state was replaced, e.g. from a .z80)."""
        self._pending, self.frame_edges = [], []
        self._level_at_start = self.frame_level = self.s.ear_out


class BeeperTrack:
    """Frames of edges -> 16-bit samples at *rate*, keeping the sample phase from frame to frame."""

    def __init__(self, rate: int = SAMPLE_RATE, amplitude: int = 6000):
        self.rate = rate
        self.amplitude = amplitude
        self._next = 0.5 * CPU_HZ / rate      # T-state (from this frame's start) of the next sample's centre

    def frame(self, edges: list[tuple[int, int]], level: int) -> np.ndarray:
        """The samples whose centres fall in one frame that began at *level* and had *edges*."""
        step = CPU_HZ / self.rate
        times = np.arange(self._next, FRAME_T, step)
        self._next = (times[-1] + step - FRAME_T) if len(times) else self._next - FRAME_T
        if not edges:
            values = np.full(len(times), level, dtype=np.int8)
        else:
            at = np.array([t for t, _ in edges])
            levels = np.array([level] + [lv for _, lv in edges], dtype=np.int8)
            values = levels[np.searchsorted(at, times, side="right")]
        return ((values.astype(np.int32) * 2 - 1) * self.amplitude).astype(np.int16)
