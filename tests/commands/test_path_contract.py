"""The path contract, generated: every path option and positional of every command (cli.COMMANDS), planted with
what a demanding user puts there, refused in one line before any game is played; and the near misses taken.

The plants (PLANTS): a foreign file in the way, the wrong kind of entry (a folder where a file is wanted, a file
where a folder is), a read-only folder, a missing parent, a path under a regular file, a symlink pointing
outside at something of the user's, a 100,000-deep JSON and a 30 MB file (sparse: the size is what counts).
Each runs `cribbage-zx COMMAND ... OPTION PATH` in this process (cli.run: the exit status and stderr as a
person sees them) with the Spectrum unbuildable, so a case that got past the checks to a game fails here; and
checks that the tree the plant made, and the outside target, are byte for byte as they were.

Near misses, parsed only (a taken path would start the work): a file this tool wrote in the way is taken (and a
foreign one under --replace), a good input is taken, a read-only folder holding a good input is read.
An option that names a path but is not of a contract type fails `test_every_path_option_is_of_a_contract_type`.
"""
from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import os
import re
import signal
from pathlib import Path

import pytest

from harness import cli
from harness.commands.cliargs import ArgParser, command_parser, contract_of, option_name
from harness.errors import UsageError
from harness.runtime import outdir
from harness.runtime.validate import shown_path

#: what each command needs on its line besides the option tried
BASE = {"snapshot": ["--at", "10"], "sweep": ["show"], "stats": ["hands"]}
FOREIGN = b"my notes \xff\x00 - not yours\n"
DEEP = "[" * 100_000 + "]" * 100_000
BIG = 30 * 2**20
PLANTS = ("foreign", "wrong kind", "read-only folder", "missing parent", "under a file", "symlink outside",
          "deep JSON", "30 MB")

def _xor(data: bytes) -> int:
    out = 0
    for b in data:
        out ^= b
    return out


#: a file of each kind this tool writes or reads, for the near misses: written here by hand, not by the tool
_HEADER = bytes([0, 0]) + b"CRIBBAGE  " + bytes([0x10, 0, 2, 0, 0x10, 0])   # flag, type, name, lengths
TAP = bytes([19, 0]) + _HEADER + bytes([_xor(_HEADER)])
#: a version 3 .z80 of a 48K: the 30-byte header (PC 0), 54 more (PC 0x1234, hardware 0), pages 4, 5, 8 stored
#: uncompressed (length 0xFFFF)
Z80 = (bytes(30) + (54).to_bytes(2, "little") + (0x1234).to_bytes(2, "little") + bytes(52)
       + b"".join(b"\xff\xff" + bytes([page]) + bytes(16384) for page in (4, 5, 8)))
SAMPLES: dict[str, bytes] = {
    "TAP": TAP,
    "WAV": b"RIFF\x24\x00\x00\x00WAVEfmt ",
    "TZX": b"ZXTape!\x1a\x01\x14",
    ".z80": Z80,
    "RZX": b"RZX!\x00\x0d\x00\x00\x00\x00",
    "key record": b'{"format": "cribbage-zx play keys", "version": 1, "tape_sha256": "' + b"0" * 64
                  + b'", "seed": 7, "frames": 10, "keys": [[1, ["A"]]]}',
    "readings record": b'{\n "base_games": [],\n "command": "cribbage-zx readings"\n}',
    "lockstep record": b'{\n "made_by": "cribbage-zx conformance --lockstep --budget 5",\n "opcodes": []\n}',
    "BASIC listing": b"10 PRINT \"HELLO\"\n20 GO TO 10\n",
    "readings TOML": b'[[reading]]\nline = 10\n',
    "coverage report": b'{"coverage": {"statements_run": []}}',
    "PEM": b"-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n",
    "page": (b"# A page\n<!-- conformance: written by `cribbage-zx conformance --write-docs`; do not edit by hand -->"
             b"\n<!-- conformance: end -->\n<!-- bench: begin -->\n<!-- bench: end -->\n"),
}


def _font_sample() -> bytes:
    from harness import resources
    return Path(resources.FONT).read_bytes()


SAMPLES["font"] = _font_sample()


