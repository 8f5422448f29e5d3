"""What every job runner hands over, the same on each: the worker's `Setup`, a job run and timed, its `Outcome`.

The local pool (pool.py), the Dask cluster (cluster.py) and the run in this process (jobs.py) all take a
`Setup` and give `Outcome`s, so a caller never knows which ran its jobs.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Generator, Generic, TypeVar

JobT = TypeVar("JobT")           # a job (picklable: a frozen dataclass of the run's)
ResultT = TypeVar("ResultT")     # its result (picklable too)


@dataclass(frozen=True)
class Setup:
    """What a worker process runs once before its first job: a module-level function and its arguments
    (picklable, and small: on Dask it travels with every job). The arguments are the set-up function's own,
    of any type it takes: the runner only passes them on."""
    func: Callable[..., None]
    args: tuple[object, ...] = ()

    def run(self) -> None:
        self.func(*self.args)


@dataclass
class Outcome(Generic[JobT, ResultT]):
    """A finished job: its position in the job list, the job, and its value or its one-line error; with its
    CPU seconds in its worker (the thread that ran it), so a caller can tell the jobs' cost from the runner's."""
    index: int
    job: JobT
    value: ResultT | None = None
    error: str | None = None
    details: str = field(default="", repr=False)    # the traceback, for a failed job
    cpu_s: float | None = None                      # the job's own CPU (time.thread_time), for a finished job

    @property
    def ok(self) -> bool:
        return self.error is None


Outcomes = Generator[Outcome[JobT, ResultT], None, None]


def one_line(exc: BaseException) -> str:
    """An exception as one line: its type and the first line of its message."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def timed(func: Callable[[JobT], ResultT], job: JobT) -> tuple[ResultT, float]:
    """func(job) and the CPU seconds of this thread it took (the job's own cost, whatever else the process runs)."""
    started = time.thread_time()
    value = func(job)
    return value, time.thread_time() - started
