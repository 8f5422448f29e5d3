"""One job runner for `regress` and every sweep: here, on a local pool that fails fast, or on a Dask cluster.

Every job needs a machine with the tape loaded, so each worker process runs a
`Setup` once before its first job. Results come back as `Outcome`s in the
order jobs finish; a job that raises is an outcome with a one-line error (the
others go on), while a worker that cannot start ends the whole run at once
with a `MachineError` ("could not start"), since every other worker would fail the same way.

* ``workers == 1`` and no scheduler: the jobs run in this process, in order (here, below).
* ``workers >= 2``: a pool of forked processes (pool.py).
* ``scheduler``: the same jobs on a Dask distributed cluster (cluster.py), ``"local"`` for a
  `LocalCluster` of *workers* processes or the address of a running ``dask scheduler``, checked with
  its TLS files by scheduler.py.

Use it as ``with run_jobs(...) as outcomes: for outcome in outcomes: ...`` so
the workers are stopped however the loop ends. This module is the runner's one door: the names the runs
use (the progress bar too) are importable from here.
"""
from __future__ import annotations

import traceback
from contextlib import closing
from typing import Callable, Sequence

from .cluster import on_dask
from .outcomes import JobT, Outcome, Outcomes, ResultT, Setup, one_line, timed
from .pool import local_pool
from .progress import Progress
from .scheduler import SchedulerAddress, checked_scheduler, parse_scheduler
from ..errors import MachineError

__all__ = ["run_jobs", "Setup", "Outcome", "Outcomes", "one_line", "Progress",
           "SchedulerAddress", "checked_scheduler", "parse_scheduler"]


def run_jobs(func: Callable[[JobT], ResultT], jobs: Sequence[JobT], setup: Setup, workers: int = 1,
             scheduler: str | None = None, retries: int = 1) -> closing[Outcomes[JobT, ResultT]]:
    """The outcomes of func(job) for every job, as they finish, in a context that stops the workers on exit."""
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    outcomes: Outcomes[JobT, ResultT]
    if scheduler:
        outcomes = on_dask(func, list(jobs), setup, workers, scheduler)
    elif workers == 1:
        outcomes = _here(func, list(jobs), setup)
    else:
        outcomes = local_pool(func, list(jobs), setup, workers, retries)
    return closing(outcomes)


def _here(func: Callable[[JobT], ResultT], jobs: list[JobT], setup: Setup) -> Outcomes[JobT, ResultT]:
    if not jobs:
        return
    try:
        setup.run()
    except Exception as exc:
        raise MachineError(f"the worker could not start: {one_line(exc)}") from exc
    for index, job in enumerate(jobs):
        try:
            value, cpu = timed(func, job)
        except Exception as exc:
            yield Outcome(index, job, error=one_line(exc), details=traceback.format_exc())
        else:
            yield Outcome(index, job, value, cpu_s=cpu)
