"""The expected-value choice of a card in the play: its points now less the risk of the reply.

The reply is judged from what the player knows: the cards it has not seen
(not in its hand, its crib throw, the starter or the cards laid) are the
opponent's with equal chance, so a reply of rank r is open to the opponent
with the chance that it holds at least one of the unseen r's. The risk of a
card is the sum, over the replies the opponent could lay, of that chance times
the points the reply would peg (an upper bound of the expected best reply:
cheap, and it ranks leads and counts as a careful player does: no 5 led, no
count of 5 or 21 left to a ten).
"""
from __future__ import annotations

from functools import lru_cache
from math import comb

from ..errors import InputError
from .cards import Card, CardsLike, full_deck, parse_cards
from .play import MAX_COUNT, is_legal, score_play
from .rules import STANDARD, Rules


@lru_cache(maxsize=1 << 16)
def play_points(ranks: tuple[int, ...], rules: Rules = STANDARD) -> int:
    """score_play's total for the last card of a series of these ranks. The play scores ranks and the count,
    never suits, so a series is scored once for all its suits (one suit per repeat of a rank): the engine
    asks for the same few rank sequences over and over."""
    repeats = [0] * 14
    cards = []
    for r in ranks:
        cards.append(Card((r - 1) * 4 + repeats[r]))
        repeats[r] += 1
    return score_play(cards, rules).total


def reply_risk(series: CardsLike, unseen: CardsLike, opponent_cards: int, rules: Rules = STANDARD) -> float:
    """The points the opponent's reply to *series* may peg: sum over ranks of P(it holds one) x points."""
    table = list(parse_cards(series))
    pool = parse_cards(unseen)
    count = sum(c.value for c in table)
    if count == MAX_COUNT or opponent_cards <= 0 or not pool:
        return 0.0
    held = min(opponent_cards, len(pool))
    by_rank: dict[int, list[Card]] = {}
    for c in pool:
        by_rank.setdefault(c.rank, []).append(c)
    ranks = tuple(c.rank for c in table)
    distinct = len(set(table)) == len(table)
    risk = 0.0
    for rank, cards in by_rank.items():
        if not is_legal(cards[0], count):
            continue
        if not distinct or cards[0] in table:
            score_play(table + [cards[0]], rules)        # a card twice: score_play's own error
        points = play_points(ranks + (rank,), rules)
        if points:
            risk += (1 - comb(len(pool) - len(cards), held) / comb(len(pool), held)) * points
    return risk


def peg_values(hand: CardsLike, series: CardsLike, seen: CardsLike, opponent_cards: int,
               rules: Rules = STANDARD) -> dict[Card, float]:
    """Each legal card of *hand*: points now minus the reply's risk (*seen*: every card known besides
    *hand* and *series*: the crib throw, the starter, cards laid earlier; *opponent_cards*: cards it holds)."""
    held = parse_cards(hand)
    table = list(parse_cards(series))
    if set(held) & set(table):
        raise InputError(f"a card both held and on the table: {' '.join(map(str, set(held) & set(table)))}")
    known = set(held) | set(table) | set(parse_cards(seen))
    unseen = [c for c in full_deck() if c not in known]
    count = sum(c.value for c in table)
    values: dict[Card, float] = {}
    for c in held:
        if not is_legal(c, count):
            continue
        now = score_play(table + [c], rules).total
        values[c] = now - reply_risk(table + [c], unseen, opponent_cards, rules)
    return values


def best_peg(hand: CardsLike, series: CardsLike, seen: CardsLike, opponent_cards: int,
             rules: Rules = STANDARD) -> Card | None:
    """The legal card with the best value (ties: the lower count value, then the lower card); None: a go."""
    values = peg_values(hand, series, seen, opponent_cards, rules)
    if not values:
        return None
    return max(values, key=lambda c: (round(values[c], 9), -c.value, -int(c)))
