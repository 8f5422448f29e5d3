"""How well the program plays: the figures of `cribbage-zx strength`, from the games' events.

Pure: a game's typed events in, plain numbers out (no machine, no files), so the
same transcripts give the same figures on any runner. Every choice the
program (the "computer") makes is measured against the engine's expected-value
player (harness/cribbage/discard.py, pegging.py):

* a discard: the exact expected points (hand over every starter, the crib over
  the opponent's possible throws) of the two cards it laid away, against the
  best of the fifteen choices; its own crib and the opponent's apart;
* a card laid: the points it pegged against the most any legal card would
  have pegged, whether it left a count of 5 or 21 (a ten makes 15 or 31) and
  whether the reply did make 15 or 31;
* the points the program pegged (its own scoring, deviations D1... included:
  the game as it is played), per deal and split into hand, crib and pegging
  (the play, the go, his heels).

The same measures are taken of the automated opponent, as a yardstick.
Intervals are 95 %: Wilson's for rates (it cannot leave 0-100 %, and is not zero-width at 0 or n of
n), Student's t for means, clamped to the quantity's range (`mean_ci` argues why).
"""
from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field, replace
from typing import Iterable

from ...cribbage.cards import Card, parse_card
from ...cribbage.discard import ev_discard_values
from ...cribbage.play import is_legal, score_play
from ...cribbage.rules import STANDARD
from ...errors import InputError
from ..records.events import Deal, Discard, Event, Play, Reset, Score, ScoreContext, Show, ShowHand, Starter, Win

Z95 = 1.959963984540054
SIDES = ("computer", "player")
KINDS = ("hand", "crib", "pegging")
MOST_GAME_POINTS = 4      # a double skunk (harness/cribbage/rules.py, game_points_for): net game points lie in [-4, 4]


class StudyError(InputError):
    """A transcript the study cannot follow (a card laid that the player does not hold...)."""


# ------------------------------------------------------------------------------------------ intervals
@dataclass(frozen=True)
class Rate:
    """A rate k/n with Wilson's 95 % interval [lo, hi]; rate, lo and hi are None when n is not positive."""
    k: int
    n: int
    rate: float | None
    lo: float | None
    hi: float | None


@dataclass(frozen=True)
class Mean:
    """A mean of n values with Student's t 95 % interval, clamped (`mean_ci`); None where there is none."""
    n: int
    mean: float | None
    lo: float | None
    hi: float | None


def wilson(k: int, n: int, z: float = Z95) -> Rate:
    """The rate k/n with Wilson's score interval."""
    if n <= 0:
        return Rate(k=k, n=n, rate=None, lo=None, hi=None)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return Rate(k=k, n=n, rate=round(p, 4), lo=round(centre - half, 4), hi=round(centre + half, 4))


def mean_ci(xs: Iterable[float], low: float | None = None, high: float | None = None) -> Mean:
    """The mean with Student's t interval (95 %), clamped to the range the quantity can take.

    Why t and clamping rather than the normal approximation or a bootstrap: the means here are of
    points a deal or a game, sums of many small scores, so their sampling distribution is close to
    normal once there are a few dozen games; for fewer, t's wider quantile (12.7 at n = 2, 2.26 at
    n = 10, 1.98 at n = 120) says how little a handful of games shows, where the normal's 1.96 would
    claim too much. A bootstrap cannot leave the sample's range, but it needs a random seed and
    thousands of resamples per figure, and at n = 2 it gives an interval no wider than the two values.
    What t alone can do is run past what the quantity can be (a negative loss, a crib of minus one
    point), so each bound is clamped to [low, high], the quantity's own range. With one value there is
    no spread to measure: the interval is that whole range (a bound is None where the range is open).
    """
    xs = list(xs)
    n = len(xs)
    if n == 0:
        return Mean(n=0, mean=None, lo=None, hi=None)
    m = sum(xs) / n
    if n == 1:
        return Mean(n=1, mean=round(m, 4), lo=low, hi=high)
    from scipy.special import stdtrit  # type: ignore[import-untyped]  # Student's t quantile (scipy.stats costs a CPU second to import)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    half = float(stdtrit(n - 1, 0.975)) * sd / math.sqrt(n)
    lo, hi = m - half, m + half
    if low is not None:
        lo = max(lo, low)
    if high is not None:
        hi = min(hi, high)
    return Mean(n=n, mean=round(m, 4), lo=round(lo, 4), hi=round(hi, 4))


