"""`cribbage-zx`: one entry point, one `main(args)` per command, one domain error per failure.

Each command module raises its own error class; this dispatcher turns any of
them into a one-line message on stderr and exit status 2, so a user sees the
file, line and reason rather than a traceback.
"""
from __future__ import annotations

import importlib
import sys

from .errors import HarnessError

COMMANDS = {
    "regress": ("harness.game.regress", "play and check whole games: cribbage-zx regress --games N --seed S --workers W --out DIR"),
    "sweep": ("harness.game.sweep", "exhaustive checks of the scoring routines: cribbage-zx sweep show|play|discard [--workers W] --out DIR"),
    "build": ("harness.build", "build the tape: cribbage-zx build [-o PATH]"),
    "bench": ("harness.bench", "emulator speed: cribbage-zx bench [--json]"),
    "snapshot": ("harness.snapshot_cmd", "save the game at a line: cribbage-zx snapshot --at LINE [--answer TEXT ...] PATH.z80"),
    "stats": ("harness.cribbage.stats", "rules statistics: cribbage-zx stats hands [--json]"),
}


class CliError(HarnessError):
    """A command line that names no known command."""


def usage() -> str:
    lines = ["usage: cribbage-zx COMMAND [ARGS]", "commands:"]
    lines += [f"  {name:8} {help_}" for name, (_, help_) in COMMANDS.items()]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(usage())
        return 0
    name, args = argv[0], argv[1:]
    if name not in COMMANDS:
        raise CliError(f"unknown command {name!r}\n{usage()}")
    module = importlib.import_module(COMMANDS[name][0])
    return module.main(args)


def run(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        code = main(argv)
    except KeyboardInterrupt:
        print("cribbage-zx: interrupted", file=sys.stderr)
        code = 130
    except (HarnessError, OSError) as exc:  # what the user can act on; anything else is a bug: traceback
        print(f"cribbage-zx: {exc}", file=sys.stderr)
        code = 2
    sys.exit(code)


if __name__ == "__main__":
    run()
