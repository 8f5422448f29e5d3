"""`cribbage-zx strength`: how strong the magazine's computer player is, measured in whole games.

The command line only: what it runs, and why, is told in harness/program/runs/strength.py.
"""
from __future__ import annotations

import argparse
import sys


from ..program.runs.strength import DEFAULT_OUT, OPPONENTS, StrengthOptions, reanalyse, run, summary_table
from .cliargs import TAPE_IN, add_runner_options, command_parser, input_folder, int_in, output_folder
from ..errors import UsageError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int_in(1, 100_000), default=6,
                        help="games of the program against each opponent (default 6)")
    parser.add_argument("--seed", type=int_in(0, 65535), default=1,
                        help="seed of the first game (default 1); game i is seeded from seed+i, spread over 0..65535")
    parser.add_argument("--opponent", choices=OPPONENTS, action="append",
                        help="automated opponent (repeatable; default: random, greedy, ev in turn)")
    parser.add_argument("--engine-games", type=int_in(0, 1_000_000), default=2000,
                        help="rules-engine self-play games per pairing (default 2000, about 0.05 CPU-s each)")
    add_runner_options(parser, "games")
    parser.add_argument("--out", type=output_folder("strength"), help="output folder (default out/strength; with --from, the folder "
                                                    "studied is rewritten unless --out names another)")
    parser.add_argument("--replace", action="store_true", help="clear --out first when it holds an earlier run")
    parser.add_argument("--tape", type=TAPE_IN, help="the tape to play (default: build/cribbage.tap, built when stale)")
    parser.add_argument("--from", dest="from_dir", type=input_folder("strength run", commands=("strength",), writes=True), metavar="DIR", action="append",
                        help="play nothing: study the transcripts in DIR again and rewrite its report and page; "
                             "repeated, study several runs' games together into --out")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def execute(args: argparse.Namespace) -> int:
    from ..edition.strength import write_strength_page   # the view, imported when the command runs (a quick --help)
    if args.from_dir:
        out = args.out if args.out is not None or len(args.from_dir) == 1 else DEFAULT_OUT
        report = reanalyse(args.from_dir, args.workers, StrengthOptions(engine_games=args.engine_games,
                                                                         scheduler=args.scheduler, replace=args.replace),
                           page=write_strength_page, out=out)
        where = out or args.from_dir[0]
    else:
        where = args.out or DEFAULT_OUT
        options = StrengthOptions(opponents=tuple(args.opponent or OPPONENTS), engine_games=args.engine_games,
                                  tap=args.tape, scheduler=args.scheduler, replace=args.replace,
                                  progress=not args.quiet)
        report = run(args.games, args.seed, args.workers, where, options, page=write_strength_page)
    print(summary_table(report))
    print(f"report: {where / 'report.json'}, page: {where / 'strength.html'}")
    return 1 if report.harness_failures else 0


def main(argv: list[str]) -> int:
    return execute(command_parser(sys.modules[__name__], "cribbage-zx strength", UsageError).parse_args(argv))
