"""The discard: which two of six cards to lay away to the crib, by expected points.

One measure serves every caller (the greedy player, the discard sweep): the
four cards kept are worth their average show over every starter still unseen
(the 46 cards not in the hand); the two cards thrown are worth what they make
together in the crib by themselves (a pair 2, a fifteen 2), counted for the
player whose crib it is and against the other. Deterministic and cheap: no
sampling of the opponent's cards.

The expected-value discard (ev_discard_values, ev_best_discard; the player of
`cribbage-zx strength`) counts the crib exactly instead: the average over
every pair of cards the opponent may throw and every starter, with the
expected hand computed the same way (expected_hand, expected_crib); its table
of the crib per thrown rank pair is crib_table.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations, combinations_with_replacement, permutations

import numpy as np

from ..errors import InputError
from .cards import Card, CardsLike, make, parse_cards
from .rules import STANDARD, Rules
from .show import fifteens, pairs, runs
from .stats import _base_score

#: a discard: the 0-based positions (i < j) in the six-card hand of the two cards laid away
Discard = tuple[int, int]


def thrown_value(a: Card, b: Card) -> int:
    """Points the two thrown cards make together by themselves: a pair and/or a fifteen."""
    return (2 if a.rank == b.rank else 0) + (2 if a.value + b.value == 15 else 0)


def discard_values(hand: CardsLike, my_crib: bool, rules: Rules = STANDARD) -> dict[Discard, float]:
    """Expected points of every way to lay two of the six cards away, in the order of the pairs."""
    cards = parse_cards(hand)
    if len(cards) != 6 or len(set(cards)) != 6:
        raise InputError(f"a discard is chosen from 6 different cards, got {len(cards)}: "
                        f"{' '.join(map(str, cards))}")
    unseen = 52 - len(cards)
    values: dict[Discard, float] = {}
    for i, j in combinations(range(6), 2):
        keep = [c for k, c in enumerate(cards) if k not in (i, j)]
        kept = hand_points_over_starters(keep, (cards[i], cards[j])) / unseen
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


# ------------------------------------------------------------------------------------------------
# The expected-value discard: the crib as well, exactly, over the opponent's possible throws.
#
# Fifteens, pairs and runs depend only on the five ranks, so the show's rank part is one lookup in
# a 13^5 table (built once from the same count `stats` uses); the suit part (flush, nobs) has a
# closed form. The unseen cards are the 46 not in the hand: the opponent's two thrown cards and the
# starter are taken as drawn from them uniformly (a player who knows nothing of the other's hand).

@lru_cache(maxsize=1)
def _rank_table() -> "np.ndarray":
    """base[r1, r2, r3, r4, r5] (ranks 0..12): the fifteens, pairs and runs of five cards of those ranks."""
    table = np.zeros((13,) * 5, dtype=np.float64)
    for five in combinations_with_replacement(range(1, 14), 5):
        value = _base_score(five)
        for p in set(permutations(r - 1 for r in five)):
            table[p] = value
    table.flags.writeable = False
    return table


def hand_points_over_starters(keep: CardsLike, seen: CardsLike = ()) -> int:
    """The show of four kept cards summed over every starter unseen (not in *keep* or *seen*): the same
    integer as adding score_hand(keep, s).total for each (issue 37: the greedy discard scored 690 hands a
    deal). Fifteens, pairs and runs depend on the starter's rank alone, so they are counted once a rank
    (the show's own functions) times the unseen cards of that rank; flush and nobs by the suits' counts."""
    kept = parse_cards(keep)
    if len(kept) != 4:
        raise InputError(f"a hand has 4 cards, got {len(kept)}")
    ranks, suits, unseen = _unseen_counts(tuple(set(kept) | set(parse_cards(seen))))
    total = 0
    for rank in range(1, 14):
        n = int(ranks[rank - 1])
        if n:
            five = kept + (make(rank, 0),)             # a card of the rank: these three read only ranks
            total += n * sum(c.points for c in fifteens(five) + pairs(five) + runs(five))
    if len({c.suit for c in kept}) == 1:                # a flush of 4, of 5 with the starter's suit
        total += 4 * unseen + int(suits[kept[0].suit])
    total += sum(int(suits[c.suit]) for c in kept if c.rank == 11)      # nobs: a starter of the jack's suit
    return total


def _unseen_counts(seen: tuple[Card, ...]) -> tuple["np.ndarray", "np.ndarray", int]:
    """Unseen cards per rank (0..12) and per suit, and how many in all."""
    ranks = np.full(13, 4.0)
    suits = np.full(4, 13.0)
    for c in seen:
        ranks[c.rank - 1] -= 1
        suits[c.suit] -= 1
    return ranks, suits, 52 - len(seen)


def expected_hand(keep: CardsLike, seen: CardsLike = ()) -> float:
    """The average show of four kept cards over every starter unseen (not in *keep* or *seen*), exactly."""
    kept = parse_cards(keep)
    if len(kept) != 4:
        raise InputError(f"a hand has 4 cards, got {len(kept)}")
    ranks, suits, unseen = _unseen_counts(tuple(set(kept) | set(parse_cards(seen))))
    k = [c.rank - 1 for c in kept]
    value = float(_rank_table()[k[0], k[1], k[2], k[3], :] @ ranks) / unseen
    if len({c.suit for c in kept}) == 1:                       # a flush: 4, or 5 with the starter's suit
        value += 4 + suits[kept[0].suit] / unseen
    value += sum(suits[c.suit] for c in kept if c.rank == 11) / unseen     # nobs
    return float(value)


def expected_crib(thrown: CardsLike, seen: CardsLike = ()) -> float:
    """The average crib made by the two *thrown* cards, the opponent's two and the starter, exactly,
    the opponent's cards and the starter drawn from the cards unseen (not thrown, not in *seen*)."""
    a, b = parse_cards(thrown)
    ranks, suits, u = _unseen_counts(tuple({a, b} | set(parse_cards(seen))))
    # draws x, y (the opponent's), s (the starter), without replacement: weight n_x (n_y - [y=x]) (n_s - ...)
    n = ranks
    eye = np.eye(13)
    wxy = np.outer(n, n) - np.diag(n)                                  # n_x (n_y - [x=y])
    ns = n[None, None, :] - eye[:, None, :] - eye[None, :, :]          # n_s - [s=x] - [s=y]
    weights = wxy[:, :, None] * np.clip(ns, 0, None)
    value = float(np.tensordot(_rank_table()[a.rank - 1, b.rank - 1], weights, axes=3)) / (u * (u - 1) * (u - 2))
    # nobs: a thrown jack with a starter of its suit; one of the opponent's with a starter of its own suit
    value += sum(suits[c.suit] for c in (a, b) if c.rank == 11) / u
    known = {a, b} | set(parse_cards(seen))
    value += sum((2 / u) * (suits[s] - 1) / (u - 1) for s in range(4) if Card(10 * 4 + s) not in known)
    if a.suit == b.suit:                                                # a crib flush needs all five
        k = suits[a.suit]
        value += 5 * k * (k - 1) * (k - 2) / (u * (u - 1) * (u - 2))
    return float(value)


def ev_discard_values(hand: CardsLike, my_crib: bool) -> dict[Discard, float]:
    """Expected points of every discard: the kept hand over the starters plus (or, in the opponent's crib,
    minus) the crib the two cards make with the opponent's throw and the starter; exact, in pair order."""
    cards = parse_cards(hand)
    if len(cards) != 6 or len(set(cards)) != 6:
        raise InputError(f"a discard is chosen from 6 different cards, got {len(cards)}: "
                        f"{' '.join(map(str, cards))}")
    values: dict[Discard, float] = {}
    for i, j in combinations(range(6), 2):
        keep = [c for k, c in enumerate(cards) if k not in (i, j)]
        crib = expected_crib((cards[i], cards[j]), keep)
        values[(i, j)] = expected_hand(keep, (cards[i], cards[j])) + (crib if my_crib else -crib)
    return values


def ev_best_discard(hand: CardsLike, my_crib: bool) -> Discard:
    """The discard with the most expected points (hand and crib); of equal ones, the first in order."""
    best: Discard | None = None
    best_value = 0.0
    for pair, value in ev_discard_values(hand, my_crib).items():
        if best is None or value > best_value + 1e-9:
            best, best_value = pair, value
    assert best is not None
    return best


def crib_table() -> dict[tuple[int, int], float]:
    """The expected crib of each thrown rank pair (r1 <= r2, 1..13) when nothing else is known: averaged
    over the suits the two cards may have (a pair of one rank never shares a suit)."""
    out: dict[tuple[int, int], float] = {}
    for r1 in range(1, 14):
        for r2 in range(r1, 14):
            a = Card((r1 - 1) * 4)
            if r1 == r2:
                out[(r1, r2)] = expected_crib((a, Card((r2 - 1) * 4 + 1)))
            else:          # 1 in 4 throws share a suit
                same, other = expected_crib((a, Card((r2 - 1) * 4))), expected_crib((a, Card((r2 - 1) * 4 + 1)))
                out[(r1, r2)] = (same + 3 * other) / 4
    return out
