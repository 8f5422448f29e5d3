"""Work spread over worker processes (or done in this one), results handed back as they come.

Both `regress` and `sweep` run many independent jobs, each needing a machine
with the tape loaded: the initializer builds that once per worker.
"""
from __future__ import annotations

import multiprocessing
import sys
import time
from typing import Callable, Iterator


def run_jobs(func: Callable, jobs: list, workers: int, initializer: Callable, initargs: tuple) -> Iterator:
    """Yield func(job) for every job, in completion order; workers <= 1 runs them here, in order."""
    if workers <= 1:
        initializer(*initargs)
        yield from map(func, jobs)
        return
    pool = multiprocessing.get_context("fork").Pool(workers, initializer=initializer, initargs=initargs)
    try:
        yield from pool.imap_unordered(func, jobs)
    finally:
        pool.close()
        pool.join()


class Progress:
    """A one-line progress bar on stderr."""

    def __init__(self, total: int, what: str, enabled: bool = True, done: int = 0):
        self.total, self.what, self.enabled, self.done = total, what, enabled, done
        self.started = time.perf_counter()

    def step(self) -> None:
        self.done += 1
        if self.enabled:
            width = 30
            filled = width * self.done // max(1, self.total)
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} {self.what}, "
                             f"{time.perf_counter() - self.started:.1f} s")
            sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.started
