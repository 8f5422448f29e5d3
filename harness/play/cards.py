"""Cards as the window writes them: the engine's Latin notation with the ten spelled out (A, 2..10, J, Q, K + H C D S)."""
from __future__ import annotations

from ..cribbage.cards import Card, parse_cards

RANK_WORDS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def card_name(card) -> str:
    """'10H' for the ten of hearts, 'AS' for the ace of spades; takes a Card or the engine's text ('TH')."""
    c = card if isinstance(card, Card) else parse_cards(card)[0]
    return RANK_WORDS[c.rank - 1] + "HCDS"[c.suit]


def cards_text(cards) -> str:
    return " ".join(card_name(c) for c in cards)


def rank_name(rank: int) -> str:
    return RANK_WORDS[int(rank) - 1]
