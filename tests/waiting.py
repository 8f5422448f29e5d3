"""Waiting for an outside process (Fuse, Xvfb, the play window) by its event, with a budget that scales with load.

A fixed 30 s budget failed on a busy machine (issue 31, item 6: Fuse's window at load 6 on 2 cores) and
passed alone. Here a budget is *base* seconds on an idle machine, stretched by the machine's load per core
(the one-minute load average over the cores, never below 1), read again at every check, so a wait that
started on a quiet machine and went on into a busy one gets the longer budget. A wait that runs out says
what it waited for, the budget it had and the load that set it.
"""
from __future__ import annotations

import os
import select
import subprocess
import time
from typing import Callable, IO


def load_per_core() -> float:
    """The one-minute load average per core (0.0 where the platform has none)."""
    try:
        return os.getloadavg()[0] / (os.cpu_count() or 1)
    except OSError:
        return 0.0


def stretch() -> float:
    """How much longer than on an idle machine a wait may take now: the load per core, at least 1."""
    return max(1.0, load_per_core())


class Budget:
    """*base* seconds on an idle machine for *what*; `left()` and `expired()` read the load each time."""

    def __init__(self, base: float, what: str):
        self.base, self.what = base, what
        self.start = time.monotonic()

    def seconds(self) -> float:
        return self.base * stretch()

    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def left(self) -> float:
        return max(0.0, self.seconds() - self.elapsed())

    def expired(self) -> bool:
        return self.elapsed() > self.seconds()

    def message(self) -> str:
        return (f"{self.what} within {self.seconds():.0f} s ({self.base:.0f} s on an idle machine, "
                f"stretched by the load: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")


def wait_until(condition: Callable[[], bool], base: float, what: str, poll: float = 0.1,
               gave_up: Callable[[], str | None] = lambda: None) -> None:
    """Call *condition* every *poll* s until it holds; AssertionError when the budget is spent, or at once
    when *gave_up* returns a reason (the process waited on has exited, say)."""
    budget = Budget(base, what)
    while not condition():
        reason = gave_up()
        if reason:
            raise AssertionError(f"{what}: {reason}")
        if budget.expired():
            raise AssertionError(budget.message())
        time.sleep(poll)


def read_line(stream: IO[bytes], base: float, what: str) -> bytes:
    """The next line a process writes (Xvfb's display number from -displayfd): select() on the pipe, the
    budget re-read after each wake-up."""
    budget = Budget(base, what)
    while True:
        ready, _, _ = select.select([stream], [], [], min(1.0, budget.left()) or 0.01)
        if ready:
            return stream.readline()
        if budget.expired():
            raise AssertionError(budget.message())


class Exited(AssertionError):
    """The process waited on exited before its event."""


def window_appears(search: list[str], env: dict, base: float, what: str,
                   process: subprocess.Popen | None = None) -> str:
    """The id of the first X window that `xdotool search *search*` finds, waited for by X itself: one
    `xdotool search --sync` (which returns when such a window exists) rather than a search every 0.2 s.
    *process* is the program that should open it: its exit ends the wait at once (Exited)."""
    budget = Budget(base, what)
    finder = subprocess.Popen(["xdotool", "search", "--sync", *search], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        while finder.poll() is None:
            if process is not None and process.poll() is not None:
                raise Exited(f"{what}: the program exited ({process.returncode}) first")
            if budget.expired():
                raise AssertionError(budget.message())
            time.sleep(0.05)
        out = finder.stdout.read().decode().split() if finder.stdout else []
        if finder.returncode != 0 or not out:
            raise AssertionError(f"{what}: xdotool search ended with {finder.returncode} and no window")
        return out[0]
    finally:
        if finder.poll() is None:
            finder.kill()
        finder.wait()
        if finder.stdout:
            finder.stdout.close()
