"""Output folders that never mix two runs and never lose a file we did not write.

Every command that writes a folder (`regress`, the sweeps, `fairness`,
`html`, the default `build/` of `build`) claims it here, the same way:

* **A lock** for as long as it writes: an exclusive `flock` on
  ``FOLDER/.lock`` (the kernel drops it when the process ends, however it
  ends, so a crashed run leaves no stale lock); a second run into the folder
  fails at once naming it (or, with *wait*, waits that long first).
* **A record of what it wrote**: ``FOLDER/.cribbage-zx-run`` names the
  command and lists every file and folder a run of it made there. Only those
  are ever removed (by ``--replace``, or by a command that rewrites its
  output, `html`); a file someone put beside them is kept.
* **A folder nobody gave us is refused**: one that holds files but no record,
  or the record of another command (``html --out out/regress``), is refused
  naming what is in the way, even with ``--replace``; so is a path that is a
  file, or a place we cannot write.

A run killed before it could finish its record leaves ``"state": "writing"``
and the entries that were there before it; whatever else is in the folder
then is that run's.
"""
from __future__ import annotations

import errno
import fcntl
import os
import shutil
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from . import atomic
from .validate import read_json
from ..errors import OutputError

LOCK_NAME = ".lock"
MARKER_NAME = ".cribbage-zx-run"
_OURS = (LOCK_NAME, MARKER_NAME)
OURS = _OURS                           # the lock and the record: in every claimed folder, never a run's output


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


_HELD: set[int] = set()


def held_locks() -> set[int]:
    """The descriptors of the locks this process holds (a forked worker closes them: see pool.py)."""
    return set(_HELD)


def _lock(folder: Path, wait: float) -> int:
    """Take the folder's lock (waiting up to *wait* seconds) or fail, naming the holder."""
    try:
        fd = os.open(folder / LOCK_NAME, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o644)
    except OSError as exc:
        raise OutputError(f"{folder}: cannot write into the output folder: {_reason(exc)}") from None
    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            if time.monotonic() < deadline:
                time.sleep(0.1)
                continue
            holder = os.pread(fd, 64, 0).decode("ascii", "replace").strip() or "?"
            os.close(fd)
            raise OutputError(f"{folder}: another run is writing into this folder (pid {holder}); "
                                    f"wait for it to end or choose another --out") from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
    _HELD.add(fd)
    return fd


def _entries(folder: Path) -> set[str]:
    """Every file and folder under *folder* ('/'-separated, relative), not following links, but the lock and record."""
    found: set[str] = set()
    for root, dirs, files in os.walk(folder):
        rel = Path(root).relative_to(folder)
        for name in dirs + files:
            path = (rel / name).as_posix()
            if path not in _OURS:
                found.add(path)
    return found


@dataclass(frozen=True)
class _RunRecord:
    """A claimed folder's record: the command whose run wrote it (None: the record is unreadable), whether that
    run completed, and the entries it wrote (once complete) or found there before it (while writing); None
    where the record does not say (an earlier version's)."""
    command: str | None
    state: str | None = None
    files: frozenset[str] | None = None
    before: frozenset[str] | None = None


def _read_record(folder: Path) -> _RunRecord | None:
    """The folder's record (the one reader of it), or None if it has none."""
    path = folder / MARKER_NAME
    if not path.exists():
        return None
    try:
        record = read_json(path, OutputError)
    except OutputError:
        return _RunRecord(None)
    if not isinstance(record, dict):
        return _RunRecord(None)

    def names(key: str) -> frozenset[str] | None:
        value = record.get(key)
        return frozenset(f for f in value if isinstance(f, str)) if isinstance(value, list) else None

    command, state = record.get("command"), record.get("state")
    return _RunRecord(command if isinstance(command, str) else None, state if isinstance(state, str) else None,
                      names("files"), names("before"))


def recorded_command(folder: str | os.PathLike[str]) -> str | None:
    """The command whose run wrote *folder* (its record says so), or None."""
    record = _read_record(Path(folder))
    return record.command if record else None


def _own_entries(record: _RunRecord, present: set[str]) -> set[str]:
    """What a run of the record's command wrote, of what is *present*."""
    if record.state == "complete" and record.files is not None:
        return present & record.files
    if record.before is not None:                # a run that ended before it could finish its record
        return present - record.before
    return set(present)                          # the record of an earlier version: everything was its own


