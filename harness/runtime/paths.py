"""The one contract for a path a command names: an output file, an output folder, an input file, an input
folder, or a page whose generated part is rewritten in place.

Each kind is a `PathContract`; `problem(contract, path, ...)` says, before any work, what stands in the way
(None: nothing), in the library's own words and without the path (the command puts its option and the path
in front: harness/commands/cliargs.py's path types, checked as the command line is parsed).

* An **output file** needs an existing, writable folder (only the option's default may have folders still
  to make); it is not a folder; a file already there is replaced only when `ours` recognises its first
  bytes as the kind of file this tool writes (or the caller says *replace*). A symlink there is judged by
  the file it points to, and the write (runtime/atomic.py) replaces the link, never its target.
* An **output folder**: not a file, not a symlink to nothing, its parent as for a file; a folder already
  there holds nothing but a run of this tool (its record, runtime/outdir.py, read through the checked
  reader). What a run of the same command left is outdir.claimed's to judge (--replace, resume).
* An **input file** is a regular file of at most `max_bytes`, readable, and (per its kind) UTF-8 text
  (``FILE:LINE`` of the first bad byte), JSON no deeper than validate.MAX_DEPTH, and recognised by `valid`.
* An **input folder** exists, and holds `marker` (a JSON file read through the checked reader) or the
  record of a run of one of `commands`.
* A **page** is an input text file that `valid` finds its markers in, and an output file of ours.
"""
from __future__ import annotations

import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from . import outdir
from .validate import QUOTE_CHARS, parse_json, read_text, shown_path

#: the most an input named on the command line may weigh unless its kind says otherwise
MAX_INPUT_BYTES = 16 * 2**20
#: how much of a file in an output's way is read to recognise it
HEAD_BYTES = 4096

KINDS = ("output file", "output folder", "input file", "input folder", "page")


@dataclass(frozen=True)
class PathContract:
    kind: str                                       # one of KINDS
    what: str                                       # the kind of file, for messages: "TAP", "key record"
    ours: Callable[[bytes], bool] | None = None      # output file: a file there (its head) we may replace
    valid: Callable[[bytes], bool | str | None] | None = None  # input file / page: the whole file is of its kind
                                                    # (True/None), or not (False, or a reason)
    text: bool = False                              # input file: UTF-8 text
    json: bool = False                              # input file: JSON
    max_bytes: int = MAX_INPUT_BYTES
    marker: str | None = None                       # input folder: the JSON file that says what it is
    commands: tuple[str, ...] = ()                  # output folder: the command whose record it may hold;
                                                    # input folder: those whose record it must hold
    holds: str | None = None                        # input folder: a glob of the files it must hold
    writes: bool = False                            # input folder: the command writes into it too
    expect: str = ""                                # valid's words: what the file must look like
    folder_ours: Callable[[Path], bool] | None = None  # output folder with no record: an earlier version's

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"PathContract: kind {self.kind!r} is not one of {KINDS}")


def problem(contract: PathContract, path: Path, *, replace: bool = False, default: bool = False) -> str | None:
    """What stands in the way of *path* as *contract* takes it, or None. *replace*: a file there that is not
    ours may go. *default*: *path* is the option's default (its missing folders are made)."""
    try:
        return _problem(contract, path, replace, default)
    except OSError as exc:                        # a name too long, a loop of links, a folder we may not search
        return f"cannot look at it: {(exc.strerror or str(exc)).lower()}"


def _problem(contract: PathContract, path: Path, replace: bool, default: bool) -> str | None:
    if contract.kind == "output file":
        return _output_file(contract, path, replace, default)
    if contract.kind == "output folder":
        return _output_folder(contract, path, default)
    if contract.kind == "input file":
        if default and not (path.exists() or path.is_symlink()):
            return None                             # a default the command makes when it is missing
        return _input_file(contract, path)
    if contract.kind == "input folder":
        return _input_folder(contract, path)
    return _input_file(contract, path) or _writable_parent(path, default=False)


