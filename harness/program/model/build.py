"""The tape, as `cribbage-zx build` writes it (the command: harness/commands/build.py): basic/cribbage.bas + basic/chr_font.txt -> build/cribbage.tap.

The program block is what the ROM would hold had the listing been typed in
(every number converted by the ROM's own DEC-TO-FP in the embedded machine)
and then saved by line 5, `SAVE "CRIBBAGE" LINE 2`, with no variables; the
second block is the font that line 2 loads with `LOAD "chr" CODE 64600`.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from ...errors import InputError
from ...runtime import atomic
from ...runtime.validate import read_json, read_text
from ... import resources
from ...spectrum.acceptance import check_program
from ...spectrum.basic import NumberEncoder, tokenise_program
from ...spectrum.font import build_font
from ...spectrum.romcheck import RomNumberEncoder
from ...spectrum.tape import FLAG_DATA, TapeBlock, code_header, program_header, write_tap, read_program_tape
from .program import AUTOSTART_LINE as AUTOSTART, FONT_ADDRESS as FONT_START, FONT_LENGTH, FONT_NAME, PROGRAM_NAME
from .english import english_edition, TABLE
from ...runtime.outdir import writable_file

LISTING = resources.LISTING
FONT = resources.FONT
DEFAULT_TAP = resources.DEFAULT_TAP  # relative: under the current directory
EN_TAP = DEFAULT_TAP.with_name("cribbage-en.tap")  # `build --lang en`: the English edition


@dataclass
class Build:
    program: bytes
    font: bytes
    blocks: list[TapeBlock]

    @property
    def tap(self) -> bytes:
        return write_tap(self.blocks)


def build(listing: Path = LISTING, font: Path = FONT, encoder: NumberEncoder | None = None, lang: str = "ru", check: bool = True) -> Build:
    """Tokenise the listing and the font into the two-file tape (lang "en": the English edition, harness/program/model/english.py).

    With *check* (the default) the ROM must accept the program first (spectrum/acceptance.py):
    a line its syntax check rejects, an empty listing or a program too big to LOAD in 48K is a
    InputError naming the file, the line and the ROM's verdict.
    """
    source = read_text(listing, InputError, "listing")     # UTF-8 (a BOM is dropped), or file:line
    program = tokenise_program(source, path=str(listing), number_encoder=encoder or RomNumberEncoder())
    glyphs = build_font(font)
    if len(glyphs) != FONT_LENGTH:
        raise InputError(f"{font}: the font has {len(glyphs)} bytes, line 2 loads {FONT_LENGTH}")
    if lang == "en":
        program, glyphs = english_edition(program, glyphs)
    if check:
        check_program(program, str(listing), _file_lines(source))     # an InputError naming the line
    blocks = [
        program_header(PROGRAM_NAME, len(program), AUTOSTART, len(program)),
        TapeBlock(FLAG_DATA, program),
        code_header(FONT_NAME, FONT_START, FONT_LENGTH),
        TapeBlock(FLAG_DATA, glyphs),
    ]
    return Build(program, glyphs, blocks)


# ----------------------------------------------------------------------------- the tape's fingerprint
#: the package's modules whose code decides the tape's bytes: the tokeniser, the number encoder (the ROM's
#: DEC-TO-FP on the embedded machine), the font and tape writers, the English edition, this module
TAPE_CODE = ("program/model/build.py", "program/model/english.py", "spectrum/basic.py", "spectrum/charset.py", "spectrum/floats.py",
             "spectrum/font.py", "spectrum/tape.py", "spectrum/romcheck.py", "spectrum/typist.py",
             "spectrum/workspace.py", "spectrum/machine.py", "spectrum/machine_types.py", "spectrum/memory_access.py",
             "spectrum/waits.py", "spectrum/cpu.py", "spectrum/rom.py")
FINGERPRINT_SUFFIX = ".fingerprint"


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def fingerprint(lang: str = "ru", listing: Path = LISTING, font: Path = FONT) -> dict[str, object]:
    """What the tape is made from, each input's SHA-256 and one over them all: the tape is current
    exactly when this is what it was built from (no file times: a checkout or a copy changes those)."""
    package = Path(__file__).resolve().parents[2]          # harness/
    inputs = {"listing": Path(listing), "font": Path(font), "rom": resources.ROM}
    if lang == "en":
        inputs["translation"] = TABLE
    inputs.update({f"harness/{name}": package / name for name in TAPE_CODE})
    shas = {}
    for name, path in inputs.items():
        try:
            shas[name] = _sha(path.read_bytes())
        except OSError as exc:
            raise InputError(f"{path}: cannot read it: {exc.strerror}") from None
    total = _sha(json.dumps({"lang": lang, "inputs": shas}, sort_keys=True).encode())
    return {"fingerprint": total, "lang": lang, "inputs": shas}


def fingerprint_path(tape: Path) -> Path:
    return Path(tape).with_name(Path(tape).name + FINGERPRINT_SUFFIX)


def tape_record(tape: Path, data: bytes | None = None) -> dict[str, Any]:   # Any: the reports' fields take it as JSON
    """For a report: the tape's path and SHA-256, and its sources' fingerprint when one beside it matches it;
    with *data* (the bytes the run played), a tape file gone since is recorded from them (no fingerprint)."""
    tape = Path(tape)
    try:
        data = tape.read_bytes()
    except OSError:
        if data is None:
            raise
        return {"path": str(tape), "sha256": _sha(data), "fingerprint": None}
    record: dict[str, str | None] = {"path": str(tape), "sha256": _sha(data), "fingerprint": None}
    try:
        beside = read_json(fingerprint_path(tape))
    except InputError:
        return record
    if isinstance(beside, dict) and beside.get("tape_sha256") == record["sha256"]:
        found = beside.get("fingerprint")
        record["fingerprint"] = found if isinstance(found, str) else None     # write_tape writes a string
    return record


def played_tape(tap: Path | None = None) -> tuple[Path, bytes]:
    """The tape a run plays and its bytes, checked whole (what every worker loads), resolved once: *tap* when
    given (a file that is not a program's tape is an InputError naming it), else the built game, rebuilt when
    stale (`ensure_tape`); the default path is the built game too."""
    path = ensure_tape(DEFAULT_TAP) if tap is None or Path(tap).resolve() == DEFAULT_TAP.resolve() else Path(tap)
    return path, read_program_tape(path)


def tape_path(tap: Path | None = None) -> Path:
    """The path of the tape a run plays (`played_tape`)."""
    return played_tape(tap)[0]


def tape_bytes(tap: Path | None = None) -> bytes:
    """The bytes of the tape a run plays (`played_tape`)."""
    return played_tape(tap)[1]


def ensure_tape(path: Path | None = None, lang: str = "ru") -> Path:
    """The built tape at *path* (default build/cribbage.tap), rebuilt unless the fingerprint kept beside it
    says it was built from exactly the present listing, font, translation table and tape-making code
    (and the tape is still the one it was built as)."""
    path = Path(path or (EN_TAP if lang == "en" else DEFAULT_TAP))
    wanted = fingerprint(lang)
    try:
        beside = read_json(fingerprint_path(path))
        current = (isinstance(beside, dict) and beside.get("fingerprint") == wanted["fingerprint"]
                   and beside.get("tape_sha256") == _sha(path.read_bytes()))
    except (OSError, InputError):
        current = False
    if not current:
        write_tape(path, build(lang=lang).tap, wanted)
    return path


def write_tape(path: Path, tap: bytes, sources: Mapping[str, object] | None, replace: bool = False) -> None:
    """The tape, then (for a build from the sources) its fingerprint beside it; each written atomically. A file
    there that is not a tape is refused unless *replace*."""
    if not replace:
        writable_file(path, looks_like_tap, "TAP")
    atomic.write_bytes(path, tap)
    if sources is not None:
        atomic.write_json(fingerprint_path(path), {**sources, "tape_sha256": _sha(tap)}, indent=1)


def looks_like_tap(head: bytes) -> bool:
    """The first bytes of a file `build` may replace: a TAP's first block (a header: length 19, flag 0)."""
    return head[:3] == b"\x13\x00\x00"


def _file_lines(source: str) -> dict[int, int]:
    """BASIC line number -> its line in the listing file."""
    lines: dict[int, int] = {}
    for file_line, text in enumerate(source.splitlines(), start=1):
        found = re.match(r"\s*(\d+)", text)
        if found and not text.lstrip().startswith("#"):
            lines.setdefault(int(found.group(1)), file_line)
    return lines
