"""48K Sinclair BASIC program lines: source text <-> bytes as the ROM stores them.

The source is the listing as printed (the magazine's), one BASIC line per
text line.  `tokenise_line` produces what the 48K ROM would store if the
line were typed in with CAPS LOCK on: on a 48K a keyword is one keypress,
so the spaces around keywords in a listing are the lister's and are not
stored; spaces outside strings and REMs are dropped altogether.

Stored form of one line: line number (2 bytes, big-endian), length of the
rest (2 bytes, little-endian), the body, 0x0D.  In the body:

* keywords are single token bytes 0xA5..0xFF (`charset.TOKENS`), recognised
  only in capitals and only as whole words, so TOTAL, SAFE, RLEN stay
  variables; the multi-word tokens may be written with or without spaces
  (``GO TO``, ``GOTO``);
* after every number literal (and after ``BIN digits``) the digits as
  typed are followed by 0x0E and the 5-byte value (`floats`) - the ROM
  inserts this when it checks the line's syntax;
* after each parameter of ``DEF FN f(a,b$)`` the ROM opens a 6-byte slot:
  0x0E then 5 bytes it does not clear.  MAKE-ROOM (0x1655) leaves there
  the bytes that were already at those addresses, i.e. the 2nd..5th bytes
  of the line after the parameter name (as typed, ending 0x0D 0x80), then
  the name's last character.  ``DEF FN T(X)=(X>9)...`` stores
  ``X 0E 3D 28 58 3E 58 )`` - checked on the real ROM.  (zmakebas writes
  no slot at all.)
* after ``REM`` the rest of the line is stored verbatim, less the one space
  the lister prints after REM; string contents are stored verbatim.

Characters and escapes follow `charset` (code mode outside strings, KOI-7
string mode inside strings and REMs).  The pluggable *number_encoder*
maps a literal's text to its 5 bytes; the default is correctly rounded,
while the ROM's DEC-TO-FP is not always (0.1, .5): plug in an encoder
driven by the emulated ROM for bit-exact programs.

`detokenise` lists bytes back with the ROM lister's spacing (a keyword
gets a trailing space if it ends in a letter or $, except RND, INKEY$, PI;
keywords from OR on get a leading space unless after a space or at the
start), so that ``tokenise_program(detokenise(p)) == p``.  Strings are
spelled in Cyrillic where their codes are KOI-7 letters, except a file
name right after LOAD/SAVE/VERIFY/MERGE, spelled in Latin ("chr").  Hidden numbers
and DEF FN slots are skipped (the tokeniser recreates them), so a program
whose DEF FN slots were filled by running it does not round-trip.

Source lines that are blank or start with ``#`` are ignored.
"""

from __future__ import annotations

import re
from typing import Callable, NoReturn

from ..errors import InputError
from ..runtime.validate import quoted
from . import charset, floats
from .charset import TOKENS, CharsetError

__all__ = [
    "tokenise_line", "tokenise_program",
    "detokenise", "split_program", "default_number_encoder", "NUMBER_MARKER",
]

NUMBER_MARKER = 0x0E
TOKEN_BIN = 0xC4
TOKEN_REM = 0xEA
TOKEN_DEF_FN = 0xCE
MAX_LINE_NUMBER = 9999

NumberEncoder = Callable[[str], bytes]
_FILE_COMMANDS = {0xD5, 0xD6, 0xEF, 0xF8}  # MERGE, VERIFY, LOAD, SAVE


def default_number_encoder(text: str) -> bytes:
    """Correctly rounded 5-byte value of a decimal literal (`floats.encode_literal`)."""
    return floats.encode_literal(text)


def tokenise_error(reason: str, *, path: str | None = None, file_line: int | None = None,
                   basic_line: int | None = None, column: int | None = None) -> InputError:
    """A source line that cannot be tokenised, as an InputError naming the file, lines and column."""
    where = path or "<source>"
    if file_line is not None:
        where += f":{file_line}"
        if column is not None:
            where += f":{column}"
    elif column is not None:
        where += f": column {column}"
    if basic_line is not None:
        where += f" (BASIC line {basic_line})"
    return InputError(f"{where}: {reason}")


def _keyword_pattern(text: str) -> str:
    parts = [re.escape(p) for p in text.split(" ")]
    pattern = r"\s*".join(parts)
    if text[-1].isalpha():
        pattern += r"(?![A-Za-z0-9])"  # whole word: TOTAL is not TO+TAL
    return pattern


# Longest first, so INKEY$ beats INK and IN, and <> beats nothing shorter.
_KEYWORDS = sorted(TOKENS.items(), key=lambda kv: -len(kv[1]))
_KEYWORD_RE = re.compile("|".join(f"(?P<t{code:02X}>{_keyword_pattern(text)})"
                                  for code, text in _KEYWORDS))
