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

import numpy as np

from ...spectrum.screen import GlyphIndex, MemoryLike, ScreenCells, glyph_key
from ..model import program as P
from ..records.events import Who

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
        self.index = GlyphIndex(udg_text=P.UDG_TEXT, font_text=P.SCREEN_CHARSET)
        self.rank_of = ({t: r + 1 for r, t in enumerate(ranks)} if ranks else RANK_OF_TEXT)

    def ranks_from(self, texts: str) -> None:
        """Read ranks as R$ shows them (13 characters, ace first: 7320), e.g. the English edition's A, J, Q, K."""
        if len(texts) == 13 and "\ufffd" not in texts:
            self.rank_of = {t: r + 1 for r, t in enumerate(texts)}

    def cells(self, mem: MemoryLike) -> ScreenCells:
        return ScreenCells(mem, self.index)

    def slot(self, cells: ScreenCells, slot: P.Slot, hidden: frozenset[tuple[int, int]] = frozenset()) -> SlotView:
        """The card at *slot*; *hidden* are (row, column) cells covered by another card (not read)."""
        places = _places(slot, hidden)
        keys, attrs = cells.key_rows, cells.attr_rows
        if not any(keys[r][c] for r, c in places):                       # spaces only: a colour
            papers = {attrs[r][c] >> 3 & 7 for r, c in places}
            if papers == {P.PAPER_FACE_DOWN}:
                return SlotView("down")
            if papers == {P.PAPER_TABLE}:
                return SlotView("empty")
        y, x1 = slot.y, slot.column
        face = [(y, x1), (y + 1, x1), (y + 3, x1 + 2), (y + 4, x1 + 2)]   # rank, suit, suit, rank (5440-5460)
        if not (set(face) & hidden) and not any(keys[r][c] for r, c in places if (r, c) not in face):
            top_rank, top_suit, low_suit, low_rank = (cells.cell(r, c) for r, c in face)
            rank = self.rank_of.get(top_rank.text)
            suit = SUIT_OF_TEXT.get(top_suit.text)
            if (rank and suit and low_rank.text == top_rank.text and low_suit.text == top_suit.text
                    and not any(c.inverse for c in (top_rank, top_suit, low_suit, low_rank))):
                papers = {attrs[r][c] >> 3 & 7 for r, c in places}
                inks = {c.ink for c in (top_rank, top_suit, low_suit, low_rank)}
                return SlotView("up", engine_card(rank, suit), papers.pop() if len(papers) == 1 else -1,
                                inks.pop() if len(inks) == 1 else -1)
        text = "|".join("".join(cells.text(y + r, x1 + c) if (y + r, x1 + c) not in hidden else "#"
                                for c in range(P.CARD_WIDTH)) for r in range(P.CARD_HEIGHT))
        return SlotView("other", text=text)

    def pegs(self, cells: ScreenCells) -> dict[Who, list[int]]:
        """The holes (1..60 of a lap) where each player's pegs are, from the peg columns' bitmaps.

        A half cell that holds neither nothing nor the column's peg glyph is reported as hole 0 (a peg
        column cell with something else in it)."""
        found: dict[Who, list[int]] = {Who.COMPUTER: [], Who.PLAYER: []}
        keys = cells.key_rows
        for col, who in P.PEG_COLUMNS.items():
            shape = P.peg_shape(col)
            for row in P.PEG_ROWS:
                if not keys[row][col]:
                    continue
                glyph = cells.glyph(row, col)
                for half, part in (("upper", glyph[:4]), ("lower", glyph[4:])):
                    if part == bytes(4):
                        continue
                    hole = P.PEG_HOLE.get((who, row, col, half)) if part == shape else None
                    found[who].append(hole or 0)
        return {who: sorted(holes) for who, holes in found.items()}

    def board_drawn(self, cells: ScreenCells) -> bool:
        """5710-5730: the board's paper at its top corners and the first holes (UDG A) of both tracks."""
        holes = P.UDG_TEXT[144]
        return (cells.attr_rows[0][25] >> 3 & 7 == P.PAPER_BOARD == cells.attr_rows[0][31] >> 3 & 7
                and cells.text(2, 26) == holes and cells.text(2, 30) == holes)

    def flag(self, cells: ScreenCells) -> bool:
        """The winner's flag V$(5) at 18,28 (8240)."""
        return cells.text(P.FLAG_ROW, P.FLAG_COL) == P.UDG_TEXT[154]

    def row(self, cells: ScreenCells, row: int, first: int = 0, end: int = 32) -> str:
        return cells.row_text(row, first, end).rstrip()

    def read(self, mem: MemoryLike) -> tuple[dict[str, str], dict[str, list[int]], dict[str, str], bool, bool]:
        """Everything the program draws, read at once: the slots (name -> `SlotView.code`), the pegs, the
        rows (message, line 22, figures, table runs), and whether the board and the flag are drawn."""
        cells = self.cells(mem)
        views = {}
        for s in P.ALL_SLOTS:
            hidden = STARTER_CELLS if s is P.DECK else CUT_COVERS.get(s.name, frozenset())
            views[s.name] = self.slot(cells, s, hidden).code()
        board = self.board_drawn(cells)
        pegs = {who.value: holes for who, holes in self.pegs(cells).items()} if board else {}
        rows = {"message": self.row(cells, 23), "line 22": self.row(cells, P.DEALER_ROW),
                "figures": cells.row_text(P.BOARD_ROW, P.BOARD_COL, 32), **self.table_runs(cells)}
        return views, pegs, rows, board, board and self.flag(cells)

    def text_of(self, mem: MemoryLike, codes: str) -> str:
        """How a string of character codes (a BASIC string variable) reads on screen in the font in use."""
        self.index.refresh(mem)
        chars = mem[23606] | mem[23607] << 8
        udg = mem[23675] | mem[23676] << 8
        out = []
        for ch in codes:
            code = ord(ch)
            if 32 <= code < 128:
                a = chars + 8 * code
            elif 144 <= code < 165:
                a = udg + 8 * (code - 144)
            else:
                out.append("\ufffd")
                continue
            key = glyph_key(bytes(mem[a:a + 8]))
            out.append(self.index.plain.get(key, "\ufffd"))
        return "".join(out)

    def table_runs(self, cells: ScreenCells) -> dict[str, str]:
        """Whatever is on the table outside every card slot: "table r:c" -> the run of cells from column c that
        are not blank green (a blank cell of another paper reads "▒")."""
        paper = (cells.attrs >> 3) & 7
        odd = ((cells.keys != 0) | (paper != P.PAPER_TABLE)) & _OUTSIDE_SLOTS
        runs: dict[str, str] = {}
        for r in np.flatnonzero(odd.any(axis=1)):
            c = 0
            while c < 32:
                if not odd[r, c]:
                    c += 1
                    continue
                start, text = c, []
                while c < 32 and odd[r, c]:
                    text.append(cells.text(int(r), c) if cells.keys[r, c] else "▒")
                    c += 1
                runs[f"table {r}:{start}"] = "".join(text)
        return runs


