"""The listing read as a person studies it: lines, statements, coloured tokens, jumps and variables.

The edition shows `basic/cribbage.bas` as written (the lister's spacing), so
this module lexes the source text rather than the stored bytes. Keywords are
the 48K ROM's (`charset.TOKENS`), recognised as the tokeniser recognises them
(capitals, whole words); string and REM characters carry their Spectrum code
(`charset.read_char`) so they can be drawn with the program's own font.
Statements are numbered as the ROM numbers them (SUBPPC): a ``:`` outside a
string, and ``THEN``, start a new statement, so ``(line, statement)`` is the
key of a coverage count.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError
from ..spectrum import charset

__all__ = ["Token", "Statement", "Line", "Jump", "Listing", "read_listing", "parse_listing"]

JUMP_KEYWORDS = {"GO TO": "go to", "GO SUB": "go sub", "RESTORE": "restore", "RUN": "run", "LINE": "autostart"}
# Statements after which control never reaches the next statement of the line.
ENDS_FLOW = {"GO TO", "RETURN", "STOP", "RUN"}


@dataclass(frozen=True)
class Token:
    kind: str          # keyword, number, string, rem, variable, fn, operator, punct, space
    text: str          # as written in the listing
    codes: tuple[int, ...] = ()   # Spectrum codes of a string's or REM's characters (quotes excluded)


@dataclass(frozen=True)
class Jump:
    source: int        # line
    statement: int
    target: int
    kind: str          # go to, go sub, restore, run, autostart, falls through


@dataclass
class Statement:
    line: int
    index: int         # 1-based, as SUBPPC counts
    tokens: list[Token]
    conditional: bool  # after a THEN: runs only if the IF was true

    @property
    def key(self) -> str:
        return f"{self.line}:{self.index}"

    @property
    def command(self) -> str | None:
        for t in self.tokens:
            if t.kind == "space" or (t.kind == "punct" and t.text == ":"):
                continue
            return t.text if t.kind == "keyword" else None
        return None


@dataclass
class Line:
    number: int
    text: str                      # the source line as written
    file_line: int
    statements: list[Statement]
    jumps: list[Jump] = field(default_factory=list)

    @property
    def tokens(self) -> list[Token]:
        return [t for s in self.statements for t in s.tokens]

    @property
    def rem(self) -> str | None:
        """The text of a REM that opens the line (a header), else None."""
        first = self.statements[0]
        if first.command == "REM":
            return next((t.text for t in first.tokens if t.kind == "rem"), "")
        return None

    @property
    def falls_through(self) -> bool:
        """Whether control can run on into the next line."""
        for s in self.statements:
            if s.conditional:
                return True            # the IF may be false
            if s.command in ENDS_FLOW:
                return False
        return True


@dataclass
class Listing:
    path: str
    lines: list[Line]

    def __post_init__(self) -> None:
        self.by_number = {ln.number: ln for ln in self.lines}

    @property
    def statements(self) -> list[Statement]:
        return [s for ln in self.lines for s in ln.statements]

    def line_at_or_after(self, number: int) -> int | None:
        """The line a jump to *number* lands on (the ROM goes to the next existing line)."""
        for ln in self.lines:
            if ln.number >= number:
                return ln.number
        return None


def _keyword_regex() -> re.Pattern[str]:
    parts = []
    for text in sorted(charset.TOKENS.values(), key=len, reverse=True):
        pattern = r"\s*".join(re.escape(p) for p in text.split(" "))
        if text[-1].isalpha():
            pattern += r"(?![A-Za-z0-9])"
        parts.append(pattern)
    return re.compile("|".join(parts))


_KEYWORD = _keyword_regex()
_NUMBER = re.compile(r"(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*\$?")
_LINE_NUMBER = re.compile(r"\s*([0-9]+)\s?")
_OPERATORS = set("+-*/^=<>")


def _keyword_name(text: str) -> str:
    """GO  TO, GOTO -> GO TO: the token's own spelling."""
    squeezed = re.sub(r"\s+", "", text)
    for word in charset.TOKENS.values():
        if word.replace(" ", "") == squeezed:
            return word
    return text


