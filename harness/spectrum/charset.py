"""Character codes of the program: source text <-> Spectrum bytes.

The magazine program prints Russian with its own "chr" font laid out as
KOI-7 N1: the Cyrillic capitals sit at the codes of the Latin lowercase
letters, 0x60-0x7E (table `KOI7_CYRILLIC`).  Latin capitals, digits and
punctuation keep their ASCII codes (unlike strict KOI-7 N1, 0x24 stays "$").
There is no Ъ (KOI-7 N1 has none) and Ё is written as Е, as the font has
no Ё.  The listing is all capitals, so lowercase Cyrillic in the source is
an error rather than being silently capitalised.

Source text (the .bas listing) uses two modes:

* string mode (inside "..." and after REM): ASCII and Cyrillic capitals,
  the latter as KOI-7 codes.  Lowercase Latin is its ASCII code, the same
  byte as a Cyrillic capital ("chr" and "ЦХР" are the same 3 bytes: which
  one the screen shows depends on the font in use); `decode` spells such
  bytes in Cyrillic;
* code mode (the rest of a line): plain ASCII, lowercase Latin allowed
  (variable names); Cyrillic is an error there (usually an OCR homoglyph).

Escapes in both modes (zmakebas style): ``\\a``..``\\u`` UDGs 144-164,
``\\{n}`` / ``\\{0xNN}`` any code, ``\\\\`` a backslash, and a backslash
followed by two of `` .':`` for block graphics 128-143 (left half, right
half: ``'`` top, ``.`` bottom, ``:`` both).  Unicode quadrant blocks,
"©" (0x7F) and "↑" (0x5E) are also accepted.

`rom_char` and `koi7_char` say what a code looks like on screen with the
ROM font and with the chr font (for screen text); `decode` gives the
source spelling (for listings that must tokenise back to the same bytes).
"""

from __future__ import annotations

import re

from ..errors import InputError

__all__ = [
    "CharsetError", "KOI7_CYRILLIC", "TOKENS", "BLOCK_GRAPHICS",
    "rom_char", "koi7_char", "read_char", "encode", "decode",
]


class CharsetError(InputError):
    """A source character or escape that has no Spectrum code.

    ``column`` is the 1-based column in the text given to `encode` /
    `read_char` (plus its ``column`` offset); ``line`` is the caller's.
    """

    def __init__(self, reason: str, column: int, line: int | None = None):
        self.reason = reason
        self.column = column
        self.line = line
        where = f"line {line}, column {column}" if line is not None else f"column {column}"
        super().__init__(f"{where}: {reason}")


#: Cyrillic capitals at codes 0x60..0x7E (KOI-7 N1 order).
KOI7_CYRILLIC = "ЮАБЦДЕФГХИЙКЛМНОПЯРСТУЖВЬЫЗШЭЩЧ"
_CYR_TO_CODE = {ch: 0x60 + i for i, ch in enumerate(KOI7_CYRILLIC)}
_CYR_TO_CODE["Ё"] = _CYR_TO_CODE["Е"]