_NUMBER_RE = re.compile(r"(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_BINARY_RE = re.compile(r"\s*([01]*)")
_LINE_NUMBER_RE = re.compile(r"\s*([0-9]+)")
_DEF_FN_NAME_RE = re.compile(r"\s*([A-Za-z])\s*(\$?)\s*\(")
_DEF_FN_PARAM_RE = re.compile(r"\s*([A-Za-z])\s*(\$?)\s*([,)])")
_DEF_FN_EMPTY_RE = re.compile(r"\s*\)")
# Codes an escape must not produce (except as a colour control's parameter
# outside strings, and 0x22 in a REM): the ROM would misread the line.
_FORBIDDEN = {0x22: "would open or close a string (write the quote itself)",
              0x0D: "would end the line"}


class _Line:
    """Bytes of one line as typed, plus the hidden parts the ROM inserts."""

    def __init__(self) -> None:
        self.typed = bytearray()
        self.hidden: list[tuple[int, bytes | None]] = []  # (offset, bytes or None=DEF FN slot)

    def add(self, data: bytes | int) -> None:
        if isinstance(data, int):
            self.typed.append(data)
        else:
            self.typed += data

    def add_hidden(self, data: bytes | None) -> None:
        self.hidden.append((len(self.typed), data))

    def body(self) -> bytes:
        out = bytearray()
        start = 0
        tail = bytes(self.typed) + b"\x0d\x80"
        for offset, data in self.hidden:
            out += self.typed[start:offset]
            if data is None:  # DEF FN slot: what MAKE-ROOM leaves behind
                following = tail[offset + 1:offset + 5].ljust(4, b"\x00")
                data = following + self.typed[offset - 1:offset]
            out.append(NUMBER_MARKER)
            out += data
            start = offset
        out += self.typed[start:]
        out.append(0x0D)
        return bytes(out)


def tokenise_line(text: str, line_no_in_file: int | None = None,
                  number_encoder: NumberEncoder = default_number_encoder,
                  path: str | None = None) -> tuple[int, bytes]:
    """Tokenise one source line; return (BASIC line number, stored line record)."""
    return _LineReader(text.rstrip("\r\n"), line_no_in_file, number_encoder, path).tokenise()


class _LineReader:
    """One source line read left to right into a _Line: strings, keywords (REM, BIN and DEF FN take what
    follows them), names, numbers and single characters; `fail` names the file, the lines and the column."""

    def __init__(self, text: str, file_line: int | None, number_encoder: NumberEncoder, path: str | None):
        self.text, self.file_line, self.number_encoder, self.path = text, file_line, number_encoder, path
        self.basic_line: int | None = None
        self.line = _Line()

    def fail(self, reason: str, pos: int | None = None) -> NoReturn:
        raise tokenise_error(reason, path=self.path, file_line=self.file_line,
                             basic_line=self.basic_line, column=None if pos is None else pos + 1)

    def tokenise(self) -> tuple[int, bytes]:
        text, fail = self.text, self.fail
        m = _LINE_NUMBER_RE.match(text)
        if not m:
            fail("missing line number", len(text) - len(text.lstrip()))
        basic_line = self.basic_line = int(m.group(1))
        if not 1 <= basic_line <= MAX_LINE_NUMBER:
            fail(f"line number {basic_line} is not in 1..{MAX_LINE_NUMBER}", m.start(1))
        if not text[m.end():].strip():
            fail("a line number with nothing after it (typed, it would delete the line)", m.start(1))
        self.statements(m.end())
        body = self.line.body()
        if len(body) > 0xFFFF:
            fail(f"line is {len(body)} bytes long, more than 65535")
        return basic_line, basic_line.to_bytes(2, "big") + len(body).to_bytes(2, "little") + body

    def statements(self, pos: int) -> None:
        """The line after its number, to its end."""
        text, line = self.text, self.line
        while pos < len(text):
            ch = text[pos]
            if ch in " \t":
                pos += 1
                continue
            if ch == '"':
                pos = self.string(pos)
                continue
            km = _KEYWORD_RE.match(text, pos)
            if km and not (ch.isalpha() and pos > 0 and text[pos - 1].isascii()
                           and text[pos - 1].isalpha()):
                pos = self.keyword(km)
                continue
            if ch.isascii() and ch.isalpha():
                end = pos
                while end < len(text) and text[end].isascii() and text[end].isalnum():
                    end += 1
                line.add(text[pos:end].encode("ascii"))
                pos = end
                continue
            nm = _NUMBER_RE.match(text, pos)
            if nm:
                self.number(pos, nm.group())
                pos = nm.end()
                continue
            pos = self.read(pos, False)

    def string(self, start: int) -> int:
        """A string literal from its opening quote at *start*; where it ends."""
        text, line = self.text, self.line
        line.add(0x22)
        pos = start + 1
        while True:
            if pos >= len(text):
                self.fail("unterminated string", start)
            if text[pos] == '"':
                line.add(0x22)
                pos += 1
                if pos < len(text) and text[pos] == '"':  # "" is a quote
                    line.add(0x22)
                    pos += 1
                    continue
                return pos
            pos = self.read(pos, True)

    def keyword(self, km: re.Match[str]) -> int:
        """A keyword matched by *km*, and what REM, BIN or DEF FN take after it; where it all ends."""
        text, line = self.text, self.line
        group = km.lastgroup             # the keyword's group: "k" and its code in hex
        assert group is not None         # every alternative of _KEYWORD_RE is a named group
        code = int(group[1:], 16)
        line.add(code)
        pos = km.end()
        if code == TOKEN_REM:
            if text.startswith(" ", pos):  # the lister's space after REM
                pos += 1
            while pos < len(text):
                pos = self.read(pos, True, in_rem=True)
        elif code == TOKEN_BIN:
            bm = _BINARY_RE.match(text, pos)
            assert bm is not None            # it matches the empty string too
            digits = bm.group(1)
            value = int(digits, 2) if digits else 0
            if value > 0xFFFF:
                self.fail(f"BIN {digits} is too big (report 6)", bm.start(1))
            line.add(digits.encode("ascii"))
            line.add_hidden(floats.encode(value))
            pos = bm.end()
        elif code == TOKEN_DEF_FN:
            pos = _def_fn(text, pos, line, self.fail)
        return pos

    def read(self, p: int, in_string: bool, in_rem: bool = False, raw: bool = False) -> int:
        """One character or escape at *p* (and a colour control's parameters after it); where it ends."""
        text, fail = self.text, self.fail
        try:
            code, nxt = charset.read_char(text, p, in_string=in_string,
                                          line=self.file_line)
        except CharsetError as e:
            fail(e.reason, e.column - 1)
        if code == 0x0D or (code == 0x22 and text[p] == "\\" and not (in_rem or raw)):
            fail(f"escape for code {code} {_FORBIDDEN[code]}", p)
        if code == NUMBER_MARKER and not (in_string or raw):
            fail("escape for code 14 outside a string would be read as a hidden number", p)
        self.line.add(code)
        if not in_string and not raw:  # a colour control's parameters are taken as they are
            for _ in range(_control_params(code)):
                if nxt >= len(text):
                    fail(f"control code {code} needs {_control_params(code)} parameter(s)", p)
                nxt = self.read(nxt, False, raw=True)
        return nxt

    def number(self, p: int, literal: str) -> None:
        """A number literal at *p*: its digits as typed, then its hidden 5-byte value."""
        try:
            value = self.number_encoder(literal)
        except (ValueError, OverflowError) as e:
            self.fail(f"number {quoted(literal)}: {e}", p)
        if len(value) != 5:
            self.fail(f"number encoder gave {len(value)} bytes for {quoted(literal)}", p)
        self.line.add(literal.encode("ascii"))
        self.line.add_hidden(bytes(value))


def _skip_spaces(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t":
        pos += 1
    return pos


def _def_fn(text: str, pos: int, line: _Line, fail: Callable[[str, int], NoReturn]) -> int:
    """After DEF FN: copy ``f(a,b$)`` and mark a ROM slot after each parameter."""
    m = _DEF_FN_NAME_RE.match(text, pos)
    if not m:
        fail("DEF FN must be followed by a one-letter name and '('", _skip_spaces(text, pos))
    line.add((m.group(1) + m.group(2) + "(").encode("ascii"))
    pos = m.end()
    m = _DEF_FN_EMPTY_RE.match(text, pos)
    if m:
        line.add(0x29)
        return m.end()
    while True:
        m = _DEF_FN_PARAM_RE.match(text, pos)
        if not m:
            fail("DEF FN parameters must be one letter (or letter$) separated by commas",
                 _skip_spaces(text, pos))
        line.add((m.group(1) + m.group(2)).encode("ascii"))
        line.add_hidden(None)
        line.add(ord(m.group(3)))
        pos = m.end()
        if m.group(3) == ")":
            return pos


def tokenise_program(source_text: str, path: str | None = None,
                     number_encoder: NumberEncoder = default_number_encoder) -> bytes:
    """Tokenise a whole listing; line numbers must strictly increase."""
    out = bytearray()
    previous = 0
    for file_line, text in enumerate(source_text.splitlines(), start=1):
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            continue
        number, record = tokenise_line(text, file_line, number_encoder, path)
        if number <= previous:
            what = "duplicate" if number == previous else "out-of-order"
            m = _LINE_NUMBER_RE.match(text)              # it did: tokenise_line read the number
            raise tokenise_error(f"{what} line number {number} after {previous}",
                                 path=path, file_line=file_line, basic_line=number,
                                 column=m.start(1) + 1 if m else None)
        previous = number
        out += record
    return bytes(out)


def split_program(program: bytes) -> list[tuple[int, bytes]]:
    """Split a program area into (line number, body including the final 0x0D)."""
    program = bytes(program)
    lines = []
    pos = 0
    while pos < len(program):
        if pos + 4 > len(program):
            raise InputError(f"offset {pos}: truncated line header")
        number = int.from_bytes(program[pos:pos + 2], "big")
        length = int.from_bytes(program[pos + 2:pos + 4], "little")
        body = program[pos + 4:pos + 4 + length]
        if len(body) != length:
            raise InputError(f"offset {pos}: line {number} says {length} bytes, "
                                  f"only {len(body)} left")
        if not body or body[-1] != 0x0D:
            raise InputError(f"offset {pos}: line {number} does not end with 0x0D")
        lines.append((number, body))
        pos += 4 + length
    return lines


def _control_params(code: int) -> int:
    """How many parameter bytes follow a control code outside strings."""
    if 0x10 <= code <= 0x15:  # INK, PAPER, FLASH, BRIGHT, INVERSE, OVER
        return 1
    if code in (0x16, 0x17):  # AT, TAB
        return 2
    return 0


def _detokenise_body(number: int, body: bytes) -> str:
    lister = _Lister()
    i = 0
    end = len(body) - 1  # the final 0x0D
    while i < end:
        code = body[i]
        if code == 0x22:  # a string, up to its closing quote
            close = body.find(b'"', i + 1, end)
            if close < 0:
                raise InputError(f"line {number}: unterminated string")
            # A file name (after LOAD, SAVE...) is Latin by convention: "chr", not "ЦХР".
            latin = i > 0 and body[i - 1] in _FILE_COMMANDS
            lister.emit('"' + charset.decode(body[i + 1:close], cyrillic=not latin) + '"', False)
            i = close + 1
            lister.leading_space = True
        elif code in TOKENS:
            lister.keyword(code)
            i += 1
            if code == TOKEN_REM:
                lister.rem(body[i:end])
                i = end
        elif code == NUMBER_MARKER:  # hidden number or DEF FN slot
            if i + 6 > end:
                raise InputError(f"line {number}: hidden number cut short")
            i += 6
        else:
            params = _control_params(code)
            lister.emit(charset.source_char(code, in_string=False)
                        + "".join("\\{%d}" % c for c in body[i + 1:i + 1 + params]), False)
            lister.leading_space = code > 0x20
            i += 1 + params
    return lister.text()


class _Lister:
    """One line's body as the ROM's lister spaces it (see the module's note), piece by piece."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.leading_space = False  # the ROM's "a space is wanted before a keyword"
        self.after_keyword = False

    def emit(self, text: str, keyword: bool) -> None:
        # A space the ROM would not print, only where a keyword and a name
        # would otherwise run together (ARND, PIA): keeps the round trip
        # exact even for nonsense lines; spaces are not stored anyway.
        out = self.out
        prev = out[-1][-1] if out and out[-1] else ""
        if (keyword or self.after_keyword) and prev.isascii() and prev.isalnum() \
                and text[0].isascii() and text[0].isalnum():
            out.append(" ")
        out.append(text)
        self.after_keyword = keyword

    def keyword(self, code: int) -> None:
        word = TOKENS[code]
        if self.leading_space and code >= 0xC5 and word[0].isalpha():
            self.out.append(" ")
        self.emit(word, True)
        self.leading_space = True
        if (word[-1].isalpha() or word[-1] == "$") and code > 0xA7:
            self.out.append(" ")  # every keyword but RND, INKEY$, PI
            self.leading_space = False

    def rem(self, rest: bytes) -> None:
        """The text after REM, kept exactly."""
        text = charset.decode(rest)
        if text:
            self.out.append(text)
            self.after_keyword = False
        else:
            self.out.pop()  # no trailing space after an empty REM

    def text(self) -> str:
        if self.after_keyword and self.out and self.out[-1] == " ":
            self.out.pop()  # the lister's space after a final keyword (STOP, RETURN)
        return "".join(self.out)


def detokenise(program_bytes: bytes) -> str:
    """List a program area as source text that tokenises back to the same bytes."""
    return "".join(f"{number} {_detokenise_body(number, body)}\n"
                   for number, body in split_program(program_bytes))
