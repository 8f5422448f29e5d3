"""Where a game's T-states go among the ROM's list-walking routines: the accelerator's profile (`bench`).

Each routine's entry is a trap that notes the frame's T-state clock and SP; its return address gets a trap
that, when SP is back above the call, adds the T-states taken to the routine's total (inclusive: what it
calls, and an interrupt taken inside it, count too). Traps stop the core and change nothing of the machine,
so the game is the one a plain run plays. NEXT-ONE is counted twice: inside LINE-ADDR and on its own.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, NotRequired, TypedDict

from ..spectrum.machine import FRAME_T, Spectrum48

if TYPE_CHECKING:
    from ..program.runs.regress import GameJob

#: the routines profiled: ROM entry points ("The Complete Spectrum ROM Disassembly")
ROUTINES = {"LINE-ADDR": 0x196E, "NEXT-ONE": 0x19B8, "LOOK-VARS": 0x28B2}


@dataclass
class RoutineProfile:
    """Calls and inclusive T-states per routine, and the T-states the machine ran meanwhile."""
    calls: dict[str, int] = field(default_factory=dict)
    t_states: dict[str, int] = field(default_factory=dict)
    total_t: int = 0
    nested: dict[str, int] = field(default_factory=dict)   # T-states of a routine called inside another profiled one

    def share(self, name: str) -> float:
        return self.t_states.get(name, 0) / self.total_t if self.total_t else 0.0


class RoutineProfiler:
    """Traps on the routines' entries and return addresses of one machine (attach once, read `.profile`)."""

    def __init__(self, m: Spectrum48, routines: dict[str, int] = ROUTINES):
        self.m, self.profile = m, RoutineProfile()
        self._open: dict[int, list[tuple[str, int, int]]] = {}     # return address -> (name, SP at entry, clock)
        self._depth = 0
        self._start = self._clock()
        for name, addr in routines.items():
            if m.has_trap(addr):
                raise ValueError(f"{name} at {addr:#06x} is already a trap")
            m.add_trap(addr, self._entry(name))

    def _clock(self) -> int:
        return self.m.s.frames * FRAME_T + self.m.s.t

    def _entry(self, name: str) -> Callable[[], bool]:
        def trap() -> bool:
            m = self.m
            sp = m.cpu.get("sp")
            ret = m.mem[sp] | m.mem[(sp + 1) & 0xFFFF] << 8
            if ret not in self._open:
                if m.has_trap(ret):
                    return False          # a return address that is a trap of its own: not timed
                self._open[ret] = []
                m.add_trap(ret, self._returned(ret))
            self._open[ret].append((name, sp, self._clock()))
            self._depth += 1
            return False
        return trap

    def _returned(self, ret: int) -> Callable[[], bool]:
        def trap() -> bool:
            sp = self.m.cpu.get("sp")
            waiting = self._open[ret]
            for i in range(len(waiting) - 1, -1, -1):
                name, sp0, start = waiting[i]
                if sp0 == sp - 2:
                    del waiting[i]
                    self._depth -= 1
                    p, took = self.profile, self._clock() - start
                    p.calls[name] = p.calls.get(name, 0) + 1
                    p.t_states[name] = p.t_states.get(name, 0) + took
                    if self._depth > 0:
                        p.nested[name] = p.nested.get(name, 0) + took
                    break
            return False
        return trap

    def finish(self) -> RoutineProfile:
        self.profile.total_t = self._clock() - self._start
        return self.profile


def profile_game(tape: bytes, job: GameJob) -> RoutineProfile:
    """Play *job* plain with the routines profiled; the frames skipped by fast mode's PAUSE count as none."""
    from ..program.runs import loaded  # lazy: 0.4 s of imports that bench --cores and --web skip
    from ..program.runs.loaded import init_worker
    from ..program.runs.regress import play_one
    made: list[RoutineProfiler] = []
    real = loaded.LoadedTape.machine

    def machine(self: loaded.LoadedTape, recording: bool = False) -> Spectrum48:
        m = real(self, recording)
        made.append(RoutineProfiler(m))
        return m
    init_worker(tape, accelerate=False)            # the plain ROM's profile
    setattr(loaded.LoadedTape, "machine", machine)
    try:
        play_one(job)
    finally:
        setattr(loaded.LoadedTape, "machine", real)
    out = RoutineProfile()
    for p in (x.finish() for x in made):
        out.total_t += p.total_t
        for name in p.calls:
            out.calls[name] = out.calls.get(name, 0) + p.calls[name]
            out.t_states[name] = out.t_states.get(name, 0) + p.t_states[name]
        for name in p.nested:
            out.nested[name] = out.nested.get(name, 0) + p.nested[name]
    return out


class RoutineFigures(TypedDict):
    """One routine's figures in bench_game's record (the accelerated ones only where it answers them)."""
    calls: int
    t_states: int
    share: float
    nested_t: int
    cpu_share: float
    answered_t: NotRequired[int]
    share_after: NotRequired[float]


#: every routine's figures by name, and "total_t": the game's T-states
RoutinesFigures = dict[str, RoutineFigures | int]


def profile_figures(p: RoutineProfile, core_t_per_s: float, game_cpu_s: float) -> RoutinesFigures:
    """Each routine's calls, T-states, share of the game's T-states and its CPU share (its T-states at the
    bare core's speed, against the game's CPU)."""
    out: RoutinesFigures = {name: RoutineFigures(calls=p.calls.get(name, 0), t_states=p.t_states.get(name, 0),
                                                 share=round(p.share(name), 4), nested_t=p.nested.get(name, 0),
                                                 cpu_share=round(p.t_states.get(name, 0) / core_t_per_s / game_cpu_s, 4))
                            for name in ROUTINES}
    out["total_t"] = p.total_t
    return out
