"""A session saved from play.html: the machine (a .z80) and the keys so far, one JSON file.

The page writes it (*Save session*) and opens it again where it was; `cribbage-zx play --load FILE` opens it
too (the .z80 inside, its seed). Its keys are play --record's (the changes of the Spectrum keys held, from the
tape's first question), so the page can still make a link to a moment after it, and the file says which tape
it is of (tape_sha256), as a key record does.
"""
from __future__ import annotations

import base64
import binascii
import os
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from ..runtime.validate import quoted, read_json
from .record import KeyRecord

FORMAT = "cribbage-zx page session"
VERSION = 1


@dataclass(frozen=True)
class SavedSession:
    lang: str
    z80: bytes
    record: KeyRecord           # the keys from the first question to the frame saved (record.frames)


def is_saved_session(head: bytes) -> bool:
    """Whether a file's first bytes are a session the page saved (JSON naming FORMAT)."""
    return head.lstrip().startswith(b"{") and FORMAT.encode() in head[:400]


def read_saved_session(path: str | os.PathLike[str]) -> SavedSession:
    """The session in *path*, or an InputError naming the file and what is wrong, in one line."""
    path = Path(path)
    data = read_json(path)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InputError(f"{path}: not a session saved by play.html (no \"format\": \"{FORMAT}\")")
    if data.get("version") != VERSION:
        raise InputError(f"{path}: version {quoted(data.get('version'))}, this program reads {VERSION}")
    try:
        z80 = base64.b64decode(str(data["z80"]), validate=True)
        changes = [(int(f), tuple(str(k) for k in keys)) for f, keys in data["keys"]]
        record = KeyRecord(str(data["tape_sha256"]), int(data["seed"]), changes, int(data["frames"]))
        lang = str(data["lang"])
    except KeyError as exc:
        raise InputError(f"{path}: no {exc} field") from None
    except (TypeError, ValueError, binascii.Error) as exc:
        raise InputError(f"{path}: a malformed field ({type(exc).__name__})") from None
    if len(z80) != 30 + 0xC000:
        raise InputError(f"{path}: its .z80 is {len(z80)} bytes, not the page's 49,182")
    return SavedSession(lang, z80, record)