def _a(what: str) -> str:
    """*what* with its article: an RZX, a TAP, a key record, an input."""
    vowel = what[:1] in "aeiouAEIO" or (what.isupper() and what[:1] in "FHLMNRSX")
    return f"{'an' if vowel else 'a'} {what}"


def _dangling(path: Path) -> str | None:
    if path.is_symlink() and not path.exists():
        return f"is a symlink to {shown_path(os.readlink(path))}, which does not exist; remove the link or create its target"
    return None


def _writable_parent(path: Path, default: bool) -> str | None:
    """The folder *path* is made in: it exists (or, for a default, its nearest existing folder does), is a
    folder, and can be written."""
    parent = path.absolute().parent
    nearest = next((p for p in (parent, *parent.parents) if p.exists() or p.is_symlink()), None)
    if nearest is None:
        return None
    if not nearest.is_dir():
        return f"cannot be made: {shown_path(nearest.name, QUOTE_CHARS + 20)} is a file, not a folder"
    if nearest != parent and not default:
        missing = parent.relative_to(nearest)
        return f"its folder does not exist ({shown_path(missing.parts[0], QUOTE_CHARS + 20)} is missing); create it first"
    if not os.access(nearest, os.W_OK | os.X_OK):
        why = "a read-only file system" if outdir.on_read_only_fs(nearest) else "permission denied"
        return f"its folder is not writable ({why}); choose another place"
    made = _make_a_file_in(nearest)
    return f"its folder is not writable ({made}); choose another place" if made else None


def _make_a_file_in(folder: Path) -> str | None:
    """Why no file can be made in *folder*, or None once one was made there and removed: os.access answers
    yes to root where none can be (/proc, /sys), and the work would be lost at its end."""
    try:
        fd, name = tempfile.mkstemp(prefix=".cribbage-zx-probe-", dir=folder)
    except OSError as exc:
        return exc.strerror or str(exc)
    os.close(fd)
    os.unlink(name)
    return None


def _head(path: Path) -> bytes | str:
    try:
        with open(path, "rb") as f:
            return f.read(HEAD_BYTES)
    except OSError as exc:
        return f"cannot read the file there: {exc.strerror or exc}"


def _output_file(c: PathContract, path: Path, replace: bool, default: bool) -> str | None:
    dangling = _dangling(path)
    if dangling:
        return dangling
    if path.is_dir():
        return f"is a folder, not a {c.what} file"
    where = _writable_parent(path, default)
    if where:
        return where
    if path.exists():
        if not stat.S_ISREG(path.stat().st_mode):
            return "is not a regular file"
        head = _head(path)
        if isinstance(head, str):
            return head
        if head and not replace and not (c.ours is not None and c.ours(head)):
            return (f"holds a file this tool did not write (not {_a(c.what)}); refusing to replace it "
                    f"(move it away or choose another name)")
    return None


def _output_folder(c: PathContract, path: Path, default: bool) -> str | None:
    dangling = _dangling(path)
    if dangling:
        return dangling
    if path.exists() and not path.is_dir():
        return "is a file, not a folder"
    inside = next((outdir.inside_a_run(path, command) for command in c.commands[:1]), None)
    if inside:
        return inside
    if not path.exists():
        return _writable_parent(path, default)
    record_path = path / outdir.MARKER_NAME
    if record_path.exists():
        record = _json_file(record_path)
        if isinstance(record, str):
            return f"its record {outdir.MARKER_NAME} is unreadable ({record})"
        command = record.get("command") if isinstance(record, dict) else None
        if command not in c.commands:
            kind = f"a `cribbage-zx {command}` run" if isinstance(command, str) else "an unreadable record"
            return f"holds {kind}, not a {' or '.join(c.commands)} one; choose another folder"
    else:
        present = sorted(p.name for p in path.iterdir() if p.name not in outdir.OURS)
        if present and not (c.folder_ours is not None and c.folder_ours(path)):
            shown = ", ".join(shown_path(p, QUOTE_CHARS) for p in present[:3]) + (", ..." if len(present) > 3 else "")
            count = "1 entry" if len(present) == 1 else f"{len(present)} entries"
            return f"holds {count} that no cribbage-zx run wrote ({shown}); choose a new or empty folder"
    if not os.access(path, os.W_OK | os.X_OK):
        return "is not writable"
    made = _make_a_file_in(path)
    return f"is not writable ({made})" if made else None


