"""The show: scoring a four-card hand (or the crib) with the starter.

Every scoring combination is listed with its cards, so a disagreement with
another scorer can be traced to one fifteen, one run, the flush or nobs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations, product
from typing import Sequence

from ..errors import InputError
from .cards import JACK, Card, CardLike, CardsLike, format_cards, parse_cards, to_card
from .rules import STANDARD, Rules

PAIR_KINDS = {2: ("pair", 2), 3: ("pair royal", 6), 4: ("double pair royal", 12)}


@dataclass(frozen=True)
class Combo:
    """One scoring combination: its kind, the cards that form it, its points."""

    kind: str
    cards: tuple[Card, ...]
    points: int

    def __str__(self) -> str:
        return f"{self.kind} {format_cards(self.cards)} = {self.points}"


@dataclass(frozen=True)
class HandScore:
    """Breakdown of a show: every combination plus per-category subtotals."""

    hand: tuple[Card, ...]
    starter: Card | None
    crib: bool
    combinations: tuple[Combo, ...] = field(default_factory=tuple)

    def _sum(self, *kinds: str) -> int:
        return sum(c.points for c in self.combinations if c.kind in kinds)

    @property
    def fifteens(self) -> int:
        return self._sum("fifteen")

    @property
    def pairs(self) -> int:
        return self._sum("pair", "pair royal", "double pair royal")

    @property
    def runs(self) -> int:
        return self._sum("run")

    @property
    def flush(self) -> int:
        return self._sum("flush")

    @property
    def nobs(self) -> int:
        return self._sum("nobs")

    @property
    def total(self) -> int:
        return sum(c.points for c in self.combinations)

    def subtotals(self) -> dict[str, int]:
        return {"fifteens": self.fifteens, "pairs": self.pairs, "runs": self.runs,
                "flush": self.flush, "nobs": self.nobs, "total": self.total}

    def __str__(self) -> str:
        head = format_cards(self.hand)
        if self.starter is not None:
            head += f" + {self.starter}{' (crib)' if self.crib else ''}"
        lines = [head] + [f"  {c}" for c in self.combinations] + [f"  total {self.total}"]
        return "\n".join(lines)


def fifteens(cards: Sequence[Card]) -> list[Combo]:
    """«"Пятнадцать" - 2 очка»: every combination of cards totalling 15 scores 2."""
    values = [c.value for c in cards]         # each card's value once, not once a combination (issue 37)
    out: list[Combo] = []
    for k in range(2, len(cards) + 1):
        for combo, worth in zip(combinations(cards, k), combinations(values, k)):
            if sum(worth) == 15:
                out.append(Combo("fifteen", combo, 2))
    return out


def pairs(cards: Sequence[Card]) -> list[Combo]:
    """«"Пара" - 2, "Пэр рояль" - 6, "Двойной пэр рояль" - 12».

    Cadenza: "the 3 of a kind cannot be split to form pairs", so three or four
    of a rank are listed as one combination (6 or 12 points).
    """
    by_rank: dict[int, list[Card]] = {}
    for c in cards:
        by_rank.setdefault(c.rank, []).append(c)
    out = []
    for r in sorted(by_rank):
        group = by_rank[r]
        if len(group) >= 2:
            kind, pts = PAIR_KINDS[len(group)]
            out.append(Combo(kind, tuple(group), pts))
    return out


def runs(cards: Sequence[Card]) -> list[Combo]:
    """«"Секанс" - по числу карт»; Cadenza: "For each combination that ... forms
    a run of length 3 or more, the player scores the length of the run"
    (A237+2 is two runs A23).  Only maximal runs count (KQQJ10: two runs of 4).
    """
    by_rank: dict[int, list[Card]] = {}
    for c in cards:
        by_rank.setdefault(c.rank, []).append(c)
    ranks = sorted(by_rank)
    out: list[Combo] = []
    i = 0
    while i < len(ranks):
        j = i
        while j + 1 < len(ranks) and ranks[j + 1] == ranks[j] + 1:
            j += 1
        seq = ranks[i:j + 1]
        if len(seq) >= 3:
            for choice in product(*(by_rank[r] for r in seq)):
                out.append(Combo("run", tuple(choice), len(seq)))
        i = j + 1
    return out


def flush(hand: Sequence[Card], starter: Card, crib: bool) -> list[Combo]:
    """«Флешь - это 4 карты одной масти в руке, но не в крибе (4 очка). Если ту
    же масть имеет стартер - то 5 очков. За 4 карты одной масти в крибе не
    дается ничего, но если эту масть имеет и стартер, то ... 5 очков.»
    """
    if len({c.suit for c in hand}) != 1 or len(hand) != 4:
        return []
    if starter.suit == hand[0].suit:
        return [Combo("flush", tuple(hand) + (starter,), 5)]
    if crib:
        return []
    return [Combo("flush", tuple(hand), 4)]


def nobs(hand: Sequence[Card], starter: Card) -> list[Combo]:
    """His nobs: «Если у Вас на руках есть валет той же масти, что и масть
    стартера, Вы получаете одно очко» (the article's «дворецкий»)."""
    return [Combo("nobs", (c,), 1) for c in hand
            if c.rank == JACK and c.suit == starter.suit]


def score_hand(hand: CardsLike, starter: CardLike | list[CardLike] | tuple[CardLike, ...], crib: bool = False,
               rules: Rules = STANDARD) -> HandScore:
    """Score four cards plus the starter («Стартер считается пятой картой для
    каждой из трех рук»).  ``crib=True`` applies the crib's five-card-only
    flush.  Cards may be ints, Card objects or text (``"5H 5C 5S JD"``).
    ``rules`` is accepted for symmetry with the play: both seeds count the
    show the same way, so no field changes it.
    """
    hand_t = parse_cards(hand)
    start = to_card(starter) if not isinstance(starter, (list, tuple)) else parse_cards(starter)[0]
    if len(hand_t) != 4:
        raise InputError(f"a hand has 4 cards, got {len(hand_t)}: {format_cards(hand_t)}")
    five = hand_t + (start,)
    if len(set(five)) != 5:
        raise InputError(f"duplicate card in {format_cards(five)}")
    combos = (fifteens(five) + pairs(five) + runs(five)
              + flush(hand_t, start, crib) + nobs(hand_t, start))
    return HandScore(hand_t, start, crib, tuple(combos))


def score_cards(cards: CardsLike) -> HandScore:
    """Fifteens, pairs and runs of any set of cards, no starter (so no flush
    or nobs): how the article counts «КОРОЛЬ, ДАМА, ДАМА, ВАЛЕТ ... Итого: 8
    очков», and what the program's line 1000 does with C=4 to weigh a discard.
    """
    cs = parse_cards(cards)
    if len(set(cs)) != len(cs):
        raise InputError(f"duplicate card in {format_cards(cs)}")
    return HandScore(cs, None, False, tuple(fifteens(cs) + pairs(cs) + runs(cs)))