def _lex(body: str, where: str) -> list[Token]:
    tokens: list[Token] = []
    pos = 0
    while pos < len(body):
        ch = body[pos]
        if ch in " \t":
            end = pos
            while end < len(body) and body[end] in " \t":
                end += 1
            tokens.append(Token("space", body[pos:end]))
            pos = end
            continue
        if ch == '"':
            start, pos, codes = pos, pos + 1, []
            while True:
                if pos >= len(body):
                    raise InputError(f"{where}: unterminated string")
                if body[pos] == '"':
                    if body[pos + 1:pos + 2] == '"':
                        codes.append(0x22)
                        pos += 2
                        continue
                    pos += 1
                    break
                code, pos = _read(body, pos, where)
                codes.append(code)
            tokens.append(Token("string", body[start:pos], tuple(codes)))
            continue
        m = _KEYWORD.match(body, pos)
        if m and not (ch.isalpha() and pos and body[pos - 1].isascii() and body[pos - 1].isalpha()):
            word = _keyword_name(m.group())
            tokens.append(Token("operator" if not word[0].isalpha() else "keyword", word))
            pos = m.end()
            if word == "REM":
                if body.startswith(" ", pos):
                    tokens.append(Token("space", " "))
                    pos += 1
                text, codes = body[pos:], []
                p = pos
                while p < len(body):
                    code, p = _read(body, p, where)
                    codes.append(code)
                tokens.append(Token("rem", text, tuple(codes)))
                pos = len(body)
            continue
        if ch.isascii() and ch.isalpha():
            m = _NAME.match(body, pos)
            assert m is not None                 # a letter always starts a name
            kind = "fn" if _previous_word(tokens) == "FN" or _previous_word(tokens) == "DEF FN" else "variable"
            tokens.append(Token(kind, m.group()))
            pos = m.end()
            continue
        m = _NUMBER.match(body, pos)
        if m:
            tokens.append(Token("number", m.group()))
            pos = m.end()
            continue
        tokens.append(Token("operator" if ch in _OPERATORS else "punct", ch))
        pos += 1
    return tokens


def _previous_word(tokens: list[Token]) -> str | None:
    for t in reversed(tokens):
        if t.kind != "space":
            return t.text if t.kind == "keyword" else None
    return None


def _read(text: str, pos: int, where: str) -> tuple[int, int]:
    try:
        return charset.read_char(text, pos, in_string=True)
    except charset.CharsetError as exc:
        raise InputError(f"{where}: {exc}") from None


def _statements(number: int, tokens: list[Token]) -> list[Statement]:
    out: list[Statement] = []
    current: list[Token] = []
    conditional = False

    def close() -> None:
        out.append(Statement(number, len(out) + 1, current, conditional))

    for t in tokens:
        if t.kind == "punct" and t.text == ":":
            close()
            current = [t]
            continue
        current.append(t)
        if t.kind == "keyword" and t.text == "THEN":
            close()
            current = []
            conditional = True
    close()
    # The separator belongs visually to the statement it opens; a statement that is only a
    # separator keeps it (an empty statement still has a number).
    return out


def _jumps(line: Line) -> list[Jump]:
    jumps = []
    for s in line.statements:
        words = [t for t in s.tokens if t.kind != "space"]
        for i, t in enumerate(words):
            if t.kind == "keyword" and t.text in JUMP_KEYWORDS:
                nxt = words[i + 1] if i + 1 < len(words) else None
                if t.text == "RUN" and (nxt is None or nxt.text == ":"):
                    jumps.append(Jump(line.number, s.index, 1, "run"))
                elif nxt is not None and nxt.kind == "number":
                    # only a literal number is a known target; a computed GO TO is not followed
                    after = words[i + 2] if i + 2 < len(words) else None
                    if after is None or after.text in (":",) or after.kind == "keyword":
                        jumps.append(Jump(line.number, s.index, int(float(nxt.text)), JUMP_KEYWORDS[t.text]))
    return jumps


def parse_listing(text: str, path: str = "<listing>") -> Listing:
    lines = []
    for file_line, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        where = f"{path}:{file_line}"
        m = _LINE_NUMBER.match(raw)
        if not m:
            raise InputError(f"{where}: missing line number")
        number = int(m.group(1))
        tokens = _lex(raw[m.end():], where)
        line = Line(number, raw, file_line, _statements(number, tokens))
        line.jumps = _jumps(line)
        lines.append(line)
    return Listing(path, lines)


def read_listing(path: Path) -> Listing:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{path}: {exc.strerror}") from None
    return parse_listing(text, str(path))
