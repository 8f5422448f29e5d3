"""argparse that raises the command's domain error instead of exiting, and range-checked numbers.

Every command is an argparse subcommand of `cribbage-zx` (see cli.py) and can
also be called as ``module.main(argv)`` from tests; either way a bad argument
is one line naming the option, never a traceback or a silent default.
"""
from __future__ import annotations

import argparse
import difflib
import math
import re
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Callable, Iterator, Mapping, NoReturn, Sequence

from ..errors import HarnessError, InputError, OutputError
from ..runtime import paths
from ..runtime.paths import PathContract
from ..runtime.validate import quoted, shown_path
import os

if TYPE_CHECKING:
    from ..runtime.scheduler import SchedulerAddress


class ArgParser(argparse.ArgumentParser):
    def __init__(self, prog: str | None = None, description: str | None = None, *,
                 error_class: type[Exception] = ValueError) -> None:
        """*prog* and *description* as argparse's (what the commands and add_parser give); an error on the line
        is raised as *error_class* naming *prog*."""
        super().__init__(prog=prog, description=description)
        self._error_class = error_class

    def error(self, message: str) -> NoReturn:  # argparse would print usage and sys.exit(2)
        message = " ".join(re.sub(r"'([^']{41,})'", lambda m: quoted(m.group(1)), message).split())
        raise self._error_class(f"{self.prog}: {message}")

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None) -> tuple[argparse.Namespace, list[str]]:
        ns, rest = super().parse_known_args(args, namespace)
        self._check_paths(ns)
        if getattr(ns, "_runner_options", False):       # options that are checked together (see below)
            ns._runner_options = False
            _check_runner_options(ns, self.error)
        return ns, rest

    def parse_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                   namespace: argparse.Namespace | None = None) -> argparse.Namespace:
        """As argparse's, but an option it does not know is answered with the nearest it does."""
        ns, rest = self.parse_known_args(args, namespace)
        if rest:
            known = self._known_options(getattr(ns, "command", None))
            self.error(f"unrecognized arguments: {' '.join(rest)}" + did_you_mean(
                [arg.split("=", 1)[0] for arg in rest if arg.startswith("-")], known))
        return ns

    def _known_options(self, command: str | None) -> list[str]:
        """Every option string of this parser and of the subcommand *command* chosen on the line."""
        known: list[str] = []
        for action in self._actions:
            known += action.option_strings
            if isinstance(action, argparse._SubParsersAction) and command in action.choices:
                known += [o for a in action.choices[command]._actions for o in a.option_strings]
        return known

    def _check_value(self, action: argparse.Action, value: object) -> None:
        try:
            super()._check_value(action, value)
        except argparse.ArgumentError as exc:
            if isinstance(value, str) and action.choices is not None:
                exc.message += did_you_mean([value], [str(c) for c in action.choices])
            raise

    def _check_paths(self, ns: argparse.Namespace) -> None:
        """Every path-typed option and positional (path types below), checked before the command does
        anything: one line naming the option and the path, of the parser's error class."""
        replace = bool(getattr(ns, "replace", False))
        for action in self._actions:
            contract = contract_of(action)
            value = getattr(ns, action.dest, None)
            if contract is None or value is None:
                continue
            for item in (value if isinstance(value, list) else [value]):
                path = Path(item)
                why = paths.problem(contract, path, replace=replace,
                                    default=item is action.default or item is action.const)
                if why is None:
                    continue
                if "refusing to replace" in why and "--replace" in self._option_string_actions:
                    why += "; or give --replace"
                error = OutputError if contract.kind.startswith("output") else InputError
                sep = "" if why.startswith(":") else ": "        # ":LINE: why" after the path: FILE:LINE
                raise error(f"{self.prog}: {option_name(action)} {shown_path(path)}{sep}{why}")


def did_you_mean(given: Sequence[str], known: Sequence[str]) -> str:
    """" (did you mean X?)" for the nearest of *known* to any of *given* (difflib's ratio 0.6 or more), else ""."""
    for word in given:
        near = difflib.get_close_matches(word, known, n=1)
        if near:
            return f" (did you mean {near[0]}?)"
    return ""


def contract_of(action: argparse.Action) -> PathContract | None:
    """The path contract of an option or positional (None: it names no path, or is not of a path type)."""
    contract = getattr(action.type, "contract", None)
    return contract if isinstance(contract, PathContract) else None


def option_name(action: argparse.Action) -> str:
    """How a refusal names *action*: its long option, or a positional's metavar (or name) in capitals."""
    if action.option_strings:
        return max(action.option_strings, key=len)
    return str(action.metavar or action.dest).upper()


def _path_type(contract: PathContract) -> Callable[[str], Path]:
    def parse(text: str) -> Path:
        if not text or "\0" in text:
            raise argparse.ArgumentTypeError(f"{quoted(text)} is not a path")
        return Path(text)
    parse.__name__ = contract.kind
    parse.contract = contract             # type: ignore[attr-defined]
    return parse


