"""The guide's words on the game's end played: RUN after the end starts afresh without reloading; CONTINUE or GO TO 7400 starts another."""
from __future__ import annotations

import checkout
import sys

import pytest

from harness.program.model import english
from harness.spectrum.charset import koi7_char, rom_char
from harness.spectrum.machine import Spectrum48
from harness.spectrum.screen import read_screen
from harness.spectrum.typist import Typist

ROOT = checkout.ROOT
sys.path.insert(0, str(ROOT))
from tools import write_playing_guide as guide
from tools.playing_screens import play_game

CONTINUE = bytes([0xE8]) + b"\r"          # the keyword CONTINUE (one key in K mode), ENTER
RUN = bytes([0xF7]) + b"\r"
GO_TO_7400 = bytes([0xEC]) + b"7400\r"


@pytest.fixture(scope="module")
def english_game_over(build_of):
    """One whole English game (seed 5) played to its STOP, kept as a snapshot (Spectrum48.snapshot: the whole
    machine state): each test goes on from a copy of the very machine play_game left, not a game of its own."""
    stop, m = play_game(build_of("en").tap, seed=5)
    return stop, m.snapshot()


def restored(snap) -> Spectrum48:
    m = Spectrum48(fast=True)
    m.restore(snap)
    return m


def bottom_row(m: Spectrum48, lang: str) -> str:
    """The report line, read with the glyphs each edition's font has at the codes of the Latin lowercase."""
    m.run_frames(20)                                  # the report is printed after the run stops
    screen = read_screen(m.mem, font_text=rom_char) if lang == "en" else read_screen(m.mem, font_text=koi7_char)
    return screen.rows[23].rstrip()


@pytest.mark.parametrize("command", [CONTINUE, GO_TO_7400], ids=["CONTINUE", "GO TO 7400"])
def test_after_the_last_game_continue_or_go_to_7400_starts_another(command, english_game_over):
    stop, m = english_game_over[0], restored(english_game_over[1])
    assert stop.kind == "report" and str(stop.report).startswith("9 STOP statement, 8330")
    assert bottom_row(m, "en").startswith("9 STOP statement, 8330:")
    from harness.spectrum.variables import BasicVariables
    games = BasicVariables(m).get("G()")
    assert sum(games) == 1
    Typist(m).type_codes(command)
    stop = m.run(5000, until_wait=True, what="the muggins question")
    assert (stop.kind, stop.wait.kind, stop.wait.line) == ("wait", "input", 7405)
    asked = english.english("ИГРАЕМ С ПРАВИЛОМ МАГГИНЗ? ").strip()
    assert any(asked in r for r in read_screen(m.mem, font_text=koi7_char).rows)
    assert BasicVariables(m).get("G()") == games                   # the tally of games is kept


def test_run_after_the_end_starts_afresh_without_reloading(build_of):
    stop, m = play_game(build_of("ru").tap, seed=5)
    assert str(stop.report).startswith("9 STOP statement")
    assert bottom_row(m, "ru").startswith("9 STOP " + guide.as_russian_font("statement"))
    Typist(m).type_codes(RUN)
    stop = m.run(5000, until_wait=True, what="the first question")
    assert (stop.kind, stop.wait.kind, stop.wait.line) == ("wait", "input", 7060)
    screen = read_screen(m.mem, font_text=koi7_char)
    assert any("ВАМ НУЖНА ИНСТРУКЦИЯ? (Y/N):" in r for r in screen.rows) and not screen.unknown
