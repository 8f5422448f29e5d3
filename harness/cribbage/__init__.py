"""Reference cribbage engine (rules only; knows nothing about the Spectrum).

Sources: the magazine article «КРИБЕДЖ», the Cadenza Cribbage (Atari ST)
manual and the modern standard.  Rule points where they differ are fields of
:class:`Rules`; a program's own rule set is a preset of them made by its model.
"""

from .cards import (Card, CardLike, CardsLike, format_card, format_cards, make, parse_card, parse_cards,
                    parse_russian, to_card)
from .discard import best_discard, discard_values, ev_best_discard, ev_discard_values
from .game import Game, IllegalAction, ScoreEvent, Step, replay
from .play import (PlayScore, count_of, go_points, is_legal, last_card_points, playable,
                   score_play)
from .rules import ARTICLE, CADENZA, PRESETS, STANDARD, Rules
from .show import Combo, HandScore, score_cards, score_hand

__all__ = [
    "Card", "CardLike", "CardsLike", "make", "parse_card", "parse_cards", "parse_russian",
    "format_card", "format_cards", "to_card",
    "score_hand", "score_cards", "HandScore", "Combo",
    "score_play", "PlayScore", "count_of", "is_legal", "playable", "go_points",
    "last_card_points",
    "Rules", "STANDARD", "ARTICLE", "CADENZA", "PRESETS",
    "best_discard", "discard_values", "ev_best_discard", "ev_discard_values",
    "Game", "ScoreEvent", "Step", "IllegalAction", "replay",
]
