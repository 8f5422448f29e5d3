"""A hint on H: what the engine would do with the player's cards at this wait, read from the program's variables.

At the discard (the card selector called from 7860/7870) it is the engine's
expected value of each of the fifteen ways to lay two of the six cards away
(`cribbage.discard.discard_values`, for the player's own crib when the player
deals, else the computer's), best first, the best two cards marked; in the
play (called from 2720) the points each card the player holds would peg now,
from the series the program holds (T(1..N), SUM). Only text; it never reaches
the observer, the comparison or the judged record.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..cribbage.cards import Card, make
from ..cribbage.discard import discard_values
from ..cribbage.play import MAX_COUNT, score_play
from ..cribbage.rules import STANDARD, Rules
from ..program.model import program as P
from ..spectrum.machine import Spectrum48
from ..spectrum.variables import BasicVariables, VariableError
from .cards import card_name

DISCARD_CALLERS = (P.SELECT_FIRST_DISCARD, P.SELECT_SECOND_DISCARD)


@dataclass(frozen=True)
class DiscardHint:
    hand: tuple[str, ...]                      # the six cards, engine notation
    my_crib: bool
    values: tuple[tuple[tuple[int, int], float], ...]   # (positions i<j, expected points), best first

    @property
    def best(self) -> tuple[str, str]:
        i, j = self.values[0][0]
        return self.hand[i], self.hand[j]

    def lines(self) -> list[str]:
        whose = "your crib" if self.my_crib else "the computer's crib"
        out = [f"Hint: the engine's expected points of each discard ({whose})",
               "  hand: " + " ".join(card_name(c) for c in self.hand)]
        for rank, ((i, j), value) in enumerate(self.values):
            mark = "*" if rank == 0 else " "
            out.append(f" {mark} throw {card_name(self.hand[i]):>3} {card_name(self.hand[j]):>3}: {value:6.2f}")
        out.append(f"  * best: throw {' and '.join(card_name(c) for c in self.best)}")
        return out


@dataclass(frozen=True)
class PlayHint:
    count: int
    cards: tuple[tuple[str, int | None], ...]   # each held card and what it pegs now (None: it does not fit)

    def lines(self) -> list[str]:
        out = [f"Hint: what each card would peg now (count {self.count})"]
        for card, points in self.cards:
            out.append(f"  {card_name(card):>3}: " + ("does not fit (over 31)" if points is None
                                                      else f"{points} point" + ("" if points == 1 else "s")))
        if all(p is None for _, p in self.cards):
            out.append("  nothing fits: choose an empty slot twice to say go")
        return out


def _numbers(v: BasicVariables, name: str) -> list[float]:
    """A numeric array of the program (A(), B(), T()) as a list of numbers."""
    return [float(x) for x in v.numbers(name)]


def _text(v: BasicVariables, name: str) -> str:
    """A string of the program (DIM A$(6): one fixed-length string)."""
    value = v.get(name)
    if not isinstance(value, str):
        raise VariableError(f"{name} is not a string")
    return value


def discard_hint(machine: Spectrum48, rules: Rules = STANDARD) -> DiscardHint:
    """The engine's values of every discard of the player's six cards, A()/A$(), as dealt."""
    v = BasicVariables(machine)
    ranks, suits = _numbers(v, P.HAND_PLAYER[0]), _text(v, P.HAND_PLAYER[1])
    hand = tuple(P.card_of(ranks[i], suits[i]) for i in range(6))
    my_crib = int(v.number(P.V_DEALER)) == P.MAN
    values = discard_values(hand, my_crib, rules)
    ordered = sorted(values.items(), key=lambda kv: (-kv[1], kv[0]))
    return DiscardHint(tuple(str(c) for c in hand), my_crib, tuple(ordered))


def _series_cards(ranks: list[int]) -> list[Card]:
    """Cards of the given ranks, a different suit for each repeat (suits do not score in the play)."""
    seen: dict[int, int] = {}
    cards = []
    for r in ranks:
        cards.append(make(r, seen.get(r, 0) % 4))
        seen[r] = seen.get(r, 0) + 1
    return cards


def play_hint(machine: Spectrum48, rules: Rules = STANDARD) -> PlayHint:
    """What each card the player still holds (B(i) not 0) pegs if laid now on the series T(1..N)."""
    v = BasicVariables(machine)
    ranks, suits, held = _numbers(v, P.HAND_PLAYER[0]), _text(v, P.HAND_PLAYER[1]), _numbers(v, P.V_HELD)
    n, count = int(v.number(P.V_SERIES_LENGTH)), int(v.number(P.V_COUNT))
    series = [int(r) for r in _numbers(v, P.V_SERIES)[:n]]
    out: list[tuple[str, int | None]] = []
    for i in range(P.HAND_SLOTS):
        if not held[i]:
            continue
        card = P.card_of(ranks[i], suits[i])
        if count + card.value > MAX_COUNT:
            out.append((str(card), None))
            continue
        laid = _series_cards(series + [card.rank])
        out.append((str(card), score_play(laid, rules).total))
    return PlayHint(count, tuple(out))


def hint_at(machine: Spectrum48, caller: int | None, rules: Rules = STANDARD) -> DiscardHint | PlayHint | None:
    """The hint for the card selector's caller, or None where there is none (every other wait)."""
    if caller in DISCARD_CALLERS:
        return discard_hint(machine, rules)
    if caller == P.SELECT_PLAY:
        return play_hint(machine, rules)
    return None
