"""`cribbage-zx snapshot --at LINE [--answer TEXT ...] PATH.z80`: the game at a chosen line, as a .z80 for any emulator.

The tape (built first if it is missing or older than the listing or the
font) is loaded in a fresh 48K as a person would, LOAD "" typed in the editor;
the program's waits are answered in order with the --answer texts (an INPUT
gets the text and ENTER; a wait on INKEY$ or PAUSE 0 gets one key: the text
names it, "" is ENTER), and the machine stops at the start of LINE and is
saved as a version 3 .z80 that Fuse, SkoolKit and `z80snap` read.
"""
from __future__ import annotations

import argparse
import sys
from collections import deque
from pathlib import Path

from . import atomic

from .errors import InputError, MachineError, UsageError
from .build import DEFAULT_TAP, FONT, LISTING, build
from .cliargs import command_parser, int_in
from .spectrum import z80snap
from .spectrum.machine import RunTimeout, Spectrum48
from .spectrum.tape import read_tap
from .spectrum.typist import Typist

MAX_FRAMES = 250_000      # about 83 emulated minutes: a finite limit for the whole run
LOAD_COMMAND = b'\xef""\r'  # LOAD "" ENTER, as loading.load_tape types it


def ensure_tape(path: Path) -> Path:
    """The tape to load: *path* itself, or for the default tape a fresh build when it is missing or stale."""
    path = Path(path)
    if path.resolve() != DEFAULT_TAP.resolve():
        from .spectrum.tape import read_program_tape
        read_program_tape(path)                        # a file that is not a program's tape: an InputError naming it
        return path
    from .build import ensure_tape as current_tape     # rebuilt when anything it is made from changed
    return current_tape(path)


def _tap_watching(machine: Spectrum48, key: str, target: tuple[int, int | None],
                  hold: int = 2, gap: int = 6) -> bool:
    """Press *key* for *hold* frames and release it for *gap*, stopping at once if the program reaches *target*.

    Returns True if it did. (Machine.tap would run those frames blind, and a
    line reached while a key is still down would be missed.)
    """
    for down, frames in ((True, hold), (False, gap)):
        (machine.press if down else machine.release)(key)
        end = machine.frames + frames
        stop = machine.run(frames + 1, until_line=target, until=lambda m: m.frames >= end,
                           stop_on_report=False, what="the end of a key press")
        if stop.kind == "line":
            machine.release()
            return True
    return False


def run_to_line(machine: Spectrum48, line: int, statement: int | None, answers: list[str],
                max_frames: int = MAX_FRAMES) -> int:
    """Run the loaded program to LINE, answering its waits in order; returns how many answers were used.

    An INPUT answer is typed by the typist (no program runs while it types)
    but its ENTER is pressed here, watching for the line, as is a key for
    INKEY$ or PAUSE 0.
    """
    left = deque(answers)
    start = machine.frames
    target = (line, statement)
    where = f"line {line}" + (f":{statement}" if statement else "")
    while True:
        budget = max_frames - (machine.frames - start)
        if budget <= 0:
            raise MachineError(f"{where} not reached within {max_frames} frames")
        stop = machine.run(budget, until_line=target, until_wait=True, what=where)     # or a RunTimeout
        if stop.kind == "line":
            machine.release()
            return len(answers) - len(left)
        if stop.kind == "report":
            raise MachineError(f"the program stopped with report {stop.report} before {where}")
        wait = stop.wait
        if wait.kind == "editor":
            raise MachineError(f"the program is back in the editor at {wait.line}:{wait.statement} "
                                   f"before {where}")
        if not left:
            what = "INPUT" if wait.kind == "input" else "a key"
            raise MachineError(f"the program waits for {what} at line {wait.line}:{wait.statement} "
                                   f"before {where}, and no --answer is left ({len(answers)} given)")
        answer = left.popleft()
        try:
            if wait.kind == "input":
                Typist(machine).type_codes(answer.encode("latin-1"))
                key = "ENTER"
            else:
                key = answer or "ENTER"
            if _tap_watching(machine, key, target):
                return len(answers) - len(left)
        except (InputError, MachineError, UnicodeEncodeError) as exc:
            raise MachineError(f"answer {answer!r} to the wait at line {wait.line}:{wait.statement}: {exc}") from exc


def _typable(text: str) -> str:
    """An argparse type: an answer the Spectrum's keyboard can type (printable ASCII, or a key's name)."""
    bad = sorted({c for c in text if not " " <= c <= "~"})
    if bad:
        raise argparse.ArgumentTypeError(f"{text!r}: the Spectrum cannot type {''.join(bad)!r} "
                                         f"(answers are ASCII letters, digits and signs, or a key such as ENTER)")
    return text


def _looks_like_z80(head: bytes) -> bool:
    """A file `snapshot` may replace: a .z80 of version 2 or 3 (PC 0 in the first header, then 23/54/55)."""
    return len(head) >= 32 and head[6:8] == b"\0\0" and int.from_bytes(head[30:32], "little") in (23, 54, 55)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--at", type=int_in(0, 9999), required=True, metavar="LINE",
                        help="stop at the start of this line (0..9999)")
    parser.add_argument("--statement", type=int_in(1, 127), default=None, help="... at this statement of it")
    parser.add_argument("--answer", action="append", default=[], metavar="TEXT", type=_typable,
                        help="the answer to the next wait (INPUT text, or a key)")
    parser.add_argument("--tape", type=Path, default=DEFAULT_TAP, help="tape to load (default: the built game)")
    parser.add_argument("--max-frames", type=int_in(1, 10_000_000), default=MAX_FRAMES,
                        help=f"give up after this many frames (default {MAX_FRAMES})")
    parser.add_argument("--uncompressed", action="store_true", help="store memory blocks as they are")
    parser.add_argument("output", type=Path, help=".z80 file to write")


def execute(args: argparse.Namespace) -> int:
    from .outdir import writable_file
    writable_file(args.output, _looks_like_z80, ".z80")
    tape = ensure_tape(args.tape)
    machine = Spectrum48(fast=True)
    machine.boot()
    machine.insert_tape(read_tap(tape))
    Typist(machine).type_codes(LOAD_COMMAND)
    used = run_to_line(machine, args.at, args.statement, args.answer, args.max_frames)
    with atomic.replacing(args.output) as tmp:
        snap = z80snap.save(machine, tmp, compressed=not args.uncompressed)
    print(f"{args.output}: line {machine.ppc}:{machine.subppc}, PC={snap.regs['pc']:#06x}, "
          f"{machine.frames} frames after power-on, {used} answer(s) used")
    return 0


def main(argv: list[str]) -> int:
    return execute(command_parser(sys.modules[__name__], "cribbage-zx snapshot", UsageError).parse_args(argv))
