"""What `cribbage-zx sweep show|play|discard` runs (the command: harness/commands/sweep.py): the program's scoring routines against the engine, exhaustively.

* show: every (four-card hand, starter) up to suit symmetry -- the rank
  multiset with the starter marked, and one representative of each suit
  pattern that matters (no flush, four-card flush, five-card flush, each with
  or without his nobs) weighted by how many of the 12,994,800 deals it stands
  for -- through 4700 (with 1000 and 2400) as a hand; as a crib (CR=1) only
  the patterns where the crib rule differs (a four-card flush), since CR is
  read nowhere else in those routines (line 1310; checked by a test).
* play: the series the rules allow (count <= 31, up to eight cards, at most
  four of a rank: 12,892,167 of them), scored by 2000 after each card. 2000
  reads only SUM, N and the table T(); it stops at the first pair mismatch and
  a run longer than the last cards' distinct suffix cannot pass its sort
  check, so series that agree on the situation (see play_keys) run the same
  tests: one of each is run, weighted by how many series it stands for: all
  544,816 situations by default (about an hour with 2 workers: a long run
  costs the BASIC seconds of Spectrum time), or with --quick every situation
  with a distinct suffix of up to 4 cards and a seeded sample of the longer
  ones (the report states the coverage).
* discard: a random sample of six-card hands through 500: the points the
  program's discard gives away against the engine's best (a strength report).

Work is split in chunks run by the job runner (harness/runtime/jobs.py: a local pool
or a Dask cluster), each written atomically to OUT/<sweep>/chunk-NNNN.json
with the fingerprint of its cases: an interrupted sweep continues where it
stopped, losing no finished chunk, and a chunk file that is corrupt or does
not match its cases is computed again, never counted. The play sweep's
situations are enumerated once per sweeps' folder, in a child process, into
OUT/play-cases-<fingerprint>.npz; its jobs are ranges of that table
(CaseRange), turned into cases by the workers, so the parent holds no case
and starts the workers in well under a second.
"""
from __future__ import annotations

import hashlib
import itertools
import json
import random
import sys
import zipfile
import dataclasses
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from ...runtime import atomic
from ...runtime.validate import expect, read_json
from ...errors import InputError, MachineError, OutputError, needing
from ...runtime.outdir import claimed
from ...runtime.records import plain, read_record, record
from ...cribbage import discard_values, score_hand, score_play
from ...spectrum.tape import read_tap
from ...spectrum.accelerate import accelerate as attach_accelerator
from ..model.program import (DISCARD_BEST, DISCARD_CHOSEN, DISCARD_RANKS, DISCARD_ROUTINE, DISCARD_SUITS, DISCARD_VALUES,
                      MAN, PLAY_CARD, PLAY_LAID, PLAY_LAID_COUNT, PLAY_POINTS, PLAY_ROUTINE, PLAY_SUM, SHOW_CRIB,
                      SHOW_PARTS, SHOW_RANKS, SHOW_ROUTINE, SHOW_STARTER_AT, SHOW_STARTER_SUIT, SHOW_SUITS,
                      SUIT_CODES, V_DEALER, V_PLAYER, ZX, card_from_numbers)
from ...runtime.jobs import Progress, Setup, one_line, run_jobs
from ..model.build import played_tape, tape_record
from ...spectrum.profile import Profile, Profiler
from ..model.subroutine import Subroutine, program_at_editor

if TYPE_CHECKING:
    import numpy.typing as npt
    Array = npt.NDArray[Any]
else:
    Array = Any
Table = tuple[Array, Array, Array]     # play_table's columns: key codes, series, example codes

JACK = 11
SPADES = 4                      # the starter's suit, fixed by symmetry (weights are multiplied by 4)
SHOW_SETUP, PLAY_SETUP = SHOW_ROUTINE.setup, PLAY_ROUTINE.setup
PLAY_RETURNS = set(PLAY_ROUTINE.returns)
COMPONENTS = ("fifteens", "pairs", "runs", "flush", "nobs")
TOTAL_DEALS = 12_994_800        # C(52,4) * 48


# ---------------------------------------------------------------------------------------------- show
@lru_cache(maxsize=None)
def _suit_patterns(shape: tuple[tuple[int, bool, bool], ...]) -> tuple[Any, ...]:
    """For rank groups (multiplicity, is the starter's rank, is jack), with the starter a spade:
    {pattern: (number of hands, representative suits per group)}."""
    options = []
    for mult, is_starter_rank, _ in shape:
        suits = [1, 2, 3] if is_starter_rank else [1, 2, 3, 4]
        options.append(list(itertools.combinations(suits, mult)))
    found: dict[tuple[str, int], list[Any]] = {}
    for choice in itertools.product(*options):
        hand_suits = [s for group in choice for s in group]
        flush = "none"
        if len(hand_suits) == 4 and len(set(hand_suits)) == 1 and all(m == 1 for m, _, _ in shape):
            flush = "five" if hand_suits[0] == SPADES else "four"
        nobs = int(any(is_jack and SPADES in group for (m, _, is_jack), group in zip(shape, choice)))
        entry = found.setdefault((flush, nobs), [0, choice])
        entry[0] += 1
    return tuple((pattern, count, choice) for pattern, (count, choice) in sorted(found.items()))


