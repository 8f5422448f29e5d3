"""The English of every Russian text on the screen, for the play window's panel (the Russian tape only).

The program's texts are its string literals (`english.literals`); the English of each is the English
edition's (basic/translation.tsv, `english.read_table`), so the window says what the English tape would
print there. `screen_texts` pairs them once per program (and names any literal the table lacks: the
window must never show a Russian text without its English); `on_screen` finds which of them the screen
shows now, by the machine's own screen reader (`screen.read_screen`, the program's font), longest first
and at word edges, so «Я» inside «Я ДУМАЮ» is not said twice. The card letters have a legend of their own
(`RANK_LEGEND`): R$ is never printed whole.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..errors import InputError
from ..program.model import english, program as P
from ..program.model.text import as_words
from ..spectrum.charset import koi7_char
from ..spectrum.screen import MemoryLike, read_screen

RANKS_LINE = P.RANKS_LINE        # R$: the ranks, drawn on the cards one letter at a time (the card legend)
#: the Russian tape's card letters (R$, 7320) as the English tape draws them
RANK_LEGEND = "cards: Т = A (ТУЗ), В = J, Д = Q, К = K; 2..10 as printed"
VERTICAL_MIN = 3                 # letters a text down a column needs (the board's title), so that no two
#                                 letters of the cards above each other are taken for a word


@dataclass(frozen=True)
class ScreenText:
    """One literal of the listing as the screen shows it (Cyrillic), and the English edition's words."""
    line: int
    russian: str
    english: str


def screen_texts(program: bytes, table: list[english.Translation] | None = None,
                 path: Path | str = english.TABLE) -> tuple[ScreenText, ...]:
    """Every Russian string literal of *program* with its English; an InputError naming the first literal
    that *table* (default: basic/translation.tsv) has no row for."""
    rows = {(t.line, t.russian): t.english for t in (english.read_table() if table is None else table)}
    out: list[ScreenText] = []
    missing: list[english.Literal] = []
    for lit in english.literals(program):
        if lit.kind != "string" or not english.needs_translation(lit) or lit.line == RANKS_LINE:
            continue
        en = rows.get((lit.line, lit.text))
        if en is None:
            missing.append(lit)
            continue
        shown = "".join(P.UDG_TEXT.get(b, "") if b >= 0x80 else koi7_char(b) for b in lit.data).strip()
        if shown:
            out.append(ScreenText(lit.line, shown, as_words(en)))
    if missing:
        lit = missing[0]
        raise InputError(f"{path}: no English for line {lit.line} \"{lit.text}\" "
                         f"({len(missing)} Russian text(s) the window could not translate)")
    return tuple(out)


def _alone(screen: str, at: int) -> bool:
    """No letter beside the cell *at* in its row (a letter of a word written down, not across)."""
    column = at % 32
    return not ((column > 0 and screen[at - 1].isalpha()) or (column < 31 and screen[at + 1].isalpha()))


def _at_word_edges(text: str, start: int, end: int) -> bool:
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    return not before.isalpha() and not after.isalpha()


@lru_cache(maxsize=None)
def _pattern(russian: str) -> re.Pattern[str]:
    """*russian* as the screen may show it: each run of spaces any cells of that length (a text printed with
    OVER 1 leaves what was under its spaces: the lesson pages over the board)."""
    return re.compile("".join(f".{{{len(part)}}}" if part.isspace() else re.escape(part)
                              for part in re.findall(r" +|[^ ]+", russian)), re.DOTALL)


def find_texts(rows: list[str], texts: tuple[ScreenText, ...]) -> list[ScreenText]:
    """The texts *rows* (the screen's 24 rows of 32 cells) show, in screen order; a text printed across a
    row's end is found too (rows are read as one run of cells), and a shorter one inside a longer one's
    place is not listed again; a word of VERTICAL_MIN letters or more is found down a column too (the board's
    title, a letter every other row, each with no letter beside it). The same words twice on the screen are listed once."""
    screen = "".join(r.ljust(32)[:32] for r in rows)
    taken = [False] * len(screen)
    found: list[tuple[int, ScreenText]] = []
    seen: set[str] = set()
    for t in sorted(texts, key=lambda t: -len(t.russian)):
        pattern = _pattern(t.russian)
        match = pattern.search(screen)
        while match is not None:
            start, end = match.span()
            if not any(taken[start:end]) and _at_word_edges(screen, start, end):
                taken[start:end] = [True] * (end - start)
                if t.russian not in seen:
                    found.append((start, t))
                    seen.add(t.russian)
            match = pattern.search(screen, start + 1)
    for column in range(32):               # a word written down the screen, a letter a cell (5780: «КРИБЕДЖ»)
        cells = [(row * 32 + column, screen[row * 32 + column]) for row in range(24)]
        letters = [(at, ch) for at, ch in cells if not ch.isspace() and _alone(screen, at)]
        down = "".join(ch for _, ch in letters)
        for t in texts:
            if len(t.russian) < VERTICAL_MIN or " " in t.russian or t.russian in seen:
                continue
            start = down.find(t.russian)
            if start >= 0 and _at_word_edges(down, start, start + len(t.russian)):
                found.append((letters[start][0], t))
                seen.add(t.russian)
    return [t for _, t in sorted(found, key=lambda f: f[0])]


def on_screen(mem: MemoryLike, texts: tuple[ScreenText, ...]) -> list[ScreenText]:
    """The texts of the program the machine's screen (*mem*, its memory) shows now."""
    rows = read_screen(mem, udg_text=P.UDG_TEXT, font_text=koi7_char).rows
    return find_texts(rows, texts)


def panel_text(t: ScreenText) -> str:
    """«Russian» English, each as one line of words (a rules page's 32-column layout undone)."""
    return f"«{as_words(t.russian)}» {t.english}"
