"""The rules engine's statistics on hundreds of self-played games: the first dealer's advantage meets the published band, and a planted bad strategy falls out of it."""
import functools
import random


from harness.cribbage.cards import full_deck
from harness.cribbage.selfplay import ExpectedValue, Greedy, Highest, play_game
from harness.program.runs import study
from harness.program.runs.published import published
from harness.program.runs.strength import EngineChunk, engine_chunk, band_overlap, engine_figures


@functools.cache
def _chunk(first: str, second: str, start: int, count: int) -> EngineChunk:
    """A chunk of self-play games is a function of its arguments alone (each game's seeds come from its index),
    so the 200 "ev vs ev" games of the planted-strategy test are the first dealer band's 200 (DEALER_GAMES)."""
    return engine_chunk(first, second, start, count)


def _figures(first, second, games, start=0):
    return engine_figures([_chunk(first, second, s, min(100, games - s)) for s in range(start, games, 100)])[
        f"{first} vs {second}"]


#: issue 37: 200 games, as many as the planted bad dealer below is shown out of the band with (they were 600):
#: the same power for the near miss and the catch, and the 200 "ev vs ev" games the planted-strategy test
#: reads (one _chunk cache). The bound that size gives: Wilson's 95 % half-width at most 0.07.
DEALER_GAMES = 200


def test_the_first_dealers_advantage_between_equal_players_meets_the_published_band():
    band = published().first_dealer.band
    measured = _figures("ev", "ev", DEALER_GAMES).first_dealer_wins
    assert measured.hi - measured.lo <= 2 * 0.07, measured       # the stated bound of DEALER_GAMES games
    assert band_overlap(measured, band), measured
    assert measured.rate > 0.5                       # dealing first is an advantage


def test_a_first_dealer_who_throws_badly_falls_out_of_the_band():
    band = published().first_dealer.band
    rs = []
    for i in range(DEALER_GAMES):                      # the planted first dealer: always the highest two cards
        strategies = (Highest(i), ExpectedValue(i + 1000))
        rs.append(play_game(strategies, seed=i, first_dealer=0))
    measured = study.wilson(sum(r.winner == r.first_dealer for r in rs), len(rs))
    assert not band_overlap(measured, band), measured


def test_the_planted_highest_two_strategy_comes_out_measurably_worse():
    worse = _figures("highest", "ev", 200).player0_wins
    equal = _figures("ev", "ev", 200).player0_wins
    assert worse.hi < 0.5 < equal.hi and equal.lo < 0.5
    rng = random.Random(7)
    loss = {"highest": [], "greedy": []}
    for _ in range(60):
        hand = rng.sample(list(full_deck()), 6)
        for name, strategy in (("highest", Highest()), ("greedy", Greedy())):
            thrown = list(strategy.discard(hand, my_crib=True))
            loss[name].append(study.discard_choice(hand, thrown, True).loss)
    assert study.mean_ci(loss["highest"]).lo > study.mean_ci(loss["greedy"]).hi