def _remove(folder: Path, entries: set[str]) -> None:
    """Remove *entries*: files and links first, then the folders among them that are empty by then."""
    for rel in sorted(entries, reverse=True):
        path = folder / rel
        if path.is_symlink() or path.is_file():
            try:
                path.unlink()
            except FileNotFoundError:
                pass
            except OSError as exc:
                raise OutputError(f"{path}: cannot remove it: {_reason(exc)}") from None
    for rel in sorted(entries, key=lambda r: -r.count("/")):
        path = folder / rel
        if path.is_dir() and not path.is_symlink():
            try:
                path.rmdir()
            except OSError:
                pass                              # it holds something we did not write: kept


def entries(folder: str | os.PathLike[str]) -> set[str]:
    """Every file and folder under *folder* but the lock and the record ('/'-separated, relative)."""
    return _entries(Path(folder))


def _count(names: set[str]) -> str:
    return "1 entry" if len(names) == 1 else f"{len(names)} entries"


def _listed(names: set[str] | list[str]) -> str:
    names = sorted(n for n in names if "/" not in n) or sorted(names)
    return ", ".join(names[:3]) + (", ..." if len(names) > 3 else "")


@contextmanager
def claimed(folder: str | os.PathLike[str], command: str, *, replace: bool = False, resume: bool = False,
            rewrite: bool = False, wait: float = 0.0) -> Iterator[Path]:
    """Hold *folder* for one run of *command* and yield it.

    A new or empty folder is taken as it is. One that an earlier run of
    *command* wrote is kept as it is if *resume*, has that run's files removed
    first if *replace* or *rewrite* (a command whose output is always made
    afresh), and is refused otherwise. Every other folder with files in it is
    refused. *wait*: seconds to wait for another run's lock.
    """
    folder = Path(folder)
    made = _made_for_a_run(folder, command)
    new_lock = not (folder / LOCK_NAME).exists()
    fd = _lock(folder, wait)
    try:
        try:
            own, foreign = _earlier_run(folder, command, keep=resume or replace or rewrite)
        except OutputError:
            if new_lock:                      # leave a folder we refused as we found it
                (folder / LOCK_NAME).unlink(missing_ok=True)
            if made:
                folder.rmdir()
            raise
        if own and (replace or rewrite):           # --replace wins over resuming
            _remove(folder, own)
            own = set()
        _write_record(folder, {"command": command, "state": "writing", "before": sorted(foreign),
                               "files": sorted(own)})
        try:
            yield folder
        finally:
            _record_written(folder, command, foreign, made and not resume)
    finally:
        _HELD.discard(fd)
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def _made_for_a_run(folder: Path, command: str) -> bool:
    """*folder*, checked (not a file, a dangling link or inside another run's folder) and made if it is new:
    whether it was (OutputError if it cannot be)."""
    if folder.exists() and not folder.is_dir():
        raise OutputError(f"{folder}: is a file, not a folder; choose another --out")
    _refuse_dangling(folder)
    _refuse_inside_a_run(folder, command)
    made = not folder.exists()
    if made:
        writable_place(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"{folder}: cannot create the output folder: {_reason(exc)}") from None
    return made


def _earlier_run(folder: Path, command: str, keep: bool) -> tuple[set[str], set[str]]:
    """(what an earlier run of *command* wrote in *folder*, what else is there); OutputError if the folder
    holds another command's run or files no run wrote, or an earlier run and not *keep* (resumed or cleared)."""
    present = _entries(folder)
    record = _read_record(folder)
    if record is not None and record.command != command:
        raise OutputError(
            f"{folder}: holds a `cribbage-zx {record.command}` run, not a {command} one; choose another --out"
            if record.command is not None else
            f"{folder}: its record {MARKER_NAME} is unreadable; choose another --out")
    own = _own_entries(record, present) if record is not None else set()
    if record is None and present:
        raise OutputError(f"{folder}: holds {_count(present)} that no cribbage-zx run wrote "
                          f"({_listed(present)}); choose a new or empty folder for --out")
    if own and not keep:
        raise OutputError(f"{folder}: holds an earlier run ({_count(own)}: {_listed(own)}); "
                          f"use --replace to clear it, or choose another --out")
    return own, present - own


def _record_written(folder: Path, command: str, foreign: set[str], made_afresh: bool) -> None:
    """The record of a run that ended: what it wrote; a folder it made and left empty is removed instead. If that
    cannot be done the "writing" record stays: it still says what was there before."""
    written = _entries(folder) - foreign
    try:
        if made_afresh and not written:       # a run that wrote nothing leaves nothing
            for name in (MARKER_NAME, LOCK_NAME):
                (folder / name).unlink(missing_ok=True)
            folder.rmdir()
        else:
            _write_record(folder, {"command": command, "state": "complete", "files": sorted(written)})
    except (OutputError, OSError):
        pass