def outside_slots() -> np.ndarray:
    """The table's cells (24 x 32) that no slot covers: where the table's words are read (its tests plant it)."""
    mask = np.zeros((24, 32), dtype=bool)
    mask[P.TABLE_ROWS.start:P.TABLE_ROWS.stop, P.TABLE_COLUMNS.start:P.TABLE_COLUMNS.stop] = True
    for s in P.ALL_SLOTS:
        mask[s.y:s.y + P.CARD_HEIGHT, s.column:s.column + P.CARD_WIDTH] = False
    return mask


_OUTSIDE_SLOTS = outside_slots()


_PLACES: dict[tuple[P.Slot, frozenset[tuple[int, int]]], list[tuple[int, int]]] = {}


def _places(slot: P.Slot, hidden: frozenset[tuple[int, int]]) -> list[tuple[int, int]]:
    """The (row, column) cells of *slot* not covered by *hidden* (kept: every picture reads the same slots)."""
    key = (slot, hidden)
    if key not in _PLACES:
        _PLACES[key] = [(slot.y + r, slot.column + c) for r in range(P.CARD_HEIGHT) for c in range(P.CARD_WIDTH)
                        if (slot.y + r, slot.column + c) not in hidden]
    return _PLACES[key]


def slot_cells(slot: P.Slot) -> frozenset[tuple[int, int]]:
    return frozenset((slot.y + r, slot.column + c) for r in range(P.CARD_HEIGHT) for c in range(P.CARD_WIDTH))


STARTER_CELLS = slot_cells(P.STARTER)
CUT_COVERS = {P.CUT_DECKS[0].name: slot_cells(P.CUT_PLAYER), P.CUT_DECKS[1].name: slot_cells(P.CUT_COMPUTER)}
