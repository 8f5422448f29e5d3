"""The program's own pictures of its characters: the "chr" font and the UDGs its DATA defines.

Strings and REM text in the edition are drawn as the Spectrum draws them:
each character is a cell of one sprite sheet (`glyphs.png`, 256 cells of 8x8
pixels shown at 2x, one row per ink colour) cut from the tape's font
(`basic/chr_font.txt`), the block graphics the ROM draws, and the UDGs that
lines 9900-9950 POKE from the DATA at 9600-9850. The UDG bitmaps are read
from the listing itself, so the edition shows what the listing defines.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from ..errors import InputError
from ..spectrum import charset, font
from .source import Listing
import numpy as np

SCALE = 2                    # sheet cell: 8x8 pixels drawn 16x16
LARGE = 8                    # the glyph pages: 64x64
INKS = {                     # sheet row -> RGBA ink (the paper is transparent)
    "string": (150, 20, 20, 255),
    "rem": (40, 110, 60, 255),
    "plain": (0, 0, 0, 255),
    "red": (200, 0, 0, 255),         # hearts and diamonds (INK 2 at line 5410)
}
PAPER_LARGE = (205, 205, 205)   # the Spectrum's white paper
INK_LARGE = (0, 0, 0)
UDG_FIRST = 0x90


@dataclass(frozen=True)
class Udg:
    letter: str
    code: int
    rows: bytes
    line: int           # the DATA line holding the 8 bytes


def udgs_from_data(listing: Listing, start: int) -> list[Udg]:
    """Read the DATA from line *start* on as 9910-9930 do: a letter, then 8 bytes, repeated."""
    items: list[tuple[str, str, int]] = []        # (kind, text, line)
    for ln in listing.lines:
        if ln.number < start:
            continue
        for s in ln.statements:
            if s.command != "DATA":
                continue
            for t in s.tokens:
                if t.kind in ("string", "number"):
                    items.append((t.kind, t.text, ln.number))
    out = []
    i = 0
    while i < len(items):
        kind, text, line = items[i]
        if kind != "string" or len(text) != 3:
            raise InputError(f"{listing.path}: line {line}: expected a one-letter UDG name, got {text}")
        letter = text[1]
        values = items[i + 1:i + 9]
        if len(values) != 8 or any(k != "number" for k, _, _ in values):
            raise InputError(f"{listing.path}: line {line}: UDG {letter} needs 8 numbers after it")
        rows = bytes(int(v) for _, v, _ in values)
        code = UDG_FIRST + ord(letter.upper()) - ord("A")
        out.append(Udg(letter, code, rows, values[0][2]))
        i += 9
    return out


def glyph_bitmaps(font_path: Path, udgs: list[Udg]) -> dict[int, bytes]:
    """Code -> 8 bytes for every code the screen can show with the chr font selected."""
    chars = font.build_font(font_path)
    table = {font.FIRST_CODE + i: chars[i * 8:i * 8 + 8] for i in range(font.GLYPHS)}
    for code in range(0x80, 0x90):
        table[code] = font.block_graphic_glyph(code)
    for u in udgs:
        table[u.code] = u.rows
    return table


def _draw(glyph: bytes, scale: int, ink: tuple[int, ...], paper: tuple[int, ...]) -> Image.Image:
    img = Image.new("RGBA" if len(ink) == 4 else "RGB", (8, 8), paper)
    px = img.load()
    assert px is not None                # a new image's pixels are always there
    for y, row in enumerate(glyph):
        for x in range(8):
            if row & (0x80 >> x):
                px[x, y] = ink
    return img.resize((8 * scale, 8 * scale), Image.Resampling.NEAREST)


def sheet(bitmaps: dict[int, bytes]) -> Image.Image:
    """256 cells across, one row per ink in INKS order; undrawable codes stay empty."""
    cell = 8 * SCALE
    img = Image.new("RGBA", (256 * cell, cell * len(INKS)), (0, 0, 0, 0))
    for row, ink in enumerate(INKS.values()):
        for code, glyph in bitmaps.items():
            img.paste(_draw(glyph, SCALE, ink, (0, 0, 0, 0)), (code * cell, row * cell))
    return img


def ink_row(kind: str) -> int:
    return list(INKS).index(kind)


def large(glyph: bytes) -> Image.Image:
    """One glyph drawn 8 times its size, ink on the Spectrum's paper, with a faint pixel grid."""
    pixels = np.array(_draw(glyph, LARGE, INK_LARGE, PAPER_LARGE))
    grid = np.zeros(pixels.shape[:2], dtype=bool)
    grid[::LARGE, :] = grid[:, ::LARGE] = True          # every LARGE-th row and column: the pixel grid
    pixels[grid & (pixels == PAPER_LARGE).all(axis=-1)] = (185, 185, 185)     # drawn on the paper only
    return Image.fromarray(pixels, "RGB")


def readable(code: int, udg_text: dict[int, str]) -> str:
    """The character a reader searches and copies for a code drawn as a glyph."""
    if code in udg_text:
        return udg_text[code]
    shown = charset.koi7_char(code)
    return shown if len(shown) == 1 else "\ufffd"