@contextmanager
def claimed_whole(folder: str | os.PathLike[str], command: str,
                  ours: Callable[[Path, set[str]], bool] = lambda folder, present: False) -> Iterator[Path]:
    """Yield a fresh private folder to fill; when the block ends it takes *folder*'s place whole, or (if the
    block raises, or a rename fails) *folder* stays exactly as it was: a full disk never leaves half of a new
    output beside half of an old one.

    *folder* (a symlink to a folder: its target) is refused unless it is new, empty, or holds an earlier run
    of *command* (its record says so, or, with no record, *ours*(folder, entries) says the entries are an
    earlier version's output). Files someone put beside that run are moved into the new folder, kept; one
    that has the name of a new file is refused before anything moves. The old folder's own files are removed
    only after the swap. A second run into the folder fails at once (its lock)."""
    link, folder = _whole_target(folder)
    _refuse_inside_a_run(folder, command)
    foreign: set[str] = set()
    fd = None
    new_lock = not (folder / LOCK_NAME).exists()
    if folder.exists():
        fd = _lock(folder, 0.0)
    try:
        if fd is not None:
            try:
                foreign = _foreign_beside(link, folder, command, ours)
            except OutputError:
                if new_lock:                   # leave a folder we refused as we found it
                    (folder / LOCK_NAME).unlink(missing_ok=True)
                raise
        try:
            folder.parent.mkdir(parents=True, exist_ok=True)
            fresh = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f".{folder.name}.new-"))
        except OSError as exc:
            raise OutputError(f"{folder.parent}: cannot write into this folder: {_reason(exc)}") from None
        try:
            yield fresh
            clash = sorted(foreign & {p.name for p in fresh.iterdir()})
            if clash:
                raise OutputError(f"{link}: holds {_listed(set(clash))}, which no cribbage-zx run wrote and a "
                                  f"new {command} would replace; move it away first")
            _write_record(fresh, {"command": command, "state": "complete", "files": sorted(_entries(fresh))})
            os.chmod(fresh, 0o777 & ~atomic.umask())
            _swap(folder, fresh, foreign)
        finally:
            shutil.rmtree(fresh, ignore_errors=True)
    finally:
        if fd is not None:
            _HELD.discard(fd)
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)


def _whole_target(path: str | os.PathLike[str]) -> tuple[Path, Path]:
    """*path* as given and the folder it names (a symlink's target), or OutputError if that cannot be one."""
    link = Path(path)
    folder = link.resolve() if link.is_symlink() else link
    if folder.exists() and not folder.is_dir():
        raise OutputError(f"{link}: is a file, not a folder; choose another path")
    _refuse_dangling(link)
    return link, folder


def inside_a_run(folder: str | os.PathLike[str], command: str) -> str | None:
    """What _refuse_inside_a_run would say of *folder* (without the path), or None."""
    try:
        _refuse_inside_a_run(Path(folder), command)
    except OutputError as exc:
        return str(exc).split(": ", 1)[1]
    return None


def _refuse_inside_a_run(folder: Path, command: str) -> None:
    """A folder inside another run's folder is refused, naming that run's: its --replace would keep it as a
    file it did not write, or its record would claim the new run's files. The one nesting we make ourselves,
    a sweep's folder of chunks (OUT/show) in its sweeps' folder (OUT), is taken."""
    place = folder.resolve()
    for above in place.parents:
        record = _read_record(above)
        if record is None:
            continue
        other = record.command
        if other == command == "sweep" and place.parent == above:
            return
        kind = f"a `cribbage-zx {other}` run" if isinstance(other, str) else "a cribbage-zx run"
        raise OutputError(f"{folder}: is inside {above}, the folder of {kind}; choose a place outside it")


def _refuse_dangling(path: Path) -> None:
    """A symlink to nothing cannot be made a folder (mkdir says only "File exists"): say so."""
    if path.is_symlink() and not path.exists():
        raise OutputError(f"{path}: is a symlink to {os.readlink(path)}, which does not exist; "
                          f"remove the link or create its folder")