def show_cases() -> list[dict[Any, Any]]:
    """Every rank case and suit pattern, with its weight among the 12,994,800 deals."""
    cases = []
    for hand in itertools.combinations_with_replacement(range(1, 14), 4):
        counts = {r: hand.count(r) for r in sorted(set(hand))}
        for starter in range(1, 14):
            if counts.get(starter, 0) == 4:
                continue
            ranks = sorted(counts)
            shape = tuple((counts[r], r == starter, r == JACK) for r in ranks)
            for (flush, nobs), n, choice in _suit_patterns(shape):
                cards = [(r, s) for r, group in zip(ranks, choice) for s in group]
                cases.append({"hand": cards, "starter": (starter, SPADES), "flush": flush, "nobs": nobs,
                              "weight": 4 * n})
    return cases


def engine_show(case: dict[Any, Any], crib: bool) -> dict[Any, Any]:
    hand = [card_from_numbers(r, s) for r, s in case["hand"]]
    hs = score_hand(hand, card_from_numbers(*case["starter"]), crib=crib)
    return {c: getattr(hs, c) for c in COMPONENTS}


def program_show(sub: Subroutine, case: dict[Any, Any], crib: bool) -> dict[Any, Any]:
    cards = list(case["hand"]) + [case["starter"]]
    sub.begin()
    sub.set_array(SHOW_RANKS, [r for r, _ in cards])
    sub.set_chars(SHOW_SUITS, bytes(SUIT_CODES[s - 1] for _, s in cards))
    sub.set_chars(SHOW_STARTER_SUIT, bytes([SUIT_CODES[case["starter"][1] - 1]]), start=SHOW_STARTER_AT)
    sub.set_number(SHOW_CRIB, 1 if crib else 0)
    sub.set_number(V_PLAYER, ZX)
    sub.run()
    return {part: int(sub.output(name)) for part, name in SHOW_PARTS.items()}


# ---------------------------------------------------------------------------------------------- play
def play_keys() -> dict[tuple[Any, ...], list[Any]]:
    """Distinct play situations -> [number of series, example series].

    A situation is what 2000 can tell apart: whether the count after the card
    is 15, 31 or neither; N (only up to one more than the distinct suffix,
    when the last two cards differ: beyond that N changes no test); the
    distinct suffix of the series (a run cannot reach past a repeated rank);
    and how many cards at the end share the last card's rank (the pair loop).
    The example is the first series of the situation in the order of a walk
    trying ranks from ace to king at every card (play_keys_walk, the
    definition; play_table computes the same with numpy in a few seconds).
    """
    keys, weights, examples = play_table()
    out = {}
    for k, w, e in zip(keys.tolist(), weights.tolist(), examples.tolist()):
        same, k = k % 5, k // 5
        suffix, k = k % _P7, k // _P7
        n, tc = k % 9, k // 9
        out[(_TC[tc], n, _digits(suffix), same)] = [w, _digits(e)]
    return out


def table_of(situations: dict[tuple[Any, ...], list[Any]]) -> Table:
    """play_table's arrays for a dict like play_keys' (the tests' small sets of situations)."""
    import numpy as np
    rows = sorted((_key_code(k), w, _series_code(ex)) for k, (w, ex) in situations.items())
    columns = [np.array(col, dtype=np.int64) for col in zip(*rows)] if rows else \
        [np.zeros(0, dtype=np.int64) for _ in range(3)]
    return columns[0], columns[1], columns[2]


