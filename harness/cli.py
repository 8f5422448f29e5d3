"""`cribbage-zx`: one entry point, each command an argparse subcommand, one domain error per failure.

Each command module gives `add_arguments(parser)` and `execute(args)` (and a
`main(argv)` for tests); this dispatcher builds one parser from them, so
`cribbage-zx --help` and `cribbage-zx COMMAND --help` work for every command,
and turns any domain error into a one-line message on stderr and exit status
2, so a user sees the file, line or option and the reason rather than a
traceback. Ctrl-C is exit status 130.
"""
from __future__ import annotations

import argparse
import importlib
import signal
import sys

from .cliargs import ArgParser
from .errors import HarnessError, UsageError

#: name -> (module with add_arguments/execute, one line of help)
COMMANDS = {
    "build": ("harness.build", "build the tape (and a WAV or TZX) from the listing"),
    "regress": ("harness.game.regress", "play and check whole games"),
    "sweep": ("harness.game.sweep", "exhaustive checks of the scoring routines"),
    "snapshot": ("harness.snapshot_cmd", "save the game at a line as a .z80"),
    "bench": ("harness.bench", "emulator speed, or the job runner's (--runner)"),
    "html": ("harness.edition.command", "the browsable HTML edition of the listing"),
    "play": ("harness.play.command", "play the game yourself in a window (--turbo, --referee)"),
    "fairness": ("harness.game.fairness", "the cut, the deals and the starters against a fair deck (chi-square)"),
    "strength": ("harness.game.strength", "how strong the program plays: matches, discards, pegging, intervals"),
}
#: commands whose module parses its own arguments: name -> (module with main(argv), help)
PASS_THROUGH: dict[str, tuple[str, str]] = {}


def _stats_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("what", choices=("hands",), help="hands: the distribution of show scores over every deal")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")


def _stats_execute(args: argparse.Namespace) -> int:
    from .cribbage import stats
    return stats.main([args.what] + (["--json"] if args.json else []))


def build_parser() -> ArgParser:
    parser = ArgParser(prog="cribbage-zx", error_class=UsageError,
                       description="«КРИБЕДЖ» on an embedded ZX Spectrum 48K: build the tape, play and check it.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=ArgParser)
    for name, (module_name, help_) in COMMANDS.items():
        module = importlib.import_module(module_name)
        if not hasattr(module, "add_arguments"):          # a module that parses its own argv
            _pass_through(commands, name, module_name, help_)
            continue
        doc = (module.__doc__ or help_).strip().splitlines()[0]
        sub = commands.add_parser(name, help=help_, description=doc, error_class=UsageError)
        module.add_arguments(sub)
        sub.set_defaults(execute=module.execute)
    sub = commands.add_parser("stats", help="rules statistics (stats hands)", error_class=UsageError,
                              description="Rules statistics: the distribution of show scores over every deal.")
    _stats_arguments(sub)
    sub.set_defaults(execute=_stats_execute)
    for name, (module_name, help_) in PASS_THROUGH.items():
        _pass_through(commands, name, module_name, help_)
    return parser


def _pass_through(commands, name: str, module_name: str, help_: str) -> None:
    """A subcommand whose arguments (--help included) go to the module's own main(argv)."""
    sub = commands.add_parser(name, help=help_ + f" (cribbage-zx {name} --help)", add_help=False,
                              error_class=UsageError)
    sub.add_argument("args", nargs=argparse.REMAINDER)
    sub.set_defaults(execute=lambda args: importlib.import_module(module_name).main(args.args))


def main(argv: list[str]) -> int:
    parser = build_parser()
    if not argv:
        parser.print_usage(sys.stderr)
        print("cribbage-zx: a COMMAND is needed (cribbage-zx --help lists them)", file=sys.stderr)
        return 2
    args = parser.parse_args(argv)
    if args.command is None:
        raise UsageError(f"cribbage-zx: a COMMAND is needed\n{parser.format_usage().strip()}")
    return args.execute(args)


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP: stopped as by Ctrl-C (workers stopped, the report marked interrupted, the lock
    released), with exit status 128 + the signal's number."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def _terminated(signum, frame) -> None:
    for sig in (signal.SIGTERM, signal.SIGHUP):        # a second one ends the process at once
        signal.signal(sig, signal.SIG_DFL)
    raise Terminated(signum)


def run(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _terminated)
    try:
        code = main(argv)
    except Terminated as exc:
        print(f"cribbage-zx: terminated by {signal.Signals(exc.signum).name}", file=sys.stderr)
        code = 128 + exc.signum
    except KeyboardInterrupt:
        print("cribbage-zx: interrupted", file=sys.stderr)
        code = 130
    except (HarnessError, OSError) as exc:  # what the user can act on; anything else is a bug: traceback
        _say(exc)
        code = 2
    sys.exit(code)


def _say(exc: BaseException) -> None:
    text = str(exc)
    print(text if text.startswith("cribbage-zx") else f"cribbage-zx: {text}", file=sys.stderr)


if __name__ == "__main__":
    run()
