"""A one-line progress bar on stderr, for the commands that run many jobs (the runs report through it)."""
from __future__ import annotations

import sys
import time


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

    def note(self, text: str) -> None:
        """A line of its own above the bar (a failure reported as it happens)."""
        if self.enabled:
            sys.stderr.write("\r\033[K")
        sys.stderr.write(text + "\n")
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.started
