"""The one base class of every error the package raises on purpose.

A failure the user can act on (a bad option, a missing or corrupt file, a
program that stopped with a BASIC error, a card that is not a card) is a
`HarnessError`: the command line prints its message as one line and exits
with status 2. Anything else is a bug and keeps its traceback.
"""
from __future__ import annotations


class HarnessError(Exception):
    """A domain error: its message names the file, line or option at fault."""
