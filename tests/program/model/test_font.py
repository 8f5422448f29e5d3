"""The game's chr font (harness.spectrum.font, basic/chr_font.txt).

Design decision tested here: every Cyrillic glyph differs from every other
glyph of the chr font and from every glyph of the ROM font, including the
look-alikes (А В Е К М Н О Р С Т Х are drawn slightly unlike A B E K M H O
P C T X), so that a screen can be read back to exact character codes.
"""
import checkout

import pytest

from harness.errors import InputError
from harness.spectrum import font
from harness.spectrum.charset import KOI7_CYRILLIC

ROM = checkout.ROOT / "roms" / "48.rom"


@pytest.fixture(scope="module")
def chr_font():
    return font.build_font()


@pytest.fixture(scope="module")
def rom_glyphs():
    data = ROM.read_bytes()
    return [data[0x3D00 + i * 8:0x3D00 + i * 8 + 8] for i in range(96)]


def glyph(data, code):
    return data[(code - 32) * 8:(code - 31) * 8]


def test_size_and_layout(chr_font):
    assert len(chr_font) == 768  # 96 glyphs of 8 bytes, code 32 first
    from harness.program.model import program
    assert program.FONT_ADDRESS + program.FONT_LENGTH == 65368  # ends where the 48K's UDGs start
    assert program.CHARS_VALUE == 64344 == 88 + 251 * 256       # line 8: POKE 23606,88: POKE 23607,251


def test_all_96_glyphs_are_in_the_file():
    glyphs = font.parse_font(font.DEFAULT_PATH.read_text(encoding="utf-8"))
    assert sorted(glyphs) == list(range(0x20, 0x80))


KNOWN = [
    (0x20, "00 00 00 00 00 00 00 00"),  # space
    (0x41, "00 3c 42 42 7e 42 42 00"),  # A, as in the ROM font at 0x3E08
    (0x30, "00 3c 46 4a 52 62 3c 00"),  # 0 with its slash, as in the ROM
    (0x67, "00 7e 40 40 40 40 40 00"),  # Г: bar on top, stem at column 1
    (0x63, "00 44 44 44 44 44 7e 02"),  # Ц: descender in the bottom row
    (0x6F, "00 3c 66 42 42 66 3c 00"),  # О: octagonal, unlike the ROM's O (3C 42 42 42 42 3C)
]


@pytest.mark.parametrize("code,expected", KNOWN)
def test_known_glyph_bytes(chr_font, code, expected):
    assert glyph(chr_font, code).hex(" ") == expected


def test_ascii_part_is_the_roms(chr_font, rom_glyphs):
    # space, digits, punctuation and Latin capitals 0x20-0x5F, and the (c) at 0x7F
    for code in list(range(0x20, 0x60)) + [0x7F]:
        assert glyph(chr_font, code) == rom_glyphs[code - 32], hex(code)


def test_cyrillic_glyphs_are_distinct_from_every_other_glyph(chr_font, rom_glyphs):
    for code in range(0x60, 0x7F):
        g = glyph(chr_font, code)
        letter = KOI7_CYRILLIC[code - 0x60]
        others = [c for c in range(0x20, 0x80) if c != code and glyph(chr_font, c) == g]
        assert not others, f"{letter} shares its glyph with chr {others}"
        same_rom = [c for c in range(0x20, 0x80) if rom_glyphs[c - 32] == g]
        assert not same_rom, f"{letter} shares its glyph with ROM {same_rom}"


def test_cyrillic_glyphs_keep_the_roms_margins(chr_font):
    for code in range(0x60, 0x7F):
        g = glyph(chr_font, code)
        letter = KOI7_CYRILLIC[code - 0x60]
        assert all(row & 1 == 0 for row in g), f"{letter} touches the right edge"
        assert any(g), f"{letter} is blank"


def test_glyph_table_reads_both_fonts(chr_font, rom_glyphs):
    table = font.glyph_table(rom=b"".join(rom_glyphs))
    assert table[glyph(chr_font, 0x41)] == "A"      # Latin, shared by both fonts
    assert table[glyph(chr_font, 0x61)] == "А"      # Cyrillic А
    assert table[glyph(chr_font, 0x5E)] == "↑"      # the ROM's arrow
    assert table[rom_glyphs[0x61 - 32]] == "a"      # lowercase a, ROM font only
    assert table[rom_glyphs[0x60 - 32]] == "£"      # pound, ROM font only
    assert table[bytes([0xFF] * 8)] == "█"          # block graphic 0x8F
    assert table[bytes([0xF0] * 4 + [0] * 4)] == "▘"  # block graphic 0x82: top left
    assert table[bytes(8)] == " "                   # space (and empty block 0x80)


def test_glyph_table_without_rom_has_chr_and_blocks():
    table = font.glyph_table()
    assert len(table) == 96 + 15  # 0x80 draws like a space


def write(tmp_path, text):
    p = tmp_path / "f.txt"
    p.write_text(text, encoding="utf-8")
    return p


GOOD = "== 0x41 'A'\n" + "........\n" * 8


BAD = [
    # (file text, line named, reason)
    ("; comment\n== 0x41 'A'\n" + "........\n" * 7 + "....#...x\n", 10, "row 8"),
    ("== 0x41 'B'\n" + "........\n" * 8, 1, "shows 'A'"),
    ("== 0x81 ' '\n" + "........\n" * 8, 1, "outside 0x20-0x7F"),
    (GOOD + GOOD, 10, "defined twice"),
    ("== 0x41 'A'\n" + "........\n" * 3, 4, "only 3 of 8 rows"),
    ("A\n", 1, "expected a header"),
]


@pytest.mark.parametrize("text,line,reason", BAD)
def test_parse_errors_name_the_line(tmp_path, text, line, reason):
    p = write(tmp_path, text)
    with pytest.raises(InputError) as e:
        font.build_font(p)
    assert f"{p}:{line}:" in str(e.value) and reason in str(e.value)


def test_incomplete_font_names_missing_codes(tmp_path):
    with pytest.raises(InputError, match="no glyph for 0x20, 0x21"):
        font.build_font(write(tmp_path, GOOD))


def test_glyph_rows_is_text_art():
    assert font.glyph_rows(bytes.fromhex("003c42427e424200"))[1] == "..####.."
