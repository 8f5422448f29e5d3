"""A plain machine run in lockstep beside an accelerated one, the two compared whole wherever they stop.

`Shadow(fast)` gives the accelerated machine *fast* a twin on the plain ROM, started from the same state.
Every `run_frame` of *fast* (a whole frame, or part of one up to where a trap stopped it: a statement a
driver waits for) is followed by the twin's run to the same frame end or the same T-state, with the same
keys held, and the two are compared: the core's whole state (registers, flags, MEMPTR, R, the T-state
counters, the 64K) and the machine's own (frame counter, T-states, border, events, reports, ...). What
the driver does to *fast* from Python (restore, poke, write, press, release) is done to the twin too. The first
difference is kept, with its frame and BASIC line, and comparing stops there.

Used by tests/oracles/games/test_accelerate_lockstep.py (whole games) and tests/bench/test_accelerate_exact.py.
"""
from __future__ import annotations

from typing import Any

from harness.spectrum.machine import Spectrum48

_NAMES = ["C", "B", "E", "D", "L", "H", "F", "A", "PC", "PC", "SP", "SP", "MEMPTR", "MEMPTR",
          "last-read", "last-read"] + ["ticks_to_stop"] * 4 + ["frame_tick"] * 4 + \
         ["IX", "IX", "IY", "IY", "AF'", "AF'", "BC'", "BC'", "DE'", "DE'", "HL'", "HL'", "R", "I",
          "IFF1", "IFF2", "int_disabled", "halted", "IM", "?"]
#: the machine's own fields that are the Python loop's bookkeeping, not what the machine is: where a trap
#: stopped it, and the wait detector's hints (cleared only where a driver asks `_maybe_waiting`, which the
#: twin is never asked)
_NOT_STATE = ("at_bp", "maybe_key_wait", "maybe_pause")


def state_difference(a: Spectrum48, b: Spectrum48, at_stop: bool = False) -> str | None:
    """What differs between two machines' whole states, in words (None: identical). *at_stop*: one was
    stopped by a breakpoint, the other run to the same T-state, so the core's countdown for the run call
    under way (ticks_to_stop, set anew by every run) is not compared."""
    sa, sb = a.cpu.save_state(), b.cpu.save_state()
    if at_stop:
        sa, sb = sa[:16] + bytes(4) + sa[20:], sb[:16] + bytes(4) + sb[20:]
    if sa != sb:
        for i in range(len(sa)):
            if sa[i] != sb[i]:
                where = _NAMES[i] if i < 44 else f"memory {i - 44:#06x}"
                return f"{where}: {sa[i]:#04x} accelerated, {sb[i]:#04x} plain"
    va = {k: v for k, v in vars(a.s).items() if k not in _NOT_STATE}
    vb = {k: v for k, v in vars(b.s).items() if k not in _NOT_STATE}
    if va != vb:
        k = next(k for k in va if va[k] != vb[k])
        return f"machine state {k}: {va[k]!r} accelerated, {vb[k]!r} plain"
    return None


class Shadow:
    """The plain twin of an accelerated machine, compared at each of its frame ends and stops."""

    def __init__(self, fast: Spectrum48):
        self.fast = fast
        self.plain = Spectrum48(fast=fast.fast)
        self.plain.restore(fast.snapshot())
        self.frame_ends = self.stops = 0
        self.difference: str | None = None
        self._run_frame, self._restore = fast.run_frame, fast.restore
        self._poke, self._write = fast.poke, fast.write
        fast.run_frame = self.run_frame          # type: ignore[method-assign]
        fast.restore = self.restore              # type: ignore[method-assign]
        fast.poke = self.poke                    # type: ignore[method-assign]
        fast.write = self.write                  # type: ignore[method-assign]
        self._press, self._release = fast.press, fast.release
        fast.press = self.press                  # type: ignore[method-assign]
        fast.release = self.release              # type: ignore[method-assign]

    def press(self, combo: Any) -> None:
        self._press(combo)
        self.plain.press(combo)

    def release(self, combo: Any = None) -> None:
        self._release(combo)
        self.plain.release(combo)

    def restore(self, snap: Any) -> None:
        self._restore(snap)
        self.plain.restore(snap)

    def poke(self, what: Any, value: int, size: int | None = None) -> None:
        self._poke(what, value, size)
        self.plain.poke(what, value, size)

    def write(self, addr: int, data: bytes) -> None:
        self._write(addr, data)
        self.plain.write(addr, data)

    def run_frame(self) -> bool:
        fast, plain = self.fast, self.plain
        if self.difference is not None:
            return self._run_frame()
        if plain.keyboard.rows != fast.keyboard.rows:
            plain.keyboard.rows = list(fast.keyboard.rows)
            plain._keys_changed()
        frame = fast.s.frames
        done = self._run_frame()
        if done:
            plain.run_frame()
            self.frame_ends += 1
        else:                                    # stopped by a trap: the twin to the same T-state
            if not plain.mid_frame:
                plain.take_interrupt()
            plain._stop_now = False
            plain._run_ticks(fast.s.t)
            plain.place_in_frame()
            self.stops += 1
        what = state_difference(fast, plain, at_stop=not done)
        if what is not None:
            self.difference = (f"frame {frame}{'' if done else f' (stopped at T-state {fast.s.t})'}, "
                               f"line {plain.ppc}:{plain.subppc}: {what}")
        return done


def lockstep_statements(fast: Spectrum48, plain: Spectrum48, frames: int) -> tuple[int, str | None]:
    """Run two machines (from the same state) for *frames* frames, stopping both at every statement start
    and comparing them there and at every frame end: (the comparisons made, the first difference)."""
    for m in (fast, plain):
        m.add_statement_hook(lambda line, stmt: True)
    compared = 0
    for _ in range(frames):
        while True:
            a, b = fast.run_frame(), plain.run_frame()
            compared += 1
            what = state_difference(fast, plain) if a == b else f"one stopped mid-frame, the other not ({a}, {b})"
            if what is not None:
                return compared, f"frame {plain.frames}, line {plain.ppc}:{plain.subppc}: {what}"
            if a:
                break
    return compared, None
