"""`cribbage-zx fairness`: are the program's cut for deal, deals and starters what a fair deck gives?

The command line only: what it runs, and why, is told in harness/program/runs/fairness.py.
"""
from __future__ import annotations

import argparse
import json
import sys

from pathlib import Path

from ..program.runs.fairness import RANKS, Group, analyse, chi_square, classify_flags, read_runs, sample_cuts, table
from ..errors import UsageError
from ..runtime import atomic
from .cliargs import add_runner_options, float_in, input_folder, int_in, output_folder, command_parser
from ..runtime.outdir import claimed
from ..program.runs import regress


_GAMES, _PER_MACHINE, _OUT = 40, 2, Path("out/fairness")
#: the options that play new games, at their defaults: with --from, any other value is refused
_DEFAULTS = {"games": _GAMES, "per_machine": _PER_MACHINE, "out": _OUT, "replace": False, "scheduler": None}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int_in(1, 100_000), default=_GAMES,
                        help="machines to play on (default 40); each plays --per-machine games in a row")
    parser.add_argument("--per-machine", type=int_in(1, 20), default=_PER_MACHINE,
                        help="games played in a row on each machine (default 2: a first and a later game)")
    parser.add_argument("--seed", type=int_in(0, 65535), default=1, help="seed of the first machine (default 1)")
    add_runner_options(parser, "games")
    parser.add_argument("--out", type=output_folder("fairness"), default=_OUT,
                        help="output folder for the games and fairness.json (default out/fairness)")
    parser.add_argument("--replace", action="store_true", help="clear --out first when it holds an earlier run")
    parser.add_argument("--from", dest="runs", type=input_folder("folder of transcripts", holds="game-*.jsonl"), action="append", metavar="DIR",
                        help="read the transcripts of earlier regress runs instead of playing (repeatable)")
    parser.add_argument("--cuts", type=int_in(0, 1_000_000), default=0,
                        help="also sample this many cuts for deal alone (first games, a fraction of a second each)")
    parser.add_argument("--alpha", type=float_in(0.0, 1.0), default=0.001,
                        help="flag a distribution whose p-value is below this (default 0.001)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def execute(args: argparse.Namespace) -> int:
    from ..edition.report import write_report_html   # the view, imported when the command runs (a quick --help)
    if args.runs:
        given = [f"--{name.replace('_', '-')}" for name in ("games", "per_machine", "out", "replace", "scheduler")
                 if getattr(args, name) != _DEFAULTS[name]]
        if given:
            raise UsageError(f"--from reads earlier runs: {', '.join(given)} would play new games and does not go "
                             f"with it")
        machines = read_runs(args.runs, given_as="--from")
        out = None
    else:
        regress.run(args.games, args.seed, args.workers, args.out,
                    regress.RegressOptions(strategies=(f"series:{args.per_machine}",), scheduler=args.scheduler,
                                           progress=not args.quiet, replace=args.replace, command="fairness"),
                    report_page=write_report_html)
        machines = read_runs([args.out])
        out = args.out / "fairness.json"
    result = analyse(machines, args.alpha)
    if args.cuts:
        cuts = sample_cuts(args.cuts, args.seed + 50_000, args.workers, args.scheduler)
        test = chi_square(cuts.cuts, RANKS)
        test.flag(args.alpha)
        result.groups["first games, cuts alone"] = Group(games=cuts.games, deals=0,
                                                         tests={"cut for deal (player's rank)": test})
    classify_flags(result)
    if out is not None:
        with claimed(args.out, "fairness", resume=True, wait=10):
            atomic.write_json(out, result.as_json(), indent=1, sort_keys=True)
    print(json.dumps(result.as_json(), indent=1, sort_keys=True) if args.json else table(result))
    if out is not None and not args.json:
        print(f"fairness: {out}")
    return 1 if result.unexplained() else 0


def main(argv: list[str]) -> int:
    return execute(command_parser(sys.modules[__name__], "cribbage-zx fairness", UsageError).parse_args(argv))
