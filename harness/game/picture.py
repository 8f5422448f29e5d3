"""«КРИБЕДЖ»'s pictures read back from the screen: every card slot, the pegs, the message lines, the figures.

The emulator layer reads cells (glyph, ink, paper); the program model says where
the program draws what (`program.py`, with the lines); this module puts the two
together and says what a person sees, as plain records: a slot is face up with
a card (its rank and suit read through the tape's font and the UDGs, its paper
and ink), face down, empty (the table's green) or something else; the pegs are
the holes whose half cell holds a peg glyph, read from the bitmap alone. It
reads, it never judges: `screen_judgements.py` does.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..spectrum.screen import GlyphIndex, ScreenCells
from . import program as P
from .events import Who

RANK_OF_TEXT = {t: r for r, t in P.RANK_TEXT.items()}
SUIT_OF_TEXT = {t: s for s, t in P.SUIT_TEXT.items()}
_SUIT_LETTERS = "HCDS"           # the engine's suit order, S$'s order (7315)
_RANK_LETTERS = "A23456789TJQK"


def engine_card(rank: int, suit: int) -> str:
    """The engine's two-letter card of a rank 1..13 and an S$ suit number 1..4."""
    return _RANK_LETTERS[rank - 1] + _SUIT_LETTERS[suit - 1]


@dataclass(frozen=True)
class SlotView:
    """What one card slot shows.

    *state*: "up" (a card's face: *card*, *paper* of its cells or -1 when they differ, *ink* of its rank and
    suit), "down" (spaces on the face-down red), "empty" (spaces on the table's green) or "other" (anything
    else: *text* is what its cells read, row by row).
    """
    state: str
    card: str | None = None
    paper: int | None = None
    ink: int | None = None
    text: str | None = None

    def code(self) -> str:
        """Compact text for transcripts: "up 5H 7/2", "down", "empty", "other <text>"."""
        if self.state == "up":
            return f"up {self.card} {self.paper}/{self.ink}"
        if self.state == "other":
            return f"other {self.text}"
        return self.state

    @classmethod
    def parse(cls, code: str) -> "SlotView":
        state, _, rest = code.partition(" ")
        if state == "up":
            card, colours = rest.split(" ")
            paper, ink = colours.split("/")
            return cls("up", card, int(paper), int(ink))
        if state == "other":
            return cls("other", text=rest)
        return cls(state)


class PictureReader:
    """Reads the program's pictures from a machine's memory; keeps the glyph table between readings."""

    def __init__(self, ranks: tuple[str, ...] | None = None):
        self.index = GlyphIndex(udg_text=P.UDG_TEXT)
        self.rank_of = ({t: r + 1 for r, t in enumerate(ranks)} if ranks else RANK_OF_TEXT)

    def cells(self, mem) -> ScreenCells:
        return ScreenCells(mem, self.index)

    def slot(self, cells: ScreenCells, slot: P.Slot, hidden: frozenset[tuple[int, int]] = frozenset()) -> SlotView:
        """The card at *slot*; *hidden* are (row, column) cells covered by another card (not read)."""
        y, x1 = slot.y, slot.column
        grid = [[cells.cell(y + r, x1 + c) if (y + r, x1 + c) not in hidden else None
                 for c in range(P.CARD_WIDTH)] for r in range(P.CARD_HEIGHT)]
        seen = [cell for row in grid for cell in row if cell is not None]
        if all(cell.blank for cell in seen):
            papers = {cell.seen_paper() for cell in seen}
            if papers == {P.PAPER_FACE_DOWN}:
                return SlotView("down")
            if papers == {P.PAPER_TABLE}:
                return SlotView("empty")
        face = {place: grid[r][c] for (r, c), place in [((r, c), p) for (r, c), p in P.CARD_FACE_CELLS.items()]}
        others = [grid[r][c] for r in range(P.CARD_HEIGHT) for c in range(P.CARD_WIDTH)
                  if (r, c) not in P.CARD_FACE_CELLS and grid[r][c] is not None]
        top_rank, top_suit = grid[0][0], grid[1][0]
        low_suit, low_rank = grid[3][2], grid[4][2]
        if None not in (top_rank, top_suit, low_suit, low_rank) and all(c.blank for c in others):
            rank = self.rank_of.get(top_rank.text)
            suit = SUIT_OF_TEXT.get(top_suit.text)
            if (rank and suit and low_rank.text == top_rank.text and low_suit.text == top_suit.text
                    and not any(c.inverse for c in (top_rank, top_suit, low_suit, low_rank))):
                papers = {c.paper for c in seen}
                inks = {c.ink for c in (top_rank, top_suit, low_suit, low_rank)}
                return SlotView("up", engine_card(rank, suit), papers.pop() if len(papers) == 1 else -1,
                                inks.pop() if len(inks) == 1 else -1)
        del face
        text = "|".join("".join(c.text if c is not None else "#" for c in row) for row in grid)
        return SlotView("other", text=text)

    def pegs(self, cells: ScreenCells) -> dict[Who, list[int]]:
        """The holes (1..60 of a lap) where each player's pegs are, from the peg columns' bitmaps.

        A half cell that holds neither nothing nor the column's peg glyph is reported as hole 0 (a peg
        column cell with something else in it)."""
        found: dict[Who, list[int]] = {Who.COMPUTER: [], Who.PLAYER: []}
        for col, who in P.PEG_COLUMNS.items():
            shape = P.peg_shape(col)
            for row in P.PEG_ROWS:
                glyph = cells.glyph(row, col)
                for half, part in (("upper", glyph[:4]), ("lower", glyph[4:])):
                    if part == bytes(4):
                        continue
                    hole = P.PEG_HOLE.get((who, row, col, half)) if part == shape else None
                    found[who].append(hole or 0)
        return {who: sorted(holes) for who, holes in found.items()}

    def board_drawn(self, cells: ScreenCells) -> bool:
        """5710's title « ВЫ  Я » on the board's paper at row 0, columns 25-31."""
        return (cells.row_text(0, 25, 32) == " ВЫ  Я " and int(cells.attrs[0, 25]) >> 3 & 7 == P.PAPER_BOARD)

    def flag(self, cells: ScreenCells) -> bool:
        """The winner's flag V$(5) at 18,28 (8240)."""
        return cells.text(P.FLAG_ROW, P.FLAG_COL) == P.UDG_TEXT[154]

    def row(self, cells: ScreenCells, row: int, first: int = 0, end: int = 32) -> str:
        return cells.row_text(row, first, end).rstrip()
