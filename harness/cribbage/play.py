"""The play (pegging): what the last card laid in a series scores.

A *series* is the list of cards laid since the count was last reset, in
order.  Only the last card scores, and only with the cards before it in the
same series.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import InputError
from .cards import Card, CardLike, CardsLike, format_cards, parse_cards, to_card
from .rules import STANDARD, Rules
from .show import PAIR_KINDS, Combo

MAX_COUNT = 31


# A combination made by the last card is the same kind of thing as one in the show.
PlayCombo = Combo


@dataclass(frozen=True)
class PlayScore:
    """What the last card of ``series`` scores, combination by combination."""

    series: tuple[Card, ...]
    count: int
    combinations: tuple[PlayCombo, ...] = field(default_factory=tuple)

    @property
    def total(self) -> int:
        return sum(c.points for c in self.combinations)

    def __str__(self) -> str:
        parts = ", ".join(str(c) for c in self.combinations) or "nothing"
        return f"{format_cards(self.series)} (count {self.count}): {parts}"


def count_of(series: CardsLike) -> int:
    """The running count: «Все фигуры и десятка - по 10 очков»."""
    return sum(c.value for c in parse_cards(series))


def is_legal(card: CardLike, count: int) -> bool:
    """«При этом нельзя, чтобы сумма выложенных карт превысила 31 очко.»"""
    return count + to_card(card).value <= MAX_COUNT


def playable(hand: CardsLike, count: int) -> list[Card]:
    """Cards of ``hand`` that may be laid at ``count``."""
    return [c for c in parse_cards(hand) if is_legal(c, count)]


def go_points(rules: Rules = STANDARD) -> int:
    """«Тогда он объявляет "ХОД" и его противник получает себе очко» (1)."""
    return 1


def last_card_points(count: int, rules: Rules = STANDARD) -> int:
    """Points for the last card of the play *on top of* the 31 it may make.

    Below 31: «Ход последней картой (из восьми) дает еще одно очко» (1).
    At 31 the 31 itself already scored 2; the extra is
    ``rules.thirty_one_last_card - 2``: 0 in the standard/Cadenza rules ("1 for
    playing the last card, or 2 if this brings the total to exactly 31"),
    1 in the article's reading («добавляются 2 дополнительных очка»).
    """
    if count == MAX_COUNT:
        return rules.thirty_one_last_card - 2
    return 1


def _trailing_same_rank(series: tuple[Card, ...]) -> int:
    n = 1
    while n < len(series) and series[-1 - n].rank == series[-1].rank:
        n += 1
    return n


def _run_length(series: tuple[Card, ...]) -> int:
    """Longest k >= 3 such that the last k cards are k consecutive ranks in
    any order.  Cadenza: "The cards in the run need not be ordered, but there
    may not be any 'foreign' cards in the middle of the run"."""
    best = 0
    for k in range(3, len(series) + 1):
        ranks = [c.rank for c in series[-k:]]
        if len(set(ranks)) == k and max(ranks) - min(ranks) == k - 1:
            best = k
    return best


def score_play(series: CardsLike, rules: Rules = STANDARD) -> PlayScore:
    """Score the last card of a series.

    «если полученная сумма равна 15, ему запишется 2 очка»; 31 scores 2 ("A
    player scores 2 for bringing the total of the played cards to exactly
    31"); a pair 2, «"пэр рояль" - три одинаковые карты подряд дают 6 очков»,
    «"двойной пэр рояль" - 4 карты одного достоинства - 12 очков»; «"секансы"
    ... оцениваются во столько очков, сколько карт в секансе».
    """
    cards = parse_cards(series)
    if not cards:
        raise InputError("empty series: nothing was played")
    if len(set(cards)) != len(cards):
        raise InputError(f"duplicate card in series {format_cards(cards)}")
    count = sum(c.value for c in cards)
    if count > MAX_COUNT:
        raise InputError(f"series {format_cards(cards)} passes 31 (count {count})")
    combos: list[PlayCombo] = []
    if count == 15:
        combos.append(PlayCombo("fifteen", cards, 2))
    elif count == MAX_COUNT:
        combos.append(PlayCombo("thirty-one", cards, 2))
    same = _trailing_same_rank(cards)
    if same >= 2:
        kind, pts = PAIR_KINDS[same]
        combos.append(PlayCombo(kind, cards[-same:], pts))
    run = _run_length(cards)
    if run:
        combos.append(PlayCombo("run", cards[-run:], run))
    return PlayScore(cards, count, tuple(combos))
