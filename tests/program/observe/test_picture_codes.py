"""The picture's records by hand (issue 36, item 2): a slot's code as transcripts hold it and back, and the
engine's name of a card read from the screen. (Reading the cells themselves needs a machine's memory:
tests/test_picture.py, on the real machine.)"""
import pytest

from harness.program.observe.picture import SlotView, engine_card


@pytest.mark.parametrize("view, code", [
    (SlotView("up", "5H", 7, 2), "up 5H 7/2"),
    (SlotView("up", "TS", -1, 0), "up TS -1/0"),            # cells of two papers
    (SlotView("down"), "down"),
    (SlotView("empty"), "empty"),
    (SlotView("other", text="   |ОЧК|15 "), "other    |ОЧК|15 "),
])
def test_a_slot_code_and_back(view, code):
    assert view.code() == code
    assert SlotView.parse(code) == view


def test_a_code_parsed_is_typed():
    v = SlotView.parse("up KD 7/2")
    assert (v.state, v.card, v.paper, v.ink, v.text) == ("up", "KD", 7, 2, None)
    assert SlotView.parse("other a b") == SlotView("other", text="a b")       # the text keeps its spaces
    assert SlotView.parse("down") == SlotView("down", None, None, None, None)


@pytest.mark.parametrize("rank, suit, card", [(1, 1, "AH"), (13, 4, "KS"), (10, 2, "TC"), (5, 3, "5D"),
                                              (11, 1, "JH"), (12, 4, "QS")])
def test_the_engines_card_of_a_rank_and_an_s_suit(rank, suit, card):
    assert engine_card(rank, suit) == card


# ------------------------------------------------------------------------------ the places the reader reads (issue 36)
def test_a_slots_cells_are_its_five_rows_by_three_columns():
    from harness.program.model import program as P
    from harness.program.observe.picture import slot_cells
    # the starter (4955: Y=7, X=5.75 -> column 19): rows 7-11, columns 19-21, written out by hand
    assert slot_cells(P.STARTER) == {(r, c) for r in (7, 8, 9, 10, 11) for c in (19, 20, 21)}
    assert slot_cells(P.CUT_PLAYER) == {(r, c) for r in (7, 8, 9, 10, 11) for c in (3, 4, 5)}
    assert (6, 19) not in slot_cells(P.STARTER) and (12, 19) not in slot_cells(P.STARTER)     # near misses
    assert (7, 18) not in slot_cells(P.STARTER) and (7, 22) not in slot_cells(P.STARTER)


def test_the_table_outside_the_slots():
    """The cells a stale text is looked for in: rows 0-21, columns 0-24, minus every card slot."""
    from harness.program.model import program as P
    from harness.program.observe.picture import outside_slots
    mask = outside_slots()
    assert mask.shape == (24, 32) and mask.dtype == bool
    assert mask[0, 3] and mask[21, 24] and mask[21, 0] and mask[6, 0]   # between slots, the last cell, under rows
    assert not mask[0, 0] and not mask[0, 2] and not mask[4, 0]          # computer 1: rows 0-4, columns 0-2
    assert not mask[20, 22] and not mask[7, 19]                         # hand 6's last cell, the starter's first
    assert not mask[22, 3] and not mask[0, 25] and not mask[23, 31]     # off the table: line 22, the board, row 23
    covered = {(s.y + r, s.column + c) for s in P.ALL_SLOTS for r in range(5) for c in range(3)}
    assert int(mask.sum()) == 22 * 25 - len(covered)


def test_a_row_is_read_from_column_0_to_31_and_stripped():
    from harness.program.observe.picture import PictureReader

    class Cells:
        def row_text(self, row, first, end):
            return f"{row}|{first}|{end}   "
    assert PictureReader().row(Cells(), 23) == "23|0|32"
    assert PictureReader().row(Cells(), 22, 5, 9) == "22|5|9"


def test_the_reader_knows_the_programs_glyphs_and_ranks():
    """The reader's glyph table is the program's (its UDGs and its character set), its ranks R$'s or the
    ones given, ace first (7320): the English edition's A..K are 1..13, written out here."""
    from harness.program.model import program as P
    from harness.program.observe.picture import PictureReader
    r = PictureReader()
    assert r.index.udg_text is P.UDG_TEXT and r.index.font_text is P.SCREEN_CHARSET
    assert r.rank_of == {t: n for n, t in P.RANK_TEXT.items()} and len(r.rank_of) == 13
    english = PictureReader(tuple("A23456789TJQK"))
    assert english.rank_of == {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10,
                               "J": 11, "Q": 12, "K": 13}