# ------------------------------------------------------------------------------------------ one game's record
@dataclass(frozen=True)
class DiscardChoice:
    """A discard measured: the thrown pair's expected value against the best of the fifteen (points a deal),
    whose crib it went to, and the rank pair as the tables name it."""
    my_crib: bool
    value: float
    best: float
    loss: float
    pair: str


@dataclass(frozen=True)
class PlayChoice:
    """A card laid, measured: who laid it, the points it pegged against the most any legal card would have,
    the count it left (5 or 21: a ten makes 15 or 31), how many cards were legal, and whether the other's
    answer made 15 or 31 (None: nobody answered it)."""
    who: str
    points: int
    best: int
    after: int
    leaves_ten: bool
    choices: int
    reply_15_31: bool | None = None


@dataclass(frozen=True)
class DealStudy:
    """One deal: its dealer, the six cards each side was dealt, the points each side scored by kind (hand,
    crib, pegging), each side's discard, the cards laid in order, and the crib's points (None: not shown)."""
    dealer: str
    dealt: dict[str, tuple[str, ...]]
    points: dict[str, dict[str, int]]
    discards: dict[str, DiscardChoice]
    plays: tuple[PlayChoice, ...]
    crib: int | None


@dataclass(frozen=True)
class GameStudy:
    """One game as `analyse_game` gives it: the winner and final scores (None: not won), the first dealer,
    the game points the loser's score gives the winner, and every deal."""
    winner: str | None
    scores: dict[str, int] | None
    first_dealer: str | None
    game_points: int | None
    deals: tuple[DealStudy, ...]


@dataclass
class _DealDraft:
    """A deal while its events are followed (`analyse_game`), frozen into a DealStudy at the end."""
    dealer: str
    dealt: dict[str, tuple[str, ...]]
    points: dict[str, dict[str, int]] = field(default_factory=lambda: {s: dict.fromkeys(KINDS, 0) for s in SIDES})
    discards: dict[str, DiscardChoice] = field(default_factory=dict)
    plays: list[PlayChoice] = field(default_factory=list)
    crib: int | None = None

    def frozen(self) -> DealStudy:
        return DealStudy(dealer=self.dealer, dealt=self.dealt, points=self.points, discards=self.discards,
                         plays=tuple(self.plays), crib=self.crib)


# ------------------------------------------------------------------------------------------ one game
def _who(value: object) -> str:
    return str(getattr(value, "value", value))


def pair_key(a: Card, b: Card) -> str:
    """A thrown rank pair as the tables name it: "5-5", "A-K" (lower rank first)."""
    names = "A23456789TJQK"
    lo, hi = sorted((a.rank, b.rank))
    return f"{names[lo - 1]}-{names[hi - 1]}"


def discard_choice(hand: list[Card], thrown: list[Card], my_crib: bool) -> DiscardChoice:
    """The thrown pair's expected value against the best of the fifteen (points per deal)."""
    values = ev_discard_values(hand, my_crib)
    try:
        i, j = sorted((hand.index(thrown[0]), hand.index(thrown[1])))
    except ValueError:
        raise StudyError(f"a discard {' '.join(map(str, thrown))} of cards not held "
                         f"({' '.join(map(str, hand))})") from None
    best = max(values.values())
    chosen = values[i, j]
    return DiscardChoice(my_crib=my_crib, value=round(chosen, 6), best=round(best, 6), loss=round(best - chosen, 6),
                         pair=pair_key(*thrown))


def play_choice(held: list[Card], series: list[Card], card: Card, who: str) -> PlayChoice:
    """The points a card *who* laid pegged against the most any legal card would have, and the count it left."""
    count = sum(c.value for c in series)
    legal = [c for c in held if is_legal(c, count)]
    if card not in legal:
        raise StudyError(f"{card} laid at count {count} from {' '.join(map(str, held))}")
    points = {c: score_play(series + [c]).total for c in legal}
    after = count + card.value
    return PlayChoice(who=who, points=points[card], best=max(points.values()), after=after,
                      leaves_ten=after in (5, 21), choices=len(legal))