def _good_folder(contract, path: Path) -> None:
    """A folder of the kind *contract* reads (or, for an output folder, an earlier run of its command)."""
    path.mkdir(parents=True, exist_ok=True)
    if contract.marker:
        (path / contract.marker).write_text("{}")
    if contract.commands:
        (path / outdir.MARKER_NAME).write_text(json.dumps({"command": contract.commands[0], "state": "complete",
                                                           "files": []}))
    if contract.holds:
        (path / contract.holds.replace("*", "000")).write_text("{}\n")


def path_actions():
    """(command, its parser, action) for every option and positional of every command that names a path."""
    for name, (module_name, _) in cli.COMMANDS.items():
        module = importlib.import_module(module_name)
        parser = command_parser(module, f"cribbage-zx {name}", UsageError)
        for action in parser._actions:
            if contract_of(action) is not None:
                yield name, parser, action


CASES = [(name, option_name(action), plant) for name, _, action in path_actions() for plant in PLANTS]


# ------------------------------------------------------------------ which options name a path
_PATHLIKE = re.compile(r"(PATH|FILE|DIR|JSON|PEM|PAGE|DOC|\.z80|\.rzx|\.tap)", re.I)
_PATH_DESTS = {"out", "output", "tape", "listing", "font", "wav", "tzx", "pack", "load", "save", "record",
               "replay", "coverage", "report", "opcodes", "readings", "runs", "from_dir"}


def unguarded(parser: argparse.ArgumentParser) -> list[str]:
    """The options of *parser* that look like they name a path but are of no contract type."""
    found = []
    for action in parser._actions:
        if contract_of(action) is not None or isinstance(action, (argparse._HelpAction, argparse._StoreConstAction)):
            continue
        looks = (action.type is Path or isinstance(action.default, Path) or isinstance(action.const, Path)
                 or (action.type in (None, str) and _PATHLIKE.search(str(action.metavar or "")))
                 or action.dest in _PATH_DESTS or "tls" in action.dest)
        if looks:
            found.append(option_name(action))
    return found


def test_every_path_option_is_of_a_contract_type(capsys):
    missing = {}
    for name, (module_name, _) in cli.COMMANDS.items():
        parser = command_parser(importlib.import_module(module_name), f"cribbage-zx {name}", UsageError)
        if unguarded(parser):
            missing[name] = unguarded(parser)
    assert missing == {}, f"options that name a path with no contract type: {missing}"
    commands = {name for name, _, _ in path_actions()}
    options = sum(1 for _ in path_actions())
    with capsys.disabled():
        print(f"\npath contract: {len(commands)} commands with {options} path options x {len(PLANTS)} plants = "
              f"{options * len(PLANTS)} cases")
    assert options >= 30


def test_the_check_finds_a_path_option_that_is_not_of_a_contract_type():
    parser = ArgParser(prog="x", error_class=UsageError)
    parser.add_argument("--out", type=Path)                              # the breach: a plain Path
    parser.add_argument("--notes", metavar="FILE")                       # and a FILE of no type
    parser.add_argument("--limit", type=int, metavar="N")                # the near miss: a number
    parser.add_argument("--lang", choices=("ru", "en"))
    assert unguarded(parser) == ["--out", "--notes"]