def _json_file(path: Path) -> object | str:
    """*path*'s JSON through the checked reader and the size cap, or what is wrong with it."""
    try:
        size = path.stat().st_size
        if size > MAX_INPUT_BYTES:
            return f"{size:,} bytes, more than {MAX_INPUT_BYTES:,}"
        value: object = parse_json(read_text(path, ValueError), path.name, ValueError)
        return value
    except (OSError, ValueError) as exc:
        text = str(exc)
        return text.split(": ", 1)[1] if text.startswith(path.name) and ": " in text else text


def _input_file(c: PathContract, path: Path) -> str | None:
    dangling = _dangling(path)
    if dangling:
        return dangling
    if not path.exists():
        above = next((p for p in path.absolute().parents if p.exists()), None)
        if above is not None and not above.is_dir():
            return f"no such file: {shown_path(above.name, QUOTE_CHARS + 20)} is a file, not a folder"
        return "no such file"
    if path.is_dir():
        return f"is a folder, not a {c.what} file"
    info = path.stat()
    if not stat.S_ISREG(info.st_mode):
        return "is not a regular file"
    if info.st_size > c.max_bytes:
        return f"is {info.st_size:,} bytes, more than a {c.what} file's {c.max_bytes:,}"
    try:
        with open(path, "rb") as f:
            data = f.read(c.max_bytes + 1)
    except OSError as exc:
        return f"cannot read it: {exc.strerror or exc}"
    if c.text or c.json:
        try:
            text = read_text(path, ValueError)
            if c.json:
                parse_json(text, str(path), ValueError)
        except ValueError as exc:                 # "PATH:LINE: why" kept as ":LINE: why" (the command names PATH)
            line = str(exc)
            return line[len(str(path)):] if line.startswith(str(path)) else line
    verdict = c.valid(data) if c.valid is not None else True
    if isinstance(verdict, str):
        return verdict
    if verdict is False:
        return f"is not a {c.what} file" + (f" ({c.expect})" if c.expect else "")
    return None


def _input_folder(c: PathContract, path: Path) -> str | None:
    dangling = _dangling(path)
    if dangling:
        return dangling
    if not path.exists():
        above = next((p for p in path.absolute().parents if p.exists()), None)
        if above is not None and not above.is_dir():
            return f"no such folder: {shown_path(above.name, QUOTE_CHARS + 20)} is a file, not a folder"
        return "no such folder"
    if not path.is_dir():
        return "is a file, not a folder"
    if c.holds is not None and not any(path.glob(c.holds)):
        return f"holds no {c.holds}: not a {c.what}"
    if c.marker is not None:
        marker = path / c.marker
        if not marker.is_file():
            return f"has no {c.marker}: not a {c.what}"
        found = _json_file(marker)
        if isinstance(found, str):
            return f"its {c.marker} is unreadable ({found})"
    if c.commands:
        record_path = path / outdir.MARKER_NAME
        if not record_path.is_file():
            return f"no cribbage-zx run wrote it (it has no {outdir.MARKER_NAME}): not a {c.what}"
        record = _json_file(record_path)
        if isinstance(record, str):
            return f"its record {outdir.MARKER_NAME} is unreadable ({record})"
        command = record.get("command") if isinstance(record, dict) else None
        if command not in c.commands:
            kind = f"a `cribbage-zx {command}` run" if isinstance(command, str) else "an unreadable record"
            return f"holds {kind}, not a {c.what}"
    if c.writes and not os.access(path, os.W_OK | os.X_OK):
        return "is not writable"
    return None