def analyse_game(events: list[Event]) -> GameStudy:
    """One game's deals, discards, plays and points by side, as its record (see the module's docstring)."""
    deals: list[_DealDraft] = []
    deal: _DealDraft | None = None
    hands: dict[str, list[Card]] = {}
    series: list[tuple[str, Card]] = []
    last_show = None
    first_dealer = None
    for ev in events:
        if isinstance(ev, Win):
            return _game(deals, first_dealer, _who(ev.who), {"computer": ev.computer, "player": ev.player})
        if isinstance(ev, Deal):
            dealer = _who(ev.dealer)
            first_dealer = first_dealer or dealer
            deal = _DealDraft(dealer, {"computer": tuple(ev.computer), "player": tuple(ev.player)})
            deals.append(deal)
            hands = {s: [parse_card(c) for c in deal.dealt[s]] for s in SIDES}
            series = []
        elif deal is None:
            continue
        elif isinstance(ev, Discard):
            who = _who(ev.who)
            thrown = [parse_card(c) for c in ev.cards]
            deal.discards[who] = discard_choice(hands[who], thrown, deal.dealer == who)
            hands[who] = [c for c in hands[who] if c not in thrown]
        elif isinstance(ev, (Starter, Reset)):
            series = []
        elif isinstance(ev, Play):
            _add_play(deal, hands, series, _who(ev.who), parse_card(ev.card))
        elif isinstance(ev, Show):
            last_show = ev.hand
        elif isinstance(ev, Score) and ev.context is not ScoreContext.DEMO:
            _add_score(deal, ev, last_show)
    return _game(deals, first_dealer, None, None)


def _add_play(deal: _DealDraft, hands: dict[str, list[Card]], series: list[tuple[str, Card]], who: str,
              card: Card) -> None:
    """A card laid: its choice measured, and the reply it makes to the other's card (did it make 15 or 31?)."""
    choice = play_choice(hands[who], [c for _, c in series], card, who)
    if series and series[-1][0] != who:            # this card answers the other's: did it make 15/31?
        for k in range(len(deal.plays) - 1, -1, -1):
            if deal.plays[k].who != who:
                deal.plays[k] = replace(deal.plays[k], reply_15_31=choice.after in (15, 31))
                break
    deal.plays.append(choice)
    hands[who].remove(card)
    series.append((who, card))


def _add_score(deal: _DealDraft, ev: Score, last_show: ShowHand | None) -> None:
    """A peg counted to its side: the show's to the hand or crib last shown, any other to the pegging."""
    if ev.context is ScoreContext.SHOW:
        kind = "crib" if last_show is ShowHand.CRIB else "hand"
        if kind == "crib":
            deal.crib = ev.points
    else:
        kind = "pegging"
    deal.points[_who(ev.who)][kind] += ev.points


def _game(deals: list[_DealDraft], first_dealer: str | None, winner: str | None,
          scores: dict[str, int] | None) -> GameStudy:
    """The game as `analyse_game` gives it: the game points the loser's score gives the winner, if won."""
    gp = None
    if winner is not None and scores is not None:
        loser = "player" if winner == "computer" else "computer"
        gp = STANDARD.game_points_for(scores[loser])
    return GameStudy(winner=winner, scores=scores, first_dealer=first_dealer, game_points=gp,
                     deals=tuple(d.frozen() for d in deals))


# ------------------------------------------------------------------------------------------ many games' figures
@dataclass(frozen=True)
class KindPoints:
    """Points a deal of one side, by kind and in all, each a mean over the games."""
    hand: Mean
    crib: Mean
    pegging: Mean
    total: Mean

    def of(self, kind: str) -> Mean:
        """The mean of *kind*: "hand", "crib", "pegging" or "total"."""
        return {"hand": self.hand, "crib": self.crib, "pegging": self.pegging, "total": self.total}[kind]


@dataclass(frozen=True)
class DiscardRole:
    """The discards of one kind: expected points given away, and how often the best of the fifteen."""
    loss: Mean
    best_choice: Rate


@dataclass(frozen=True)
class DiscardFigures:
    """Discards in all, to one's own crib and to the opponent's (`discard_figures`)."""
    all: DiscardRole
    own_crib: DiscardRole
    opponent_crib: DiscardRole


@dataclass(frozen=True)
class PlayFigures:
    """The cards laid (`play_figures`): points given away now, the best card now, counts of 5 or 21 left,
    and 15 or 31 made in reply."""
    cards: int
    points_missed: Mean
    best_now: Rate
    leaves_5_or_21: Rate
    reply_made_15_or_31: Rate


@dataclass(frozen=True)
class SidePoints:
    """Points a deal of both sides: the program ("computer") and its opponent ("player")."""
    computer: KindPoints
    player: KindPoints


@dataclass(frozen=True)
class SideDiscards:
    """The discards of both sides."""
    computer: DiscardFigures
    player: DiscardFigures


@dataclass(frozen=True)
class SidePlays:
    """The cards laid by both sides."""
    computer: PlayFigures
    player: PlayFigures


@dataclass(frozen=True)
class MatchFigures:
    """The figures of a match against one opponent (`match_figures`)."""
    games: int
    completed: int
    computer_wins: Rate
    first_dealer_wins: Rate
    computer_first_dealer: Rate
    game_points_net: Mean
    points_per_deal: SidePoints
    deals: int
    discards: SideDiscards
    plays: SidePlays


