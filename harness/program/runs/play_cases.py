"""The play sweep's cases (harness/program/runs/sweep.py): the situations of play_situations.py cached in the
sweeps' folder, the ones a sweep runs chosen from them, and its chunks as ranges of that choice.

The situations are enumerated once per sweeps' folder, in a child process, into
OUT/play-cases-<fingerprint>.npz; a play sweep's jobs are ranges of that table (CaseRange), turned into
cases by the workers, so the parent holds no case and starts the workers in well under a second.
"""
from __future__ import annotations

import hashlib
import inspect
import io
import multiprocessing
import random
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ...errors import MachineError
from ...runtime import atomic
from ...runtime.jobs import one_line
from . import play_situations
from .play_situations import digits, suffix_lengths

if TYPE_CHECKING:
    from .play_situations import Array, Table

#: what part of the whole a sweep's cases cover (the report's "coverage"; its keys are the kind's)
Coverage = dict[str, int]
#: a play case: the number of series it stands for, and its example series' ranks
PlayCase = tuple[int, list[int]]

CASES_FORMAT = 1                 # bump when the cache file's layout changes
BUSY_WORKERS, CHUNKS_PER_WORKER, MAX_CHUNK = 64, 8, 400


@dataclass(frozen=True)
class PlayChoice:
    """Which situations a play sweep runs: every one whose distinct suffix is at most *max_suffix* cards long,
    and a sample of *sample* of the longer ones drawn with *seed*."""
    max_suffix: int = 7
    sample: int = 0
    seed: int = 1


@dataclass(frozen=True)
class Chosen:
    """The table's weights and examples, the positions a sweep runs, and their coverage."""
    weights: Array
    examples: Array
    at: Array
    coverage: Coverage                  # what part of the situations they cover (the report's coverage)


def cases_fingerprint() -> str:
    """What the play table is made by (its code and constants): a cached table is used only while it matches."""
    parts = [str(CASES_FORMAT), repr(play_situations.TABLE_CONSTANTS)]
    for f in play_situations.table_code():
        try:
            parts.append(inspect.getsource(f))
        except (OSError, TypeError):
            parts.append(repr(f))
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def cases_path(out: Path) -> Path:
    """The play table's cache in a sweeps' folder, named by its fingerprint."""
    return Path(out) / f"play-cases-{cases_fingerprint()[:16]}.npz"


def _table_columns(table: Table) -> tuple[Array, Array, Array]:
    """What the play cases need of play_table's arrays: each situation's weight, example and suffix length."""
    keys, weights, examples = table
    return weights, examples, suffix_lengths(keys)


def _write_cases(path: Path) -> None:
    """Enumerate the play situations (play_table) and keep what the cases need, compactly (about 5 MB)."""
    weights, examples, lengths = _table_columns(play_situations.play_table())
    buffer = io.BytesIO()
    np.savez(buffer, weights=weights.astype(np.int32), examples=examples.astype(np.int64),
             lengths=lengths.astype(np.int8))
    atomic.write_bytes(path, buffer.getvalue())


def enumerate_in_child(path: Path) -> None:
    """_write_cases in a forked process: its 5 CPU s and 270 MB are paid once per table, never by the
    parent's memory (which then only loads the 5 MB file)."""
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


def ensure_cases(out: Path) -> tuple[Path, str | None]:
    """The play table's cache in *out*, enumerated (in a child process) when missing or unreadable; and,
    when it was there but unreadable, the line that says so (the caller reports it)."""
    path = cases_path(out)
    said = None
    if path.exists():
        try:
            _load_columns(str(path))
            return path, None
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
            said = f"{path}: unreadable ({one_line(exc)}); enumerating the play situations again"
            _load_columns.cache_clear()
    enumerate_in_child(path)
    return path, said


@lru_cache(maxsize=2)
def _load_columns(path: str) -> tuple[Array, Array, Array]:
    """The cached table's columns; on a worker without the file (a Dask cluster elsewhere), enumerated here."""
    if not Path(path).exists():
        return _table_columns(play_situations.play_table())
    with np.load(path, allow_pickle=False) as z:
        weights, examples, lengths = (z[k].astype(np.int64) for k in ("weights", "examples", "lengths"))
    if not len(weights) == len(examples) == len(lengths):
        raise ValueError("its columns differ in length")
    return weights, examples, lengths


