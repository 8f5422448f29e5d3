"""The English edition of «КРИБЕДЖ»: every Russian string and REM of the program replaced from a table.

`basic/translation.tsv` holds, for each Russian text of the listing, its
BASIC line, the Russian text and the English text, both spelled as in the
listing (charset escapes such as ``\\r`` for a UDG) and each in double
quotes so that leading and trailing spaces are visible. The English text
must take no more bytes than the Russian one; a shorter one is padded with
spaces on the right, so every literal keeps its length, every PRINT AT
layout stays, and the program keeps its size and every address.

The translation works on the tokenised program, byte for byte: only the
bytes inside string literals and REMs change. File names after LOAD/SAVE
("chr") are Latin already and never translated.

Cyrillic outside strings and REMs: the listing's code has none (the
tokeniser refuses it), but DATA 9812-9822 draw the court-card letters
В Д К as UDGs L M N, in numbers. The English R$ (line 7320) shows J Q K
from the font instead, so those UDGs are still defined but never shown,
and the DATA stay as they are (only string and REM bytes may differ).

The English edition's "chr" CODE block is the chr font with the Latin
lowercase restored at 0x60-0x7E (where the Russian edition has its Cyrillic
capitals): the ROM's own font, byte for byte. The program text stays in
capitals as the original's; the restored lowercase makes the ROM's reports
(``D BREAK - CONT repeats``) and anything typed without CAPS LOCK readable.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ...errors import InputError
from ... import resources
from ...spectrum import charset
from ...spectrum.basic import split_program
from ...runtime.validate import read_text
from ...spectrum.font import rom_font as read_rom_font

__all__ = ["TABLE", "Literal", "Translation", "literals", "line_literals", "read_table",
           "translate_program", "english_font", "english_edition", "english", "needs_translation"]

TABLE = resources.data_path("basic/translation.tsv")

_QUOTE, _NUMBER, _REM, _END = 0x22, 0x0E, 0xEA, 0x0D
_FILE_COMMANDS = {0xD5, 0xD6, 0xEF, 0xF8}      # MERGE, VERIFY, LOAD, SAVE: a file name follows
_CYRILLIC = range(0x60, 0x7F)                  # KOI-7 N1 capitals in the chr font (charset.KOI7_CYRILLIC)


@dataclass(frozen=True)
class Literal:
    """The text of one string literal or REM of a stored line."""
    line: int            # BASIC line number
    kind: str            # "string" or "rem"
    start: int           # offset of the first text byte in the line's body
    data: bytes
    file_name: bool      # a string right after LOAD/SAVE/VERIFY/MERGE

    @property
    def end(self) -> int:
        return self.start + len(self.data)

    @property
    def text(self) -> str:
        """The source spelling (Cyrillic for codes 0x60-0x7E), as in the listing."""
        return charset.decode(self.data, cyrillic=not self.file_name)


def _control_params(code: int) -> int:
    if 0x10 <= code <= 0x15:     # INK, PAPER, FLASH, BRIGHT, INVERSE, OVER: one parameter
        return 1
    return 2 if code in (0x16, 0x17) else 0   # AT, TAB: two


def line_literals(number: int, body: bytes) -> list[Literal]:
    """The string literals and the REM of one line body (as `split_program` gives it)."""
    found: list[Literal] = []
    i, end = 0, len(body) - 1
    while i < end:
        code = body[i]
        if code == _QUOTE:
            close = body.find(b'"', i + 1, end)
            if close < 0:
                raise InputError(f"line {number}: unterminated string")
            found.append(Literal(number, "string", i + 1, bytes(body[i + 1:close]),
                                 i > 0 and body[i - 1] in _FILE_COMMANDS))
            i = close + 1
        elif code == _REM:
            found.append(Literal(number, "rem", i + 1, bytes(body[i + 1:end]), False))
            break
        elif code == _NUMBER:                   # hidden number or DEF FN slot: 5 bytes follow
            i += 6
        else:
            i += 1 + _control_params(code)
    return found


def literals(program: bytes) -> list[Literal]:
    """Every string literal and REM of a program area, in order."""
    return [lit for number, body in split_program(program) for lit in line_literals(number, body)]


def needs_translation(lit: Literal) -> bool:
    """A literal with Cyrillic letters in it (file names are Latin by convention)."""
    return not lit.file_name and any(b in _CYRILLIC for b in lit.data)


@dataclass(frozen=True)
class Translation:
    """One row of the table."""
    row: int             # line of the table file (for messages)
    line: int            # BASIC line
    russian: str
    english: str

    def english_bytes(self, width: int, where: str) -> bytes:
        """The English text encoded and padded with spaces to *width* bytes."""
        try:
            data = charset.encode(self.english, in_string=True)
        except charset.CharsetError as exc:
            raise InputError(f"{where}: the English text: {exc}") from None
        cyrillic = [charset.koi7_char(b) for b in data if b in _CYRILLIC]
        if cyrillic:
            raise InputError(f"{where}: the English text has Cyrillic or lowercase letters "
                                   f"({''.join(cyrillic)}); the program prints capitals")
        if len(data) > width:
            raise InputError(f"{where}: the English text takes {len(data)} bytes, "
                                   f"the Russian {width}: shorten it")
        return data + b" " * (width - len(data))


def _unquote(field: str, where: str) -> str:
    if len(field) < 2 or field[0] != '"' or field[-1] != '"':
        raise InputError(f"{where}: a text must be in double quotes, got {field!r}")
    return field[1:-1]


def read_table(path: Path = TABLE) -> list[Translation]:
    """Parse the table: '#' comments, then rows  LINE <TAB> "russian" <TAB> "english"."""
    text = read_text(path, InputError, "translation table")    # UTF-8 (a BOM dropped), or file:line
    rows: list[Translation] = []
    seen: dict[tuple[int, str], int] = {}
    for n, raw in enumerate(text.split("\n"), start=1):       # the file's own lines (not splitlines' \x0b, \x1c...)
        raw = raw.removesuffix("\r")
        where = f"{path}:{n}"
        if not raw.strip() or raw.startswith("#"):
            continue
        fields = raw.split("\t")
        if len(fields) != 3:
            raise InputError(f"{where}: want 3 tab-separated fields (line, russian, english), got {len(fields)}")
        if not (fields[0].isascii() and fields[0].isdigit()) or int(fields[0]) > 9999:
            raise InputError(f"{where}: {fields[0]!r} is not a BASIC line number")
        row = Translation(n, int(fields[0]), _unquote(fields[1], where), _unquote(fields[2], where))
        key = (row.line, row.russian)
        if key in seen:
            raise InputError(f"{where}: line {row.line} {row.russian!r} is translated already at row {seen[key]}")
        seen[key] = n
        rows.append(row)
    return rows


def translate_program(program: bytes, table: list[Translation], path: Path | str = TABLE) -> bytes:
    """The program area with every Russian literal replaced by its English, same length byte for byte."""
    rows = {(t.line, t.russian): t for t in table}
    used: set[tuple[int, str]] = set()
    out = bytearray()
    for number, body in split_program(program):
        new = bytearray(body)
        for lit in line_literals(number, body):
            key = (number, lit.text)
            row = rows.get(key)
            if row is None:
                if needs_translation(lit):
                    raise InputError(f"{path}: no translation for line {number} {lit.kind} \"{lit.text}\"")
                continue
            if key in used:
                raise InputError(f"{path}:{row.row}: line {number} holds \"{lit.text}\" twice; "
                                       "the table cannot tell them apart")
            used.add(key)
            new[lit.start:lit.end] = row.english_bytes(len(lit.data), f"{path}:{row.row}")
        out += number.to_bytes(2, "big") + len(new).to_bytes(2, "little") + new
    unused = [t for t in table if (t.line, t.russian) not in used]
    if unused:
        t = unused[0]
        raise InputError(f"{path}:{t.row}: line {t.line} has no literal \"{t.russian}\" "
                               f"({len(unused)} row(s) match nothing)")
    return bytes(out)


def english_font(chr_font: bytes, rom_font: bytes) -> bytes:
    """The chr font (codes 32-127) with the ROM's Latin lowercase and £ back at 0x60-0x7E."""
    if len(chr_font) != 768 or len(rom_font) != 768:
        raise InputError(f"fonts of 768 bytes wanted, got {len(chr_font)} and {len(rom_font)}")
    first, last = (0x60 - 0x20) * 8, (0x7F - 0x20) * 8
    return chr_font[:first] + rom_font[first:last] + chr_font[last:]


