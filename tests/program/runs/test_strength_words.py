"""The strength page's plain words, ladder and first-dealer check, from small hand-worked studies.

Every expected figure below is worked by hand (Wilson's interval and Student's t quantile from their
formulas, the t quantile from a table: t(0.975, 3) = 3.1824), not by the code under test.
"""
from __future__ import annotations

import dataclasses

import pytest

from harness.program.runs import study
from harness.program.runs.strength import EngineFigures, Rung, first_dealer_check, ladder, plain_words
from harness.program.runs.study import DealStudy, DiscardChoice, GameStudy, Mean, Rate
from harness.runtime.records import plain

BAND = [0.55, 0.56]


# ------------------------------------------------------------------------------------------ intervals
def test_t_interval_of_a_mean_by_hand():
    m = plain(study.mean_ci([1, 2, 3, 4]))                    # mean 2.5, sd 1.290994, t(0.975, 3) = 3.182446
    assert m["mean"] == 2.5
    assert m["lo"] == pytest.approx(2.5 - 3.182446 * 1.290994 / 2, abs=1e-4)
    assert m["hi"] == pytest.approx(2.5 + 3.182446 * 1.290994 / 2, abs=1e-4)


def test_a_mean_interval_cannot_leave_the_quantitys_range():
    m = plain(study.mean_ci([1, 0.5, 0, 0.5], 0.0))          # mean 0.5, sd 0.408248: t gives -0.1496 .. 1.1496
    assert (m["lo"], m["hi"]) == (0.0, pytest.approx(1.1496, abs=1e-4))
    near = plain(study.mean_ci([1, 0.5, 0.5, 1], 0.0))      # mean 0.75, sd 0.288675: 0.2907 .. 1.2093, not clamped
    assert near["lo"] == pytest.approx(0.75 - 3.182446 * 0.288675 / 2, abs=1e-4)
    both = plain(study.mean_ci([4, -4], -4, 4))               # t(0.975, 1) = 12.706: far past [-4, 4]
    assert (both["lo"], both["hi"]) == (-4, 4)


def test_one_value_has_no_interval_but_the_range():
    assert plain(study.mean_ci([3.0], 0.0)) == {"n": 1, "mean": 3.0, "lo": 0.0, "hi": None}
    assert plain(study.mean_ci([])) == {"n": 0, "mean": None, "lo": None, "hi": None}


def test_wilson_stays_inside_0_and_1():
    for k, n in ((0, 1), (1, 1), (0, 2), (2, 2), (0, 50), (50, 50)):
        w = plain(study.wilson(k, n))
        assert 0.0 <= w["lo"] <= w["rate"] <= w["hi"] <= 1.0 and w["hi"] > w["lo"]


# ------------------------------------------------------------------------------------------ the first-dealer check
@pytest.mark.parametrize("k, n, status", [
    (55, 100, "too few games"),              # half-width 0.0976: wider than the 0.05 the band needs
    (200, 370, "too few games"),             # near miss: 0.0509, just too wide
    (212, 400, "consistent at 95 %"),        # 0.0490: narrow enough, and 0.481-0.578 meets 55-56 %
    (2220, 4000, "consistent at 95 %"),      # 0.5396-0.5703
    (2000, 4000, "inconsistent at 95 %"),    # 0.4845-0.5155: below the band
    (2440, 4000, "inconsistent at 95 %"),    # 0.5948-0.6250: above it
])
def test_the_first_dealer_check_says_what_the_interval_can_tell(k, n, status):
    check = plain(first_dealer_check(study.wilson(k, n), BAND))
    assert check["status"] == status
    assert check["half_width_needed"] == 0.05
    assert check["games_needed"] == 380                  # 1.96^2 * 0.555 * 0.445 / 0.05^2 = 379.5


def test_no_equal_games_is_too_few():
    assert first_dealer_check(None, BAND).status == "too few games"
    none_yet = plain(first_dealer_check(study.wilson(0, 0), BAND))
    assert none_yet["status"] == "too few games" and none_yet["half_width"] is None
    # the estimate of no games is kept as measured (0 of 0), not dropped as if there were no match
    assert none_yet["estimate"] == {"k": 0, "n": 0, "rate": None, "lo": None, "hi": None}


# ------------------------------------------------------------------------------------------ a two-game study
def _deal(loss: float, my_crib: bool, hand: int, crib: int, pegging: int) -> DealStudy:
    points = {"computer": {"hand": hand, "crib": crib, "pegging": pegging},
              "player": {"hand": 4, "crib": 0, "pegging": 2}}
    return DealStudy(dealer="computer" if my_crib else "player", dealt={}, points=points, plays=(), crib=crib or None,
                     discards={"computer": DiscardChoice(my_crib=my_crib, value=0.0, best=loss, loss=loss, pair="5-5")})


def _two_games() -> list[GameStudy]:
    """The computer wins the first (first dealer, a single game point), the player the second; two deals
    each; the computer's four discards lose 1.0, 0.5, 0.0 and 0.5 points against the best throw."""
    return [GameStudy(winner="computer", scores={"computer": 121, "player": 100}, first_dealer="computer",
                      game_points=1, deals=(_deal(1.0, True, 8, 4, 2), _deal(0.5, False, 6, 0, 1))),
            GameStudy(winner="player", scores={"computer": 95, "player": 121}, first_dealer="player",
                      game_points=1, deals=(_deal(0.0, False, 4, 0, 0), _deal(0.5, True, 10, 2, 3)))]


