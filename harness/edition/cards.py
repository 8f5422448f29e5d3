"""The cards as the pages show them: the engine's name, the notation anyone reads, and the program's own glyphs.

A card on a game page is drawn as the program draws it (its R$ rank and S$ suit characters, lines 7320 and
7315, red for hearts and diamonds), with its Latin name (Q♦) beside it for a reader who does not read the
program's Cyrillic letters.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..cribbage.cards import RANKS, SUIT_SYMBOLS, parse_card
from ..program.model.program import RANK_CODES, SUIT_CODES, UDG_TEXT
from . import glyphs

__all__ = ["latin", "CardView", "Cards"]


def latin(name: str) -> str:
    """A card in the notation anyone reads: A, 2-10, J, Q, K and the suit symbol (QD -> Q♦, TH -> 10♥)."""
    card = parse_card(name)
    rank = RANKS[card.rank - 1]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[card.suit]


@dataclass(frozen=True)
class CardView:
    name: str                           # the engine's (QD)
    latin: str                          # Q♦
    glyphs: tuple[tuple[int, str], ...]  # as the program draws it: R$(rank), S$(suit)
    red: bool


class Cards:
    """Cards drawn as the program draws them: R$(rank) and S$(suit), lines 7320/7315 (the program model's)."""

    def __init__(self) -> None:
        self.ranks, self.suits = RANK_CODES, SUIT_CODES

    def view(self, name: str) -> CardView:
        card = parse_card(name)
        codes = (self.ranks[card.rank - 1], self.suits[card.suit])
        return CardView(name, latin(name), tuple((c, glyphs.readable(c, UDG_TEXT)) for c in codes),
                        card.suit in (0, 2))      # hearts, diamonds: INK 2 (5410)
