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
from typing import Any, Iterable

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
def wilson(k: int, n: int, z: float = Z95) -> dict[Any, Any]:
    """The rate k/n with Wilson's score interval."""
    if n <= 0:
        return {"k": k, "n": n, "rate": None, "lo": None, "hi": None}
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return {"k": k, "n": n, "rate": round(p, 4), "lo": round(centre - half, 4), "hi": round(centre + half, 4)}


def mean_ci(xs: Iterable[float], low: float | None = None, high: float | None = None) -> dict[Any, Any]:
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
        return {"n": 0, "mean": None, "lo": None, "hi": None}
    m = sum(xs) / n
    if n == 1:
        return {"n": 1, "mean": round(m, 4), "lo": low, "hi": high}
    from scipy.special import stdtrit  # type: ignore[import-untyped]  # Student's t quantile (scipy.stats costs a CPU second to import)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    half = float(stdtrit(n - 1, 0.975)) * sd / math.sqrt(n)
    lo, hi = m - half, m + half
    if low is not None:
        lo = max(lo, low)
    if high is not None:
        hi = min(hi, high)
    return {"n": n, "mean": round(m, 4), "lo": round(lo, 4), "hi": round(hi, 4)}


# ------------------------------------------------------------------------------------------ one game
def _who(value: object) -> str:
    return str(getattr(value, "value", value))


def pair_key(a: Card, b: Card) -> str:
    """A thrown rank pair as the tables name it: "5-5", "A-K" (lower rank first)."""
    names = "A23456789TJQK"
    lo, hi = sorted((a.rank, b.rank))
    return f"{names[lo - 1]}-{names[hi - 1]}"


def discard_choice(hand: list[Card], thrown: list[Card], my_crib: bool) -> dict[Any, Any]:
    """The thrown pair's expected value against the best of the fifteen (points per deal)."""
    values = ev_discard_values(hand, my_crib)
    try:
        i, j = sorted((hand.index(thrown[0]), hand.index(thrown[1])))
    except ValueError:
        raise StudyError(f"a discard {' '.join(map(str, thrown))} of cards not held "
                         f"({' '.join(map(str, hand))})") from None
    best = max(values.values())
    chosen = values[i, j]
    return {"my_crib": my_crib, "value": round(chosen, 6), "best": round(best, 6),
            "loss": round(best - chosen, 6), "pair": pair_key(*thrown)}


def play_choice(held: list[Card], series: list[Card], card: Card) -> dict[Any, Any]:
    """The points a card pegged against the most any legal card would have, and the count it left."""
    count = sum(c.value for c in series)
    legal = [c for c in held if is_legal(c, count)]
    if card not in legal:
        raise StudyError(f"{card} laid at count {count} from {' '.join(map(str, held))}")
    points = {c: score_play(series + [c]).total for c in legal}
    after = count + card.value
    return {"points": points[card], "best": max(points.values()), "after": after,
            "leaves_ten": after in (5, 21), "choices": len(legal)}


def analyse_game(events: list[Event]) -> dict[Any, Any]:
    """One game's deals, discards, plays and points by side, as plain data (see the module's docstring)."""
    deals: list[dict[Any, Any]] = []
    deal: dict[Any, Any] | None = None
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
            deal = {"dealer": dealer, "dealt": {"computer": list(ev.computer), "player": list(ev.player)},
                    "points": {s: dict.fromkeys(KINDS, 0) for s in SIDES}, "discards": {}, "plays": [],
                    "crib": None}
            deals.append(deal)
            hands = {s: [parse_card(c) for c in deal["dealt"][s]] for s in SIDES}
            series = []
        elif deal is None:
            continue
        elif isinstance(ev, Discard):
            who = _who(ev.who)
            thrown = [parse_card(c) for c in ev.cards]
            deal["discards"][who] = discard_choice(hands[who], thrown, deal["dealer"] == who)
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


def _add_play(deal: dict[Any, Any], hands: dict[str, list[Card]], series: list[tuple[str, Card]], who: str,
              card: Card) -> None:
    """A card laid: its choice measured, and the reply it makes to the other's card (did it make 15 or 31?)."""
    choice = play_choice(hands[who], [c for _, c in series], card)
    choice["who"] = who
    choice["reply_15_31"] = None
    if series and series[-1][0] != who:            # this card answers the other's: did it make 15/31?
        for earlier in reversed(deal["plays"]):
            if earlier["who"] != who:
                earlier["reply_15_31"] = choice["after"] in (15, 31)
                break
    deal["plays"].append(choice)
    hands[who].remove(card)
    series.append((who, card))


