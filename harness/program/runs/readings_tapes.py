"""A reading's variant tape (harness/program/runs/readings.py plays them): the readings of basic/readings.toml
(`load`), each line tokenised and put to the ROM's own syntax check, and an accepted line spliced into the
reconstruction's program, which must still LOAD and must differ from it in its bytes (`Variants`).
"""
from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass
from pathlib import Path

from ... import resources
from ...errors import InputError
from ...spectrum.acceptance import check_loads, rejection_shown
from ...spectrum.basic import split_program, tokenise_line
from ...spectrum.machine import Spectrum48
from ...spectrum.romcheck import RomNumberEncoder, enter_program
from ...spectrum.tape import FLAG_DATA, TapeBlock, program_header, read_tap, write_tap
from ..model.program import AUTOSTART_LINE, PROGRAM_NAME
from .readings_record import Reading

READINGS = resources.data_path("basic/readings.toml")


def reading_id(line: int, text: str) -> str:
    """The line and the first 8 hex digits of the SHA-256 of the text (as tools/write_readings.py names it)."""
    return "%d.%s" % (line, hashlib.sha256(text.encode("utf-8")).hexdigest()[:8])


def load(path: Path = READINGS, entries: set[int] | None = None) -> list[Reading]:
    """The readings of basic/readings.toml: the generated ones and those the entries' evidence names."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: {exc}") from None
    out = []
    for table, source in (("reading", None), ("evidence", "evidence")):
        for k, r in enumerate(data.get(table, []), 1):
            try:
                line, text = int(r["line"]), str(r["text"])
                reading = Reading(line, str(r["id"]), source or str(r["source"]), str(r["what"]), text,
                                  bool(r.get("entry", True)))
            except (KeyError, TypeError, ValueError) as exc:
                raise InputError(f"{path}: [[{table}]] number {k}: {exc}") from None
            if reading.id != reading_id(line, text):
                raise InputError(f"{path}: [[{table}]] {reading.id}: the id is not the line and the text's "
                                 f"SHA-256 ({reading_id(line, text)}): run tools/write_readings.py")
            if entries is None or line in entries:
                out.append(reading)
    return out


# ----------------------------------------------------------------------------------------------- tapes
@dataclass
class Variant:
    """A reading's program: the ROM's verdict on its line and, when accepted, the whole tape."""
    reading: Reading
    verdict: str                       # "tape", "rom-rejects", "not-tokenised", "stores-alike"
    detail: str = ""
    tape: bytes | None = None


class Variants:
    """Builds the variant tapes of one listing: its program records are tokenised once."""

    def __init__(self, base_tape: bytes):
        blocks = read_tap(base_tape)
        self.base_tape = base_tape
        self.blocks = blocks
        self.records = {n: n.to_bytes(2, "big") + len(b).to_bytes(2, "little") + b
                        for n, b in split_program(blocks[1].data)}
        self.encoder = RomNumberEncoder()

    def program(self, line: int, record: bytes) -> bytes:
        return b"".join(record if n == line else r for n, r in self.records.items())

    def build(self, reading: Reading) -> Variant:
        if reading.line not in self.records:
            raise InputError(f"basic/readings.toml: {reading.id}: the listing has no line {reading.line}")
        try:
            number, record = tokenise_line(f"{reading.line} {reading.text}", number_encoder=self.encoder)
        except InputError as exc:
            return Variant(reading, "not-tokenised", str(exc).splitlines()[0])
        machine = Spectrum48(fast=True)
        machine.boot()
        verdict = enter_program(record, machine)[0][0]
        if not verdict.accepted:
            fresh = Spectrum48(fast=True)
            fresh.boot()
            return Variant(reading, "rom-rejects", "the ROM's syntax check stops at the ?: "
                           + rejection_shown(fresh, record))
        if not verdict.identical:
            return Variant(reading, "rom-rejects", "the ROM stores the line otherwise than the tokeniser")
        program = self.program(reading.line, record)
        if program == self.blocks[1].data:
            return Variant(reading, "stores-alike", "the ROM stores this reading byte for byte as the "
                           "reconstruction's line: the same program")
        try:
            check_loads(program, reading.id)
        except InputError as exc:
            return Variant(reading, "rom-rejects", str(exc))
        blocks = [program_header(PROGRAM_NAME, len(program), AUTOSTART_LINE, len(program)),
                  TapeBlock(FLAG_DATA, program), *self.blocks[2:]]
        return Variant(reading, "tape", tape=write_tap(blocks))
