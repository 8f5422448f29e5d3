"""The reconstructed listing on the real ROM: every line accepted and stored byte-identical, and the
tape loads, autostarts and deals (issue 3's acceptance)."""

import pytest

from harness.program.model.build import build
from harness.program.model.program import RANK_TEXT, SUIT_TEXT, UDG_TEXT, suit_number
from harness.spectrum.basic import split_program
from harness.spectrum.loading import load_tape
from harness.spectrum.machine import Spectrum48
from harness.spectrum.romcheck import RomNumberEncoder, enter_program
from harness.spectrum.charset import koi7_char
from harness.spectrum.screen import read_screen
from harness.spectrum.typist import Typist
from harness.spectrum.variables import BasicVariables


@pytest.fixture(scope="module")
def built():
    return build(encoder=RomNumberEncoder())


def test_all_611_lines_pass_the_roms_syntax_check_with_identical_bytes(built):
    verdicts, m = enter_program(built.program)
    assert len(verdicts) == 611
    rejected = [v.number for v in verdicts if not v.accepted]
    different = [v.number for v in verdicts if v.accepted and not v.identical]
    assert rejected == [] and different == []
    prog, vars_ = m.peek("PROG"), m.peek("VARS")
    assert m.read(prog, vars_ - prog) == built.program     # the whole program area, byte for byte


def test_tape_has_the_program_with_autostart_2_and_the_font(built):
    names = [b.data[1:11].decode("latin-1").rstrip() for b in built.blocks if b.flag == 0]
    assert names == ["CRIBBAGE", "chr"]
    header = built.blocks[0].data
    assert int.from_bytes(header[13:15], "little") == 2          # LINE 2
    font_header = built.blocks[2].data
    assert int.from_bytes(font_header[13:15], "little") == 64600  # CODE 64600,768
    assert int.from_bytes(font_header[11:13], "little") == 768
    assert len(split_program(built.blocks[1].data)) == 611


def screen_text(m):
    return read_screen(m.mem, udg_text=UDG_TEXT, font_text=koi7_char)


def test_loads_autostarts_and_deals_six_cards(built):
    m = Spectrum48(fast=True)
    m.boot()
    stop = load_tape(m, built.blocks)
    assert (stop.kind, stop.wait.kind, stop.wait.line) == ("wait", "input", 7060)
    rows = [r.rstrip() for r in screen_text(m).rows]
    assert rows[22] == "ДОБРО ПОЖАЛОВАТЬ"
    assert rows[23].startswith("ВАМ НУЖНА ИНСТРУКЦИЯ? (Y/N):")
    Typist(m).answer("N")
    stop = m.run_until_wait(3000)
    assert stop.wait.line == 7405 and "ИГРАЕМ С ПРАВИЛОМ МАГГИНЗ?" in screen_text(m).rows[23]
    Typist(m).answer("N")
    stop = m.run_until_wait(3000)
    assert (stop.wait.kind, stop.wait.line) == ("inkey", 4925)      # «СНИМИТЕ КОЛОДУ - ЛЮБОЙ КЛАВИШЕЙ»
    assert screen_text(m).rows[23].startswith("СНИМИТЕ КОЛОДУ - ЛЮБОЙ КЛАВИШЕЙ")
    m.tap("ENTER", hold=3, gap=1)
    stop = m.run_until_wait(20000)
    assert stop.wait.kind == "inkey" and stop.wait.line in (3730, 3750)   # choosing the discards
    screen = screen_text(m)
    assert screen.rows[23].startswith("ВЫБЕРИТЕ 2 КАРТЫ") and not screen.unknown
    v = BasicVariables(m)
    ranks, suits = v.get("A()"), v.get("A$()")
    assert sorted(ranks) == ranks and len(ranks) == 6
    for x in range(6):           # a card at columns 4x..4x+2, rows 16-20 (subroutine 5400)
        rank, suit = RANK_TEXT[ranks[x]], SUIT_TEXT[suit_number(suits[x])]
        col = 4 * x
        assert screen.rows[16][col] == rank and screen.rows[17][col] == suit
        assert screen.rows[19][col + 2] == suit and screen.rows[20][col + 2] == rank
    assert m.reports == []       # no BASIC report from loading to the first deal


def test_instruction_page_lays_out_as_the_article_prints_it(built):
    """The instruction text (9010-9040): each row of the OCR is one row of the 32-column screen,
    which is the evidence for the spaces the reconstruction put in those strings."""
    m = Spectrum48(fast=True)
    m.boot()
    load_tape(m, built.blocks)
    Typist(m).answer("Y")
    stop = m.run_until_wait(3000)
    assert (stop.wait.kind, stop.wait.line) == ("pause", 9065)     # «НАЖМИТЕ ЛЮБУЮ КЛАВИШУ»
    rows = [r.rstrip() for r in screen_text(m).rows]
    # the rows of 9010 and 9020 as the seed article prints them (upper-cased)
    assert rows[:12] == [
        "КРИБЕДЖ - ИГРА ДЛЯ ДВУХ ИГРО-", "КОВ КАЖДЫЙ ПОЛУЧАЕТ ПО ШЕСТЬ", "КАРТ, ИЗ КОТОРЫХ ДОЛЖЕН ДВЕ",
        "СНЕСТИ, ОБРАЗУЯ ТРЕТЬЮ РУКУ,", "НАЗЫВАЕМУЮ КРИБОМ. КРИБ СЧИ-", "ТАЕТСЯ В ПОЛЬЗУ СДАТЧИКА. ИЗ",
        "КОЛОДЫ ВСКРЫВАЕТСЯ КАРТА, ПРИ-", "НАДЛЕЖАЩАЯ ОДНОВРЕМЕННО ВСЕМ", "ТРЕМ РУКАМ - СТАРТЕР", "",
        "ТУЗЫ ОЦЕНИВАЮТСЯ В ОДНО ОЧКО.", "ВСЕ ФИГУРЫ - В 10 ОЧКОВ."]
    assert rows[23] == "НАЖМИТЕ ЛЮБУЮ КЛАВИШУ"
    assert m.reports == []