@lru_cache(maxsize=None)
def _screen_table(path: str) -> tuple[tuple[str, str], ...]:
    return tuple((t.russian, t.english) for t in read_table(Path(path)))


def english(russian_text: str, path: Path = TABLE) -> str:
    """The English the English edition prints where the Russian one prints *russian_text*.

    *russian_text* is a whole literal of the listing (``"ВСЕГО = "``), or one
    with its surrounding spaces left off (``"ВСЕГО"``, as a screen reader
    splits words), or the label before a literal's colon (``"ВЫ"`` of
    ``"ВЫ : "``); the answer is spelled the same way: the English padded to
    the Russian's length in the first case, stripped in the others.
    Raises KeyError for a text the table does not have, ValueError if two
    rows would translate it differently.
    """
    rows = _screen_table(str(path))
    text = russian_text.strip()

    def label(s: str) -> str:
        """The text before a colon ("" if none)."""
        return s.split(":")[0].strip() if ":" in s else ""
    exact = {en + " " * (len(charset.encode(ru)) - len(charset.encode(en))) for ru, en in rows if ru == russian_text}
    found = (exact or {en.strip() for ru, en in rows if ru.strip() == text}
             or {label(en) for ru, en in rows if text and label(ru) == text and label(en)})
    if not found:
        raise KeyError(f"{path}: no literal {russian_text!r}")
    if len(found) > 1:
        raise ValueError(f"{path}: {russian_text!r} translates as {sorted(found)}")
    return found.pop()


def english_edition(program: bytes, chr_font: bytes, table_path: Path = TABLE,
                    rom_font: bytes | None = None) -> tuple[bytes, bytes]:
    """The Russian program area and chr font -> the English edition's program area and font."""
    program_en = translate_program(program, read_table(table_path), table_path)
    return program_en, english_font(chr_font, rom_font if rom_font is not None else read_rom_font())
