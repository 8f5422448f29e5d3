"""`cribbage-zx regress`: play N whole games of the BASIC program and check every score.

The command line only: what it runs, and why, is told in harness/program/runs/regress.py.
"""
from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path

from ..program.records.events import ChoiceKind
from ..program.observe.players import PLAYERS
from ..program.runs.regress import (STRATEGIES, THOROUGH_SET, RegressOptions, RegressReport, run,
                                       summary_table)
from .cliargs import TAPE_IN, add_accelerate_option, add_runner_options, command_parser, int_in, output_folder
from ..errors import UsageError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int_in(1, 100_000), default=6, help="games to play (default 6)")
    parser.add_argument("--seed", type=int_in(0, 65535), default=1,
                        help="seed of the first game, 0..65535 (default 1); game i is seeded from seed+i, spread over 0..65535")
    add_runner_options(parser, "games")
    parser.add_argument("--out", type=output_folder("regress"), default=Path("out/regress"), help="output folder (default out/regress)")
    parser.add_argument("--replace", action="store_true",
                        help="clear --out first when it holds an earlier run (without it a used folder is refused)")
    parser.add_argument("--tape", type=TAPE_IN,
                        help="the tape to play (default: build/cribbage.tap, built when missing or stale)")
    parser.add_argument("--strategy", choices=sorted(PLAYERS), action="append",
                        help="player strategy (repeatable; default: random, greedy, adversarial in turn)")
    parser.add_argument("--thorough", action="store_true",
                        help="after the --games games, also play the thorough set (every choice a person has, "
                             "several games on one machine, the answers that stop the program): "
                             + ", ".join(THOROUGH_SET))
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--rzx", action="store_true",
                        help="also record each game as game-NNN.rzx (an RZX input recording Fuse and SkoolKit "
                             "replay) with game-NNN-end.z80; the games then run at real timing (BEEP and PAUSE "
                             "not skipped), with the same transcripts")
    parser.add_argument("--core", choices=("z80", "skoolkit"), default="z80",
                        help="the CPU core: z80 (default) or skoolkit, SkoolKit's simulator as a second core "
                             "(GPL, a test oracle: the 'oracle' extra; about 13 times slower)")
    add_accelerate_option(parser)
    parser.add_argument("--no-html", action="store_true",
                        help="write the records and report.json only, not report.html, its plots and the listing "
                             "edition (about 2.5 CPU s); `cribbage-zx html --report OUT` writes them later, the same")




def reach_lost(report: RegressReport) -> list[str]:
    """What a thorough run must reach and did not: statements or IF outcomes that neither ran nor have a
    note (coverage_notes.py), and kinds of choice (events.ChoiceKind) no player took."""
    cov = report.coverage
    lost = [f"{item}: neither run nor explained by a note" for item in cov.unexplained]
    lost += [f"choice {k.value!r}: never taken" for k in ChoiceKind if not cov.choices.get(k.value)]
    return lost


def exit_status(report: RegressReport, thorough: bool) -> int:
    """1 on any unexplained difference, BASIC error, timeout or harness failure; with --thorough also when
    the reach shrank (`reach_lost`)."""
    bad = (report.unexplained_differences or report.basic_errors or report.timeouts
           or report.harness_failures or (thorough and reach_lost(report)))
    return 1 if bad else 0


def refuse_combinations(args: argparse.Namespace) -> None:
    """The options that do not go together (regress.check_choices says why), named."""
    if args.rzx and args.core != "z80":
        raise UsageError(f"--rzx records on the z80 core only, not --core {args.core}")


def execute(args: argparse.Namespace) -> int:
    refuse_combinations(args)
    if args.no_html:
        report_page = None
    else:
        from ..edition.report import write_report_html   # the view, imported when the command runs (a quick --help)
        report_page = write_report_html
        if args.rzx:                                      # the recorded games' pages get the watch mode
            from ..web.watch import report_player  # lazy: only --rzx makes the player pages (0.17 s)
            player, why = report_player()
            if why:
                print(f"cribbage-zx regress: {why}", file=sys.stderr)
            report_page = functools.partial(write_report_html, player=player, no_player=why)
    options = RegressOptions(strategies=tuple(args.strategy or STRATEGIES), tap=args.tape, thorough=args.thorough,
                             rzx=args.rzx, core=args.core, accelerate=args.accelerate, scheduler=args.scheduler,
                             progress=not args.quiet, replace=args.replace)
    report = run(args.games, args.seed, args.workers, args.out, options, report_page=report_page)
    print(summary_table(report))
    if args.no_html:
        print(f"report: {args.out / 'report.json'} (report.html: cribbage-zx html --report {args.out})")
    else:
        print(f"report: {args.out / 'report.html'} (the data: report.json beside it)")
    if args.thorough:
        for item in reach_lost(report):
            print(f"cribbage-zx regress --thorough: {item}", file=sys.stderr)
    return exit_status(report, args.thorough)


def main(argv: list[str]) -> int:
    return execute(command_parser(sys.modules[__name__], "cribbage-zx regress", UsageError).parse_args(argv))
