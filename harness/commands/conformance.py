"""`cribbage-zx conformance`: our Z80 core against z80-python and SkoolKit, every opcode group; and in lockstep on our workload.

Without options: K seeded random states for every opcode of every prefix group, one instruction on each
core, the table per group and every unexplained disagreement with its exact state (exit 1 if any).
`--write-docs PAGE` writes the table into the page's generated part (docs/CONFORMANCE.md).
`--lockstep` runs the tape's LOAD, the title and the first deal on our core and z80-python instruction
by instruction (`--budget N` stops after N instructions), with its count and CPU time.
"""
from __future__ import annotations

import argparse
import sys
import time

from ..errors import InputError, UsageError
from ..program.model import build
from ..oracle import conformance, lockstep
from ..runtime import atomic
from .cliargs import add_replace_option, command_parser, output_file, page_file


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-k", type=int, default=conformance.DOCS_K,
                        help=f"random states per opcode (default {conformance.DOCS_K})")
    parser.add_argument("--seed", type=int, default=conformance.DOCS_SEED, help="the states' seed (default 1)")
    parser.add_argument("--groups", nargs="+", choices=list(conformance.GROUPS), metavar="GROUP",
                        help="only these opcode groups: " + ", ".join(conformance.GROUPS))
    parser.add_argument("--no-skoolkit", action="store_true", help="leave SkoolKit's simulator out")
    parser.add_argument("--write-docs", metavar="PAGE", type=page_file(
                            "page", lambda d: conformance.DOCS_BEGIN.encode() in d and conformance.DOCS_END.encode() in d,
                            "no generated part between the conformance markers"),
                        help="write the table into PAGE's generated part (docs/CONFORMANCE.md)")
    parser.add_argument("--lockstep", action="store_true",
                        help="instead: our workload (LOAD, title, first deal) on z80 and z80-python in lockstep")
    parser.add_argument("--budget", type=int, metavar="N", help="with --lockstep: stop after N instructions")
    parser.add_argument("--opcodes", type=output_file("lockstep record", lambda h: b'"made_by": "cribbage-zx conformance' in h),
                        metavar="JSON",
                        help="with --lockstep: write the distinct opcodes compared, and the run, to JSON")
    add_replace_option(parser, "--opcodes")


def execute(args: argparse.Namespace) -> int:
    if args.k < 1:
        raise UsageError(f"-k {args.k}: at least one state per opcode")
    if args.budget is not None and (not args.lockstep or args.budget < 1):
        raise UsageError("--budget N (N >= 1) goes with --lockstep")
    if args.opcodes is not None and not args.lockstep:
        raise UsageError("--opcodes JSON goes with --lockstep")
    if args.lockstep:
        run = lockstep.run_workload(build.build().tap, budget=args.budget)
        print(run.describe())
        if args.opcodes is not None:
            atomic.write_json(args.opcodes, {
                "made_by": "cribbage-zx conformance --lockstep" + (f" --budget {args.budget}" if args.budget else "")
                + f" --opcodes {args.opcodes.name}", "run": run.describe(), "instructions": run.instructions,
                "opcodes": sorted(run.opcodes)}, indent=1)
            print(f"wrote {args.opcodes}")
        return 1 if run.divergence else 0
    start = time.process_time()
    result = conformance.run(args.k, args.seed, args.groups, conformance.steppers(not args.no_skoolkit))
    print(f"cores: {', '.join(result.cores)}; K = {args.k}, seed {args.seed}; "
          f"{time.process_time() - start:.1f} CPU s")
    print(conformance.table(result))
    for d in result.unexplained:
        print("UNEXPLAINED " + d.describe())
    if args.write_docs:
        try:
            page = args.write_docs.read_text(encoding="utf-8")
        except OSError as e:
            raise InputError(f"{args.write_docs}: {e.strerror}") from None
        atomic.write_text(args.write_docs, conformance.replace_block(page, conformance.docs_block(result),
                                                                     str(args.write_docs)))
        print(f"wrote {args.write_docs}")
    return 1 if result.unexplained else 0


def main(argv: list[str]) -> int:
    return execute(command_parser(sys.modules[__name__], "cribbage-zx conformance", UsageError).parse_args(argv))