#: Keyword tokens 0xA5..0xFF of the 48K ROM, as the ROM lists them.
TOKENS = {
    0xA5: "RND", 0xA6: "INKEY$", 0xA7: "PI", 0xA8: "FN", 0xA9: "POINT",
    0xAA: "SCREEN$", 0xAB: "ATTR", 0xAC: "AT", 0xAD: "TAB", 0xAE: "VAL$",
    0xAF: "CODE", 0xB0: "VAL", 0xB1: "LEN", 0xB2: "SIN", 0xB3: "COS",
    0xB4: "TAN", 0xB5: "ASN", 0xB6: "ACS", 0xB7: "ATN", 0xB8: "LN",
    0xB9: "EXP", 0xBA: "INT", 0xBB: "SQR", 0xBC: "SGN", 0xBD: "ABS",
    0xBE: "PEEK", 0xBF: "IN", 0xC0: "USR", 0xC1: "STR$", 0xC2: "CHR$",
    0xC3: "NOT", 0xC4: "BIN", 0xC5: "OR", 0xC6: "AND", 0xC7: "<=",
    0xC8: ">=", 0xC9: "<>", 0xCA: "LINE", 0xCB: "THEN", 0xCC: "TO",
    0xCD: "STEP", 0xCE: "DEF FN", 0xCF: "CAT", 0xD0: "FORMAT", 0xD1: "MOVE",
    0xD2: "ERASE", 0xD3: "OPEN #", 0xD4: "CLOSE #", 0xD5: "MERGE",
    0xD6: "VERIFY", 0xD7: "BEEP", 0xD8: "CIRCLE", 0xD9: "INK", 0xDA: "PAPER",
    0xDB: "FLASH", 0xDC: "BRIGHT", 0xDD: "INVERSE", 0xDE: "OVER", 0xDF: "OUT",
    0xE0: "LPRINT", 0xE1: "LLIST", 0xE2: "STOP", 0xE3: "READ", 0xE4: "DATA",
    0xE5: "RESTORE", 0xE6: "NEW", 0xE7: "BORDER", 0xE8: "CONTINUE",
    0xE9: "DIM", 0xEA: "REM", 0xEB: "FOR", 0xEC: "GO TO", 0xED: "GO SUB",
    0xEE: "INPUT", 0xEF: "LOAD", 0xF0: "LIST", 0xF1: "LET", 0xF2: "PAUSE",
    0xF3: "NEXT", 0xF4: "POKE", 0xF5: "PRINT", 0xF6: "PLOT", 0xF7: "RUN",
    0xF8: "SAVE", 0xF9: "RANDOMIZE", 0xFA: "IF", 0xFB: "CLS", 0xFC: "DRAW",
    0xFD: "CLEAR", 0xFE: "RETURN", 0xFF: "COPY",
}

#: Block graphics 0x80..0x8F as Unicode quadrants.  Bit 0 of the code is
#: the top-right quarter, bit 1 top-left, bit 2 bottom-right, bit 3
#: bottom-left.  0x80 (empty) is shown as a space.
BLOCK_GRAPHICS = " ▝▘▀▗▐▚▜▖▞▌▛▄▟▙█"
_BLOCK_TO_CODE = {ch: 0x80 + i for i, ch in enumerate(BLOCK_GRAPHICS) if i}

# zmakebas drawing of a block graphic: left half then right half.
_HALF = {" ": 0, "'": 1, ".": 2, ":": 3}  # bit 0 top, bit 1 bottom
_HALF_CHARS = " '.:"

_UDG_FIRST, _UDG_LAST = 0x90, 0xA4  # \a .. \u
_BRACE_RE = re.compile(r"\{(0[xX][0-9A-Fa-f]+|[0-9]+)\}")


def _escape(code: int) -> str:
    return "\\{%d}" % code


def rom_char(code: int) -> str:
    """What *code* shows on screen with the ROM font.

    0x5E is "↑", 0x60 "£", 0x7F "©"; 0x80-0x8F quadrant blocks; UDGs as
    ``\\a``..``\\u``; tokens as their keyword; control codes as ``\\{n}``.
    """
    if not 0 <= code <= 0xFF:
        raise ValueError(f"not a byte: {code}")
    if code == 0x5E:
        return "↑"
    if code == 0x60:
        return "£"
    if code == 0x7F:
        return "©"
    if 0x20 <= code <= 0x7E:
        return chr(code)
    if 0x80 <= code <= 0x8F:
        return BLOCK_GRAPHICS[code - 0x80]
    if _UDG_FIRST <= code <= _UDG_LAST:
        return "\\" + chr(ord("a") + code - _UDG_FIRST)
    if code in TOKENS:
        return TOKENS[code]
    return _escape(code)


def koi7_char(code: int) -> str:
    """What *code* shows on screen with the program's chr font.

    Same as `rom_char` except 0x60-0x7E, which are Cyrillic capitals.
    """
    if 0x60 <= code <= 0x7E:
        return KOI7_CYRILLIC[code - 0x60]
    return rom_char(code)


def _block_code(left: str, right: str) -> int:
    lf, rt = _HALF[left], _HALF[right]
    # top-right bit 0, top-left bit 1, bottom-right bit 2, bottom-left bit 3
    return 0x80 | (rt & 1) | ((lf & 1) << 1) | ((rt & 2) << 1) | ((lf & 2) << 2)


