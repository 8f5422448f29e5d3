"""The play sweep's situations (harness/program/runs/sweep.py): every series the rules allow, grouped by what
routine 2000 can tell apart, each group a weight and its first series. `play_table` computes them with numpy
in a few seconds; `play_keys_walk` walks every series in Python, the definition the tests hold it to.

A situation is what 2000 can tell apart: whether the count after the card is 15, 31 or neither; N (only up
to one more than the distinct suffix, when the last two cards differ: beyond that N changes no test); the
distinct suffix of the series (a run cannot reach past a repeated rank); and how many cards at the end
share the last card's rank (the pair loop). Keys and series are coded as base-14 digits (a rank a digit,
0 for "no card"), so codes sort as the walk meets the series and as the keys' tuples sort.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterator, Sequence

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt
    Array = npt.NDArray[np.int64]
    Bytes = npt.NDArray[np.int8]           # the walk's small columns, a byte per value to keep memory small
    Shorts = npt.NDArray[np.int16]
    Table = tuple[Array, Array, Array]     # play_table's columns: key codes, series, example codes

#: a situation: (15, 31 or 0; N; the distinct suffix's ranks; how many cards end on the last rank)
PlayKey = tuple[int, int, tuple[int, ...], int]
#: a situation's number of series and its first series (by the walk's order)
Situation = tuple[int, tuple[int, ...]]

_BASE = 14                       # ranks 1..13 as digits, 0 for "no card"
_P7 = _BASE ** 7
_TC = (0, 15, 31)


def play_keys() -> dict[PlayKey, Situation]:
    """Distinct play situations -> (number of series, example series): the first series of the situation
    in the order of a walk trying ranks from ace to king at every card (play_keys_walk, the definition;
    play_table computes the same with numpy)."""
    keys, weights, examples = play_table()
    out: dict[PlayKey, Situation] = {}
    for k, w, e in zip(keys.tolist(), weights.tolist(), examples.tolist()):
        same, k = k % 5, k // 5
        suffix, k = k % _P7, k // _P7
        n, tc = k % 9, k // 9
        out[(_TC[tc], n, digits(suffix), same)] = (w, digits(e))
    return out


def table_of(situations: dict[PlayKey, Situation]) -> Table:
    """play_table's arrays for a dict like play_keys' (the tests' small sets of situations)."""
    rows = sorted((_key_code(k), w, _series_code(ex)) for k, (w, ex) in situations.items())
    columns = [np.array(col, dtype=np.int64) for col in zip(*rows)] if rows else \
        [np.zeros(0, dtype=np.int64) for _ in range(3)]
    return columns[0], columns[1], columns[2]


def _key_code(key: PlayKey) -> int:
    tc, n, suffix, same = key
    return int(((_TC.index(tc) * 9 + n) * _P7 + _series_code(suffix) // _BASE) * 5 + same)


def _series_code(series: Sequence[int]) -> int:
    code = 0
    for i in range(8):
        code = code * _BASE + (series[i] if i < len(series) else 0)
    return code


def suffix_lengths(keys: Array) -> Array:
    """The length of each key code's distinct suffix (its nonzero digits)."""
    suffix = keys // 5 % _P7
    length = np.zeros(len(keys), dtype=np.int64)
    for i in range(7):
        length += (suffix // _BASE ** (6 - i) % _BASE) > 0
    return length


def digits(code: int) -> tuple[int, ...]:
    """The ranks of a code of up to 8 (7 for a suffix) base-14 digits, most significant first, 0s dropped."""
    out = []
    for _ in range(8):
        code, d = divmod(code, _BASE)
        out.append(d)
    return tuple(d for d in reversed(out) if d)


@dataclass
class _Level:
    """The series of one level of the walk (all of one length n), as columns: each series' code, count,
    cards used of each rank, position of each rank's last card (-1: none), cards at the end of the last
    rank, length of the distinct suffix and last rank."""
    n: int
    code: Array
    count: Shorts
    usage: Bytes
    last: Bytes
    same: Bytes
    slen: Bytes
    lastr: Bytes


def _pow8() -> Array:
    return np.array([_BASE ** (8 - i) for i in range(9)], dtype=np.int64)   # digit i of a series weighs 14^(7-i)


def _first_level(first: int, second: int) -> _Level:
    """The one series of the walk that starts with *first* and *second* (0: the one-card series)."""
    pow8 = _pow8()
    ranks = [first] if second == 0 else [first, second]
    code = np.array([sum(r * pow8[i + 1] for i, r in enumerate(ranks))], dtype=np.int64)
    n = len(ranks)
    usage = np.zeros((1, 14), dtype=np.int8)
    last = np.full((1, 14), -1, dtype=np.int8)
    for i, r in enumerate(ranks):
        usage[0, r] += 1
        last[0, r] = i
    pair = n == 2 and first == second
    return _Level(n, code, np.array([sum(min(r, 10) for r in ranks)], dtype=np.int16), usage, last,
                  np.array([2 if pair else 1], dtype=np.int8), np.array([1 if pair else n], dtype=np.int8),
                  np.array([ranks[-1]], dtype=np.int8))


def _key_codes(level: _Level) -> Array:
    """Each series' situation as its key code."""
    B, n = _BASE, level.n
    tc = np.where(level.count == 15, 1, np.where(level.count == 31, 2, 0)).astype(np.int64)
    length = level.slen.astype(np.int64)
    nn = np.where(level.same > 1, n, np.minimum(n, length + 1))
    suffix = (level.code // _pow8()[n]) % (B ** length) * (B ** (7 - length))
    key: Array = ((tc * 9 + nn) * _P7 + suffix) * 5 + level.same.astype(np.int64)
    return key


def _grown(level: _Level) -> _Level | None:
    """The next level: every series of *level* with one more card the rules allow (None: there is none)."""
    n, pow8 = level.n, _pow8()
    grown = []
    for r in range(1, 14):
        v = min(r, 10)
        idx = np.nonzero((level.usage[:, r] < 4) & (level.count + v <= 31))[0]
        if not idx.size:
            continue
        u = level.usage[idx]
        u[:, r] += 1
        la = level.last[idx]
        newlen = np.minimum(level.slen[idx].astype(np.int64) + 1, n - la[:, r].astype(np.int64))
        la[:, r] = n
        grown.append((level.code[idx] + r * pow8[n + 1], level.count[idx] + v, u, la,
                      np.where(level.lastr[idx] == r, level.same[idx] + 1, 1).astype(np.int8),
                      newlen.astype(np.int8), np.full(idx.size, r, dtype=np.int8)))
    if not grown:
        return None
    code, count, usage, last, same, slen, lastr = (np.concatenate(x) for x in zip(*grown))
    return _Level(n + 1, code, count.astype(np.int16), usage, last, same, slen, lastr)


def _levels(first: int, second: int) -> Iterator[_Level]:
    """The walk's levels under one first two ranks: the series itself, then one card more at a time."""
    level: _Level | None = _first_level(first, second)
    while level is not None:
        yield level
        if level.n == 8 or second == 0:
            break                         # a one-card part: its extensions are the other parts
        level = _grown(level)


def _part(first: int, second: int) -> Table:
    """The situations of the series under one first two ranks: their key codes, counts and first series."""
    levels = list(_levels(first, second))
    k = np.concatenate([_key_codes(level) for level in levels])
    c = np.concatenate([level.code for level in levels])
    order = np.lexsort((c, k))
    k, c = k[order], c[order]
    uk, at, cnt = np.unique(k, return_index=True, return_counts=True)
    return uk, cnt, c[at]


def play_table() -> Table:
    """The play situations as numpy arrays, sorted as their keys sort: (key codes, series, example codes).

    Every series the walk visits is a row, level by level (one more card), for each first two ranks
    apart (to keep memory small). A series' code has one base-14 digit per card, padded with zeros to
    eight, so codes sort as the walk meets the series; a key's code sorts as its tuple does."""
    parts = [_part(first, second) for first in range(1, 14) for second in range(0, 14)
             if second == 0 or min(first, 10) + min(second, 10) <= 31]
    k = np.concatenate([x[0] for x in parts])
    w = np.concatenate([x[1] for x in parts])
    c = np.concatenate([x[2] for x in parts])
    order = np.lexsort((c, k))
    k, w, c = k[order], w[order], c[order]
    keys, at = np.unique(k, return_index=True)
    return keys, np.add.reduceat(w, at), c[at]


def play_keys_walk() -> dict[PlayKey, Situation]:
    """play_keys by walking every series in Python (about 18 CPU seconds): the definition, for the tests.

    Each series' key is grown from its parent's as a card is added: the count; the run of cards of the
    last rank (one more if the card repeats it, else 1); the distinct suffix (the parent's from just after
    the card's rank, if it is there, then the card); N capped at one past the suffix when the run is 1."""
    keys: dict[PlayKey, Situation] = {}
    used = [0] * 14
    series: list[int] = []
    value = [min(r, 10) for r in range(14)]

    def walk(count: int, suffix: tuple[int, ...], same: int, n: int) -> None:
        last = series[-1] if series else 0
        for r in range(1, 14):
            now = count + value[r]
            if now > 31:
                break                       # the ranks after are worth as much or more
            if used[r] == 4:
                continue
            run = same + 1 if r == last else 1
            tail = suffix[suffix.index(r) + 1:] + (r,) if r in suffix else suffix + (r,)
            k = (15 if now == 15 else 31 if now == 31 else 0, n if run > 1 else min(n, len(tail) + 1), tail, run)
            series.append(r)
            entry = keys.get(k)
            keys[k] = (1, tuple(series)) if entry is None else (entry[0] + 1, entry[1])
            if n < 8:
                used[r] += 1
                walk(now, tail, run, n + 1)
                used[r] -= 1
            series.pop()
    walk(0, (), 0, 1)
    return keys


TABLE_CONSTANTS = (_BASE, _TC)


def table_code() -> tuple[Callable[..., object], ...]:
    """What the play table is made by, as this module holds it now (play_cases.cases_fingerprint hashes
    their source: a cached table is used only while it is the one this code makes)."""
    return (play_table, _part, _levels, _first_level, _grown, _key_codes, _pow8, suffix_lengths, digits)