@dataclass(frozen=True)
class ThrownCribs:
    """The cribs after a rank pair was thrown: (how many, their mean points) to one's own crib and the
    opponent's; the mean None when there were none."""
    own: tuple[int, float | None]
    opponent: tuple[int, float | None]


def _kind_points(done: list[GameStudy], side: str) -> KindPoints:
    """*side*'s points a deal by kind (hand, crib, pegging) and in all, each game's deals averaged."""
    def per_deal(kind: str | None) -> Mean:
        return mean_ci((sum(d.points[side][kind] if kind else sum(d.points[side].values()) for d in g.deals)
                        / len(g.deals) for g in done), 0.0)
    hand, crib, pegging = (per_deal(kind) for kind in KINDS)
    return KindPoints(hand=hand, crib=crib, pegging=pegging, total=per_deal(None))


def match_figures(games: list[GameStudy]) -> MatchFigures:
    """The figures of a match: games analysed by `analyse_game` (only those with a winner count)."""
    done = [g for g in games if g.winner is not None and g.deals]
    n = len(done)
    return MatchFigures(
        games=len(games), completed=n,
        computer_wins=wilson(sum(g.winner == "computer" for g in done), n),
        first_dealer_wins=wilson(sum(g.winner == g.first_dealer for g in done), n),
        computer_first_dealer=wilson(sum(g.first_dealer == "computer" for g in done), n),
        game_points_net=mean_ci((_net_game_points(g) for g in done), -MOST_GAME_POINTS, MOST_GAME_POINTS),
        points_per_deal=SidePoints(computer=_kind_points(done, "computer"), player=_kind_points(done, "player")),
        deals=sum(len(g.deals) for g in done),
        discards=SideDiscards(computer=_side_discards(done, "computer"), player=_side_discards(done, "player")),
        plays=SidePlays(computer=_side_plays(done, "computer"), player=_side_plays(done, "player")))


def _side_discards(done: list[GameStudy], side: str) -> DiscardFigures:
    return discard_figures([c for g in done for d in g.deals if (c := d.discards.get(side)) is not None])


def _side_plays(done: list[GameStudy], side: str) -> PlayFigures:
    return play_figures([p for g in done for d in g.deals for p in d.plays if p.who == side])


def _net_game_points(game: GameStudy) -> int:
    """The game points of a won game, the program's gain: negative when its opponent won."""
    points = game.game_points or 0
    return points if game.winner == "computer" else -points


def discard_figures(choices: list[DiscardChoice]) -> DiscardFigures:
    """Expected points given away by the discards, in all and by whose crib it was, and how often the best."""
    def role(xs: list[DiscardChoice]) -> DiscardRole:
        return DiscardRole(loss=mean_ci((c.loss for c in xs), 0.0),
                           best_choice=wilson(sum(c.loss < 1e-6 for c in xs), len(xs)))
    return DiscardFigures(all=role(list(choices)), own_crib=role([c for c in choices if c.my_crib]),
                          opponent_crib=role([c for c in choices if not c.my_crib]))


def play_figures(plays: list[PlayChoice]) -> PlayFigures:
    """Points now given away by the cards laid, and the counts of 5 or 21 left and 15 or 31 replied."""
    answered = [p for p in plays if p.reply_15_31 is not None]
    return PlayFigures(cards=len(plays),
                       points_missed=mean_ci((p.best - p.points for p in plays), 0.0),
                       best_now=wilson(sum(p.points == p.best for p in plays), len(plays)),
                       leaves_5_or_21=wilson(sum(p.leaves_ten for p in plays), len(plays)),
                       reply_made_15_or_31=wilson(sum(bool(p.reply_15_31) for p in answered), len(answered)))


def crib_by_pair(games: list[GameStudy], side: str = "computer") -> dict[str, ThrownCribs]:
    """The crib's points after *side* threw each rank pair, to its own crib and the opponent's, by pair."""
    acc: dict[str, dict[bool, list[int]]] = defaultdict(lambda: {True: [], False: []})
    for g in games:
        for d in g.deals:
            choice = d.discards.get(side)
            if choice is None or d.crib is None:
                continue
            acc[choice.pair][choice.my_crib].append(d.crib)
    return {pair: ThrownCribs(own=_cribs(roles[True]), opponent=_cribs(roles[False])) for pair, roles in sorted(acc.items())}


def _cribs(points: list[int]) -> tuple[int, float | None]:
    return len(points), round(sum(points) / len(points), 4) if points else None
