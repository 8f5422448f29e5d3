"""Output folders that never mix two runs.

A run claims its folder for as long as it writes there: an exclusive `flock`
on ``FOLDER/.lock`` (the kernel drops it when the process ends, however it
ends, so a crashed run leaves no stale lock) makes a second run into the same
folder fail at once. A folder that already holds files is refused unless the
caller resumes by design (a sweep) or was told to replace it (``--replace``),
and only a folder that a run of this tool wrote (it holds the marker file) is
ever cleared, so a mistyped ``--out ~`` deletes nothing.
"""
from __future__ import annotations

import fcntl
import json
import os
import shutil
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from . import atomic
from .errors import HarnessError

LOCK_NAME = ".lock"
MARKER_NAME = ".cribbage-zx-run"


class OutputFolderError(HarnessError):
    """The output folder is in use by another run, holds an earlier run, or cannot be cleared."""


def _lock(folder: Path) -> int:
    """Take the folder's lock or fail at once, naming the holder."""
    fd = os.open(folder / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 64, 0).decode("ascii", "replace").strip() or "?"
        os.close(fd)
        raise OutputFolderError(f"{folder}: another run is writing into this folder (pid {holder}); "
                                f"wait for it to end or choose another --out") from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
    return fd


def _contents(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.name != LOCK_NAME)


def _clear(folder: Path, command: str) -> None:
    marker = folder / MARKER_NAME
    try:
        wrote_it = json.loads(marker.read_text(encoding="utf-8")).get("command") == command
    except (OSError, ValueError, AttributeError):
        wrote_it = False
    if not wrote_it:
        raise OutputFolderError(f"{folder}: holds files that no `cribbage-zx {command}` run wrote; "
                                f"refusing to clear it (choose another --out)")
    for path in _contents(folder):
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()


@contextmanager
def claimed(folder: str | os.PathLike, command: str, *, replace: bool = False,
            resume: bool = False) -> Iterator[Path]:
    """Hold *folder* for one run of *command*.

    An empty or new folder is taken as it is; a used one is cleared first if
    *replace*, kept if *resume* (the caller checks what it finds), and refused
    otherwise.
    """
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputFolderError(f"{folder}: cannot create the output folder: {exc.strerror}") from exc
    new_lock = not (folder / LOCK_NAME).exists()
    fd = _lock(folder)
    try:
        used = _contents(folder)
        try:
            if used and replace:
                _clear(folder, command)
            elif used and not resume:
                names = ", ".join(p.name for p in used[:3]) + (", ..." if len(used) > 3 else "")
                raise OutputFolderError(f"{folder}: holds an earlier run ({len(used)} entries: {names}); "
                                        f"use --replace to clear it, or choose another --out")
        except OutputFolderError:
            if new_lock:                      # leave a folder we refused as we found it
                (folder / LOCK_NAME).unlink(missing_ok=True)
            raise
        if not (folder / MARKER_NAME).exists():
            atomic.write_json(folder / MARKER_NAME, {"command": command})
        yield folder
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
