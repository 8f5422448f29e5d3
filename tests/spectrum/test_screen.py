"""The screen reader: colours per cell, unknown cells reported, PNG sizes; the listing read back."""
from PIL import Image

from harness.spectrum.charset import rom_char
from harness.spectrum.screen import PALETTE, read_screen, save_png
from harness.spectrum.typist import Typist

INK, PAPER, FLASH, BRIGHT, PRINT, INVERSE = 0xD9, 0xDA, 0xDB, 0xDC, 0xF5, 0xDD


def test_cell_attributes_and_inverse_video(machine):
    t = Typist(machine)
    # PRINT INK 2; PAPER 6; FLASH 1; BRIGHT 1;"A"; INVERSE 1;"B"
    t.type_codes(bytes([PRINT, INK]) + b"2;" + bytes([PAPER]) + b"6;" + bytes([FLASH]) + b"1;"
                 + bytes([BRIGHT]) + b'1;"A";' + bytes([INVERSE]) + b'1;"B"\r')
    machine.run_until_report(100)
    s = read_screen(machine.mem, font_text=rom_char)
    assert s.rows[0][:2] == "AB"
    assert (s.ink[0, 0], s.paper[0, 0], s.flash[0, 0], s.bright[0, 0]) == (2, 6, 1, 1)
    assert not s.inverse[0, 0] and s.inverse[0, 1]


def test_an_unknown_cell_is_reported_not_guessed(machine):
    machine.write(0x4000 + 5, bytes([0x5A]))            # row 0, column 5, top pixel line: no glyph like it
    s = read_screen(machine.mem, font_text=rom_char)
    assert s.rows[0][5] == "\ufffd" and s.unknown == [(0, 5)]


def test_png_with_and_without_border_at_integer_scale(machine, tmp_path):
    a = Image.open(save_png(machine, tmp_path / "a.png", border=False, scale=1))
    b = Image.open(save_png(machine, tmp_path / "b.png", border=True, scale=3))
    assert a.size == (256, 192) and b.size == (320 * 3, 256 * 3)
    assert b.getpixel((0, 0)) == tuple(PALETTE[7])        # white border after boot
    assert a.getpixel((0, 0)) == tuple(PALETTE[7])        # white paper


def test_the_program_in_memory_is_listed_back(machine):
    t = Typist(machine)
    t.enter_line(b"10" + bytes([0xF1]) + b"A=1.5:" + bytes([PRINT]) + b'"HI";A')
    assert machine.listing().strip() == '10 LET A=1.5: PRINT "HI";A'
