"""`cribbage-zx`: one entry point, each command an argparse subcommand, one domain error per failure.

Each command module gives `add_arguments(parser)` and `execute(args)` (and a
`main(argv)` for tests); this dispatcher builds one parser from them, so
`cribbage-zx --help` and `cribbage-zx COMMAND --help` work for every command,
and turns any domain error into a one-line message on stderr and exit status
2, so a user sees the file, line or option and the reason rather than a
traceback. Ctrl-C is exit status 130.
"""
from __future__ import annotations

import importlib
import os
import signal
import sys
from types import FrameType
from typing import TYPE_CHECKING, Callable

from . import __version__
from .errors import HarnessError, UsageError

if TYPE_CHECKING:
    import argparse
    from .commands.cliargs import ArgParser

#: name -> (module with add_arguments/execute, one line of help)
COMMANDS = {
    "build": ("harness.commands.build", "build the tape (and a WAV or TZX) from the listing"),
    "regress": ("harness.commands.regress", "play and check whole games"),
    "sweep": ("harness.commands.sweep", "exhaustive checks of the scoring routines"),
    "snapshot": ("harness.commands.snapshot", "save the game at a line as a .z80"),
    "bench": ("harness.commands.bench", "emulator speed, or the job runner's (--runner)"),
    "html": ("harness.commands.html", "the browsable HTML edition of the listing"),
    "play": ("harness.commands.play", "play the game yourself in a window (--turbo, --referee)"),
    "fairness": ("harness.commands.fairness", "the cut, the deals and the starters against a fair deck (chi-square)"),
    "strength": ("harness.commands.strength", "how strong the program plays: matches, discards, pegging, intervals"),
    "stats": ("harness.commands.stats", "rules statistics (stats hands)"),
    "readings": ("harness.commands.readings", "a variant tape per other reading of the scan, played and compared"),
    "conformance": ("harness.commands.conformance", "our Z80 core against z80-python and SkoolKit (--lockstep: on our workload)"),
}


def build_parser(only: str | None = None) -> ArgParser:
    """The whole parser; with *only* (the command on the line) just that command's module is imported,
    the others listed by name and help (a run does not pay for importing every command's libraries). Imported
    here, not at the top: a Ctrl-C while it imports is then inside `run`'s handling (one line, status 130)."""
    from .commands.cliargs import ArgParser  # lazy: inside `run`'s Ctrl-C handling (the docstring says why)
    parser = ArgParser(prog="cribbage-zx", error_class=UsageError,
                       description="«КРИБЕДЖ» on an embedded ZX Spectrum 48K: build the tape, play and check it.")
    parser.add_argument("--version", action="version", version=f"cribbage-zx {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=ArgParser)
    for name, (module_name, help_) in COMMANDS.items():
        if only is not None and name != only:
            commands.add_parser(name, help=help_, error_class=UsageError)
            continue
        module = importlib.import_module(module_name)
        doc = (module.__doc__ or help_).strip().splitlines()[0]
        sub = commands.add_parser(name, help=help_, description=doc, error_class=UsageError)
        module.add_arguments(sub)
        sub.set_defaults(execute=module.execute)
    return parser



def main(argv: list[str]) -> int:
    # only the command on the line is imported; with none (--version, --help, a mistyped name) no command is
    parser = build_parser(argv[0] if argv and argv[0] in COMMANDS else "")
    if not argv:
        parser.print_usage(sys.stderr)
        print("cribbage-zx: a COMMAND is needed (cribbage-zx --help lists them)", file=sys.stderr)
        return 2
    args = parser.parse_args(argv)
    if args.command is None:
        raise UsageError(f"cribbage-zx: a COMMAND is needed\n{parser.format_usage().strip()}")
    execute: Callable[[argparse.Namespace], int] = args.execute       # the command's, set by build_parser
    return execute(args)


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP: stopped as by Ctrl-C (workers stopped, the report marked interrupted, the lock
    released), with exit status 128 + the signal's number."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


#: the process `run` was called in: a worker forked from it inherits the handler but is not the command
_COMMAND_PID: int | None = None


def _terminated(signum: int, frame: FrameType | None) -> None:
    if os.getpid() != _COMMAND_PID:                   # a forked worker, stopped by its parent: die of the signal
        signal.signal(signum, signal.SIG_DFL)         # quietly (not a traceback from inside fork's own clean-up)
        os.kill(os.getpid(), signum)
        return
    for sig in (signal.SIGTERM, signal.SIGHUP):        # a second one ends the process at once
        signal.signal(sig, signal.SIG_DFL)
    raise Terminated(signum)


def run(argv: list[str] | None = None) -> int:
    global _COMMAND_PID
    _COMMAND_PID = os.getpid()
    argv = sys.argv[1:] if argv is None else argv
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _terminated)
    try:
        try:
            code = main(argv)
        except Exception as exc:                   # a signal inside an import: Python wraps it (a dataclass's
            stop = _signal_in(exc)                 # __set_name__ raises RuntimeError from the KeyboardInterrupt)
            if stop is None:
                raise
            raise stop from None
    except Terminated as exc:
        print(f"cribbage-zx: terminated by {signal.Signals(exc.signum).name}{_said(exc)}", file=sys.stderr)
        code = 128 + exc.signum
        _handled_interrupt()
    except KeyboardInterrupt as exc:
        print(f"cribbage-zx: interrupted{_said(exc)}", file=sys.stderr)
        code = 130
        _handled_interrupt()
    except (HarnessError, OSError) as exc:  # what the user can act on; anything else is a bug: traceback
        _say(exc)
        code = 2
    sys.exit(code)


def _handled_interrupt() -> None:
    """Tell CPython the KeyboardInterrupt was handled. A Ctrl-C that lands in code run by exec() of a string (a
    dataclass's generated __init__, while a command's modules are imported) sets its _Py_UnhandledKeyboardInterrupt
    however the exception is caught afterwards, and the interpreter then ends by killing itself with SIGINT
    (status -2, not our 130)."""
    try:
        import ctypes         # lazy: needed only after a Ctrl-C
        ctypes.c_int.in_dll(ctypes.pythonapi, "_Py_UnhandledKeyboardInterrupt").value = 0
    except (ImportError, AttributeError, ValueError, OSError):
        pass                                       # another Python: it has no such flag to clear


def _signal_in(exc: BaseException) -> KeyboardInterrupt | None:
    """The Ctrl-C or SIGTERM an error was raised from (its cause or context, at any depth), or None."""
    seen = set()
    link: BaseException | None = exc
    while link is not None and id(link) not in seen:
        seen.add(id(link))
        if isinstance(link, KeyboardInterrupt):
            return link
        link = link.__cause__ or link.__context__
    return None


def _said(exc: BaseException) -> str:
    """What a command that stopped on a signal added to say (what it kept, what is left undone)."""
    said = getattr(exc, "said", None)
    return f"; {said}" if said else ""


def _say(exc: BaseException) -> None:
    text = str(exc)
    print(text if text.startswith("cribbage-zx") else f"cribbage-zx: {text}", file=sys.stderr)


if __name__ == "__main__":
    run()