# ------------------------------------------------------------------ the plants
def _tree(root: Path) -> dict[str, str]:
    """Every entry under *root* (not following links) with its bytes' hash (a file over 1 MB: its size, inode and
    mtime, which any write moves), a link's target, or 'dir'."""
    found = {}
    for dirpath, dirs, files in os.walk(root):
        for entry in dirs + files:
            path = Path(dirpath) / entry
            rel = str(path.relative_to(root))
            if path.is_symlink():
                found[rel] = "-> " + os.readlink(path)
            elif path.is_dir():
                found[rel] = "dir"
            elif (stat := path.stat()).st_size > 1 << 20:   # the sparse 30 MB file: any write moves its mtime
                found[rel] = f"{stat.st_size} bytes, inode {stat.st_ino}, mtime {stat.st_mtime_ns} ns"
            else:
                found[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def _sparse(path: Path, size: int = BIG) -> None:
    with open(path, "wb") as f:
        f.truncate(size)


def plant(kind: str, contract, case: Path, outside: Path, monkeypatch) -> Path:
    """Make *kind* of trouble for *contract* in *case*; the path to give the option."""
    folder_kind = contract.kind in ("output folder", "input folder")
    target = case / "target"
    if kind == "foreign":
        if folder_kind:
            target.mkdir()
            (target / "notes.txt").write_bytes(FOREIGN)
        else:
            target.write_bytes(FOREIGN)
    elif kind == "wrong kind":
        if folder_kind:
            target.write_bytes(FOREIGN)
        else:
            target.mkdir()
    elif kind == "read-only folder":
        ro = case / "ro"
        ro.mkdir()
        target = ro / "target"
        if contract.kind == "input folder":
            _good_folder(contract, target)
        elif contract.kind in ("input file", "page"):
            target.write_bytes(SAMPLES[contract.what])
        real_access = os.access
        monkeypatch.setattr(os, "access", lambda p, mode, **kw: (not (mode & os.W_OK) or ro not in (
            Path(p), *Path(p).parents)) and real_access(p, mode, **kw))
        monkeypatch.setattr(outdir, "on_read_only_fs", lambda p: Path(p) == ro)
    elif kind == "missing parent":
        target = case / "missing" / "target"
    elif kind == "under a file":
        (case / "file").write_bytes(FOREIGN)
        target = case / "file" / "target"
    elif kind == "symlink outside":
        theirs = outside / "theirs"
        if folder_kind:
            theirs.mkdir()
            (theirs / "notes.txt").write_bytes(FOREIGN)
        else:
            theirs.write_bytes(FOREIGN)
        target.symlink_to(theirs)
    elif kind in ("deep JSON", "30 MB"):
        write = (lambda p: p.write_text(DEEP)) if kind == "deep JSON" else _sparse
        if contract.kind == "output folder":
            target.mkdir()
            write(target / outdir.MARKER_NAME)
        elif contract.kind == "input folder":
            _good_folder(contract, target)
            name = contract.marker or (outdir.MARKER_NAME if contract.commands else contract.holds.replace("*", "000"))
            write(target / name)
        else:
            write(target)
    return target


#: a plant a contract takes by design (parsed only, then checked to be taken): a good input in a read-only folder
#: (one the command only reads)
def _taken(kind: str, contract) -> bool:
    return kind == "read-only folder" and (contract.kind == "input file"
                                           or contract.kind == "input folder" and not contract.writes)


def _argv(name: str, action, path: Path, case: Path) -> list[str]:
    argv = [name, *BASE.get(name, [])]
    if action.option_strings:
        argv += [action.option_strings[-1], str(path)]
    else:
        argv += [str(path)]
    positional = [a for a in command_parser(importlib.import_module(cli.COMMANDS[name][0]), "x", UsageError)._actions
                  if not a.option_strings and contract_of(a) is not None and a.dest != action.dest]
    argv += [str(case / f"fresh-{a.dest}") for a in positional]       # another required path: a new one
    return argv


@pytest.fixture
def no_machine(monkeypatch):
    """The Spectrum cannot be made: a case that gets as far as playing fails."""
    from harness.spectrum import machine

    def refuse(*args, **kwargs):
        raise AssertionError("a Spectrum was made: the refusal came after the work started")
    monkeypatch.setattr(machine.Spectrum48, "__init__", refuse)


def _run(argv, capsys) -> tuple[int, str]:
    handlers = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        with pytest.raises(SystemExit) as done:
            cli.run(argv)
    finally:
        for s, h in handlers.items():
            signal.signal(s, h)
    return done.value.code, capsys.readouterr().err


@pytest.mark.parametrize("name, option, kind", CASES, ids=[f"{n} {o} {k}" for n, o, k in CASES])
def test_a_planted_path_is_refused_in_one_line_before_any_work(name, option, kind, tmp_path_factory, monkeypatch,
                                                               capsys, no_machine):
    case, outside = tmp_path_factory.mktemp("case"), tmp_path_factory.mktemp("outside")
    monkeypatch.chdir(case)                    # the other options' defaults point into an empty folder
    (action,) = [a for n, _, a in path_actions() if n == name and option_name(a) == option]
    contract = contract_of(action)
    path = plant(kind, contract, case, outside, monkeypatch)
    before, theirs = _tree(case), _tree(outside)
    argv = _argv(name, action, path, case)
    if _taken(kind, contract):
        _assert_taken(name, action, argv[1:], path)
        return
    code, err = _run(argv, capsys)
    assert code == 2, (argv, err)
    assert len(err.splitlines()) == 1 and err.startswith("cribbage-zx"), err
    assert "Traceback" not in err and "Errno" not in err
    assert f"{option} {shown_path(path)}: " in err or path.name in err, err
    assert _tree(case) == before, "the refusal left something behind or changed the user's files"
    assert _tree(outside) == theirs, "the file the symlink points to was changed"


def _assert_taken(name: str, action, argv: list[str], path: Path) -> None:
    """*argv* parses with *path* taken. A --tls-* file alone is refused by the scheduler's own check (it goes
    with a tls:// --scheduler and the other two): its contract is asked directly."""
    if action.dest.startswith("tls_"):
        from harness.runtime.paths import problem
        assert problem(contract_of(action), path) is None
        return
    parser = command_parser(importlib.import_module(cli.COMMANDS[name][0]), f"cribbage-zx {name}", UsageError)
    assert getattr(parser.parse_args(argv), action.dest) in (path, [path])


# ------------------------------------------------------------------ near misses
NEAR = [(name, option_name(action)) for name, _, action in path_actions()]


@pytest.mark.parametrize("name, option", NEAR, ids=[f"{n} {o}" for n, o in NEAR])
def test_a_good_path_is_taken(name, option, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (action,) = [a for n, _, a in path_actions() if n == name and option_name(a) == option]
    contract = contract_of(action)
    path = tmp_path / "good"
    if contract.kind in ("output folder", "input folder"):
        _good_folder(contract, path)            # an earlier run of the command, or a folder of its kind
    else:
        assert contract.what in SAMPLES, f"a sample {contract.what} for the near miss of {name} {option}"
        path.write_bytes(SAMPLES[contract.what])   # a file this tool wrote, or a good input
    _assert_taken(name, action, _argv(name, action, path, tmp_path)[1:], path)
    fresh = tmp_path / "fresh"                   # and a new path, for an output
    if contract.kind.startswith("output"):
        _assert_taken(name, action, _argv(name, action, fresh, tmp_path)[1:], fresh)
        assert not fresh.exists()


OUTPUT_FILES = [(n, option_name(a)) for n, _, a in path_actions() if contract_of(a).kind == "output file"]


def test_every_command_that_writes_a_file_takes_replace():
    without = sorted({n for n, p, a in path_actions()
                      if contract_of(a).kind == "output file" and "--replace" not in p._option_string_actions})
    assert without == []


@pytest.mark.parametrize("name, option", OUTPUT_FILES, ids=[f"{n} {o}" for n, o in OUTPUT_FILES])
def test_replace_lets_an_output_file_replace_a_foreign_one(name, option, tmp_path, monkeypatch):
    """(a folder of files no run wrote is refused even with --replace: runtime/outdir.py)"""
    monkeypatch.chdir(tmp_path)
    (action,) = [a for n, _, a in path_actions() if n == name and option_name(a) == option]
    parser = command_parser(importlib.import_module(cli.COMMANDS[name][0]), f"cribbage-zx {name}", UsageError)
    path = tmp_path / "mine"
    path.write_bytes(FOREIGN)
    argv = _argv(name, action, path, tmp_path)[1:]
    with pytest.raises(Exception, match="refusing to replace it .*; or give --replace$"):
        parser.parse_args(argv)
    assert getattr(parser.parse_args(argv + ["--replace"]), action.dest) in (path, [path])
    assert path.read_bytes() == FOREIGN                  # parsing changed nothing: the write is the command's


def test_a_long_path_is_cut_in_the_refusal(tmp_path, capsys):
    long = tmp_path / ("x" * 250) / "a.tap"
    code, err = _run(["build", "-o", str(long)], capsys)
    assert code == 2 and len(err.splitlines()) == 1
    assert "x" * 100 not in err                                            # neither in the path nor in the reason
    assert f"({len(str(long)):,} characters)" in err and "(250 characters) is missing" in err, err
    too_long = tmp_path / ("x" * 300) / "a.tap"                            # longer than a name may be
    code, err = _run(["build", "-o", str(too_long)], capsys)
    assert (code, err.count("\n")) == (2, 1) and err.endswith(": cannot look at it: file name too long\n"), err
    assert "Errno" not in err and "x" * 100 not in err
