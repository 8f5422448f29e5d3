"""Output files written whole or not at all.

Every file the tools write (a tape, a WAV, a TZX, a .z80, a report, a sweep
chunk, a transcript) goes to a temporary file in the same folder, is flushed
to disk, and only then takes the final name with `os.replace`, which is
atomic on one file system. A full disk, a crash or a Ctrl-C in the middle of
a write therefore leaves the earlier file as it was, never a truncated one
that the next run would trust.

JSON Lines (a transcript, a judgements file) have one form, made here: one
object a line, keys sorted, non-ASCII kept as is, each line ending in a newline.

A folder written whole (the listing edition) is the same idea one level up:
built in a private sibling folder, then swapped in with `os.replace`.
"""
from __future__ import annotations

import errno
import json
import os
import shutil
import tempfile
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import BinaryIO, Iterable, Iterator, Literal, TextIO, cast, overload

from ..errors import OutputError

__all__ = ["replacing", "replacing_folder", "open_for_replace", "write_bytes", "write_text",
           "write_json", "json_lines", "write_json_lines"]


def umask() -> int:
    """The process's umask (read without changing it for longer than a moment)."""
    return _umask()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_FILE_MODE = 0o666 & ~_umask()      # what open() would have given a new file
_FOLDER_MODE = 0o777 & ~_umask()    # what mkdir() would have given a new folder (mkdtemp's is 0700)


@contextmanager
def replacing(path: str | os.PathLike[str]) -> Iterator[Path]:
    """A temporary path beside *path* to write to (by any means); it becomes *path* when the block ends.

    If the block raises, the temporary file is removed and *path* is untouched.
    """
    final = Path(path)
    if final.is_dir():
        raise OutputError(errno.EISDIR, f"{final}: is a folder, not a file")
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
        except OutputError:
            raise
        except OSError as exc:                   # a full disk, a quota, a folder that became read-only
            raise _named(final, exc) from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


@contextmanager
def replacing_folder(path: str | os.PathLike[str]) -> Iterator[Path]:
    """A fresh private folder beside *path* to fill; it takes the place of *path* (a folder or nothing) when
    the block ends.

    If the block raises, the fresh folder is removed and *path* is untouched. Used inside a folder the caller
    has claimed (harness/outdir.py): the swap is two renames, so a reader may briefly find no *path*, never
    a half-written one."""
    final = Path(path)
    if final.exists() and not final.is_dir():
        raise OutputError(errno.ENOTDIR, f"{final}: is a file, not a folder")
    try:
        final.parent.mkdir(parents=True, exist_ok=True)
        fresh = Path(tempfile.mkdtemp(dir=final.parent, prefix=f".{final.name}.new-"))
    except OSError as exc:
        raise _named(final, exc) from None
    old = None
    try:
        yield fresh
        try:
            os.chmod(fresh, _FOLDER_MODE)        # readable by others like the folder around it, as mkdir makes it
            if final.exists():
                old = Path(tempfile.mkdtemp(dir=final.parent, prefix=f".{final.name}.old-"))
                os.replace(final, old / final.name)
            try:
                os.replace(fresh, final)
            except OSError:
                if old is not None:              # put the earlier folder back before saying why
                    os.replace(old / final.name, final)
                raise
        except OSError as exc:
            raise _named(final, exc) from None
    finally:
        shutil.rmtree(fresh, ignore_errors=True)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)


def _named(path: Path, exc: OSError) -> OutputError:
    return OutputError(exc.errno or errno.EIO, f"{path}: cannot write it: {exc.strerror or exc}")


@overload
def open_for_replace(path: str | os.PathLike[str], mode: Literal["wb"] = "wb",
                     encoding: None = None) -> AbstractContextManager[BinaryIO]: ...
@overload
def open_for_replace(path: str | os.PathLike[str], mode: Literal["w"],
                     encoding: str | None = None) -> AbstractContextManager[TextIO]: ...


def open_for_replace(path: str | os.PathLike[str], mode: str = "wb",
                     encoding: str | None = None) -> AbstractContextManager[BinaryIO | TextIO]:
    """`open(path, mode)` whose result replaces *path* only when the block ends without error."""
    if mode not in ("w", "wb"):
        raise ValueError(f"open_for_replace: mode {mode!r} (only 'w' or 'wb')")
    return _opened_for_replace(path, mode, encoding)


@contextmanager
def _opened_for_replace(path: str | os.PathLike[str], mode: str, encoding: str | None) -> Iterator[BinaryIO | TextIO]:
    with replacing(path) as tmp:
        with open(tmp, mode, encoding=encoding if "b" not in mode else None) as f:
            yield cast("BinaryIO | TextIO", f)


def write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    with open_for_replace(path, "wb") as f:
        f.write(data)


def write_text(path: str | os.PathLike[str], text: str, encoding: str = "utf-8") -> None:
    with open_for_replace(path, "w", encoding=encoding) as f:
        f.write(text)


def write_json(path: str | os.PathLike[str], obj: object, *, indent: int | None = None, sort_keys: bool = False,
               ensure_ascii: bool = False) -> None:
    """*obj* as UTF-8 JSON (non-ASCII kept as is unless *ensure_ascii*)."""
    write_text(path, json.dumps(obj, ensure_ascii=ensure_ascii, indent=indent, sort_keys=sort_keys))


def json_lines(records: Iterable[object]) -> str:
    """*records* as JSON Lines text: one a line, keys sorted (the same record, the same bytes), non-ASCII
    kept. The one form of every .jsonl the tools write; computed apart from the write where a worker
    makes the text and its parent writes it."""
    return "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in records)


def write_json_lines(path: str | os.PathLike[str], records: Iterable[object]) -> None:
    """*records* as a JSON Lines file (json_lines), written whole or not at all."""
    write_text(path, json_lines(records))