def output_file(what: str, ours: Callable[[bytes], bool]) -> Callable[[str], Path]:
    """An argparse type: a file the command writes (whole, atomically). Refused before any work: a folder,
    a missing or unwritable folder, a file there that *ours* (its first 4 KB) does not recognise as a *what*
    this tool wrote (unless --replace)."""
    return _path_type(PathContract("output file", what, ours=ours))


def output_folder(*commands: str, ours: Callable[[Path], bool] | None = None) -> Callable[[str], Path]:
    """An argparse type: a folder a run of *commands* claims (runtime/outdir.py). Refused before any work: a
    file, a missing or unwritable parent, a folder of files no cribbage-zx run wrote (unless *ours* knows it
    for an earlier version's) or of another command."""
    return _path_type(PathContract("output folder", "run folder", commands=commands, folder_ours=ours))


def input_file(what: str, *, valid: Callable[[bytes], bool | str | None] | None = None, expect: str = "", text: bool = False,
               json: bool = False, max_bytes: int = paths.MAX_INPUT_BYTES) -> Callable[[str], Path]:
    """An argparse type: a file the command reads. Refused before any work: missing, a folder, over
    *max_bytes*, unreadable, not UTF-8 (*text*; FILE:LINE), not JSON or nested too deep (*json*), or not what
    *valid* recognises (*expect* says what it wants)."""
    return _path_type(PathContract("input file", what, valid=valid, expect=expect, text=text, json=json,
                                   max_bytes=max_bytes))


def input_folder(what: str, *, marker: str | None = None, commands: tuple[str, ...] = (), holds: str | None = None,
                 writes: bool = False) -> Callable[[str], Path]:
    """An argparse type: a folder the command reads (and, with *writes*, writes into): it holds *marker* (a
    JSON file, read through the checked reader), the record of a run of one of *commands*, or files matching
    the glob *holds*."""
    return _path_type(PathContract("input folder", what, marker=marker, commands=commands, holds=holds,
                                   writes=writes))


def page_file(what: str, valid: Callable[[bytes], bool], expect: str) -> Callable[[str], Path]:
    """An argparse type: a text page whose generated part the command rewrites (atomically): it exists, is
    UTF-8, has its markers (*valid*), and its folder is writable."""
    return _path_type(PathContract("page", what, valid=valid, expect=expect, text=True))


def _tap_problem(data: bytes) -> str | None:
    """What the tape reader says of *data* (spectrum/tape.py: empty, a TZX, a block cut short), or None."""
    from ..spectrum.tape import read_tap  # lazy: every command (--help too) loads cliargs; only a tape argument is read
    try:
        blocks = read_tap(data, name="@")
    except InputError as exc:
        return str(exc).removeprefix("@: ").removeprefix("@ ")
    return None if blocks else "empty, not a tape"


def looks_like_z80(head: bytes) -> bool:
    """A file a .z80 output may replace: a .z80 of version 2 or 3 as this tool writes them (PC 0 in the first
    header, then an extra header of 23, 54 or 55 bytes)."""
    return len(head) >= 32 and head[6:8] == b"\0\0" and int.from_bytes(head[30:32], "little") in (23, 54, 55)


def _reads_as_z80(data: bytes) -> bool:
    """A .z80 snapshot of a 48K that the reader takes whole (spectrum/z80snap.py)."""
    from ..spectrum.z80snap import read_z80  # lazy: the .z80 reader (36 ms) only for a snapshot argument
    try:
        read_z80(data)
    except (InputError, ValueError):
        return False
    return True


def _looks_like_key_record(data: bytes) -> bool:
    from ..play.record import is_key_record  # lazy: only a play file argument is sniffed (6 ms)
    return is_key_record(data[:4096])


#: a tape named on the command line: a TAP (its first block a header), at most 1 MB
TAPE_IN = input_file("TAP", valid=_tap_problem, max_bytes=2**20)
#: a saved game named on the command line
Z80_IN = input_file(".z80", valid=_reads_as_z80, expect="not a 48K snapshot", max_bytes=2**20)
#: a key record (play --record) named on the command line
KEYS_IN = input_file("key record", valid=_looks_like_key_record, json=True, expect="not written by play --record")


def add_replace_option(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--replace", action="store_true",
                        help=f"let {what} replace a file there that this tool did not write")