def read_char(text: str, pos: int, *, in_string: bool, column: int = 1,
              line: int | None = None) -> tuple[int, int]:
    """Encode the character or escape at ``text[pos]``: return (code, next pos).

    *column* is the 1-based column of ``text[0]`` in the caller's line, so
    errors name the right place.  Raises `CharsetError`.
    """
    ch = text[pos]
    where = column + pos
    if ch == "\\":
        rest = text[pos + 1:pos + 3]
        if not rest:
            raise CharsetError("lone backslash at end of line (write \\\\ for a backslash)",
                               where, line)
        first = rest[0]
        if first == "\\":
            return 0x5C, pos + 2
        if "a" <= first <= "u":
            return _UDG_FIRST + ord(first) - ord("a"), pos + 2
        if first == "{":
            m = _BRACE_RE.match(text, pos + 1)
            if not m:
                raise CharsetError("bad escape: expected \\{decimal} or \\{0xHEX}", where, line)
            value = int(m.group(1), 0) if m.group(1)[:2].lower() == "0x" else int(m.group(1))
            if value > 0xFF:
                raise CharsetError(f"bad escape: code {value} is not a byte", where, line)
            return value, m.end()
        if len(rest) == 2 and rest[0] in _HALF and rest[1] in _HALF:
            return _block_code(rest[0], rest[1]), pos + 3
        raise CharsetError(f"bad escape \\{first}", where, line)
    if ch in _CYR_TO_CODE:
        if not in_string:
            raise CharsetError(f"Cyrillic {ch!r} outside a string or REM "
                               "(a Latin look-alike?)", where, line)
        return _CYR_TO_CODE[ch], pos + 1
    if ch in _BLOCK_TO_CODE:
        return _BLOCK_TO_CODE[ch], pos + 1
    if ch == "©":
        return 0x7F, pos + 1
    if ch == "↑":
        return 0x5E, pos + 1
    if ch == "Ъ":
        raise CharsetError("Ъ has no code in KOI-7 N1 (the font has none)", where, line)
    if "а" <= ch <= "я" or ch == "ё":
        raise CharsetError(f"lowercase Cyrillic {ch!r}: the listing is all capitals",
                           where, line)
    code = ord(ch)
    if 0x20 <= code <= 0x7E:
        return code, pos + 1
    raise CharsetError(f"character {ch!r} (U+{code:04X}) has no Spectrum code", where, line)


def encode(text: str, *, in_string: bool = True, line: int | None = None,
           column: int = 1) -> bytes:
    """Encode source text (string or code mode) into Spectrum bytes."""
    out = bytearray()
    pos = 0
    while pos < len(text):
        code, pos = read_char(text, pos, in_string=in_string, column=column, line=line)
        out.append(code)
    return bytes(out)


def source_char(code: int, *, in_string: bool = True, cyrillic: bool = True) -> str:
    """The canonical source spelling of one byte (inverse of `read_char`).

    In string mode 0x60-0x7E are spelled in Cyrillic unless *cyrillic* is
    False (then as ASCII, e.g. for tape file names).
    """
    if code == 0x5C:
        return "\\\\"
    if in_string and cyrillic and 0x60 <= code <= 0x7E:
        return KOI7_CYRILLIC[code - 0x60]
    if 0x21 <= code <= 0x7E or (code == 0x20 and in_string):
        return chr(code)
    if code == 0x7F:
        return "©"
    if 0x80 <= code <= 0x8F:
        bits = code - 0x80
        left = ((bits >> 1) & 1) | ((bits >> 2) & 2)
        right = (bits & 1) | ((bits >> 1) & 2)
        return "\\" + _HALF_CHARS[left] + _HALF_CHARS[right]
    if _UDG_FIRST <= code <= _UDG_LAST:
        return "\\" + chr(ord("a") + code - _UDG_FIRST)
    return _escape(code)


def decode(data: bytes, *, in_string: bool = True, cyrillic: bool = True) -> str:
    """Source spelling of *data*, such that ``encode(decode(d)) == d``.

    In code mode a space is written ``\\{32}``: the tokeniser drops spaces
    outside strings, so a stored one must be spelled out.
    """
    return "".join(source_char(c, in_string=in_string, cyrillic=cyrillic) for c in data)
