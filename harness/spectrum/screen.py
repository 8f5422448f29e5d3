"""The display file read as a person sees it: 24x32 cells of text with colours, and PNG pictures.

Each 8x8 cell is matched exactly against the glyphs that can be on screen: the
font CHARS points at, the UDGs at UDG, the ROM font and the block graphics,
each also inverted (INVERSE or a swapped ink/paper). A cell that matches none
is reported as unknown (U+FFFD and its position), never guessed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping, Protocol, Sequence

import numpy as np
import numpy.typing as npt

from .charset import rom_char

#: a 64K memory (the machine's, a snapshot's bytes) or anything indexable like it
MemoryLike = Sequence[int]


class _Border(Protocol):
    @property
    def border(self) -> int: ...


class Showing(Protocol):
    """What a picture is made from: a memory and the border's colour (a Spectrum48 is one). A protocol,
    not the machine's class: machine.py imports this module, so this one may not import it back."""
    @property
    def mem(self) -> MemoryLike: ...
    @property
    def s(self) -> _Border: ...
#: RGB pixels as `render` makes them: (height, width, 3) bytes
Pixels = npt.NDArray[np.uint8]

ROM_FONT = 0x3D00                 # the ROM's character set, codes 32-127
ROM_CHARS = ROM_FONT - 256        # CHARS when the ROM font is selected
UNKNOWN = "\ufffd"
#: Default text for UDGs A-U: circled letters, one character each; a program's driver passes its own.
DEFAULT_UDG_TEXT = {144 + i: chr(0x24B6 + i) for i in range(21)}
#: Unicode quadrant blocks for codes 0x80-0x8F (bit 0 top right, 1 top left, 2 bottom right, 3 bottom left).
BLOCK_TEXT = " ▝▘▀▗▐▚▜▖▞▌▛▄▟▙█"

# The standard palette: (R, G, B) for colours 0-7, normal and BRIGHT.
_LEVELS = (0x00, 0xD7, 0xFF)
PALETTE = np.array(
    [[((c >> 1) & 1) * _LEVELS[1 + b], ((c >> 2) & 1) * _LEVELS[1 + b], (c & 1) * _LEVELS[1 + b]]
     for b in (0, 1) for c in range(8)], dtype=np.uint8)   # index = bright*8 + colour


def _block_glyph(code: int) -> bytes:
    bits = code - 0x80
    top = (0xF0 if bits & 2 else 0) | (0x0F if bits & 1 else 0)
    bottom = (0xF0 if bits & 8 else 0) | (0x0F if bits & 4 else 0)
    return bytes([top] * 4 + [bottom] * 4)


@dataclass
class ScreenText:
    """The screen as text rows plus per-cell attributes and where recognition failed."""
    rows: list[str]
    ink: np.ndarray
    paper: np.ndarray
    bright: np.ndarray
    flash: np.ndarray
    inverse: np.ndarray          # the glyph matched only when inverted
    unknown: list[tuple[int, int]] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "\n".join(self.rows)

    def find(self, needle: str) -> tuple[int, int] | None:
        """(row, column) of the first occurrence of *needle* within one row, or None."""
        for r, row in enumerate(self.rows):
            c = row.find(needle)
            if c >= 0:
                return r, c
        return None

    def __contains__(self, needle: str) -> bool:
        return self.find(needle) is not None


def cell_bytes(screen: bytes) -> npt.NDArray[np.uint8]:
    """The 6144-byte bitmap rearranged as (24 rows, 32 columns, 8 pixel lines)."""
    bm = np.frombuffer(screen[:6144], dtype=np.uint8).reshape(3, 8, 8, 32)  # third, line, row, col
    return bm.transpose(0, 2, 3, 1).reshape(24, 32, 8)


