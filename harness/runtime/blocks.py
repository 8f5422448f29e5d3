"""A generated block inside a hand-written page: the text between two marker lines, replaced whole.

The README's deviations table, the pack's, strength's and the bench's figures in docs/ are each
written by the tool that measured them between a begin and an end marker; one function does it.
"""
from __future__ import annotations

from ..errors import InputError


def replace_block(page: str, begin: str, end: str, body: str) -> str:
    """*page* with what stands between the first *begin* and the next *end* replaced by *body*.

    Both markers are kept, each on its own line around *body*. Raises InputError when either
    marker is absent or *end* comes before *begin* (a page without its block is not ours to restructure).
    """
    start = page.find(begin)
    stop = page.find(end, start + len(begin)) if start >= 0 else -1
    if start < 0 or stop < 0:
        raise InputError(f"the markers {begin!r} ... {end!r} are missing")
    return f"{page[:start]}{begin}\n{body}\n{page[stop:]}"
