"""A whole game's keys, recorded (`play --record FILE`) and replayed (`play --replay FILE`) to the same screens.

The machine is deterministic: the same tape, the same SEED after RANDOMIZE and
the same Spectrum keys down at the same frames give the same game, frame for
frame, whatever the window's pace (turbo or not). So a record is the tape's
SHA-256, the seed, and each change of the set of Spectrum keys held with the
frame it happened at; JSON, written whole (harness/runtime/atomic.py) when the
session ends. Its reader's and its path check's errors name the file and mark what would resolve it
(`errors.needing`: "replay", "record", "replace"); the command names its options.
"""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from ..runtime import atomic
from ..runtime.validate import quoted, read_json
from ..errors import InputError, OutputError, needing
from ..spectrum.keyboard import KEY_POSITIONS
from ..runtime.outdir import writable_file, writable_place

FORMAT = "cribbage-zx play keys"
VERSION = 1


def tape_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass
class KeyRecord:
    tape_sha256: str
    seed: int
    changes: list[tuple[int, tuple[str, ...]]] = field(default_factory=list)   # (frame, keys held from it)
    frames: int = 0                                                             # frames the game ran

    def note(self, frame: int, keys: Iterable[str]) -> None:
        """The keys held change at *frame* (one entry a frame: a later note at the same frame replaces it)."""
        held = tuple(sorted(keys))
        if self.changes and self.changes[-1][0] == frame:
            self.changes.pop()
        if (self.changes[-1][1] if self.changes else ()) != held:
            self.changes.append((frame, held))

    def to_json(self) -> dict[str, object]:
        return {"format": FORMAT, "version": VERSION, "tape_sha256": self.tape_sha256, "seed": self.seed,
                "frames": self.frames, "keys": [[f, list(k)] for f, k in self.changes]}

    def write(self, path: str | os.PathLike[str]) -> None:
        atomic.write_json(path, self.to_json(), indent=0)

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> "KeyRecord":
        """The record in *path*; an InputError naming the file, marked "replay" (errors.needing), when it is
        not one this program reads."""
        try:
            return cls._read(Path(path))
        except InputError as exc:
            raise needing(exc, "replay") from None

    @classmethod
    def _read(cls, path: Path) -> "KeyRecord":
        data = read_json(path)                  # arbitrary JSON until checked, field by field, below
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise InputError(f"{path}: not a key record (no \"format\": \"{FORMAT}\")")
        if data.get("version") != VERSION:
            raise InputError(f"{path}: version {quoted(data.get('version'))}, this program reads {VERSION}")
        where = str(path)
        try:
            changes = [(int(f), tuple(str(k) for k in keys)) for f, keys in data["keys"]]
            record = cls(str(data["tape_sha256"]), int(data["seed"]), changes, int(data["frames"]))
        except KeyError as exc:
            raise InputError(f"{where}: no {exc} field") from None
        except (TypeError, ValueError) as exc:
            raise InputError(f"{where}: a malformed entry ({type(exc).__name__}: {quoted(exc)})") from None
        if not 0 <= record.seed <= 65535:
            raise InputError(f"{where}: seed {quoted(record.seed)} is not 0..65535 (SEED is two bytes)")
        if record.frames < 0:
            raise InputError(f"{where}: frames {quoted(record.frames)} is negative")
        for n, (frame, keys) in enumerate(changes):
            unknown = [k for k in keys if k not in KEY_POSITIONS]
            if unknown:
                raise InputError(f"{where}: keys[{n}] (frame {frame}): {quoted(unknown[0])} is not a 48K key")
        frames = [f for f, _ in changes]
        if frames != sorted(set(frames)) or (frames and frames[0] < 0):
            raise InputError(f"{where}: the key changes are not in frame order")
        return record


def is_key_record(head: bytes) -> bool:
    """Whether a file's first bytes are a key record's, as `write` makes it (what `--record` may replace)."""
    return head.lstrip().startswith(b"{") and f'"format": "{FORMAT}"'.encode() in head


def check_record_path(path: str | os.PathLike[str], replace: bool = False) -> Path:
    """Before the game starts: *path* can take the record at its end (its folder writable), and it is new, a
    key record of ours, or *replace* says the file there may go: an OutputError naming it, marked "replace"
    where *replace* would let it go, else "record" (errors.needing)."""
    path = Path(path)
    try:
        if replace and not path.is_dir():
            writable_place(path)
        else:
            writable_file(path, is_key_record, "key record")
    except OutputError as exc:
        raise needing(OutputError(str(exc)), "replace" if "refusing" in str(exc) else "record") from None
    return path


class KeyPlayer:
    """The keys of a record, frame by frame; None once the record has ended (the keyboard is the person's)."""

    def __init__(self, record: KeyRecord):
        self.record = record
        self._i = 0
        self._keys: tuple[str, ...] = ()

    def keys_at(self, frame: int) -> tuple[str, ...] | None:
        if frame >= self.record.frames:
            return None
        changes = self.record.changes
        while self._i < len(changes) and changes[self._i][0] <= frame:
            self._keys = changes[self._i][1]
            self._i += 1
        return self._keys


HASH_CHARS = 12     # hex digits of a moment's hash shown (48 bits: a person compares them by eye)


def moment_hash(ram48: bytes, border: int) -> str:
    """A short hash of a moment of the machine: SHA-256 of the 48K of RAM (the screen in it) and the border
    colour byte, its first HASH_CHARS hex digits. The page computes the same of its machine (app.js)."""
    if len(ram48) != 0xC000:
        raise ValueError(f"moment_hash: {len(ram48)} bytes of RAM, not the 48K (49,152)")
    return hashlib.sha256(bytes(ram48) + bytes([border & 7])).hexdigest()[:HASH_CHARS]
