"""Whole games between two strategies on the rules engine alone: fast, for what needs many games.

A strategy chooses the discard and each card of the play from what its player
knows; the engine's `Game` deals from a seeded deck, keeps the score and says
who won. Used to measure the first dealer's advantage between equal players
(published: 55-56 %) and to check that a worse strategy comes out worse.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from .cards import Card, full_deck
from .discard import best_discard, ev_best_discard
from .game import Game
from .pegging import best_peg
from .play import is_legal, score_play
from .rules import STANDARD, Rules


class Strategy:
    """Random: any two cards, any legal card."""
    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def discard(self, hand: list[Card], my_crib: bool) -> tuple[Card, Card]:
        a, b = self.rng.sample(hand, 2)
        return a, b

    def peg(self, hand: list[Card], series: list[Card], seen: list[Card], opponent_cards: int) -> Card | None:
        legal = [c for c in hand if is_legal(c, sum(x.value for x in series))]
        return self.rng.choice(legal) if legal else None


class Greedy(Strategy):
    """The engine's greedy: the best expected show with the thrown pair's own points; the most points now."""
    name = "greedy"

    def discard(self, hand: list[Card], my_crib: bool) -> tuple[Card, Card]:
        i, j = best_discard(hand, my_crib)
        return hand[i], hand[j]

    def peg(self, hand: list[Card], series: list[Card], seen: list[Card], opponent_cards: int) -> Card | None:
        legal = [c for c in hand if is_legal(c, sum(x.value for x in series))]
        if not legal:
            return None
        return max(legal, key=lambda c: (score_play(series + [c]).total, -c.value, -int(c)))


class ExpectedValue(Strategy):
    """The exact expected hand and crib (ev_best_discard); points now less the reply's risk (best_peg)."""
    name = "ev"

    def discard(self, hand: list[Card], my_crib: bool) -> tuple[Card, Card]:
        i, j = ev_best_discard(hand, my_crib)
        return hand[i], hand[j]

    def peg(self, hand: list[Card], series: list[Card], seen: list[Card], opponent_cards: int) -> Card | None:
        return best_peg(hand, series, seen, opponent_cards)


class Highest(ExpectedValue):
    """A planted weak discard: always the two highest cards (by rank), whoever's crib; plays as ev."""
    name = "highest"

    def discard(self, hand: list[Card], my_crib: bool) -> tuple[Card, Card]:
        a, b = sorted(hand, key=lambda c: (c.rank, int(c)))[-2:]
        return a, b


STRATEGIES = {cls.name: cls for cls in (Strategy, Greedy, ExpectedValue, Highest)}


@dataclass
class GameResult:
    """One game: who dealt first, who won, the scores, the points of each player by kind, the deals."""
    first_dealer: int
    winner: int
    scores: tuple[int, int]
    game_points: int
    deals: int
    points: list[dict[str, int]] = field(default_factory=lambda: [{}, {}])   # per player: hand, crib, pegging


def _kind(reason: str) -> str:
    return reason if reason in ("hand", "crib") else "pegging"      # play, go, last card, his heels


def play_game(strategies: tuple[Strategy, Strategy], seed: int, first_dealer: int = 0,
              rules: Rules = STANDARD) -> GameResult:
    """One game of *strategies[0]* (player 0) against *strategies[1]*, the deck shuffled from *seed*."""
    rng = random.Random(seed)
    g = Game(rules, dealer=first_dealer)
    points: list[dict[str, int]] = [{"hand": 0, "crib": 0, "pegging": 0}, {"hand": 0, "crib": 0, "pegging": 0}]
    seen_log = len(g.log)

    def tally() -> None:
        nonlocal seen_log
        for step in g.log[seen_log:]:
            for e in step.events:
                points[e.player][_kind(e.reason)] += e.points
        seen_log = len(g.log)

    deals = 0
    while g.phase != "over":
        deck = list(full_deck())
        rng.shuffle(deck)
        g.deal(deck[:6], deck[6:12])
        deals += 1
        hands = [list(deck[:6]), list(deck[6:12])]
        thrown: list[tuple[Card, Card]] = [(deck[0], deck[1])] * 2
        for p in (g.pone, g.current_dealer):
            thrown[p] = strategies[p].discard(hands[p], g.current_dealer == p)
            g.discard(p, thrown[p])
        g.starter(deck[12])
        tally()
        played: list[Card] = []
        while g.phase == "play":
            kind, p = g.expected()[0], g.turn
            if kind == "go":
                g.go()
            else:
                series = list(g.series)
                seen = [c for c in played if c not in series] + list(thrown[p]) + [deck[12]]
                card = strategies[p].peg(list(g.left[p]), series, seen, len(g.left[1 - p]))
                if card is None:
                    raise RuntimeError(f"strategy {strategies[p].name} said go with a legal card")
                g.play(card)
                played.append(card)
            tally()
        while g.phase == "show":
            g.show()
            tally()
    assert g.winner is not None
    winner, loser_score, game_points = g.game_result()
    return GameResult(first_dealer, winner, (g.scores[0], g.scores[1]), game_points, deals, points)
