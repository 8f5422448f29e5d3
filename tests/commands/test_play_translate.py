"""The play window on the Russian tape says every text on the screen in English: each Russian literal of the
program has its English edition's words (a table without one is refused, naming the line), the texts the
screen shows are found by the screen reader (whole words, a shorter text inside a longer not twice), and on
the screens a player meets (the rules pages, the cut, «ВЫ СДАЕТЕ» / «Я СДАЮ», the discard, the play) no
Russian word is left without its English on the panel; the card letters' legend is there without --referee.
The English tape needs none of it. Also: the save slots in the XDG data folder, and `play --lang en`."""
from __future__ import annotations

import os
import re

import pytest

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
pygame = pytest.importorskip("pygame", reason="pygame-ce is not installed (the play extra)")

from harness import resources
from harness.errors import InputError
from harness.program.model import english
from harness.program.model import program as P
from harness.play import translate
from harness.play import window as window_module
from harness.play.session import PlaySession
from harness.play.slots import data_folder, default_save
from harness.play.settings import PlaySettings
from harness.spectrum import charset
from harness.spectrum.basic import tokenise_program
from harness.spectrum.screen import read_screen

WORD = re.compile(r"[А-ЯЁ]{2,}")        # a Russian word of two letters or more (single letters: the card ranks)


@pytest.fixture(scope="module")
def listing_program() -> bytes:
    return tokenise_program(resources.LISTING.read_text(encoding="utf-8"), path=str(resources.LISTING))


pytestmark = pytest.mark.usefixtures("dummy_video")      # tests/conftest.py


def cyrillic_literals(program: bytes) -> list[tuple[int, str]]:
    """Every string literal with a Cyrillic letter, walked here from the program's bytes (not translate's)."""
    return [(lit.line, lit.text) for lit in english.literals(program)
            if lit.kind == "string" and not lit.file_name and any(0x60 <= b <= 0x7E for b in lit.data)]


def test_every_russian_text_of_the_program_has_its_english(listing_program):
    texts = translate.screen_texts(listing_program)
    lines = cyrillic_literals(listing_program)
    assert len(lines) == 82 and len(texts) == 81                # all but R$ (7320), the ranks: the legend's
    assert {t.line for t in texts} | {translate.RANKS_LINE} == {line for line, _ in lines}
    for t in texts:
        assert t.english and not re.search("[А-ЯЁ]", t.english), t
        assert re.search("[А-ЯЁ]", t.russian), t
    by_line = {(t.line, t.russian) for t in texts}
    assert (7520, "ВЫ СДАЕТЕ") in by_line and (4885, "МОИ!") in by_line
    assert any(t.line == 4795 and t.russian.startswith("- НЕВЕРНО.") for t in texts)


def test_a_table_without_one_text_is_refused_naming_its_line(listing_program):
    table = english.read_table()
    gone = next(t for t in table if t.russian == "ВЫ СДАЕТЕ")
    with pytest.raises(InputError, match=r"no English for line 7520 \"ВЫ СДАЕТЕ\" \(1 Russian text"):
        translate.screen_texts(listing_program, [t for t in table if t is not gone])
    rem = next(t for t in table if t.line == 7000)                  # a REM's row is not a screen text: no refusal
    assert len(translate.screen_texts(listing_program, [t for t in table if t is not rem])) == 81


def test_texts_are_found_whole_longest_first_and_across_a_rows_end(listing_program):
    texts = translate.screen_texts(listing_program)
    rows = [""] * 24
    rows[3] = "Я ДУМАЮ"
    rows[4] = "ПРИГОТОВЬТЕСЬ"                      # «ГОТОВ» inside a longer word: not that text
    rows[23] = "ВЫ СДАЕТЕ"
    rows[10] = " " * 26 + "ПОЖАЛУ"                 # a text printed across the end of a row
    rows[11] = "ЙСТА, ПОДОЖДИТЕ"
    found = [t.russian for t in translate.find_texts(rows, texts)]
    assert found == ["Я ДУМАЮ", "ПОЖАЛУЙСТА, ПОДОЖДИТЕ", "ВЫ СДАЕТЕ"]
    assert "Я" not in found and "ГОТОВ" not in found
    rows[4] = "ГОТОВ"
    assert "ГОТОВ" in [t.russian for t in translate.find_texts(rows, texts)]     # the near miss
    down = [""] * 24
    for i, letter in enumerate("КРИБЕДЖ"):         # 5780-5800: the board's title, a letter every other row
        down[5 + 2 * i] = " " * 28 + letter
    assert [t.russian for t in translate.find_texts(down, texts)] == ["КРИБЕДЖ"]
    down[3] = " " * 28 + "Ы"                        # a letter more above it: no longer a word at its edges
    assert "КРИБЕДЖ" not in [t.russian for t in translate.find_texts(down, texts)]
    down[3] = " " * 28 + "·"                        # the board's hole there: a word again
    assert "КРИБЕДЖ" in [t.russian for t in translate.find_texts(down, texts)]


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


