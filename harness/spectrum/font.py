"""An 8x8 character set as readable text art <-> the 768-byte CODE block (codes 32-127).

A program that brings its own character set loads such a block and points
CHARS 256 bytes below it (where «КРИБЕДЖ» puts its "chr" font is in its
program model).  The font is kept as text art (``basic/chr_font.txt``)
so that a reviewer can see and edit every glyph;
`build_font` turns it into bytes, and `glyph_table` lets a screen be read
back as text (see the file's header for the format and design rules).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NoReturn

from ..errors import InputError
from .. import resources
from . import charset
from ..runtime.validate import read_text

__all__ = [
    "DEFAULT_PATH", "FIRST_CODE",
    "GLYPHS", "ROM_FONT_ADDRESS", "parse_font", "build_font", "rom_font",
    "glyph_table", "block_graphic_glyph", "glyph_rows",
]

DEFAULT_PATH = resources.FONT
DEFAULT_ROM = resources.ROM
FIRST_CODE = 0x20
GLYPHS = 96
ROM_FONT_ADDRESS = 0x3D00

_HEADER_RE = re.compile(r"^== 0x([0-9A-Fa-f]{2}) '(.+)'$")


def parse_font(text: str, path: str = "<text>") -> dict[int, tuple[str, bytes]]:
    """Parse text art into {code: (character shown, 8 glyph bytes)}.

    Checks the format only; `build_font` checks the set is complete.
    """
    glyphs: dict[int, tuple[str, bytes]] = {}
    lines = text.splitlines()
    i = 0

    def fail(line_index: int, reason: str) -> NoReturn:
        raise InputError(f"{path}:{line_index + 1}: {reason}")

    while i < len(lines):
        line = lines[i].rstrip()
        if not line or line.startswith(";"):
            i += 1
            continue
        m = _HEADER_RE.match(line)
        if not m:
            fail(i, f"expected a header like == 0x41 'A', got {line!r}")
        code, shown = int(m.group(1), 16), m.group(2)
        if not FIRST_CODE <= code < FIRST_CODE + GLYPHS:
            fail(i, f"code 0x{code:02X} is outside 0x20-0x7F")
        if code in glyphs:
            fail(i, f"code 0x{code:02X} is defined twice")
        expected = charset.koi7_char(code)
        if shown != expected:
            fail(i, f"code 0x{code:02X} shows {expected!r} in the chr font, header says {shown!r}")
        rows: list[int] = []
        for k in range(1, 9):
            if i + k >= len(lines):
                fail(i + k - 1, f"glyph 0x{code:02X} has only {k - 1} of 8 rows")
            row = lines[i + k].rstrip()
            if len(row) != 8 or set(row) - {"#", "."}:
                fail(i + k, f"glyph 0x{code:02X} row {k}: want 8 of '#' and '.', got {row!r}")
            rows.append(int(row.replace("#", "1").replace(".", "0"), 2))
        glyphs[code] = (shown, bytes(rows))
        i += 9
    return glyphs


def _read(path: str | Path) -> tuple[str, str]:
    return read_text(path, InputError, "font"), str(path)


def build_font(path: str | Path = DEFAULT_PATH) -> bytes:
    """The 768-byte font block: code 32 first, 8 bytes per glyph, top row first."""
    text, name = _read(path)
    glyphs = parse_font(text, name)
    missing = [f"0x{c:02X}" for c in range(FIRST_CODE, FIRST_CODE + GLYPHS) if c not in glyphs]
    if missing:
        raise InputError(f"{name}: no glyph for {', '.join(missing)}")
    return b"".join(glyphs[c][1] for c in range(FIRST_CODE, FIRST_CODE + GLYPHS))


def rom_font(rom_path: str | Path = DEFAULT_ROM) -> bytes:
    """The ROM's own 768-byte font (codes 32-127) from a 48K ROM image."""
    data = Path(rom_path).read_bytes()
    return data[ROM_FONT_ADDRESS:ROM_FONT_ADDRESS + GLYPHS * 8]


def block_graphic_glyph(code: int) -> bytes:
    """The 8 bytes the ROM draws for block graphic *code* (0x80-0x8F)."""
    bits = code - 0x80
    top = (0xF0 if bits & 2 else 0) | (0x0F if bits & 1 else 0)
    bottom = (0xF0 if bits & 8 else 0) | (0x0F if bits & 4 else 0)
    return bytes([top] * 4 + [bottom] * 4)


def glyph_rows(glyph: bytes) -> list[str]:
    """Text art of one glyph (for messages and for editing the font file)."""
    return [format(b, "08b").replace("1", "#").replace("0", ".") for b in glyph]


def glyph_table(path: str | Path = DEFAULT_PATH, *, rom: bytes | None = None) -> dict[bytes, str]:
    """Map each 8-byte glyph to the character it shows, for reading screens.

    Holds the chr font, the block graphics, and, if *rom* (a 768-byte ROM
    font) is given, the ROM glyphs not in the chr font (£, lowercase
    Latin...).  Raises InputError if one glyph would mean two characters.
    """
    text, name = _read(path)
    table: dict[bytes, str] = {}

    def add(glyph: bytes, char: str, what: str) -> None:
        if table.get(glyph, char) != char:
            raise InputError(f"{name}: {what} {char!r} has the same glyph as {table[glyph]!r}")
        table[glyph] = char

    for code, (shown, glyph) in sorted(parse_font(text, name).items()):
        add(glyph, shown, f"chr 0x{code:02X}")
    for code in range(0x80, 0x90):
        add(block_graphic_glyph(code), charset.BLOCK_GRAPHICS[code - 0x80], f"block 0x{code:02X}")
    if rom is not None:
        for index in range(GLYPHS):
            code = FIRST_CODE + index
            add(bytes(rom[index * 8:index * 8 + 8]), charset.rom_char(code), f"ROM 0x{code:02X}")
    return table