def _engine(random: int, highest: int, greedy: int, ev: int) -> dict[str, EngineFigures]:
    return {f"{name} vs ev": EngineFigures(games=100, player0_wins=study.wilson(k, 100), first_dealer_wins=study.wilson(0, 0),
                                           points_per_deal=(study.mean_ci([]), study.mean_ci([])))
            for name, k in (("random", random), ("highest", highest), ("greedy", greedy), ("ev", ev))}


def _report(games: list[GameStudy], engine: dict[str, EngineFigures]) -> tuple[list[Rung], Mean, study.MatchFigures]:
    """What the words read of a report: the ladder, the program's discards' loss, its match against ev."""
    figures = {"ev": study.match_figures(games)}
    every = [c for g in games for d in g.deals if (c := d.discards.get("computer"))]
    return ladder(figures, engine), study.discard_figures(every).all.loss, figures["ev"]


def test_the_two_game_study_figures_by_hand():
    f = plain(study.match_figures(_two_games()))
    assert f["completed"] == 2 and f["deals"] == 4
    assert f["computer_wins"] == {"k": 1, "n": 2, "rate": 0.5, "lo": 0.0945, "hi": 0.9055}
    assert f["first_dealer_wins"]["k"] == 2                # each game won by its first dealer
    loss = f["discards"]["computer"]["all"]["loss"]
    assert (loss["mean"], loss["lo"], loss["hi"]) == (0.5, 0.0, pytest.approx(1.1496, abs=1e-4))
    net = f["game_points_net"]                             # +1 and -1: t(0.975, 1) * 1.414 / 1.414 = 12.7, clamped
    assert (net["mean"], net["lo"], net["hi"]) == (0.0, -4, 4)


def test_the_ladder_is_weakest_first_with_the_program_in_its_place():
    rungs = plain(ladder({"ev": study.match_figures(_two_games())}, _engine(5, 20, 40, 50)))
    assert [r["player"] for r in rungs] == ["random", "highest", "greedy", "program", "ev"]
    assert rungs[3]["wins_vs_ev"]["n"] == 2 and "Spectrum" in rungs[3]["source"]
    assert rungs[0]["wins_vs_ev"]["rate"] == 0.05 and "engine" in rungs[0]["source"]
    no_match = ladder({}, _engine(5, 20, 40, 50))
    assert "program" not in [r.player for r in no_match]


def test_the_plain_words_of_the_two_game_study():
    words = plain_words(*_report(_two_games(), _engine(5, 20, 40, 50)))
    # two games: 9-91 % meets every rung's interval (random 2-11 %, ...), so nothing is told apart
    assert words.startswith("The computer is neither measurably better nor measurably worse than a random player, a player who always "
                            "throws away its two highest cards, a greedy player (the most points now) and a "
                            "careful player (the exact expected value of every choice) in these games")
    assert "wins 50 % of its games (95 %: 9-91 %, 2 games)" in words
    # 0.5 points a deal over 4 / 2 = 2.0 deals a game: 1 point, interval 0 .. 1.1496 * 2 = 2.3
    assert "give away 0.50 points a deal against the best throw, about 1.0 points (95 %: 0.0-2.3) over a game of 2.0 deals" \
        in words


def test_the_plain_words_place_a_measured_program_between_its_neighbours():
    rungs, loss, ev = _report(_two_games(), _engine(5, 20, 40, 50))
    ev = dataclasses.replace(ev, computer_wins=study.wilson(30, 100))          # 21.9-39.6 %
    rungs[3] = dataclasses.replace(rungs[3], wins_vs_ev=study.wilson(30, 100))
    words = plain_words(rungs, loss, ev)
    assert ("plays measurably better than a random player, is neither measurably better nor measurably worse than "
            "a player who always "
            "throws away its two highest cards and a greedy player (the most points now) and plays measurably "
            "worse than a careful player") in words
    assert "wins 30 % of its games (95 %: 22-40 %, 100 games), where two careful players win 50 % against each " \
        "other. Its discards" in words


def test_a_half_percent_is_rounded_up_as_a_reader_rounds():
    from harness.program.runs.strength import percent
    assert [percent(13 / 40), percent(0.3249), percent(0.335), percent(0.0), percent(1.0)] == [33, 32, 34, 0, 100]


def test_no_game_against_the_careful_player_is_said_so():
    engine = _engine(5, 20, 40, 50)
    _, loss, _ = _report(_two_games(), engine)
    assert plain_words(ladder({}, engine), loss, None).startswith("Too few games for a verdict")


def test_one_game_of_one_deal_has_words_without_an_interval_for_its_mean():
    from harness.program.runs.strength import verdict
    game = _two_games()[0]
    game = dataclasses.replace(game, deals=game.deals[:1])          # one deal: one discard, loss 1.0
    rungs, loss, ev = _report([game], _engine(5, 20, 40, 50))
    assert (loss.n, loss.mean, loss.lo, loss.hi) == (1, 1.0, 0.0, None)
    assert "one discard: no interval" in verdict(loss, ev.computer_wins)
    assert "about 1.0 points over a game of 1.0 deals" in plain_words(rungs, loss, ev)    # no span where a bound is open


def test_without_engine_games_the_sentence_says_there_is_no_ladder():
    from harness.program.runs import strength as st
    rungs = [Rung(player="program", words="the program", wins_vs_ev=Rate(k=1, n=2, rate=0.5, lo=0.1, hi=0.9), source="")]
    ev = dataclasses.replace(study.match_figures([]), completed=2, deals=4)
    said = st.plain_words(rungs, Mean(n=4, mean=0.5, lo=0.0, hi=1.0), ev)
    assert "has no engine players to be set against (no self-play games)" in said and "wins 50 %" in said