@lru_cache(maxsize=4)
def _chosen_cases(path: str, choice: PlayChoice) -> Chosen:
    """The cached table's weights and examples and the positions a sweep with these options runs, and their
    coverage: computed once per process (the parent, or a worker on its first job)."""
    return _choose(*_load_columns(path), choice)


def clear_caches() -> None:
    """Forget the play table's columns and chosen cases this process has read (a cache file changed)."""
    _load_columns.cache_clear()
    _chosen_cases.cache_clear()


def _choose(weights: Array, examples: Array, lengths: Array, choice: PlayChoice) -> Chosen:
    """The situations a play sweep runs, as positions in the table (every one with a distinct suffix of
    up to *max_suffix* cards in key order, then a seeded sample of the longer ones), and their coverage."""
    short_at, long_at = np.nonzero(lengths <= choice.max_suffix)[0], np.nonzero(lengths > choice.max_suffix)[0]
    picked = long_at[random.Random(choice.seed).sample(range(len(long_at)), min(choice.sample, len(long_at)))] \
        if len(long_at) else long_at                          # the same choice as sampling the list itself
    chosen = np.concatenate([short_at, picked]).astype(np.int64)
    coverage = {"series": int(weights.sum()), "situations": len(weights),
                "situations_run": len(chosen),
                "all_situations_with_distinct_suffix_up_to": choice.max_suffix,
                "sampled_longer_situations": len(picked), "longer_situations": len(long_at),
                "series_covered": int(weights[chosen].sum())}
    return Chosen(weights, examples, chosen, coverage)


def cases_at(weights: Array, examples: Array, at: Array) -> list[PlayCase]:
    """The play cases at positions *at* of the table: (weight, the example series' ranks)."""
    return [(w, list(digits(e))) for w, e in zip(weights[at].tolist(), examples[at].tolist())]


def every_play_case(choice: PlayChoice) -> tuple[list[PlayCase], Coverage]:
    """Every case of a play sweep, built here from the table enumerated afresh (run_sweep hands the workers
    ranges of a cached table instead, CaseRange), and their coverage."""
    chosen = _choose(*_table_columns(play_situations.play_table()), choice)
    return cases_at(chosen.weights, chosen.examples, chosen.at), chosen.coverage


@dataclass(frozen=True)
class CaseRange:
    """A chunk of a play sweep as a job: its cases are positions start..stop of the sweep's chosen
    situations, which the worker computes from the cached table (the parent never builds them all)."""
    path: str
    table: str                   # cases_fingerprint() of the table: a worker without the file enumerates it
    choice: PlayChoice
    start: int
    stop: int

    def __len__(self) -> int:
        return self.stop - self.start

    def items(self) -> list[PlayCase]:
        if not Path(self.path).exists() and self.table != cases_fingerprint():
            raise MachineError(f"{self.path} is not on this worker, and its code enumerates another table")
        chosen = _chosen_cases(self.path, self.choice)
        return cases_at(chosen.weights, chosen.examples, chosen.at[self.start:self.stop])


def play_chunks(path: Path, chunk: int | None, limit: int | None,
                choice: PlayChoice = PlayChoice()) -> tuple[list[CaseRange], Coverage, str]:
    """A play sweep's chunks (of *chunk* cases, or auto_chunk's) as CaseRanges, its coverage, and the
    fingerprint of its cases (the SHA-256 of their weights and examples, in order)."""
    chosen = _chosen_cases(str(Path(path).resolve()), choice)
    n = len(chosen.at) if limit is None else min(limit, len(chosen.at))
    size = chunk or auto_chunk(n)
    digest = hashlib.sha256(np.ascontiguousarray(chosen.weights[chosen.at[:n]]).tobytes())
    digest.update(np.ascontiguousarray(chosen.examples[chosen.at[:n]]).tobytes())
    table, where = cases_fingerprint(), str(Path(path).resolve())    # absolute: a Dask worker's folder may differ
    chunks = [CaseRange(where, table, choice, i, min(i + size, n)) for i in range(0, n, size)]
    return chunks, chosen.coverage, digest.hexdigest()


def auto_chunk(cases: int) -> int:
    """The default chunk size: at most MAX_CHUNK cases, and small enough that 64 workers get at least 8
    chunks each (so the last ones finish close together); not the workers given, so a sweep resumes
    with any."""
    return max(1, min(MAX_CHUNK, cases // (BUSY_WORKERS * CHUNKS_PER_WORKER)))
