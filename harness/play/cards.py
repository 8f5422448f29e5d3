"""Cards as the window writes them: the engine's Latin notation with the ten spelled out (A, 2..10, J, Q, K + H C D S).

The words are the rules engine's (harness/cribbage/cards.py), shared with the report and the referee's
words of each event (harness/program/records/words.py)."""
from __future__ import annotations

from ..cribbage.cards import RANK_WORDS, card_name, cards_text, rank_name

__all__ = ["RANK_WORDS", "card_name", "cards_text", "rank_name"]
