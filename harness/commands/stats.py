"""`cribbage-zx stats hands`: rules statistics from the engine alone, the distribution of show scores over every deal."""
from __future__ import annotations

import argparse
import json
import sys

from ..cribbage import stats
from ..errors import UsageError
from .cliargs import command_parser


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("what", choices=("hands",), help="hands: the distribution of show scores over every deal")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")


def execute(args: argparse.Namespace) -> int:
    report = stats.hands_report()
    print(json.dumps(report) if args.json else stats.format_table(report))
    return 0


def main(argv: list[str]) -> int:
    return execute(command_parser(sys.modules[__name__], "cribbage-zx stats", UsageError).parse_args(argv))