def _key_code(key: tuple[Any, ...]) -> int:
    tc, n, suffix, same = key
    return int(((_TC.index(tc) * 9 + n) * _P7 + _series_code(suffix) // _BASE) * 5 + same)


def _series_code(series: Sequence[int]) -> int:
    code = 0
    for i in range(8):
        code = code * _BASE + (series[i] if i < len(series) else 0)
    return code


def suffix_lengths(keys: Array) -> Array:
    """The length of each key code's distinct suffix (its nonzero digits)."""
    import numpy as np
    suffix = keys // 5 % _P7
    length = np.zeros(len(keys), dtype=np.int64)
    for i in range(7):
        length += (suffix // _BASE ** (6 - i) % _BASE) > 0
    return length


_BASE = 14                       # ranks 1..13 as digits, 0 for "no card"
_P7 = _BASE ** 7
_TC = (0, 15, 31)


def _digits(code: int) -> tuple[int, ...]:
    """The ranks of a code of up to 8 (7 for a suffix) base-14 digits, most significant first, 0s dropped."""
    out = []
    for _ in range(8):
        code, d = divmod(code, _BASE)
        out.append(d)
    return tuple(d for d in reversed(out) if d)


def play_table() -> Table:
    """The play situations as numpy arrays, sorted as their keys sort: (key codes, series, example codes).

    Every series the walk visits is a row, level by level (one more card), for each first two ranks
    apart (to keep memory small). A series' code has one base-14 digit per card, padded with zeros to
    eight, so codes sort as the walk meets the series; a key's code sorts as its tuple does."""
    import numpy as np
    B = _BASE
    pow8 = np.array([B ** (8 - i) for i in range(9)], dtype=np.int64)      # digit i of a series weighs 14^(7-i)
    parts = []
    for first in range(1, 14):
        for second in range(0, 14):
            if second == 0:                       # the one-card series
                code = np.array([first * pow8[1]], dtype=np.int64)
                ranks = [first]
            else:
                if min(first, 10) + min(second, 10) > 31:
                    continue
                code = np.array([first * pow8[1] + second * pow8[2]], dtype=np.int64)
                ranks = [first, second]
            n = len(ranks)
            count = np.array([sum(min(r, 10) for r in ranks)], dtype=np.int16)
            usage = np.zeros((1, 14), dtype=np.int8)
            last = np.full((1, 14), -1, dtype=np.int8)
            for i, r in enumerate(ranks):
                usage[0, r] += 1
                last[0, r] = i
            same = np.array([2 if n == 2 and first == second else 1], dtype=np.int8)
            slen = np.array([1 if n == 2 and first == second else n], dtype=np.int8)
            lastr = np.array([ranks[-1]], dtype=np.int8)
            keys_all, codes_all = [], []
            while True:
                tc = np.where(count == 15, 1, np.where(count == 31, 2, 0)).astype(np.int64)
                length = slen.astype(np.int64)
                nn = np.where(same > 1, n, np.minimum(n, length + 1))
                suffix = (code // pow8[n]) % (B ** length) * (B ** (7 - length))
                keys_all.append(((tc * 9 + nn) * _P7 + suffix) * 5 + same.astype(np.int64))
                codes_all.append(code)
                if n == 8 or second == 0:
                    break                         # a one-card part: its extensions are the other parts
                grown = []
                for r in range(1, 14):
                    v = min(r, 10)
                    idx = np.nonzero((usage[:, r] < 4) & (count + v <= 31))[0]
                    if not idx.size:
                        continue
                    u = usage[idx]
                    u[:, r] += 1
                    la = last[idx]
                    newlen = np.minimum(slen[idx].astype(np.int64) + 1, n - la[:, r].astype(np.int64))
                    la[:, r] = n
                    grown.append((code[idx] + r * pow8[n + 1], count[idx] + v, u, la,
                                  np.where(lastr[idx] == r, same[idx] + 1, 1).astype(np.int8),
                                  newlen.astype(np.int8), np.full(idx.size, r, dtype=np.int8)))
                if not grown:
                    break
                code, count, usage, last, same, slen, lastr = (np.concatenate(x) for x in zip(*grown))
                count = count.astype(np.int16)
                n += 1
            k, c = np.concatenate(keys_all), np.concatenate(codes_all)
            order = np.lexsort((c, k))
            k, c = k[order], c[order]
            uk, at, cnt = np.unique(k, return_index=True, return_counts=True)
            parts.append((uk, cnt, c[at]))
    k = np.concatenate([x[0] for x in parts])
    w = np.concatenate([x[1] for x in parts])
    c = np.concatenate([x[2] for x in parts])
    order = np.lexsort((c, k))
    k, w, c = k[order], w[order], c[order]
    keys, at = np.unique(k, return_index=True)
    return keys, np.add.reduceat(w, at), c[at]


def play_keys_walk() -> dict[tuple[Any, ...], list[Any]]:
    """play_keys by walking every series in Python (about 18 CPU seconds): the definition, for the tests.

    Each series' key is grown from its parent's as a card is added: the count; the run of cards of the
    last rank (one more if the card repeats it, else 1); the distinct suffix (the parent's from just after
    the card's rank, if it is there, then the card); N capped at one past the suffix when the run is 1."""
    keys: dict[tuple[Any, ...], list[Any]] = {}
    used = [0] * 14
    series: list[int] = []
    value = [min(r, 10) for r in range(14)]

    def walk(count: int, suffix: tuple[Any, ...], same: int, n: int) -> None:
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
            if entry is None:
                keys[k] = [1, tuple(series)]
            else:
                entry[0] += 1
            if n < 8:
                used[r] += 1
                walk(now, tail, run, n + 1)
                used[r] -= 1
            series.pop()
    walk(0, (), 0, 1)
    return keys


def engine_play(series: tuple[int, ...]) -> int:
    """The engine's points for the last card; ranks only, so the k-th card of a rank gets suit k."""
    cards = [card_from_numbers(r, 1 + series[:i].count(r)) for i, r in enumerate(series)]
    return score_play(cards).total


def program_play(sub: Subroutine, series: tuple[int, ...]) -> int:
    """Score the last card of *series* with 2000: T() holds the cards before it, N and SUM their number and count."""
    before = series[:-1]
    sub.begin()
    if before:
        sub.set_array(PLAY_LAID, list(before))
    sub.set_number(PLAY_LAID_COUNT, len(before))
    sub.set_number(PLAY_SUM, sum(min(r, 10) for r in before))
    sub.set_number(PLAY_CARD, series[-1])
    sub.run()
    return int(sub.output(PLAY_POINTS))


# ---------------------------------------------------------------------------------------------- workers
@dataclass(frozen=True)
class ChunkJob:
    """A chunk of a sweep as a job: its number and its cases (a list, or a CaseRange the worker computes)."""
    index: int
    cases: "list[Any] | CaseRange"


@dataclass
class ChunkResult:
    """What a worker hands back for a chunk (the parent writes it as chunk-NNNN.json, in this order): the
    fingerprint of its cases, how many and their weight, the disagreements, the BASIC statements it ran."""
    index: int
    items_sha: str
    cases: int = 0
    weight: int = 0
    disagreements: list[dict[str, Any]] = field(default_factory=list)
    profile: dict[str, dict[str, int]] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class SweepWorker:
    """A sweep's worker: the program at the editor with the routine the sweep calls (*sub*; None for a kind
    that calls none), and the program's statement table (each chunk counts the statements it runs)."""
    kind: str
    sub: Subroutine | None
    statements: dict[tuple[int, int], int]


def load_worker(kind: str, tape: bytes, accelerate: bool = True) -> SweepWorker:
    """The program at the editor (from the tape's bytes) and the routine to call."""
    m = program_at_editor(read_tap(tape))
    attach_accelerator(m, accelerate)
    statements = Profiler.for_program(m.program_bytes()).statements
    sub = None
    if kind == "show":
        sub = Subroutine(m, SHOW_ROUTINE.line, set(SHOW_ROUTINE.returns), setup=SHOW_SETUP)
    elif kind == "play":
        sub = Subroutine(m, PLAY_ROUTINE.line, PLAY_RETURNS, setup=PLAY_SETUP)
    return SweepWorker(kind, sub, statements)


_worker: SweepWorker | None = None         # this worker process's (init_worker)


def init_worker(kind: str, tape: bytes, accelerate: bool = True) -> None:
    """Once per worker process (the job runner's `Setup`): the sweep's worker value, kept for `run_chunk`."""
    global _worker
    _worker = load_worker(kind, tape, accelerate)


def items_sha(items: list[Any]) -> str:
    return hashlib.sha256(json.dumps(items, sort_keys=True).encode()).hexdigest()


def _item_weight(kind: str, item: Any) -> int:
    return int(item[0]["weight"] if kind == "show" else item[0])


def run_chunk(job: ChunkJob) -> ChunkResult:
    """Run one chunk of cases on this worker's machine (`init_worker`); the parent writes it (chunk-NNNN.json)."""
    if _worker is None:
        raise MachineError("no sweep loaded in this worker: init_worker(kind, tape) first")
    return run_chunk_on(_worker, job)


def run_chunk_on(worker: SweepWorker, job: ChunkJob) -> ChunkResult:
    """Run one chunk of cases (a list, or a CaseRange computed here) on *worker*'s machine."""
    items = cases_of(job.cases)
    if worker.sub is None:
        raise MachineError(f"a {worker.kind} sweep calls no routine of the program in chunks")
    result = ChunkResult(job.index, items_sha(items))
    profiler = Profiler(worker.statements)
    profiler.start(worker.sub.m)
    try:
        _run_items(worker.kind, worker.sub, items, result)
    finally:
        result.profile = profiler.stop().as_json()     # which BASIC statements the chunk ran, how often
    return result


def _run_items(kind: str, sub: Subroutine, items: list[Any], result: ChunkResult) -> None:
    for item in items:
        if kind == "show":
            case, crib = item
            got, want = program_show(sub, case, crib), engine_show(case, crib)
            if got != want:
                result.disagreements.append({"case": case, "crib": crib, "program": got, "engine": want})
            result.weight += case["weight"]
        else:
            weight, series = item
            got_points, want_points = program_play(sub, tuple(series)), engine_play(tuple(series))
            if got_points != want_points:
                result.disagreements.append({"series": list(series), "weight": weight,
                                             "program": got_points, "engine": want_points})
            result.weight += weight
        result.cases += 1


def chunk_path(folder: Path, index: int) -> Path:
    return folder / f"chunk-{index:04d}.json"


def read_chunk(folder: Path, kind: str, index: int, items: "list[Any] | CaseRange") -> tuple[ChunkResult | None, str | None]:
    """A finished chunk if its file holds exactly the result of these items (a list, or a CaseRange),
    else (None, why not): the one reader of chunk-NNNN.json."""
    path = chunk_path(folder, index)
    if not path.exists():
        return None, None
    items = cases_of(items)
    try:
        r = read_json(path)
    except InputError as exc:
        return None, f"unreadable ({str(exc).removeprefix(f'{path}: ').splitlines()[0]})"
    if not isinstance(r, dict):
        return None, "not a chunk object"
    expected = {"index": index, "items_sha": items_sha(items), "cases": len(items),
                "weight": sum(_item_weight(kind, item) for item in items)}
    wrong = [k for k, v in expected.items() if r.get(k) != v]
    if wrong:
        return None, f"does not match its cases ({', '.join(wrong)})"
    disagreements = r.get("disagreements")
    if not isinstance(disagreements, list) or not all(_good_disagreement(kind, d) for d in disagreements):
        return None, "its disagreements are malformed"
    if "profile" in r:
        try:
            Profile.from_json(r["profile"])
        except (KeyError, TypeError, ValueError, AttributeError):
            return None, "its profile is malformed"
    try:
        chunk: ChunkResult = record(ChunkResult, r, str(path))
    except InputError as exc:
        return None, f"not a chunk ({str(exc).removeprefix(f'{path}: ')})"
    return chunk, None


def _good_disagreement(kind: str, d: Any) -> bool:
    """A disagreement as `run_chunk` writes it: what summarise and _causes read is there, of its type."""
    def whole(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool)
    if not (isinstance(d, dict) and "program" in d and "engine" in d):
        return False
    if kind == "show":
        return (isinstance(d.get("crib"), bool) and isinstance(d.get("case"), dict)
                and whole(d["case"].get("weight", 0))
                and all(isinstance(d[k], dict) and all(whole(d[k].get(c)) for c in COMPONENTS)
                        for k in ("program", "engine")))
    return whole(d.get("weight")) and all(whole(d[k]) for k in ("program", "engine"))


def sweep_items(kind: str, max_suffix: int = 7, sample: int = 0, seed: int = 1) -> tuple[list[Any], dict[Any, Any]]:
    """The cases of a sweep, and what part of the whole space they cover (for play, every case built here:
    run_sweep hands the workers ranges of a cached table instead, CaseRange)."""
    if kind == "show":
        cases = show_cases()
        items = [(c, False) for c in cases]
        items += [(c, True) for c in cases if c["flush"] == "four"]
        return items, {"cases": len(items), "deals": sum(c["weight"] for c in cases)}
    weights, examples, chosen, coverage = _choose(*_table_columns(play_table()), max_suffix, sample, seed)
    return cases_at(weights, examples, chosen), coverage


def cases_at(weights: Array, examples: Array, at: Array) -> list[Any]:
    """The play cases at positions *at* of the table: (weight, the example series' ranks)."""
    return [(w, list(_digits(e))) for w, e in zip(weights[at].tolist(), examples[at].tolist())]


def _table_columns(table: Table) -> tuple[Array, Array, Array]:
    """What the play cases need of play_table's arrays: each situation's weight, example and suffix length."""
    keys, weights, examples = table
    return weights, examples, suffix_lengths(keys)


def _choose(weights: Array, examples: Array, lengths: Array, max_suffix: int, sample: int,
            seed: int) -> tuple[Array, Array, Array, dict[str, Any]]:
    """The situations a play sweep runs, as positions in the table (every one with a distinct suffix of
    up to *max_suffix* cards in key order, then a seeded sample of the longer ones), and their coverage."""
    import numpy as np
    short_at, long_at = np.nonzero(lengths <= max_suffix)[0], np.nonzero(lengths > max_suffix)[0]
    picked = long_at[random.Random(seed).sample(range(len(long_at)), min(sample, len(long_at)))] \
        if len(long_at) else long_at                          # the same choice as sampling the list itself
    chosen = np.concatenate([short_at, picked]).astype(np.int64)
    coverage = {"series": int(weights.sum()), "situations": len(weights),
                "situations_run": len(chosen),
                "all_situations_with_distinct_suffix_up_to": max_suffix,
                "sampled_longer_situations": len(picked), "longer_situations": len(long_at),
                "series_covered": int(weights[chosen].sum())}
    return weights, examples, chosen, coverage


# ---------------------------------------------------------------------------------------------- the play cases' cache
CASES_FORMAT = 1                 # bump when the cache file's layout changes


def cases_fingerprint() -> str:
    """What the play table is made by (its code and constants): a cached table is used only while it matches."""
    import inspect
    parts = [str(CASES_FORMAT), repr((_BASE, _TC))]
    for f in (play_table, suffix_lengths, _digits):
        try:
            parts.append(inspect.getsource(f))
        except (OSError, TypeError):
            parts.append(repr(f))
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def cases_path(out: Path) -> Path:
    """The play table's cache in a sweeps' folder, named by its fingerprint."""
    return Path(out) / f"play-cases-{cases_fingerprint()[:16]}.npz"


def _write_cases(path: Path) -> None:
    """Enumerate the play situations (play_table) and keep what the cases need, compactly (about 5 MB)."""
    import io
    import numpy as np
    weights, examples, lengths = _table_columns(play_table())
    buffer = io.BytesIO()
    np.savez(buffer, weights=weights.astype(np.int32), examples=examples.astype(np.int64),
             lengths=lengths.astype(np.int8))
    atomic.write_bytes(path, buffer.getvalue())


def enumerate_in_child(path: Path) -> None:
    """_write_cases in a forked process: its 5 CPU s and 270 MB are paid once per table, never by the
    parent's memory (which then only loads the 5 MB file)."""
    import multiprocessing
    ctx = multiprocessing.get_context("fork")
    child = ctx.Process(target=_write_cases, args=(path,), name="cribbage-zx play cases", daemon=True)
    child.start()
    try:
        child.join()
    finally:
        if child.is_alive():                     # Ctrl-C or an error here: the child goes too
            child.terminate()
            child.join()
    if child.exitcode != 0:
        raise MachineError(f"{path}: the play situations could not be enumerated (exit status {child.exitcode})")


def ensure_cases(out: Path) -> Path:
    """The play table's cache in *out*, enumerated (in a child process) when missing or unreadable."""
    path = cases_path(out)
    if path.exists():
        try:
            _load_columns(str(path))
            return path
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
            print(f"{path}: unreadable ({one_line(exc)}); enumerating the play situations again", file=sys.stderr)
            _load_columns.cache_clear()
    enumerate_in_child(path)
    return path


@lru_cache(maxsize=2)
def _load_columns(path: str) -> tuple[Array, Array, Array]:
    """The cached table's columns; on a worker without the file (a Dask cluster elsewhere), enumerated here."""
    import numpy as np
    if not Path(path).exists():
        return _table_columns(play_table())
    with np.load(path, allow_pickle=False) as z:
        weights, examples, lengths = (z[k].astype(np.int64) for k in ("weights", "examples", "lengths"))
    if not len(weights) == len(examples) == len(lengths):
        raise ValueError("its columns differ in length")
    return weights, examples, lengths


@lru_cache(maxsize=4)
def _chosen_cases(path: str, max_suffix: int, sample: int, seed: int) -> tuple[Array, Array, Array, dict[str, Any]]:
    """The cached table's weights and examples and the positions a sweep with these options runs, and their
    coverage: computed once per process (the parent, or a worker on its first job)."""
    return _choose(*_load_columns(path), max_suffix, sample, seed)


def clear_caches() -> None:
    """Forget the play table's columns and chosen cases this process has read (a cache file changed)."""
    _load_columns.cache_clear()
    _chosen_cases.cache_clear()


@dataclass(frozen=True)
class CaseRange:
    """A chunk of a play sweep as a job: its cases are positions start..stop of the sweep's chosen
    situations, which the worker computes from the cached table (the parent never builds them all)."""
    path: str
    table: str                   # cases_fingerprint() of the table: a worker without the file enumerates it
    max_suffix: int
    sample: int
    seed: int
    start: int
    stop: int

    def __len__(self) -> int:
        return self.stop - self.start

    def items(self) -> list[Any]:
        if not Path(self.path).exists() and self.table != cases_fingerprint():
            raise MachineError(f"{self.path} is not on this worker, and its code enumerates another table")
        weights, examples, chosen, _ = _chosen_cases(self.path, self.max_suffix, self.sample, self.seed)
        return cases_at(weights, examples, chosen[self.start:self.stop])


def cases_of(chunk: "list[Any] | CaseRange") -> list[Any]:
    """A chunk's cases: the list itself, or a CaseRange's, computed."""
    return chunk.items() if isinstance(chunk, CaseRange) else chunk


def play_chunks(path: Path, chunk: int | None, limit: int | None, max_suffix: int = 7, sample: int = 0,
                 seed: int = 1) -> tuple[list[Any], dict[Any, Any], str]:
    """A play sweep's chunks (of *chunk* cases, or auto_chunk's) as CaseRanges, its coverage, and the
    fingerprint of its cases (the SHA-256 of their weights and examples, in order)."""
    import numpy as np
    weights, examples, chosen, coverage = _chosen_cases(str(Path(path).resolve()), max_suffix, sample, seed)
    n = len(chosen) if limit is None else min(limit, len(chosen))
    chunk = chunk or auto_chunk(n)
    digest = hashlib.sha256(np.ascontiguousarray(weights[chosen[:n]]).tobytes())
    digest.update(np.ascontiguousarray(examples[chosen[:n]]).tobytes())
    table, path = cases_fingerprint(), Path(path).resolve()      # absolute: a Dask worker's folder may differ
    chunks = [CaseRange(str(path), table, max_suffix, sample, seed, i, min(i + chunk, n)) for i in range(0, n, chunk)]
    return chunks, coverage, digest.hexdigest()


BUSY_WORKERS, CHUNKS_PER_WORKER, MAX_CHUNK = 64, 8, 400


def auto_chunk(cases: int) -> int:
    """The default chunk size: at most MAX_CHUNK cases, and small enough that 64 workers get at least 8
    chunks each (so the last ones finish close together); not the workers given, so a sweep resumes
    with any."""
    return max(1, min(MAX_CHUNK, cases // (BUSY_WORKERS * CHUNKS_PER_WORKER)))


def run_sweep(kind: str, out: Path, workers: int, chunk: int | None = None, progress: bool = True,
              limit: int | None = None, scheduler: str | None = None, replace: bool = False,
              tap: Path | None = None, accelerate: bool = True, **options: Any) -> SweepReport:
    """Run the chunks not yet done (a chunk file that fails validation is done again) and summarise.

    Resumable by design: OUT/<kind> keeps the finished chunks. It is held by
    one run at a time (harness/runtime/outdir.py); --replace starts it afresh. A chunk
    whose job raises is reported at once as a harness failure and not written,
    so the next run does it again. A play sweep's chunks are ranges of a table
    cached in OUT (ensure_cases): the parent never builds its cases.
    """
    where, tape = played_tape(tap)
    with claimed(out, "sweep", resume=True, wait=10) as sweeps:     # --out is a sweeps' folder (or new)
        table = ensure_cases(sweeps) if kind == "play" else None
    if kind == "play":
        assert table is not None                  # a play sweep's table, made above
        chunks, coverage, fingerprint = play_chunks(table, chunk, limit, **options)
        size = len(chunks[0]) if chunks else chunk
    else:
        items, coverage = sweep_items(kind, **options)
        if limit is not None:
            items = items[:limit]
        size = chunk or auto_chunk(len(items))
        chunks, fingerprint = [items[i:i + size] for i in range(0, len(items), size)], items_sha(items)
    with claimed(out / kind, "sweep", resume=True, replace=replace) as folder:
        check_same_sweep(folder, {"kind": kind, "items": sum(map(len, chunks)), "chunk": size, "limit": limit,
                                   "fingerprint": fingerprint, **options})
        jobs = []
        for i, c in enumerate(chunks):
            found, why_not = read_chunk(folder, kind, i, c) if chunk_path(folder, i).exists() else (None, None)
            if found is None:
                if why_not:
                    print(f"{chunk_path(folder, i)}: {why_not}; computing it again", file=sys.stderr)
                jobs.append(ChunkJob(i, c))
        bar = Progress(len(chunks), f"{kind} chunks", progress, done=len(chunks) - len(jobs))
        failures: list[ChunkFailure] = []
        try:
            setup = Setup(init_worker, (kind, tape, accelerate))
            with run_jobs(run_chunk, jobs, setup, workers, scheduler) as outcomes:
                for outcome in outcomes:
                    index = outcome.job.index
                    if outcome.value is not None:
                        atomic.write_json(chunk_path(folder, index), outcome.value.as_json())
                    else:
                        failures.append(ChunkFailure(index, outcome.error))
                        bar.note(f"cribbage-zx sweep {kind}: chunk {index}: harness failure: {outcome.error}")
                    bar.step()
        finally:
            bar.close()
        return summarise(kind, folder, chunks, bar.elapsed, workers, coverage, failures, tape=tape_record(where, tape))


def check_same_sweep(folder: Path, params: dict[Any, Any]) -> None:
    """Finished chunks are reused only by the very same sweep (same cases in the same chunks); a folder of
    another sweep, or an unreadable record of it, is refused needing *replace* (or another *out*)."""
    path = folder / "params.json"
    if path.exists():
        try:
            before = expect(read_json(path), dict, str(path))
        except InputError as exc:
            raise needing(InputError(str(exc)), "replace") from None
        if before != params:
            changed = sorted(k for k in set(before) | set(params) if before.get(k) != params.get(k))
            raise needing(OutputError(f"{folder} holds a different sweep (differs in {', '.join(changed)})"),
                          "replace or another out")
    else:
        atomic.write_json(path, params, indent=1)


@dataclass(frozen=True)
class ChunkFailure:
    """A chunk whose job raised: a sweep report's harness failure (not written, so the next run does it again)."""
    chunk: int
    error: str | None


@dataclass
class SweepGroup:
    """The disagreements of one cause (`_causes`): how many cases and their weight, the first met, and the
    documented deviation that explains them (None: unexplained)."""
    cause: list[Any]
    cases: int
    weight: int
    example: dict[str, Any]
    deviation: str | None


@dataclass(frozen=True)
class BasicCoverage:
    """The BASIC statements a sweep's chunks ran: how many, their lines, each IF's (true, false) counts."""
    statements_run: int
    lines: list[int]
    ifs: dict[str, list[int]]


@dataclass(frozen=True)
class SweepReport:
    """OUT/<kind>-report.json, written by `summarise` and read by `read_report`, the one type of both (its
    fields in the file's order)."""
    sweep: str
    items: int
    chunks: int
    coverage: dict[str, Any]                 # what the cases cover: its keys are the kind's (sweep_items)
    cases_checked: int
    chunks_missing: list[int]
    harness_failures: int
    harness_failure_details: list[ChunkFailure]
    weight_checked: int
    wall_s_this_run: float
    workers: int
    groups: list[SweepGroup]
    unexplained_groups: int
    tape: dict[str, Any] | None
    basic_coverage: BasicCoverage

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = plain(self)
        return out


def read_report(path: Path) -> SweepReport:
    """A sweep's report (OUT/<kind>-report.json) as its type; anything else is an InputError naming the field."""
    return read_record(SweepReport, path, "sweep report")


def summarise(kind: str, folder: Path, chunks: list[Any], wall: float, workers: int,
              coverage: dict[str, Any], failures: list[ChunkFailure] | None = None,
              tape: dict[str, Any] | None = None) -> SweepReport:
    """The report over every valid chunk (written to OUT/<kind>-report.json); chunks missing or invalid
    are counted, never silently dropped."""
    from ..judge.deviations import classify_sweep
    groups: dict[tuple[Any, ...], SweepGroup] = {}
    total_cases = total_weight = 0
    missing = []
    profile = Profile()
    for index, items in enumerate(chunks):
        r, _ = read_chunk(folder, kind, index, items)
        if r is None:
            missing.append(index)
            continue
        if r.profile:
            profile = profile + Profile.from_json(r.profile)
        total_cases += r.cases
        total_weight += r.weight
        for d in r.disagreements:
            for cause in _causes(kind, d):
                g = groups.setdefault(cause, SweepGroup(list(cause), 0, 0, d, classify_sweep(kind, cause, d)))
                g.cases += 1
                g.weight += d.get("weight", d.get("case", {}).get("weight", 0))
    report = SweepReport(
        sweep=kind, items=sum(map(len, chunks)), chunks=len(chunks), coverage=coverage, cases_checked=total_cases,
        chunks_missing=missing, harness_failures=len(failures or []), harness_failure_details=failures or [],
        weight_checked=total_weight, wall_s_this_run=round(wall, 1), workers=workers,
        groups=sorted(groups.values(), key=lambda g: -g.weight),
        unexplained_groups=sum(1 for g in groups.values() if not g.deviation), tape=tape,
        basic_coverage=BasicCoverage(
            statements_run=len(profile.counts), lines=sorted({line for line, _ in profile.counts}),
            ifs={f"{k[0]}:{k[1]}": [profile.if_true.get(k, 0), profile.if_false.get(k, 0)]
                 for k in sorted(set(profile.if_true) | set(profile.if_false))}))
    with claimed(folder.parent, "sweep", resume=True, wait=10):     # the sweeps' folder, held while it is written
        atomic.write_json(folder.parent / f"{kind}-report.json", report.as_json(), indent=1)
    return report


def _causes(kind: str, d: dict[Any, Any]) -> list[tuple[Any, ...]]:
    if kind == "show":
        return [("crib" if d["crib"] else "hand", c, d["engine"][c], d["program"][c])
                for c in COMPONENTS if d["engine"][c] != d["program"][c]]
    return [("play", d["engine"], d["program"])]


# ---------------------------------------------------------------------------------------------- discard
@dataclass(frozen=True)
class DiscardRole:
    """The program's discards in one role (dealer or pone) against the engine's best."""
    hands: int
    mean_points_given_away: float
    best_choice_share: float


@dataclass(frozen=True)
class DiscardReport:
    """OUT/discard-report.json, written by the command from `discard_report` and read by `read_discard_report`."""
    dealer: DiscardRole
    pone: DiscardRole

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = plain(self)
        return out


def read_discard_report(path: Path) -> DiscardReport:
    """A discard sweep's report as its type; anything else is an InputError naming the field."""
    return read_record(DiscardReport, path, "discard report")


def discard_report(samples: int, seed: int, tap: str | bytes) -> DiscardReport:
    """For random six-card hands, the program's discard (routine 500) against the engine's best."""
    from ...cribbage.cards import full_deck
    m = program_at_editor(read_tap(tap))
    sub = Subroutine(m, DISCARD_ROUTINE.line, set(DISCARD_ROUTINE.returns), setup=DISCARD_ROUTINE.setup,
                     max_frames=DISCARD_ROUTINE.max_frames)
    rng = random.Random(seed)
    deck = list(full_deck())
    lost: dict[str, list[float]] = {"dealer": [], "pone": []}
    for i in range(samples):
        hand = sorted(rng.sample(deck, 6))
        dealer = i % 2 == 0
        sub.begin()
        sub.set_array(DISCARD_RANKS, [c.rank for c in hand])
        sub.set_chars(DISCARD_SUITS, bytes(SUIT_CODES[c.suit] for c in hand))
        sub.set_array(DISCARD_VALUES, [min(c.rank, 10) for c in hand])
        sub.set_number(V_DEALER, ZX if dealer else MAN)
        sub.set_number(DISCARD_BEST, -99)
        sub.set_array(DISCARD_CHOSEN, [1, 6])
        sub.run()
        t = sub.output(DISCARD_CHOSEN)
        first, second = sorted((int(t[0]) - 1, int(t[1]) - 1))
        chosen = (first, second)
        values = discard_values(hand, my_crib=dealer)
        best = max(values.values())
        lost["dealer" if dealer else "pone"].append(best - values[chosen])
    def role(xs: list[float]) -> DiscardRole:
        return DiscardRole(hands=len(xs), mean_points_given_away=round(sum(xs) / max(1, len(xs)), 3),
                           best_choice_share=round(sum(1 for x in xs if x < 1e-9) / max(1, len(xs)), 3))
    return DiscardReport(dealer=role(lost["dealer"]), pone=role(lost["pone"]))
