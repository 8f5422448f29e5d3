"""Every Russian word on the screens a player meets (a game played) has its English."""
from __future__ import annotations

import os
import re

import pytest

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from harness.program.model import program as P
from harness.play import translate
from harness.play.session import PlaySession
from harness.play.settings import PlaySettings
from harness.spectrum import charset
from harness.spectrum.screen import read_screen
from play_keys import keys
from helpers import answer_wait

WORD = re.compile(r"[А-ЯЁ]{2,}")        # a Russian word of two letters or more (single letters: the card ranks)


pytestmark = pytest.mark.usefixtures("dummy_video")      # tests/conftest.py


def untranslated(s: PlaySession) -> list[str]:
    """Russian words on the machine's screen that no translation line of the panel has."""
    screen = read_screen(s.machine.mem, udg_text=P.UDG_TEXT, font_text=charset.koi7_char).rows
    said = set(WORD.findall(" ".join(l.text.split("»")[0] for l in s.panel_lines() if l.tone == "translation")))
    cells = [row.ljust(32) for row in screen]

    def alone(r: int, c: int) -> bool:        # a letter with none beside it: part of a word written down
        return not ((c > 0 and cells[r][c - 1].isalpha()) or (c < 31 and cells[r][c + 1].isalpha()))
    columns = ["".join(cells[r][c] for r in range(24) if cells[r][c].isalpha() and alone(r, c)) for c in range(32)]
    shown = ({w for row in screen for w in WORD.findall(row)}              # across, and down (the board's title;
             | {w for col in columns for w in WORD.findall(col) if len(w) >= translate.VERTICAL_MIN})  # «С» over «И»
    #                                                                         two one-letter words, is no word)
    # a word hyphenated at a row's end («УКА-» «ЗАТЕЛЬ») is said whole («УКАЗАТЕЛЬ»): its halves are covered
    return sorted(w for w in shown if w not in said and not any(s.startswith(w) or s.endswith(w) for s in said))


def test_every_russian_word_on_the_screens_a_player_meets_has_its_english(tape_path):
    s = PlaySession(PlaySettings(tape=tape_path(), seed=7, scale=1))
    seen: list[str] = []
    looked = 0

    def look():
        nonlocal looked
        looked += 1
        lines = s.panel_lines()
        assert lines[0].tone == "legend" and "Т = A" in lines[0].text and "В = J" in lines[0].text
        missing = untranslated(s)
        assert missing == [], (missing, [l.text for l in lines])
        seen.extend(l.text for l in lines if l.tone == "translation")
    look()                                               # «ВАМ НУЖНА ИНСТРУКЦИЯ?»
    w = keys(s, "Y", "ENTER")
    for _ in range(12):                                  # the rules pages, the board demo's question, the lessons
        look()
        if w.kind == "input":
            if w.line == P.ASK_MUGGINS:
                break
            w = keys(s, "Y", "ENTER")
        else:
            w = keys(s, "N")                             # N: the next page (and no board demo)
    assert w.line == P.ASK_MUGGINS
    look()
    w = keys(s, "N", "ENTER")
    look()                                               # the cut
    w = keys(s, "M")
    for n in range(80):                                  # the deal's message, the discard and its lessons, the
        look()                                           # play, the shows, the next deal
        answer_wait(s, s.waiting(), n)
    assert looked >= 80
    joined = "\n".join(seen)
    for needle in ("«ВАМ НУЖНА ИНСТРУКЦИЯ? (Y/N):» NEED INSTRUCTIONS? (Y/N):", "«СНИМИТЕ КОЛОДУ",
                   "«ИГРАЕМ С ПРАВИЛОМ МАГГИНЗ?»", "«ВСКРЫВАЮ КРИБ?", "«СЛЕДУЮЩИЙ ХОД?", "«ВЫБЕРИТЕ"):
        assert needle in joined, needle
    assert "«ВЫ СДАЕТЕ» YOU DEAL" in joined or "«Я СДАЮ» I DEAL" in joined
