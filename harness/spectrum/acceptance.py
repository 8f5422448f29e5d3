"""Would a real 48K take this program? The ROM itself decides, line by line and as a whole.

A tape is only worth writing if the machine it is for accepts it: every line
goes through the ROM's own syntax check (`romcheck.enter_program`, the editor
pressing ENTER), where a rejected line is shown as the ROM shows it, with
``?`` at the spot where its check stopped; the ROM must also store each line
exactly as the tokeniser wrote it; and the whole program must LOAD into a
freshly booted 48K (the ROM's LOAD refuses with "4 Out of memory" a program
that does not fit). Each refusal is an `InputError` naming the line.
"""
from __future__ import annotations

from .basic import detokenise, split_program
from .loading import load_tape
from .machine import Spectrum48
from .romcheck import clear_edit_line, enter_program, submit
from .tape import FLAG_DATA, TapeBlock, program_header
from .typist import typed_form
from ..errors import InputError

ERROR_1 = 0x0008            # RST 08: every error report; it copies CH_ADD (the spot) into X_PTR


def _record(number: int, body: bytes) -> bytes:
    return number.to_bytes(2, "big") + len(body).to_bytes(2, "little") + body


def _as_listed(number: int, typed_body: bytes) -> str:
    """Typed bytes of a line (keywords as tokens, no hidden numbers) as the lister spells them."""
    try:
        return detokenise(_record(number, typed_body + b"\r")).rstrip("\n").split(" ", 1)[-1]
    except ValueError:
        return typed_body.decode("latin-1")


def _typed_length(checked: bytes) -> int:
    """How many typed bytes *checked* holds: the syntax check has put a hidden 0x0E + 5-byte form
    after each number so far, which the editor takes out again when it shows the error."""
    n, i, in_string = 0, 0, False
    while i < len(checked):
        b = checked[i]
        if b == 0x22:
            in_string = not in_string
        elif b == 0x0E and not in_string:
            i += 6
            continue
        n += 1
        i += 1
    return n


def rejection_shown(machine: Spectrum48, record: bytes) -> str:
    """The line as the editor shows it after ENTER refused it: ``?`` where the syntax check stopped."""
    number = int.from_bytes(record[:2], "big")
    typed = typed_form(record)
    spot: list[int] = []

    def at_error() -> bool:                       # record where CH_ADD was, then let RST 08 run
        if not spot:
            e_line = machine.peek("E_LINE")
            spot.append(_typed_length(machine.read(e_line, max(0, machine.peek("CH_ADD") - e_line))))
        return False

    machine.add_trap(ERROR_1, at_error)
    try:
        submit(machine, typed)
        machine.run(2000, until_wait=True, stop_on_report=False, what="the editor after ENTER")
        clear_edit_line(machine)
    finally:
        machine.remove_trap(ERROR_1)
    digits = len(str(number))
    offset = min(max(spot[0] if spot else len(typed), digits), len(typed))
    return f"{number} {_as_listed(number, typed[digits:offset])}?{_as_listed(number, typed[offset:])}"


def check_program(program: bytes, where: str = "<program>", file_lines: dict[int, int] | None = None) -> None:
    """Raise InputError unless the ROM accepts and stores every line and LOADs the whole.

    *where* names the listing; *file_lines* maps a BASIC line number to its
    line in that file, for a ``file:line`` in the message.
    """
    lines = split_program(program)
    if not lines:
        raise InputError(f"{where}: the listing holds no program lines")
    file_lines = file_lines or {}

    def place(number: int) -> str:
        return f"{where}:{file_lines[number]}" if number in file_lines else where

    verdicts, machine = enter_program(program)
    rejected = [v for v in verdicts if not v.accepted]
    if rejected:
        first = rejected[0]
        fresh = Spectrum48(fast=True)
        fresh.boot()
        shown = rejection_shown(fresh, first.expected)
        more = f" (and {len(rejected) - 1} more line(s))" if len(rejected) > 1 else ""
        raise InputError(f"{place(first.number)}: line {first.number}: the ROM's syntax check "
                             f"rejects it at the ?: {shown}{more}")
    check_loads(program, where)
    differs = [v for v in verdicts if not v.identical]
    if differs:
        v = differs[0]
        stored = "does not store it" if v.stored is None else f"stores it as {v.stored.hex(' ')}"
        raise InputError(f"{place(v.number)}: line {v.number}: the ROM {stored}, "
                             f"not as the tokeniser wrote it ({v.expected.hex(' ')})")


def check_loads(program: bytes, where: str = "<program>") -> None:
    """LOAD the program (no autostart) into a freshly booted 48K; the ROM must end with 0 OK."""
    m = Spectrum48(fast=True)
    m.boot()
    name = "CHECK"
    stop = load_tape(m, [program_header(name, len(program)), TapeBlock(FLAG_DATA, program)], max_frames=500)
    report = stop.report if stop.kind == "report" else (m.reports[-1] if m.reports else None)
    if report is None or not str(report).startswith("0 "):
        said = f"the ROM reports «{report}»" if report else f"the ROM stopped with no report ({stop.kind})"
        raise InputError(f"{where}: the program ({len(program)} bytes) cannot LOAD in a 48K Spectrum: {said}")
