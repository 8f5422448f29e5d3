"""Typing keys into a PlaySession in tests: tap each key in turn, then run to the next wait."""
from __future__ import annotations

from harness.play.session import PlaySession


def keys(s: PlaySession, *names: str):
    """Tap *names* in order and run the machine until the program waits again; returns that wait."""
    for name in names:
        s.tap(name)
    return s.run_until_wait()
