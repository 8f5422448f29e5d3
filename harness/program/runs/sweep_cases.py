"""The show sweep's cases, and each case scored twice, by the program's routine and by the engine
(harness/program/runs/sweep.py runs them).

A show case is a (four-card hand, starter) up to suit symmetry: the rank multiset with the starter marked,
and one representative of each suit pattern that matters (no flush, four-card flush, five-card flush, each
with or without his nobs), weighted by how many of the 12,994,800 deals it stands for. A play case is a
series of ranks (play_situations.py), its last card scored.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache

from ...cribbage import score_hand, score_play
from ..model.program import (PLAY_CARD, PLAY_LAID, PLAY_LAID_COUNT, PLAY_POINTS, PLAY_SUM, SHOW_CRIB, SHOW_PARTS, SHOW_RANKS,
                             SHOW_STARTER_AT, SHOW_STARTER_SUIT, SHOW_SUITS, SUIT_CODES, V_PLAYER, ZX,
                             card_from_numbers)
from ..model.subroutine import Subroutine

JACK = 11
SPADES = 4                      # the starter's suit, fixed by symmetry (weights are multiplied by 4)
COMPONENTS = ("fifteens", "pairs", "runs", "flush", "nobs")
TOTAL_DEALS = 12_994_800        # C(52,4) * 48

Card = tuple[int, int]          # (rank 1..13, suit 1..4)
#: a rank group of a hand: (how many cards of the rank, is the starter's rank, is a jack)
Group = tuple[int, bool, bool]
#: a suit pattern of a hand's rank groups: (flush, nobs), how many hands, one choice of suits per group
Pattern = tuple[tuple[str, int], int, tuple[tuple[int, ...], ...]]


@dataclass(frozen=True)
class ShowCase:
    """A show case: four cards and a starter, with the suit pattern and weight it stands for."""
    hand: tuple[Card, ...]
    starter: Card
    flush: str                  # "none", "four" or "five"
    nobs: int
    weight: int                 # the deals it stands for

    def as_json(self) -> dict[str, object]:
        """The case as it is hashed and written in a chunk's disagreements (its keys in this order)."""
        return {"hand": [list(c) for c in self.hand], "starter": list(self.starter), "flush": self.flush,
                "nobs": self.nobs, "weight": self.weight}


#: a show sweep's item: a case, and whether it is scored as a crib
ShowItem = tuple[ShowCase, bool]


@lru_cache(maxsize=None)
def _suit_patterns(shape: tuple[Group, ...]) -> tuple[Pattern, ...]:
    """For rank groups (multiplicity, is the starter's rank, is jack), with the starter a spade:
    each pattern (flush, nobs) with its number of hands and representative suits per group."""
    options = []
    for mult, is_starter_rank, _ in shape:
        suits = [1, 2, 3] if is_starter_rank else [1, 2, 3, 4]
        options.append(list(itertools.combinations(suits, mult)))
    found: dict[tuple[str, int], tuple[int, tuple[tuple[int, ...], ...]]] = {}
    for choice in itertools.product(*options):
        hand_suits = [s for group in choice for s in group]
        flush = "none"
        if len(hand_suits) == 4 and len(set(hand_suits)) == 1 and all(m == 1 for m, _, _ in shape):
            flush = "five" if hand_suits[0] == SPADES else "four"
        nobs = int(any(is_jack and SPADES in group for (m, _, is_jack), group in zip(shape, choice)))
        count, first = found.get((flush, nobs), (0, choice))
        found[(flush, nobs)] = (count + 1, first)
    return tuple((pattern, count, choice) for pattern, (count, choice) in sorted(found.items()))


def show_cases() -> list[ShowCase]:
    """Every rank case and suit pattern, with its weight among the 12,994,800 deals."""
    cases: list[ShowCase] = []
    for hand in itertools.combinations_with_replacement(range(1, 14), 4):
        counts = {r: hand.count(r) for r in sorted(set(hand))}
        for starter in range(1, 14):
            if counts.get(starter, 0) == 4:
                continue
            ranks = sorted(counts)
            shape = tuple((counts[r], r == starter, r == JACK) for r in ranks)
            for (flush, nobs), n, choice in _suit_patterns(shape):
                cards = [(r, s) for r, group in zip(ranks, choice) for s in group]
                cases.append(ShowCase(tuple(cards), (starter, SPADES), flush, nobs, 4 * n))
    return cases


def engine_show(case: ShowCase, crib: bool) -> dict[str, int]:
    """The engine's points of a show case, by component."""
    hand = [card_from_numbers(r, s) for r, s in case.hand]
    hs = score_hand(hand, card_from_numbers(*case.starter), crib=crib)
    return {c: int(getattr(hs, c)) for c in COMPONENTS}


def program_show(sub: Subroutine, case: ShowCase, crib: bool) -> dict[str, int]:
    """The program's points of a show case, by component: 4700 run on the hand and the starter."""
    cards = [*case.hand, case.starter]
    sub.begin()
    sub.set_array(SHOW_RANKS, [r for r, _ in cards])
    sub.set_chars(SHOW_SUITS, bytes(SUIT_CODES[s - 1] for _, s in cards))
    sub.set_chars(SHOW_STARTER_SUIT, bytes([SUIT_CODES[case.starter[1] - 1]]), start=SHOW_STARTER_AT)
    sub.set_number(SHOW_CRIB, 1 if crib else 0)
    sub.set_number(V_PLAYER, ZX)
    sub.run()
    return {part: int(sub.output(name)) for part, name in SHOW_PARTS.items()}


def engine_play(series: tuple[int, ...]) -> int:
    """The engine's points for the last card; ranks only, so the k-th card of a rank gets suit k."""
    cards = [card_from_numbers(r, 1 + series[:i].count(r)) for i, r in enumerate(series)]
    return int(score_play(cards).total)


def program_play(sub: Subroutine, series: tuple[int, ...]) -> int:
    """Score the last card of *series* with 2000: T() holds the cards before it, N and SUM their number and count."""
    before = series[:-1]
    sub.begin()
    if before:
        sub.set_array(PLAY_LAID, list(before))
    sub.set_number(PLAY_LAID_COUNT, len(before))
    sub.set_number(PLAY_SUM, sum(min(r, 10) for r in before))
    sub.set_number(PLAY_CARD, series[-1])
    sub.run()
    return int(sub.output(PLAY_POINTS))
