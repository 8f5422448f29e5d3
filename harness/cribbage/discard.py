"""The discard: which two of six cards to lay away to the crib, by expected points.

One measure serves every caller (the greedy player, the discard sweep): the
four cards kept are worth their average show over every starter still unseen
(the 46 cards not in the hand); the two cards thrown are worth what they make
together in the crib by themselves (a pair 2, a fifteen 2), counted for the
player whose crib it is and against the other. Deterministic and cheap: no
sampling of the opponent's cards.
"""
from __future__ import annotations

from itertools import combinations

from .cards import Card, CardError, CardsLike, full_deck, parse_cards
from .rules import STANDARD, Rules
from .show import score_hand

#: a discard: the 0-based positions (i < j) in the six-card hand of the two cards laid away
Discard = tuple[int, int]


def thrown_value(a: Card, b: Card) -> int:
    """Points the two thrown cards make together by themselves: a pair and/or a fifteen."""
    return (2 if a.rank == b.rank else 0) + (2 if a.value + b.value == 15 else 0)


def discard_values(hand: CardsLike, my_crib: bool, rules: Rules = STANDARD) -> dict[Discard, float]:
    """Expected points of every way to lay two of the six cards away, in the order of the pairs."""
    cards = parse_cards(hand)
    if len(cards) != 6 or len(set(cards)) != 6:
        raise CardError(f"a discard is chosen from 6 different cards, got {len(cards)}: "
                        f"{' '.join(map(str, cards))}")
    unseen = [c for c in full_deck() if c not in cards]
    values: dict[Discard, float] = {}
    for i, j in combinations(range(6), 2):
        keep = [c for k, c in enumerate(cards) if k not in (i, j)]
        kept = sum(score_hand(keep, s, rules=rules).total for s in unseen) / len(unseen)
        thrown = thrown_value(cards[i], cards[j])
        values[(i, j)] = kept + (thrown if my_crib else -thrown)
    return values


def best_discard(hand: CardsLike, my_crib: bool, rules: Rules = STANDARD) -> Discard:
    """The discard with the most expected points; of equal ones (within 1e-9), the first in order."""
    best: Discard | None = None
    best_value = 0.0
    for pair, value in discard_values(hand, my_crib, rules).items():
        if best is None or value > best_value + 1e-9:
            best, best_value = pair, value
    assert best is not None          # six cards always give fifteen discards
    return best