def check_whole(path: str | os.PathLike[str], command: str,
                ours: Callable[[Path, set[str]], bool] = lambda folder, present: False) -> None:
    """What claimed_whole would refuse, checked before a long run starts (OutputError naming *path*)."""
    link, folder = _whole_target(path)
    _refuse_inside_a_run(folder, command)
    if folder.is_dir():
        _foreign_beside(link, folder, command, ours)
    writable_place(folder)                     # the new folder is made beside it


def on_read_only_fs(path: Path) -> bool:
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def _foreign_beside(link: Path, folder: Path, command: str, ours: Callable[[Path, set[str]], bool]) -> set[str]:
    """The entries of *folder* (an earlier run of *command*) that the run did not write; OutputError if the
    folder is not such a run's."""
    present = _entries(folder)
    record = _read_record(folder)
    if record is not None and record.command != command:
        other = record.command
        raise OutputError(f"{link}: holds a `cribbage-zx {other}` run, not a {command} one; choose another "
                          f"folder" if isinstance(other, str) else
                          f"{link}: its record {MARKER_NAME} is unreadable; choose another folder")
    if record is None and present and not ours(folder, present):
        raise OutputError(f"{link}: holds {_count(present)} that no cribbage-zx run wrote "
                          f"({_listed(present)}); choose a new or empty folder")
    own = _own_entries(record, present) if record is not None else set(present)
    foreign = present - own
    inside = sorted(e for e in foreign if "/" in e and e.split("/")[0] not in foreign)
    if inside:
        raise OutputError(f"{link}: holds {_listed(set(inside))} inside a folder of the earlier run; move it "
                          f"away first")
    return {e for e in foreign if "/" not in e}


def _swap(folder: Path, fresh: Path, foreign: set[str]) -> None:
    """*fresh* takes *folder*'s place, with *foreign* (entries of *folder* no run of ours wrote) moved into it;
    the old folder's remaining entries (ours) are removed last. A failure puts everything back."""
    moved: list[str] = []
    old = None
    try:
        for name in sorted(foreign):
            os.rename(folder / name, fresh / name)
            moved.append(name)
        if folder.exists():
            old = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f".{folder.name}.old-")) / folder.name
            os.rename(folder, old)
        try:
            os.rename(fresh, folder)
        except OSError:
            if old is not None:
                os.rename(old, folder)
                old = None
            raise
    except OSError as exc:
        for name in moved:                     # the user's files go back where they were
            try:
                os.rename(fresh / name, folder / name)
            except OSError:
                pass
        raise OutputError(f"{folder}: cannot replace it: {_reason(exc)}; the earlier one is as it was") from None
    if old is not None:
        shutil.rmtree(old.parent, ignore_errors=True)


def _write_record(folder: Path, record: dict[str, object]) -> None:
    try:
        atomic.write_json(folder / MARKER_NAME, record, indent=0)
    except OSError as exc:
        raise OutputError(f"{folder / MARKER_NAME}: cannot write it: {_reason(exc)}") from None


def writable_file(path: str | os.PathLike[str], ours: Callable[[bytes], bool], what: str) -> Path:
    """Check that *path* may take a file of ours: not a folder, and not a file someone else wrote.

    A single-file output (a tape, a .z80, a WAV) replaces an existing file only
    when *ours* recognises its first bytes as the same kind of file (what we
    would have written there); anything else is refused naming it.
    """
    path = Path(path)
    if path.is_dir():
        raise OutputError(f"{path}: is a folder, not a {what} file")
    if path.exists() or path.is_symlink():
        try:
            with open(path, "rb") as f:
                head = f.read(64)
        except OSError as exc:
            raise OutputError(f"{path}: cannot read the file there: {_reason(exc)}") from None
        if head and not ours(head):
            raise OutputError(f"{path}: holds a file that is not a {what}; refusing to overwrite it "
                                    f"(remove it or choose another name)")
    writable_place(path)
    return path


def writable_place(path: str | os.PathLike[str]) -> None:
    """Refuse *path* (a file or folder to be made) when its nearest existing folder cannot be written: a
    read-only file system said as such, before a long run rather than after it (OutputError naming both)."""
    path = Path(path)
    parent = next((p for p in path.absolute().parents if p.exists()), None)
    if parent is None or (parent.is_dir() and os.access(parent, os.W_OK | os.X_OK)):
        return
    if not parent.is_dir():
        raise OutputError(f"{path}: cannot be made: {parent} is a file, not a folder")
    why = "a read-only file system" if on_read_only_fs(parent) else os.strerror(errno.EACCES).lower()
    raise OutputError(f"{path}: cannot be written: {parent} is not writable ({why}); choose another place")
