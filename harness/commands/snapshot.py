"""`cribbage-zx snapshot --at LINE [--answer TEXT ...] PATH.z80`: the game at a chosen line, as a .z80 for any emulator.

The command line only: what it runs, and why, is told in harness/program/model/snapshot.py.
"""
from __future__ import annotations

import argparse
import sys


from ..program.model.build import DEFAULT_TAP, tape_path
from ..program.model.snapshot import LOAD_COMMAND, MAX_FRAMES, run_to_line
from ..errors import UsageError
from ..runtime import atomic
from .cliargs import TAPE_IN, add_replace_option, looks_like_z80, command_parser, int_in, naming_flags, output_file
from ..spectrum import z80snap
from ..spectrum.machine import Spectrum48
from ..spectrum.tape import read_tap
from ..spectrum.typist import Typist


def _typable(text: str) -> str:
    """An argparse type: an answer the Spectrum's keyboard can type (printable ASCII, or a key's name)."""
    bad = sorted({c for c in text if not " " <= c <= "~"})
    if bad:
        raise argparse.ArgumentTypeError(f"{text!r}: the Spectrum cannot type {''.join(bad)!r} "
                                         f"(answers are ASCII letters, digits and signs, or a key such as ENTER)")
    return text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--at", type=int_in(0, 9999), required=True, metavar="LINE",
                        help="stop at the start of this line (0..9999)")
    parser.add_argument("--statement", type=int_in(1, 127), default=None, help="... at this statement of it")
    parser.add_argument("--answer", action="append", default=[], metavar="TEXT", type=_typable,
                        help="the answer to the next wait (INPUT text, or a key)")
    parser.add_argument("--tape", type=TAPE_IN, default=DEFAULT_TAP, help="tape to load (default: the built game)")
    parser.add_argument("--max-frames", type=int_in(1, 10_000_000), default=MAX_FRAMES,
                        help=f"give up after this many frames (default {MAX_FRAMES})")
    parser.add_argument("--uncompressed", action="store_true", help="store memory blocks as they are")
    add_replace_option(parser, "PATH.z80")
    parser.add_argument("output", type=output_file(".z80", looks_like_z80), help=".z80 file to write")


def execute(args: argparse.Namespace) -> int:
    tape = tape_path(args.tape)
    machine = Spectrum48(fast=True)
    machine.boot()
    machine.insert_tape(read_tap(tape))
    Typist(machine).type_codes(LOAD_COMMAND)
    with naming_flags({"answers": lambda m: m.replace("no answer is left", "no --answer is left")}):
        used = run_to_line(machine, args.at, args.statement, args.answer, args.max_frames)
    with atomic.replacing(args.output) as tmp:
        snap = z80snap.save(machine, tmp, compressed=not args.uncompressed)
    print(f"{args.output}: line {machine.ppc}:{machine.subppc}, PC={snap.regs['pc']:#06x}, "
          f"{machine.frames} frames after power-on, {used} answer(s) used")
    return 0


def main(argv: list[str]) -> int:
    return execute(command_parser(sys.modules[__name__], "cribbage-zx snapshot", UsageError).parse_args(argv))
