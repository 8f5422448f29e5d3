"""A loaded tape as one value: the machine at the program's first question, and what every run of it needs.

`load(tape, core, accelerate)` boots a 48K Spectrum on the chosen CPU core, loads the tape's bytes (so a
remote worker needs no file) and keeps, frozen: the snapshot at the first question, the program's statement
table (for the profiler), the statements the start-up ran (every game runs them before its first question),
the comparison set-up of the tape's program (its edition's screen words, the rule sets) and, with
*accelerate*, the cache of ROM answers the worker's machines share. `LoadedTape.machine()` is a fresh
machine at that first question.

A job runner's worker holds one: `init_worker` is the `Setup` every run passes (regress, fairness,
strength, the pack, bench), `worker_tape()` the value in a job. The sweeps load the program to the editor
instead (subroutine.py) and keep their own worker value (sweep.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from ...errors import MachineError, UsageError
from ...spectrum.accelerate import accelerate
from ...spectrum.core import Core
from ...spectrum.cpu import Z80Core
from ...spectrum.loading import load_tape
from ...spectrum.machine import MachineSnapshot, Spectrum48
from ...spectrum.profile import Profile, Profiler
from ...spectrum.tape import read_tap
from ..judge.judgements import JUDGED_UNDER, ComparisonSetup, comparison_setup
from ...spectrum.skoolcore import SkoolKitCore

if TYPE_CHECKING:
    from ...spectrum.accelerate import Cache

CORES = ("z80", "skoolkit")


def core_class(name: str) -> Callable[[], Core]:
    """The CPU core adapter called *name*: "z80" (the default) or "skoolkit" (a GPL test oracle, an extra)."""
    if name == "z80":
        return Z80Core
    if name == "skoolkit":
        return SkoolKitCore
    raise UsageError(f"no such CPU core {name!r} ({', '.join(CORES)})")      # the command names its option


@dataclass(frozen=True)
class LoadedTape:
    """A tape loaded once: the machine at the program's first question and what every game of it needs."""
    tape: bytes                              # the tape's bytes, as loaded
    core: str                                # the CPU core of its machines ("z80", "skoolkit")
    snapshot: MachineSnapshot                # the machine at the program's first question
    statements: dict[tuple[int, int], int]   # the program's statement table, for the profiler
    startup_profile: Profile                 # the statements every game runs before its first question
    setup: ComparisonSetup                   # what the comparison of the tape's program needs
    cache: Cache | None = None               # the shared cache of ROM answers (accelerate), or None

    @property
    def accelerate(self) -> bool:
        return self.cache is not None

    def machine(self, recording: bool = False) -> Spectrum48:
        """A fresh machine at the program's first question: of the tape's core, answering ROM routines
        from the shared cache when loaded with *accelerate*; with *recording*, the fetch-counting core at
        real timing that an RZX recorder needs (the z80 core only, never accelerated: the plain ROM's own run)."""
        if recording:
            from ...spectrum.recording import recording_machine  # lazy: the recording core (12 ms) only for --rzx runs
            if self.core != "z80":
                raise MachineError(f"a recording machine is the plain z80 core's: this tape was loaded on {self.core}")
            m = recording_machine()
            m.restore(self.snapshot)
            return m                       # never accelerated: the recording counts the ROM's own fetches
        else:
            m = Spectrum48(fast=True, core=core_class(self.core))
        m.restore(self.snapshot)
        if self.cache is not None:
            accelerate(m, cache=self.cache)
        return m

    def profiler(self) -> Profiler:
        """A profiler of the tape's program, for one game."""
        return Profiler(self.statements)


def load(tape: bytes, core: str = "z80", accelerate: bool = True) -> LoadedTape:
    """Boot, load *tape* (its bytes) to the program's first question, and keep what its games need."""
    blocks = read_tap(tape)
    m = Spectrum48(fast=True, core=core_class(core))
    m.boot()
    startup = Profiler.for_program(blocks[1].data)
    startup.start(m)
    stop = load_tape(m, blocks)
    startup_profile = startup.stop()
    if stop.kind == "report":
        raise MachineError(f"the tape's program stopped with report «{stop.report}» before it first waited "
                           f"for a key")
    program = m.program_bytes()
    return LoadedTape(tape=tape, core=core, snapshot=m.snapshot(),
                      statements=Profiler.for_program(program).statements, startup_profile=startup_profile,
                      setup=comparison_setup(program, JUDGED_UNDER),     # the English edition prints other words
                      cache={} if accelerate and core == "z80" else None)


_worker: LoadedTape | None = None          # this worker process's loaded tape (init_worker)


def init_worker(tape: bytes, core: str = "z80", accelerate: bool = True) -> None:
    """Once per worker process (the job runner's `Setup`): *tape* loaded and kept for `worker_tape`."""
    global _worker
    _worker = load(tape, core, accelerate)


def worker_tape() -> LoadedTape:
    """This worker process's loaded tape."""
    if _worker is None:
        raise MachineError("no tape loaded in this worker: init_worker(tape) first")
    return _worker
