"""`cribbage-zx sweep show|play|discard`: the program's scoring routines against the engine, exhaustively.

The command line only: what it runs, and why, is told in harness/program/runs/sweep.py.
"""
from __future__ import annotations

import argparse
import json
import sys

from pathlib import Path

from ..program.model.build import tape_bytes
from ..program.runs.play_cases import BUSY_WORKERS, CHUNKS_PER_WORKER, MAX_CHUNK, PlayChoice
from ..program.runs.sweep import SweepSettings, discard_report, run_sweep
from ..errors import UsageError
from ..runtime import atomic
from .cliargs import TAPE_IN, add_accelerate_option, add_runner_options, command_parser, int_in, naming_flags, output_folder
from ..runtime.outdir import claimed


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("what", choices=("show", "play", "discard"), help="which routine to sweep")
    add_runner_options(parser, "chunks")
    parser.add_argument("--out", type=output_folder("sweep"), default=Path("out/sweep"), help="output folder (default out/sweep)")
    parser.add_argument("--replace", action="store_true",
                        help="start afresh: clear OUT/<sweep> instead of resuming from its finished chunks")
    parser.add_argument("--tape", type=TAPE_IN,
                        help="the tape whose routines to call (default: build/cribbage.tap, built when stale)")
    parser.add_argument("--samples", type=int_in(1, 10_000_000), default=400,
                        help="discard: six-card hands to sample (default 400)")
    parser.add_argument("--seed", type=int_in(0, 2**32 - 1), default=1, help="seed of the samples (default 1)")
    parser.add_argument("--limit", type=int_in(1), help="only the first N cases (a quick look)")
    parser.add_argument("--chunk", type=int_in(1, 100_000),
                        help=f"cases per chunk (default: at most {MAX_CHUNK}, and about {CHUNKS_PER_WORKER} "
                             f"chunks for each of {BUSY_WORKERS} workers)")
    parser.add_argument("--max-suffix", type=int_in(1, 7), default=7,
                        help="play: run every situation whose distinct suffix is at most this long "
                             "(7, the default, is every situation: about an hour with 2 workers)")
    parser.add_argument("--sample", type=int_in(0), default=0, help="play: longer situations to sample")
    parser.add_argument("--quick", action="store_true",
                        help="play: every situation with a distinct suffix of up to 4 cards and a "
                             "sample of 4000 longer ones (about 5 minutes)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    add_accelerate_option(parser)


def execute(args: argparse.Namespace) -> int:
    if args.what == "discard":
        tape = tape_bytes(args.tape)
        with claimed(args.out, "sweep", resume=True):            # refused before the work, held while it runs
            discards = discard_report(args.samples, args.seed, tape)
            atomic.write_json(args.out / "discard-report.json", discards.as_json(), indent=1)
        print(json.dumps(discards.as_json(), indent=1))
        return 0
    if args.quick:
        args.max_suffix, args.sample = 4, 4000
    play = None if args.what == "show" else PlayChoice(max_suffix=args.max_suffix, sample=args.sample,
                                                        seed=args.seed)
    settings = SweepSettings(workers=args.workers, chunk=args.chunk, limit=args.limit, progress=not args.quiet,
                             scheduler=args.scheduler, replace=args.replace, tap=args.tape,
                             accelerate=args.accelerate, play=play)
    with naming_flags(FLAGS):
        report = run_sweep(args.what, args.out, settings)
    print(f"{args.what}: {report.cases_checked} cases checked (weight {report.weight_checked}), "
          f"{len(report.groups)} disagreement group(s), {report.unexplained_groups} unexplained, "
          f"{report.harness_failures} harness failure(s)")
    for g in report.groups:
        print(f"  {g.cause}: {g.cases} cases, weight {g.weight}, deviation {g.deviation or '-'}; "
              f"example {json.dumps(g.example, ensure_ascii=False)}")
    print(f"report: {args.out / (args.what + '-report.json')}")
    return 1 if report.unexplained_groups or report.harness_failures or report.chunks_missing else 0


#: run_sweep's fixes (errors.needing) in the command's words
FLAGS = {"replace": lambda m: f"{m}; use --replace to start afresh",
         "replace or another out": lambda m: f"{m}; use --replace to start afresh, or another --out"}


def main(argv: list[str]) -> int:
    return execute(command_parser(sys.modules[__name__], "cribbage-zx sweep", UsageError).parse_args(argv))