class GlyphTable:
    """Exact 8-byte glyph -> text lookup, in priority order (the first font to claim a glyph keeps it)."""

    def __init__(self) -> None:
        self.table: dict[bytes, str] = {}

    def add(self, glyph: bytes, text: str) -> None:
        self.table.setdefault(bytes(glyph), text)

    def add_font(self, data: bytes, first_code: int, to_text: Callable[[int], str]) -> None:
        for i in range(len(data) // 8):
            self.add(data[i * 8:i * 8 + 8], to_text(first_code + i))


def glyph_table(mem: MemoryLike, udg_text: Mapping[int, str] | None = None, *,
                font_text: Callable[[int], str]) -> GlyphTable:
    """Glyphs on screen now: the font at CHARS (if not the ROM's), the ROM font, UDGs, block graphics.

    *font_text* says what each code of the font at CHARS stands for (charset.rom_char for a copy of the
    ROM's ASCII, koi7_char for a font drawn in KOI-7's convention): a program's, so its caller says it."""
    chars = mem[23606] | mem[23607] << 8
    udg = mem[23675] | mem[23676] << 8
    table = GlyphTable()
    table.add(bytes(8), " ")
    if chars != ROM_CHARS:
        table.add_font(bytes(mem[chars + 256:chars + 256 + 768]), 32, font_text)
    table.add_font(bytes(mem[ROM_FONT:ROM_FONT + 768]), 32, rom_char)
    texts = udg_text or DEFAULT_UDG_TEXT
    for i in range(21):   # after the fonts: until redefined, UDGs are copies of the letters A-U
        a = udg + 8 * i
        if a + 8 <= 0x10000:
            table.add(bytes(mem[a:a + 8]), texts.get(144 + i, DEFAULT_UDG_TEXT[144 + i]))
    for code in range(0x80, 0x90):
        table.add(_block_glyph(code), BLOCK_TEXT[code - 0x80])
    return table


def read_screen(mem: MemoryLike, udg_text: Mapping[int, str] | None = None, *,
                font_text: Callable[[int], str]) -> ScreenText:
    """Recognise every cell of the display in *mem* (a 64K memory or anything indexable like it); *font_text*
    as for `glyph_table`."""
    cells = cell_bytes(bytes(mem[0x4000:0x5800]))
    attrs = np.frombuffer(bytes(mem[0x5800:0x5B00]), dtype=np.uint8).reshape(24, 32)
    table = glyph_table(mem, udg_text, font_text=font_text).table
    inverse = np.zeros((24, 32), dtype=bool)
    unknown: list[tuple[int, int]] = []
    rows = []
    for r in range(24):
        out = []
        for c in range(32):
            g = cells[r, c].tobytes()
            t = table.get(g)
            if t is None:
                t = table.get(bytes(b ^ 0xFF for b in g))
                if t is not None:
                    inverse[r, c] = True
                else:
                    t = UNKNOWN
                    unknown.append((r, c))
            out.append(t)
        rows.append("".join(out))
    return ScreenText(rows=rows, ink=attrs & 7, paper=(attrs >> 3) & 7, bright=(attrs >> 6) & 1,
                      flash=(attrs >> 7) & 1, inverse=inverse, unknown=unknown)


def render(mem: MemoryLike, border: int | None = None, scale: int = 1,
           flash_phase: bool = False) -> Pixels:
    """RGB pixels of the display (256x192), or with a border colour (320x256), scaled by an integer."""
    cells = cell_bytes(bytes(mem[0x4000:0x5800]))
    bits = np.unpackbits(cells, axis=2).reshape(24, 32, 8, 8)          # row, col, line, pixel
    attrs = np.frombuffer(bytes(mem[0x5800:0x5B00]), dtype=np.uint8).reshape(24, 32)
    ink = (attrs & 7) + ((attrs >> 6) & 1) * 8
    paper = ((attrs >> 3) & 7) + ((attrs >> 6) & 1) * 8
    if flash_phase:
        swap = (attrs & 0x80) != 0
        ink, paper = np.where(swap, paper, ink), np.where(swap, ink, paper)
    colour = np.where(bits == 1, ink[:, :, None, None], paper[:, :, None, None])
    img = PALETTE[colour.transpose(0, 2, 1, 3).reshape(192, 256)]
    if border is not None:
        framed = np.empty((256, 320, 3), dtype=np.uint8)
        framed[:] = PALETTE[border & 7]
        framed[32:224, 32:288] = img
        img = framed
    if scale > 1:
        img = img.repeat(scale, axis=0).repeat(scale, axis=1)
    return img


def save_png(machine: Showing, path: str | Path, border: bool = True, scale: int = 2) -> Path:
    """Write the machine's display (and border) as a PNG file."""
    from PIL import Image  # lazy: Pillow's Image (10 ms) only when a PNG is written (build never does)
    img = render(machine.mem, border=machine.s.border if border else None, scale=scale)
    path = Path(path)
    Image.fromarray(img, "RGB").save(path)
    return path


# ------------------------------------------------------------------ reading chosen cells quickly
def glyph_key(glyph: bytes) -> int:
    """An 8-byte glyph as one integer (top pixel line the most significant byte), the key of `GlyphIndex`."""
    return int.from_bytes(glyph, "big")


class GlyphIndex:
    """The glyphs that can be on screen as integer keys -> text, with the inverted glyphs marked.

    Built from `glyph_table` and kept while CHARS, UDG and the bytes they point at stay the same, so that a
    caller reading a few hundred cells many times a game pays for the table once.
    """

    def __init__(self, udg_text: Mapping[int, str] | None = None, *, font_text: Callable[[int], str]):
        self.udg_text = udg_text
        self.font_text = font_text
        self._fingerprint: bytes | None = None
        self.plain: dict[int, str] = {}
        self.inverted: dict[int, str] = {}

    def refresh(self, mem: MemoryLike) -> "GlyphIndex":
        chars = mem[23606] | mem[23607] << 8
        udg = mem[23675] | mem[23676] << 8
        fingerprint = bytes(mem[23606:23608]) + bytes(mem[23675:23677]) + bytes(mem[chars + 256:chars + 1024]) \
            + bytes(mem[udg:min(udg + 168, 0x10000)])
        if fingerprint != self._fingerprint:
            table = glyph_table(mem, self.udg_text, font_text=self.font_text).table
            self.plain = {glyph_key(g): t for g, t in table.items()}
            self.inverted = {}
            for g, t in table.items():
                self.inverted.setdefault(glyph_key(bytes(b ^ 0xFF for b in g)), t)
            self._fingerprint = fingerprint
        return self


@dataclass(frozen=True)
class Cell:
    """One character cell as a person sees it: its text (or UNKNOWN), colours, and whether it matched inverted."""
    text: str
    ink: int
    paper: int
    bright: int
    flash: int
    inverse: bool
    glyph: bytes

    @property
    def blank(self) -> bool:
        """Only paper shows: no pixel set (or every pixel set and ink is the colour seen)."""
        return self.glyph == bytes(8)

    def seen_paper(self) -> int:
        """The colour that fills a blank cell: its paper (an all-ink cell shows its ink)."""
        return self.ink if self.glyph == b"\xff" * 8 else self.paper


class ScreenCells:
    """The display file at one moment, read cell by cell on demand (no whole-screen recognition)."""

    def __init__(self, mem: MemoryLike, index: GlyphIndex):
        self.cells = cell_bytes(bytes(mem[0x4000:0x5800]))
        self.keys = self.cells.view(">u8").reshape(24, 32)
        self.attrs = np.frombuffer(bytes(mem[0x5800:0x5B00]), dtype=np.uint8).reshape(24, 32)
        self.index = index.refresh(mem)
        self.key_rows: list[list[int]] = self.keys.tolist()       # plain ints, for callers reading many cells
        self.attr_rows: list[list[int]] = self.attrs.tolist()

    def glyph(self, row: int, col: int) -> bytes:
        return bytes(self.cells[row, col])

    def text(self, row: int, col: int) -> str:
        key = self.key_rows[row][col]
        t = self.index.plain.get(key)
        if t is None:
            t = self.index.inverted.get(key, UNKNOWN)
        return t

    def cell(self, row: int, col: int) -> Cell:
        key, a = self.key_rows[row][col], self.attr_rows[row][col]
        t = self.index.plain.get(key)
        inverse = False
        if t is None:
            t = self.index.inverted.get(key)
            inverse = t is not None
            t = t if t is not None else UNKNOWN
        return Cell(t, a & 7, (a >> 3) & 7, (a >> 6) & 1, (a >> 7) & 1, inverse, self.cells[row, col].tobytes())

    def row_text(self, row: int, first: int = 0, end: int = 32) -> str:
        return "".join(self.text(row, c) for c in range(first, end))
