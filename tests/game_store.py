"""The test run's store of things made once and read by many tests: tapes built, games played, run folders.

Issue 37: the same games were played again by different tests, and under pytest-xdist each worker would
build and play them again for itself. Here each is made once per test run, by whichever worker asks first,
and kept in a folder every worker of the run shares (the run's pytest temporary folder; under xdist the
parent of the workers' own folders):

* an entry is named by what it is and a hash of its key (the tape's fingerprint, the seed, the player,
  the options: everything the result depends on); `value(what, key, make)` keeps a picklable value,
  `folder(what, key, make)` a folder made by `make(path)` (a regress run folder: transcripts, judgement
  records, pictures, RZX, report.json and its pages);
* making an entry holds a lock file (`fcntl.flock`) beside it; a worker that finds the lock held waits,
  and says so on stderr and in the store's `waits.log` (the controller prints the count at the end);
* an entry is made in a temporary folder and renamed into place with a `.done` mark, so a worker never
  reads half of one; a run stopped half-way leaves only temporary folders, which the next maker replaces;
* a test that only reads an entry reads it in place (treat it as read-only); a test that needs a run
  folder of its own takes `copy(...)` of it (tests/conftest.py: `game_store`, `stored_run`).

Nothing here knows what a game is: the makers are the callers' (tests/conftest.py, tests/rzx_game.py).
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import pickle
import re
import shutil
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator, TypeVar

T = TypeVar("T")

_store: "Store | None" = None


def key_name(what: str, key: dict) -> str:
    """The entry's folder name: *what* made filename-safe, and a hash of the key (sorted JSON)."""
    digest = hashlib.sha256(json.dumps([what, key], sort_keys=True, default=str).encode()).hexdigest()[:16]
    return f"{re.sub(r'[^A-Za-z0-9]+', '-', what).strip('-')[:40]}-{digest}"


class Store:
    def __init__(self, root: Path, who: str = "main"):
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.who = who
        self.made: list[str] = []

    @contextmanager
    def _locked(self, name: str, what: str) -> Iterator[None]:
        with open(self.root / f"{name}.lock", "a+") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                note = f"game store: {self.who} waits for {what} ({name}), being made by another worker"
                print(note, file=sys.__stderr__, flush=True)
                start = time.monotonic()
                fcntl.flock(lock, fcntl.LOCK_EX)
                with open(self.root / "waits.log", "a") as log:
                    log.write(f"{note}: {time.monotonic() - start:.1f} s\n")
            try:
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def folder(self, what: str, key: dict, make: Callable[[Path], None]) -> Path:
        """The entry's folder, made by `make(folder)` unless this run has made it already."""
        name = key_name(what, key)
        final = self.root / name
        if (final / ".done").exists():
            return final
        with self._locked(name, what):
            if (final / ".done").exists():
                return final
            if final.exists():
                shutil.rmtree(final)                # a maker stopped half-way (no .done): ours, made again
            partial = self.root / f"{name}.partial-{os.getpid()}"
            if partial.exists():
                shutil.rmtree(partial)
            partial.mkdir()
            make(partial)
            (partial / ".key.json").write_text(json.dumps({"what": what, "key": key, "by": self.who},
                                                          sort_keys=True, default=str))
            (partial / ".done").touch()
            partial.rename(final)
            self.made.append(what)
        return final

    def value(self, what: str, key: dict, make: Callable[[], T]) -> T:
        """The entry's value (pickled in its folder), made by `make()` unless this run has made it already."""
        def write(folder: Path) -> None:
            (folder / "value.pickle").write_bytes(pickle.dumps(make(), protocol=pickle.HIGHEST_PROTOCOL))
        return pickle.loads((self.folder(what, key, write) / "value.pickle").read_bytes())

    def copy(self, what: str, key: dict, make: Callable[[Path], None], to: Path) -> Path:
        """A copy of the entry's folder at *to* (a test that changes its run folder), without the store's marks."""
        shutil.copytree(self.folder(what, key, make), to,
                        ignore=shutil.ignore_patterns(".done", ".key.json"))
        return to

    def waits(self) -> list[str]:
        log = self.root / "waits.log"
        return log.read_text().splitlines() if log.exists() else []


def configure(root: Path, who: str = "main") -> Store:
    """The store of this process's test run (tests/conftest.py sets it up once per session)."""
    global _store
    _store = Store(root, who)
    return _store


def store() -> Store:
    """The run's store; outside a pytest session (a helper module used alone), one in a temporary folder."""
    global _store
    if _store is None:
        import tempfile
        _store = Store(Path(tempfile.mkdtemp(prefix="game-store-")))
    return _store


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