def _add_score(deal: dict[Any, Any], ev: Score, last_show: ShowHand | None) -> None:
    """A peg counted to its side: the show's to the hand or crib last shown, any other to the pegging."""
    if ev.context is ScoreContext.SHOW:
        kind = "crib" if last_show is ShowHand.CRIB else "hand"
        if kind == "crib":
            deal["crib"] = ev.points
    else:
        kind = "pegging"
    deal["points"][_who(ev.who)][kind] += ev.points


def _game(deals: list[dict[Any, Any]], first_dealer: str | None, winner: str | None,
          scores: dict[str, int] | None) -> dict[Any, Any]:
    """The game as `analyse_game` gives it: the game points the loser's score gives the winner, if won."""
    gp = None
    if winner is not None and scores is not None:
        loser = "player" if winner == "computer" else "computer"
        gp = STANDARD.game_points_for(scores[loser])
    return {"winner": winner, "scores": scores, "first_dealer": first_dealer, "game_points": gp,
            "deals": deals}


# ------------------------------------------------------------------------------------------ many games
def match_figures(games: list[dict[Any, Any]]) -> dict[Any, Any]:
    """The figures of a match: games analysed by `analyse_game` (only those with a winner count)."""
    done = [g for g in games if g["winner"] is not None and g["deals"]]
    out: dict[Any, Any] = {"games": len(games), "completed": len(done)}
    out["computer_wins"] = wilson(sum(g["winner"] == "computer" for g in done), len(done))
    out["first_dealer_wins"] = wilson(sum(g["winner"] == g["first_dealer"] for g in done), len(done))
    out["computer_first_dealer"] = wilson(sum(g["first_dealer"] == "computer" for g in done), len(done))
    out["game_points_net"] = mean_ci(((g["game_points"] if g["winner"] == "computer" else -g["game_points"])
                                      for g in done), -MOST_GAME_POINTS, MOST_GAME_POINTS)
    per_deal: dict[Any, Any] = {}
    for side in SIDES:
        per_deal[side] = {kind: mean_ci((sum(d["points"][side][kind] for d in g["deals"]) / len(g["deals"])
                                         for g in done), 0.0) for kind in KINDS}
        per_deal[side]["total"] = mean_ci((sum(sum(d["points"][side].values()) for d in g["deals"]) / len(g["deals"])
                                           for g in done), 0.0)
    out["points_per_deal"] = per_deal
    out["deals"] = sum(len(g["deals"]) for g in done)
    out["discards"] = {side: discard_figures([d["discards"][side] for g in done for d in g["deals"]
                                             if side in d["discards"]]) for side in SIDES}
    out["plays"] = {side: play_figures([p for g in done for d in g["deals"] for p in d["plays"] if p["who"] == side])
                    for side in SIDES}
    return out


def discard_figures(choices: list[dict[Any, Any]]) -> dict[Any, Any]:
    """Expected points given away by the discards, in all and by whose crib it was, and how often the best."""
    out = {}
    for name, pick in (("all", lambda c: True), ("own_crib", lambda c: c["my_crib"]),
                       ("opponent_crib", lambda c: not c["my_crib"])):
        xs = [c for c in choices if pick(c)]
        out[name] = {"loss": mean_ci((c["loss"] for c in xs), 0.0),
                     "best_choice": wilson(sum(c["loss"] < 1e-6 for c in xs), len(xs))}
    return out


def play_figures(plays: list[dict[Any, Any]]) -> dict[Any, Any]:
    """Points now given away by the cards laid, and the counts of 5 or 21 left and 15 or 31 replied."""
    answered = [p for p in plays if p["reply_15_31"] is not None]
    return {"cards": len(plays),
            "points_missed": mean_ci((p["best"] - p["points"] for p in plays), 0.0),
            "best_now": wilson(sum(p["points"] == p["best"] for p in plays), len(plays)),
            "leaves_5_or_21": wilson(sum(p["leaves_ten"] for p in plays), len(plays)),
            "reply_made_15_or_31": wilson(sum(bool(p["reply_15_31"]) for p in answered), len(answered))}


def crib_by_pair(games: list[dict[Any, Any]], side: str = "computer") -> dict[Any, Any]:
    """The crib's points after *side* threw each rank pair: {pair: {"own": [n, mean], "opponent": [n, mean]}}."""
    acc: dict[str, dict[str, list[int]]] = defaultdict(lambda: {"own": [], "opponent": []})
    for g in games:
        for d in g["deals"]:
            choice = d["discards"].get(side)
            if choice is None or d["crib"] is None:
                continue
            acc[choice["pair"]]["own" if choice["my_crib"] else "opponent"].append(d["crib"])
    return {pair: {k: [len(v), round(sum(v) / len(v), 4) if v else None] for k, v in roles.items()}
            for pair, roles in sorted(acc.items())}
