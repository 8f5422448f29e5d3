"""docs/PLAYING.md, the player's guide, is generated and current, and what it tells a player holds on the machine."""
from __future__ import annotations

import checkout
import re
import sys

import pytest

from harness.program.model import english
from harness.spectrum.charset import koi7_char, rom_char
from harness.spectrum.loading import load_tape
from harness.spectrum.machine import Spectrum48
from harness.spectrum.screen import read_screen
from harness.spectrum.tape import read_tap
from harness.spectrum.typist import Typist

ROOT = checkout.ROOT
sys.path.insert(0, str(ROOT))
from tools import write_playing_guide as guide
from tools.playing_screens import play_game

CONTINUE = bytes([0xE8]) + b"\r"          # the keyword CONTINUE (one key in K mode), ENTER


def test_the_guide_is_current():
    assert (ROOT / "docs" / "PLAYING.md").read_text(encoding="utf-8") == guide.render(), \
        "run: .venv/bin/python -m tools.write_playing_guide"


def test_every_russian_text_on_screen_has_a_row_with_its_english():
    text = guide.render()
    program = guide.program_bytes()
    texts = [lit for lit in english.literals(program) if lit.kind == "string" and english.needs_translation(lit)]
    rows = [r for r in text.splitlines() if re.match(r"\| \d+ \| ", r) and r.count("|") == 6]
    assert len(rows) == len(texts) == 82
    for lit, row in zip(texts, rows):
        assert row.startswith(f"| {lit.line} |")
        assert guide.cell(lit.text) in row and guide.cell(english.english(lit.text)) in row


def test_the_cell_shows_a_wrapped_text_as_words():
    assert guide.cell("ONE" + " " * 29 + "TWO") == "ONE TWO"
    assert guide.cell("A" * 32 + "B") == "A" * 32 + " B"      # a full row and the next: not run together
    assert guide.cell("\\l|") == "[В]\\|"
    # a word hyphenated at a screen row's end is one word again; a dash between words stays
    assert guide.cell("ИГРО-" + " " * 27 + "КОВ") == "ИГРОКОВ"
    assert guide.cell("КРИБЕДЖ - ИГРА") == "КРИБЕДЖ - ИГРА"
    # a REM is padded for the listing's wrap, not the screen's: never cut at 32 columns
    assert guide.cell("NO PAIRS,               CHECK FOR RUNS", "rem") == "NO PAIRS, CHECK FOR RUNS"


def test_no_table_of_the_guide_keeps_a_word_cut_by_the_listings_wrap():
    guide_text = (ROOT / "docs" / "PLAYING.md").read_text(encoding="utf-8")
    for cut in ("FO R RUNS", "НЕ М ЕНЕЕ", "ВЫКЛАДЫВ АЕТСЯ", "TH E 5TH", "ИГРО- КОВ", "O F SIZE"):
        assert cut not in guide_text, cut


def test_every_picture_the_guide_shows_exists():
    from PIL import Image
    names = re.findall(r"\]\((figures/screens/[^)]+\.png)\)", guide.render())
    assert len(names) == 2 * len(guide.SHOTS)
    assert sorted(names) == sorted(f"figures/screens/{p.name}" for p in (ROOT / "docs" / "figures" / "screens").glob("*.png"))  # no orphans
    for name in names:
        with Image.open(ROOT / "docs" / name) as img:
            assert img.size == (640, 512)            # 320x256 with the border, at twice the size


def test_the_rom_reports_are_read_from_the_rom():
    reports = dict(guide.rom_reports())
    assert reports["L"] == "BREAK into program" and reports["9"] == "STOP statement" and reports["R"] == "Tape loading error"
    assert guide.as_russian_font("BREAK into program") == "BREAK ИНТО ПРОГРАМ"


def test_a_stale_deviation_reference_is_refused():
    with pytest.raises(KeyError):
        guide.deviation_id("1234-5678")


def test_the_fuse_command_names_the_rom_by_its_default_name():
    """Fuse 1.6 auto-loads only with the ROM by its default name (tests/oracles/emulators/test_fuse.py starts it the same way)."""
    text = guide.render()
    assert "cd roms\nfuse-sdl --machine 48 --rom-48 48.rom --auto-load --tape ../build/cribbage-en.tap\n" in text
    assert '"--rom-48", "48.rom"' in (ROOT / "tests" / "oracles" / "emulators" / "test_fuse.py").read_text(encoding="utf-8")


# ---------------------------------------------------------------- what the guide says about reports, on the machine
def loaded(lang: str, build_of) -> Spectrum48:
    m = Spectrum48(fast=True)
    m.boot()
    load_tape(m, read_tap(build_of(lang).tap))
    return m


def bottom_row(m: Spectrum48, lang: str) -> str:
    """The report line, read with the glyphs each edition's font has at the codes of the Latin lowercase."""
    m.run_frames(20)                                  # the report is printed after the run stops
    screen = read_screen(m.mem, font_text=rom_char) if lang == "en" else read_screen(m.mem, font_text=koi7_char)
    return screen.rows[23].rstrip()


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_break_while_the_computer_thinks_and_continue(lang, build_of):
    m = loaded(lang, build_of)
    m.press("CAPS SHIFT+SPACE")                       # BREAK at the first question does nothing
    m.run_frames(10)
    m.release()
    stop = m.run(200, until_wait=True, what="the question")
    assert (stop.kind, stop.wait.line) == ("wait", 7060)
    for answer in ("N", "N"):
        Typist(m).answer(answer)
        m.run(2000, until_wait=True, what="the next wait")
    m.tap("M")                                        # cut the deck
    m.run_until_line(500, 1, max_frames=20_000)       # the computer starts choosing its discards
    m.run_frames(50)
    m.press("CAPS SHIFT+SPACE")
    stop = m.run(100, until_wait=True, what="the BREAK report")
    m.release()
    assert stop.kind == "report" and stop.report.code == "L"
    seen = bottom_row(m, lang)
    want = "L BREAK into program" if lang == "en" else "L " + guide.as_russian_font("BREAK into program")
    assert seen.startswith(want + ", ")
    Typist(m).type_codes(CONTINUE)
    stop = m.run(5000, until_wait=True, what="the discard after CONTINUE")
    assert stop.kind == "wait" and m.gosub_stack()[0][0] == 7860      # choosing your first discard


class _AtClaim(Exception):
    def __init__(self, machine):
        self.machine = machine


def test_a_name_or_stop_typed_at_the_muggins_question_and_continue_asks_again(build_of):
    """What the guide's report table says of reports 2 and H, at «ВВЕДИТЕ СВОЙ СЧЕТ:» (4780)."""
    def stop_at_claim(m, w):
        if (w.kind, w.line) == ("input", 4780):
            raise _AtClaim(m)
    with pytest.raises(_AtClaim) as caught:
        play_game(build_of("en").tap, seed=5, on_wait=stop_at_claim)
    m = caught.value.machine
    for typed, code, message in ((b"Q", "2", "Variable not found"), (bytes([0xE2]), "H", "STOP in INPUT")):
        Typist(m).type_codes(typed + b"\r")
        stop = m.run(500, until_wait=True, what="the report")
        assert stop.kind == "report" and (stop.report.code, stop.report.line) == (code, 4780)
        assert bottom_row(m, "en").startswith(f"{code} {message}, 4780:")
        Typist(m).type_codes(CONTINUE)
        stop = m.run(500, until_wait=True, what="the question again")
        assert (stop.kind, stop.wait.kind, stop.wait.line) == ("wait", "input", 4780)
