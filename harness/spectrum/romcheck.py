"""The ROM as judge: numbers converted by its own DEC-TO-FP, lines checked and stored by its own editor.

A tokeniser can only claim "byte-for-byte what a real Spectrum would hold"
if the real ROM agrees. This module runs the ROM's routines in the embedded
machine: `RomNumberEncoder` turns a literal into the five bytes DEC-TO-FP
produces (which, unlike correct rounding, is what a typed line holds), and
`enter_program` puts each line into the edit line and presses ENTER, so the
ROM's syntax check accepts (or rejects) it and stores it itself.
"""
from __future__ import annotations

from dataclasses import dataclass

from .basic import split_program
from .machine import RunTimeout, Spectrum48
from .typist import edit_line, typed_form
from .workspace import resize
from .floats import encode_literal

DEC_TO_FP = 0x2C9B         # DEC-TO-FP: CH_ADD at the literal's first character, A = that character
SCRATCH = 0x8000           # free RAM on a freshly booted machine, for the literal's text


class RomNumberEncoder:
    """text of a number literal -> the 5 bytes the ROM stores after it (cached)."""

    def __init__(self, machine: Spectrum48 | None = None):
        self.m = machine or Spectrum48()
        if machine is None:
            self.m.boot()
        self._snap = self.m.snapshot()
        self._cache: dict[str, bytes] = {}

    def __call__(self, text: str) -> bytes:
        if text not in self._cache:
            _within_range(text)             # one the ROM stops on (report 6) would never return from the call
            m = self.m
            m.restore(self._snap)
            code = text.replace(" ", "").encode("ascii")
            if code.upper().startswith(b"BIN"):
                code = bytes([0xC4]) + code[3:]
            m.write(SCRATCH, code + b"\r")
            m.poke("CH_ADD", SCRATCH)
            try:
                m.call(DEC_TO_FP, a=code[0])
            except RunTimeout as exc:
                raise ValueError(f"the ROM's DEC-TO-FP did not return: {str(exc).split(' (screenshot')[0]}") from None
            stkend = m.peek("STKEND")
            self._cache[text] = m.read(stkend - 5, 5)
        return self._cache[text]


def _within_range(text: str) -> None:
    """ValueError if the ROM would stop on the literal with «6 Number too big» (floats.py knows the range)."""
    try:
        encode_literal(text)
    except OverflowError:
        raise ValueError("too big for the Spectrum (the ROM stops with «6 Number too big»)") from None
    except ValueError as exc:
        if "digits" in str(exc):             # an exponent too long for Python's int conversion: far too big
            raise ValueError("too big for the Spectrum (the ROM stops with «6 Number too big»)") from None
        raise


@dataclass
class LineVerdict:
    number: int
    accepted: bool
    stored: bytes | None       # the record the ROM stored (None if rejected)
    expected: bytes            # the tokeniser's record
    error_offset: int | None = None

    @property
    def identical(self) -> bool:
        return self.stored == self.expected


def submit(m: Spectrum48, typed: bytes) -> None:
    """Fill the (empty) edit line with *typed* and hand the editor an ENTER, as if typed."""
    e_line = m.peek("E_LINE")
    resize(m, e_line, 0, len(typed))
    m.write(e_line, typed)
    m.poke("K_CUR", e_line + len(typed))
    m.inject_key(0x0D, frames=1)


def enter_line(m: Spectrum48, typed: bytes) -> int | None:
    """Put *typed* in the empty edit line and press ENTER; None if accepted, else the error offset."""
    submit(m, typed)
    m.run(2000, until_wait=True, stop_on_report=False, what="the editor after ENTER")
    if edit_line(m):
        offset = m.peek("X_PTR") - m.peek("E_LINE")
        clear_edit_line(m)
        return offset
    return None


def clear_edit_line(m: Spectrum48) -> None:
    e_line = m.peek("E_LINE")
    left = edit_line(m)
    resize(m, e_line, len(left), 0)
    m.poke("K_CUR", e_line)


def enter_program(program: bytes, machine: Spectrum48 | None = None) -> tuple[list[LineVerdict], Spectrum48]:
    """Enter every line of a tokenised program through the ROM's editor; judge each one."""
    m = machine
    if m is None:
        m = Spectrum48(fast=True)
        m.boot()
    verdicts = []
    for number, body in split_program(program):
        record = number.to_bytes(2, "big") + len(body).to_bytes(2, "little") + body
        error = enter_line(m, typed_form(record))
        stored = None if error is not None else stored_record(m, number)
        verdicts.append(LineVerdict(number, error is None, stored, record, error))
    return verdicts, m


def stored_record(m: Spectrum48, number: int) -> bytes | None:
    """The record of line *number* in the machine's program area."""
    prog, vars_ = m.peek("PROG"), m.peek("VARS")
    for n, body in split_program(m.read(prog, vars_ - prog)):
        if n == number:
            return n.to_bytes(2, "big") + len(body).to_bytes(2, "little") + body
    return None
