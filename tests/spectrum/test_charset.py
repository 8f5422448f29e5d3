"""Character codes (harness.spectrum.charset): KOI-7 N1 Cyrillic, ROM glyph names, escapes."""
import pytest

from harness.spectrum.charset import (CharsetError, decode, encode, koi7_char, read_char,
                                      rom_char)

# The KOI-7 N1 layout of the program's chr font: Cyrillic capitals at 0x60-0x7E.
KOI7 = [
    (0x60, "Ю"),  # backquote / ROM pound sign
    (0x61, "А"),  # a
    (0x62, "Б"),  # b
    (0x63, "Ц"),  # c
    (0x64, "Д"),  # d
    (0x65, "Е"),  # e
    (0x66, "Ф"),  # f
    (0x67, "Г"),  # g
    (0x68, "Х"),  # h
    (0x69, "И"),  # i
    (0x6A, "Й"),  # j
    (0x6B, "К"),  # k
    (0x6C, "Л"),  # l
    (0x6D, "М"),  # m
    (0x6E, "Н"),  # n
    (0x6F, "О"),  # o
    (0x70, "П"),  # p
    (0x71, "Я"),  # q
    (0x72, "Р"),  # r
    (0x73, "С"),  # s
    (0x74, "Т"),  # t
    (0x75, "У"),  # u
    (0x76, "Ж"),  # v
    (0x77, "В"),  # w
    (0x78, "Ь"),  # x
    (0x79, "Ы"),  # y
    (0x7A, "З"),  # z
    (0x7B, "Ш"),  # {
    (0x7C, "Э"),  # |
    (0x7D, "Щ"),  # }
    (0x7E, "Ч"),  # ~
]


@pytest.mark.parametrize("code,letter", KOI7)
def test_koi7_cyrillic_layout(code, letter):
    assert koi7_char(code) == letter
    assert encode(letter) == bytes([code])


ROM_CHARS = [
    (0x20, " "),        # space
    (0x41, "A"),        # Latin capital
    (0x5E, "↑"),        # the ROM font has an up arrow where ASCII has ^
    (0x60, "£"),        # the ROM font has a pound sign where ASCII has `
    (0x61, "a"),        # lowercase Latin in the ROM font
    (0x7F, "©"),        # copyright sign
    (0x80, " "),        # block graphic: empty
    (0x81, "▝"),        # block graphic: top right
    (0x82, "▘"),        # block graphic: top left
    (0x83, "▀"),        # block graphic: top half
    (0x84, "▗"),        # block graphic: bottom right
    (0x88, "▖"),        # block graphic: bottom left
    (0x8C, "▄"),        # block graphic: bottom half
    (0x8F, "█"),        # block graphic: full
    (0x90, "\\a"),      # first UDG
    (0xA4, "\\u"),      # last UDG (48K)
    (0xA5, "RND"),      # first token
    (0xCE, "DEF FN"),   # multi-word token
    (0xFF, "COPY"),     # last token
    (0x10, "\\{16}"),   # INK control code
]


@pytest.mark.parametrize("code,shown", ROM_CHARS)
def test_rom_char(code, shown):
    assert rom_char(code) == shown


@pytest.mark.parametrize("code,shown", [
    (0x41, "A"),    # Latin capitals are the same in both fonts
    (0x5E, "↑"),    # the chr font keeps the ROM's arrow
    (0x60, "Ю"),    # where the ROM has its pound sign
    (0x7F, "©"),    # the chr font keeps the ROM's copyright sign
    (0x8F, "█"),    # block graphics are drawn by the ROM, not the font
])
def test_koi7_char_outside_cyrillic(code, shown):
    assert koi7_char(code) == shown


ESCAPES = [
    ("\\a", 144),        # UDG A
    ("\\u", 164),        # UDG U
    ("\\{16}", 16),      # decimal
    ("\\{0x10}", 16),    # hex
    ("\\{0XfF}", 255),   # hex, any case
    ("\\\\", 0x5C),      # a backslash
    ("\\':", 135),       # zmakebas block graphic example from its manual
    ("\\:.", 142),       # zmakebas block graphic example from its manual
    ("\\  ", 128),       # empty block graphic
    ("\\::", 143),       # full block graphic
    ("▚", 0x86),         # Unicode quadrant: top left + bottom right
    ("©", 0x7F),         # copyright sign
    ("↑", 0x5E),         # up arrow
    ("Ё", 0x65),         # no Ё in the font: written as Е
]


@pytest.mark.parametrize("text,code", ESCAPES)
def test_escapes_and_special_characters(text, code):
    assert encode(text) == bytes([code])


def test_russian_word():
    # К Р И Б Е Д Ж at k r i b e d v
    assert encode("КРИБЕДЖ") == bytes([0x6B, 0x72, 0x69, 0x62, 0x65, 0x64, 0x76])


def test_lowercase_latin_in_strings_is_the_same_byte_as_cyrillic():
    assert encode("chr") == encode("ЦХР") == b"chr"


BAD = [
    ("AB\\z", 3, "bad escape"),              # unknown escape letter
    ("\\{256}", 1, "not a byte"),            # too big
    ("X\\{1x}", 2, "bad escape"),            # not a number
    ("XY\\", 3, "lone backslash"),           # nothing after the backslash
    ("Кот", 2, "lowercase Cyrillic"),        # the listing is all capitals
    ("ОБЪЁМ", 3, "Ъ"),                       # no Ъ in KOI-7 N1
    ("A€", 2, "no Spectrum code"),           # not in the character set
]


@pytest.mark.parametrize("text,column,reason", BAD)
def test_errors_name_line_and_column(text, column, reason):
    with pytest.raises(CharsetError) as e:
        encode(text, line=7)
    assert e.value.column == column and e.value.line == 7
    assert f"line 7, column {column}" in str(e.value) and reason in str(e.value)


def test_cyrillic_outside_strings_is_an_error():
    with pytest.raises(CharsetError, match="outside a string"):
        encode("LET С=1", in_string=False)   # a Cyrillic С where a Latin C was meant


def test_read_char_returns_next_position_and_offsets_column():
    assert read_char("X\\{200}Y", 1, in_string=True) == (200, 7)
    with pytest.raises(CharsetError) as e:
        read_char("\\x", 0, in_string=True, column=12)
    assert e.value.column == 12


@pytest.mark.parametrize("in_string", [True, False])
def test_decode_then_encode_is_identity_for_every_byte(in_string):
    data = bytes(range(256))
    assert encode(decode(data, in_string=in_string), in_string=in_string) == data


SPELLINGS = [
    (b"\x6b\x61\x72\x74\x61", True, "КАРТА"),   # string mode: KOI-7
    (b"\x6b\x61\x72\x74\x61", False, "karta"),  # code mode: ASCII (variable names)
    (b"A B", True, "A B"),                      # space in a string
    (b"A B", False, "A\\{32}B"),                # stored space outside a string is spelled out
    (b"\x90\x87\x5c", True, "\\a\\':\\\\"),     # UDG, block graphic, backslash
    (b"\x10\x02", True, "\\{16}\\{2}"),         # control codes
]


@pytest.mark.parametrize("data,in_string,text", SPELLINGS)
def test_decode_spelling(data, in_string, text):
    assert decode(data, in_string=in_string) == text
