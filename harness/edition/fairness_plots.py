"""The report's fairness plots: the deck against a fair one, and the show scores against the exact distribution.

The cut for deal, every dealt card and every starter of the run's games are counted and set against a
uniform deck (program/runs/fairness.py's chi-square tests, read through its `read_tests`); every show the
program counted is set against the exact distribution over all (hand, starter) combinations. Each plot
carries a sentence on how to read it where the picture alone would mislead.
"""
from __future__ import annotations

from collections import Counter

from ..cribbage.cards import SUIT_SYMBOLS, full_deck, parse_card, rank_name
from ..cribbage.stats import exact_show_counts
from ..program.records import events as E
from ..program.runs.fairness import Fairness, FairnessTest, read_tests, analyse as fairness_of
from . import plots
from .cards import latin
from .game_page import COMPONENTS
from .run_records import RunView

__all__ = ["SHOW_NOTES", "fairness_plots"]

SHOW_NOTES = {
    "hands": "Why kept hands beat random ones: the exact distribution is of four cards dealt at random with a "
             "random starter, but every hand shown here is the four a player chose to keep of the six dealt, "
             "throwing away the two that score least with the rest; so the bars stand to the right of the line "
             "(fewer hands of 0-2 points, more of 6 and over) and their mean is higher. That is the players' "
             "choice showing, not an unfair deck.",
    "cribs": "A crib is made of the cards the two players threw away: the dealer throws cards that score together "
             "into his own crib, the other player throws cards that do not, so the two pull in opposite "
             "directions and a crib has no reason to beat random hands the way kept hands do; with a few "
             "dozen cribs the bars say little either way."}

CUT_TICKS = {"cut for deal (player's rank)": [rank_name(r) for r in range(1, 14)]}
SUIT_NAMES = dict(zip(SUIT_SYMBOLS, ("hearts", "clubs", "diamonds", "spades")))
DECK = frozenset(str(c) for c in full_deck())


def _bars(t: FairnessTest) -> plots.Categories:
    """A test's counts as bars: cards suit by suit, each tick a rank standing upright; ranks as they are."""
    keys = list(t.observed)
    if not all(k in DECK for k in keys):
        ticks = CUT_TICKS.get(t.test) or keys
        return plots.Categories(ticks, [t.observed[k] for k in keys], None, ticks)
    keys.sort(key=lambda k: (SUIT_SYMBOLS.index(latin(k)[-1]), parse_card(k).rank))
    names = [latin(k) for k in keys]
    groups = [(f"{sym} {SUIT_NAMES[sym]}", sum(1 for n in names if n[-1] == sym))
              for sym in dict.fromkeys(n[-1] for n in names)]
    return plots.Categories([n[:-1] for n in names], [t.observed[k] for k in keys], groups, names)


def _deck_plots(result: Fairness) -> list[plots.Plot]:
    out = []
    for t in read_tests(result):
        if not t.n:
            continue
        slug = f"{t.group}-{t.test}".split(" (")[0].replace(" ", "-")
        out.append(plots.histogram(slug, f"{t.test[0].upper()}{t.test[1:]}, {t.group}", _bars(t), t.p,
                                   "cuts" if t.test.startswith("cut") else "cards"))
    return out


def _show_plots(run: RunView) -> list[plots.Plot]:
    out = []
    hand, crib = exact_show_counts()
    for which, exact, hands in (("hands", hand, (E.ShowHand.COMPUTER, E.ShowHand.PLAYER)),
                                ("cribs", crib, (E.ShowHand.CRIB,))):
        seen = Counter(sum(getattr(ev, c) for c in COMPONENTS) for g in run.games for ev in g.events
                       if isinstance(ev, E.Show) and ev.hand in hands)
        if seen:
            plot = plots.distribution(f"show-{which}", f"Show scores, {which}",
                                      [seen.get(s, 0) for s in range(len(exact))], exact, which)
            plot.note = SHOW_NOTES[which]
            out.append(plot)
    return out


def fairness_plots(run: RunView) -> tuple[list[plots.Plot], dict[str, object] | None]:
    """The cut for deal, the dealt cards and the starters of every game against a fair deck, and the
    program's show scores against the exact distribution; with the fairness analysis they were drawn from."""
    if not run.games:
        return [], None
    result = fairness_of([g.events for g in run.games])
    return _deck_plots(result) + _show_plots(run), result.as_json()
