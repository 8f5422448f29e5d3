"""Output files written whole or not at all.

Every file the tools write (a tape, a WAV, a TZX, a .z80, a report, a sweep
chunk, a transcript) goes to a temporary file in the same folder, is flushed
to disk, and only then takes the final name with `os.replace`, which is
atomic on one file system. A full disk, a crash or a Ctrl-C in the middle of
a write therefore leaves the earlier file as it was, never a truncated one
that the next run would trust.
"""
from __future__ import annotations

import errno
import json
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterator

from ..errors import HarnessError

__all__ = ["WriteError", "replacing", "open_for_replace", "write_bytes", "write_text", "write_json"]


class WriteError(HarnessError, OSError):
    """An output file could not be written (a full disk, a read-only place, a folder in the way): names it.

    Also an OSError, so code that handled the system's error still does."""

    def __str__(self) -> str:
        return str(self.strerror)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_FILE_MODE = 0o666 & ~_umask()      # what open() would have given a new file


@contextmanager
def replacing(path: str | os.PathLike) -> Iterator[Path]:
    """A temporary path beside *path* to write to (by any means); it becomes *path* when the block ends.

    If the block raises, the temporary file is removed and *path* is untouched.
    """
    final = Path(path)
    if final.is_dir():
        raise WriteError(errno.EISDIR, f"{final}: is a folder, not a file")
    try:
        final.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(dir=final.parent, prefix=f".{final.name}.", suffix=".part")
    except OSError as exc:
        raise _named(final, exc) from None
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        try:
            yield tmp
            with open(tmp, "rb+") as f:          # written by someone else's open(): make it durable first
                os.fsync(f.fileno())
            os.chmod(tmp, _FILE_MODE)
            os.replace(tmp, final)
        except WriteError:
            raise
        except OSError as exc:                   # a full disk, a quota, a folder that became read-only
            raise _named(final, exc) from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _named(path: Path, exc: OSError) -> WriteError:
    return WriteError(exc.errno or errno.EIO, f"{path}: cannot write it: {exc.strerror or exc}")


@contextmanager
def open_for_replace(path: str | os.PathLike, mode: str = "wb", encoding: str | None = None) -> Iterator[IO]:
    """`open(path, mode)` whose result replaces *path* only when the block ends without error."""
    if mode not in ("w", "wb"):
        raise ValueError(f"open_for_replace: mode {mode!r} (only 'w' or 'wb')")
    with replacing(path) as tmp:
        with open(tmp, mode, encoding=encoding if "b" not in mode else None) as f:
            yield f


def write_bytes(path: str | os.PathLike, data: bytes) -> None:
    with open_for_replace(path, "wb") as f:
        f.write(data)


def write_text(path: str | os.PathLike, text: str, encoding: str = "utf-8") -> None:
    with open_for_replace(path, "w", encoding=encoding) as f:
        f.write(text)


def write_json(path: str | os.PathLike, obj, **dump_options) -> None:
    """*obj* as UTF-8 JSON (non-ASCII kept as is unless *dump_options* say otherwise)."""
    dump_options.setdefault("ensure_ascii", False)
    write_text(path, json.dumps(obj, **dump_options))