def int_in(low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number within [low, high] (either bound may be open).

    argparse puts the option's name in front of the message: ``argument --limit: -5 is not
    at least 1``.
    """
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{quoted(text)} is not a whole number") from None
        if low is not None and high is not None and not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is not in {low}..{high}")
        if low is not None and value < low:
            raise argparse.ArgumentTypeError(f"{value} is not at least {low}")
        if high is not None and value > high:
            raise argparse.ArgumentTypeError(f"{value} is more than {high}")
        return value
    parse.__name__ = "whole number"
    return parse


def float_in(low: float, high: float | None = None, open_low: bool = True) -> Callable[[str], float]:
    """An argparse type: a finite number above *low* (or at least, if not *open_low*) and at most *high*
    (nan and inf are refused: "no limit" is the option left out)."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{quoted(text)} is not a number") from None
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"{quoted(text)} is not a finite number")
        if (value <= low if open_low else value < low) or (high is not None and value > high):
            bound = f"more than {low}" if open_low else f"at least {low}"
            raise argparse.ArgumentTypeError(f"{text} is not {bound}" + (f" and at most {high}" if high else ""))
        return value
    parse.__name__ = "number"
    return parse


def command_parser(module: ModuleType, prog: str, error_class: type[Exception]) -> ArgParser:
    """The parser of one command, for its ``main(argv)``: the same arguments as under `cribbage-zx`."""
    parser = ArgParser(prog=prog, description=(module.__doc__ or "").strip().splitlines()[0],
                       error_class=error_class)
    module.add_arguments(parser)
    return parser


def add_runner_options(parser: argparse.ArgumentParser, jobs: str) -> None:
    """--workers and --scheduler, as every command that hands its *jobs* to the job runner takes them."""
    parser.add_argument("--workers", type=int_in(1, 512), default=min(2, os.cpu_count() or 1),
                        help="worker processes (default: 2, or 1 on a one-core machine)")
    parser.add_argument("--scheduler", metavar="ADDRESS", type=_scheduler_address,
                        help=f"run the {jobs} on a Dask cluster: 'local' for a LocalCluster of --workers "
                             "processes on this machine (loopback, TLS with a temporary certificate), or a "
                             "scheduler's address, tls://HOST:8786 (with the --tls-* files) or tcp://HOST:8786 "
                             "(on this machine, or anywhere with --insecure)")
    pem = input_file("PEM", valid=lambda data: b"-----BEGIN " in data, expect="no -----BEGIN line", text=True,
                     max_bytes=2**20)                  # and read as the connection reads it: scheduler.py
    parser.add_argument("--tls-ca-file", metavar="PEM", type=pem, help="the CA certificate that signed the scheduler's")
    parser.add_argument("--tls-cert", metavar="PEM", type=pem, help="this client's certificate (for a tls:// scheduler)")
    parser.add_argument("--tls-key", metavar="PEM", type=pem, help="this client's private key (for a tls:// scheduler)")
    parser.add_argument("--insecure", action="store_true",
                        help="allow a plain tcp:// scheduler off this machine (anyone who can reach it, or the "
                             "network between, can run code on its workers and in this process)")
    parser.add_argument("--scheduler-timeout", metavar="SECONDS", type=float_in(0), default=None,
                        help="how long to try to reach a --scheduler address before giving up (default 10)")
    parser.set_defaults(_runner_options=True)


def _scheduler_address(text: str) -> SchedulerAddress:
    from ..runtime.scheduler import parse_scheduler  # lazy: only --scheduler needs it, and every command loads cliargs
    try:
        return parse_scheduler(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
_scheduler_address.__name__ = "scheduler address"


def _check_runner_options(ns: argparse.Namespace, error: Callable[[str], NoReturn]) -> None:
    """--scheduler with its TLS files and --insecure, checked together (scheduler.checked_scheduler)."""
    # lazy: only --scheduler needs it, and every command loads cliargs
    from ..runtime.scheduler import checked_scheduler
    try:
        files = [None if f is None else str(f) for f in (ns.tls_ca_file, ns.tls_cert, ns.tls_key)]
        ns.tls_ca_file, ns.tls_cert, ns.tls_key = files
        ns.scheduler = checked_scheduler(ns.scheduler, files[0], files[1], files[2], ns.insecure)
    except ValueError as exc:
        error(str(exc))
    if ns.scheduler_timeout is not None:
        if ns.scheduler is None or ns.scheduler == "local":
            error("--scheduler-timeout is for a scheduler's address: give --scheduler tcp://... or tls://...")
        ns.scheduler.connect_timeout = ns.scheduler_timeout

def add_accelerate_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--accelerate", action=argparse.BooleanOptionalAction, default=True,
                        help="answer the ROM's LINE-ADDR from a table of its own results: the same machine at "
                             "every frame end, in less CPU (harness/spectrum/accelerate.py; on by default; "
                             "--no-accelerate: the plain ROM). RZX-recorded games always run on the plain ROM")


@contextmanager
def naming_flags(words: Mapping[str, Callable[[str], str]]) -> Iterator[None]:
    """Library code run by a command: an error it marked with a fix in its own terms (errors.needing) that
    *words* knows is raised again, of the same class, as ``words[fix](message)``: the command names its flag.
    Every other error passes as it is."""
    try:
        yield
    except HarnessError as exc:
        word = words.get(exc.fix) if exc.fix is not None else None
        if word is None:
            raise
        raise type(exc)(word(str(exc))) from None