def test_a_text_left_out_is_caught_on_the_screen(tape_path, monkeypatch):
    """The planted miss: without one text's English the same screen has a Russian word unsaid."""
    s = PlaySession(PlaySettings(tape=tape_path(), seed=7, scale=1))
    assert untranslated(s) == []
    texts = s.screen_texts()
    s._texts = tuple(t for t in texts if not t.russian.startswith("ВАМ НУЖНА"))
    s._translated = None
    assert "ИНСТРУКЦИЯ" in untranslated(s)


def test_the_english_tape_has_no_legend_and_nothing_to_translate(tape_path):
    s = PlaySession(PlaySettings(tape=tape_path("en"), seed=7, scale=1))
    assert s.screen_texts() == ()
    assert not [l for l in s.panel_lines() if l.tone in ("legend", "translation")]


# ---------------------------------------------------------------- the save slots' folder
def test_slots_go_to_the_xdg_data_folder_and_the_window_says_where(tape_path, tmp_path, monkeypatch):
    data, work = tmp_path / "data", tmp_path / "work"
    work.mkdir()
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    monkeypatch.chdir(work)
    assert data_folder() == data / "cribbage-zx" and default_save() == data / "cribbage-zx" / "cribbage.z80"
    s = PlaySession(PlaySettings(tape=tape_path(), seed=7, scale=1))
    window = window_module.Window(s)
    try:
        assert any(str(data / "cribbage-zx") in l.text for l in s.panel_lines() if l.tone == "note")
        window.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F2, mod=0, unicode="", scancode=0))
        assert str(data / "cribbage-zx") in s.notice
        window.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_4, mod=0, unicode="", scancode=0))
        assert (data / "cribbage-zx" / "cribbage-4.z80").is_file()
        assert str(data / "cribbage-zx" / "cribbage-4.z80") in s.notice
        assert list(work.iterdir()) == []                    # nothing in the working folder
    finally:
        window.close()


def test_without_xdg_data_home_the_slots_go_to_the_home_share_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert data_folder() == tmp_path / ".local" / "share" / "cribbage-zx"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/data")      # the specification: a relative path is ignored
    assert data_folder() == tmp_path / ".local" / "share" / "cribbage-zx"
    assert data_folder({"XDG_DATA_HOME": str(tmp_path / "x")}) == tmp_path / "x" / "cribbage-zx"


# ---------------------------------------------------------------- play --lang en
def test_play_lang_en_builds_the_english_tape_and_plays_it(tmp_path, monkeypatch, capsys):
    from harness.commands import play as command
    from harness.play import session as session_module
    en_tap = tmp_path / "build" / "cribbage-en.tap"
    monkeypatch.setattr(command, "EN_TAP", en_tap)
    played = []
    real = session_module.PlaySession

    def spy(*args, **kwargs):
        s = real(*args, **kwargs)
        played.append(s)
        return s
    monkeypatch.setattr(command, "PlaySession", spy)
    assert command.main(["--lang", "en", "--seconds", "0.3", "--scale", "1", "--no-sound", "--seed", "5"]) == 0
    assert en_tap.is_file()
    s, = played
    assert s.screen_texts() == ()                            # the English edition's program
    assert P.words_of_program(s.machine.program_bytes()) == P.english_words()
    assert command.main(["--lang", "en", "--tape", str(en_tap), "--seconds", "0.1"]) == 2
    assert "--tape or --lang, not both" in capsys.readouterr().err


def test_the_status_line_wraps_inside_the_window_and_the_notice_keeps_its_row():
    from harness.play.panel import status_rows
    long = "REPLAY running ahead to deal 3: frame 1234 of 56789, deal 1 (the keys are yours when it ends) | " * 2
    rows = status_rows(long, "saved slot 1", 60, 3)
    assert len(rows) == 3 and all(len(t) <= 60 for t, _ in rows)
    assert rows[-1] == ("saved slot 1", "notice") and rows[-2][0].endswith("...")
    assert status_rows("short", "", 60, 3) == [("short", "status")]
