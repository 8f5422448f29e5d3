"""The study's figures by hand (issue 36, item 4): small studies whose every figure is worked out in the comments.

No expected value here is computed by harness/program/runs/study.py: each is a literal, derived beside it.
Wilson's interval at 95 % (z = 1.959963984540054, z² = 3.841458820694124):
    centre = (p + z²/2n) / (1 + z²/n),  half = z sqrt(p(1-p)/n + z²/4n²) / (1 + z²/n)
    k/n = 0/1: (0.0000, 0.7935)   1/1: (0.2065, 1.0000)
          0/2: (0.0000, 0.6576)   1/2: (0.0945, 0.9055)   2/2: (0.3424, 1.0000)
          0/3: (0.0000, 0.5615)   1/3: (0.0615, 0.7923)   2/3: (0.2077, 0.9385)   3/3: (0.4385, 1.0000)
Student's t at 97.5 %: one degree of freedom is Cauchy's, tan(0.475 pi) = 12.7062047; two degrees,
t = (2p - 1) / sqrt(2p(1-p)) = 0.95 / sqrt(0.04875) = 4.3026527. With two values x1, x2 the half-width
t s / sqrt(2) is t |x1 - x2| / 2; with three, t s / sqrt(3).
"""
import dataclasses

import pytest

from harness.cribbage.cards import parse_card
from harness.cribbage.discard import ev_discard_values
from harness.program.records.events import Deal, Discard, Play, Reset, Score, ScoreContext, Show, ShowHand, Starter, Who, Win
from harness.program.runs import study
from harness.program.runs.study import (DealStudy, DiscardChoice, GameStudy, PlayChoice, StudyError, crib_by_pair,
                                        pair_key)
from harness.runtime.records import plain


# the figures as report.json holds them (the records written as JSON): the literals below are of that form
def wilson(*args, **kw):
    return plain(study.wilson(*args, **kw))


def mean_ci(*args):
    return plain(study.mean_ci(*args))


def match_figures(games):
    return plain(study.match_figures(games))


def discard_figures(choices):
    return plain(study.discard_figures(choices))


def play_figures(plays):
    return plain(study.play_figures(plays))


def analyse_game(events):
    return plain(study.analyse_game(events))


def play_choice(*args):
    return plain(study.play_choice(*args))


def w(k, n, lo, hi, rate=None):
    return {"k": k, "n": n, "rate": round(k / n, 4) if rate is None else rate, "lo": lo, "hi": hi}


# ------------------------------------------------------------------------------------------ the intervals
@pytest.mark.parametrize("k, n, lo, hi", [(0, 1, 0.0, 0.7935), (1, 1, 0.2065, 1.0), (0, 2, 0.0, 0.6576),
                                          (1, 2, 0.0945, 0.9055), (2, 2, 0.3424, 1.0), (1, 3, 0.0615, 0.7923),
                                          (2, 3, 0.2077, 0.9385), (3, 3, 0.4385, 1.0)])
def test_wilson_by_hand(k, n, lo, hi):
    assert wilson(k, n) == w(k, n, lo, hi)


def test_wilson_of_nothing_has_no_rate():
    assert wilson(0, 0) == {"k": 0, "n": 0, "rate": None, "lo": None, "hi": None}
    assert wilson(3, -1) == {"k": 3, "n": -1, "rate": None, "lo": None, "hi": None}


def test_wilson_with_another_z():
    # z = 1 at 1/2: centre (0.5 + 0.25) / 1.5 = 0.5; half sqrt(0.125 + 0.0625) / 1.5 = 0.2887
    assert wilson(1, 2, z=1.0) == {"k": 1, "n": 2, "rate": 0.5, "lo": 0.2113, "hi": 0.7887}


def test_mean_ci_by_hand():
    assert mean_ci([]) == {"n": 0, "mean": None, "lo": None, "hi": None}
    assert mean_ci([3.5]) == {"n": 1, "mean": 3.5, "lo": None, "hi": None}          # one value: the whole range
    assert mean_ci([3.5], 0.0) == {"n": 1, "mean": 3.5, "lo": 0.0, "hi": None}
    assert mean_ci([3.5], -4, 4) == {"n": 1, "mean": 3.5, "lo": -4, "hi": 4}
    assert mean_ci([1 / 3]) == {"n": 1, "mean": 0.3333, "lo": None, "hi": None}       # four places, as for n > 1
    assert mean_ci([1, 1, 2]) == {"n": 3, "mean": 1.3333, "lo": -0.1009, "hi": 2.7676}  # half 4.3027 * 0.5774 / 1.7321 = 1.4342
    # 10, 11, 12: mean 11, s = 1, half 4.3026527 / sqrt 3 = 2.4841: neither bound clamped
    assert mean_ci([10, 11, 12]) == {"n": 3, "mean": 11.0, "lo": 8.5159, "hi": 13.4841}
    assert mean_ci([10, 11, 12], 9.0, 13.0) == {"n": 3, "mean": 11.0, "lo": 9.0, "hi": 13.0}
    assert mean_ci([10, 11, 12], 8.0, 14.0) == {"n": 3, "mean": 11.0, "lo": 8.5159, "hi": 13.4841}
    # 4, 6: mean 5, half 12.7062047 * 2 / 2 = 12.7062: -7.7062 .. 17.7062
    assert mean_ci([4, 6]) == {"n": 2, "mean": 5.0, "lo": -7.7062, "hi": 17.7062}
    assert mean_ci(iter([4, 6]), 0.0) == {"n": 2, "mean": 5.0, "lo": 0.0, "hi": 17.7062}
    # equal values: no spread, a zero-width interval
    assert mean_ci([2, 2]) == {"n": 2, "mean": 2.0, "lo": 2.0, "hi": 2.0}


# ------------------------------------------------------------------------------------------ a two-game match
def deal(dealer, points, discards, plays, crib):
    """A deal's record with what the figures read (the cards dealt, which they do not, left empty)."""
    sides = ("computer", "player")
    return DealStudy(dealer=dealer, dealt={}, points={s: dict(zip(("hand", "crib", "pegging"), points[s])) for s in sides},
                     discards=discards, plays=tuple(plays), crib=crib)


def disc(my_crib, loss, pair):
    return DiscardChoice(my_crib=my_crib, value=0.0, best=loss, loss=loss, pair=pair)


def play(who, points, best, leaves, reply):
    return PlayChoice(who=who, points=points, best=best, after=0, leaves_ten=leaves, choices=1, reply_15_31=reply)


def game(winner, first_dealer, game_points, deals):
    return GameStudy(winner=winner, scores=None, first_dealer=first_dealer, game_points=game_points, deals=tuple(deals))


# Game A: the computer deals first and wins (game points 1); two deals.
GAME_A = game("computer", "computer", 1, [
    deal("computer", {"computer": (4, 2, 3), "player": (6, 0, 1)},
         {"computer": disc(True, 0.0, "5-5"), "player": disc(False, 0.5, "2-3")},
         [play("computer", 0, 2, True, True), play("player", 0, 0, False, None)], 2),
    deal("player", {"computer": (8, 0, 2), "player": (2, 5, 0)},
         {"computer": disc(False, 1.25, "A-K"), "player": disc(True, 0.0, "2-3")},
         [play("computer", 2, 2, False, None), play("player", 3, 3, True, True)], 5)])
# Game B: the player deals first and wins with a skunk (game points 2); one deal.
GAME_B = game("player", "player", 2, [
    deal("player", {"computer": (2, 0, 1), "player": (10, 4, 2)},
         {"computer": disc(False, 0.75, "5-5"), "player": disc(True, 2.0, "9-T")},
         [play("computer", 0, 0, False, False), play("player", 1, 2, True, True)], 4)])
# Neither counts: a game without a winner, and one won without a deal.
UNFINISHED = game(None, "computer", None, GAME_B.deals)
NO_DEALS = game("computer", "computer", 4, [])


def test_a_two_game_match_by_hand():
    f = match_figures([GAME_A, UNFINISHED, GAME_B, NO_DEALS])
    assert f["games"] == 4 and f["completed"] == 2 and f["deals"] == 3
    assert f["computer_wins"] == w(1, 2, 0.0945, 0.9055)             # A
    assert f["first_dealer_wins"] == w(2, 2, 0.3424, 1.0)            # A (computer), B (player)
    assert f["computer_first_dealer"] == w(1, 2, 0.0945, 0.9055)     # A
    # net game points +1 (A), -2 (B): mean -0.5, half 12.7062 * 3 / 2 = 19.06, clamped to [-4, 4]
    assert f["game_points_net"] == {"n": 2, "mean": -0.5, "lo": -4, "hi": 4}
    # per deal, A's two deals averaged, B's one: the computer's hand 6 and 2, the player's 4 and 10 ...
    t = 12.7062047
    per = f["points_per_deal"]
    assert per["computer"] == {
        "hand": {"n": 2, "mean": 4.0, "lo": 0.0, "hi": 29.4124},              # 6, 2: 4 + t * 2
        "crib": {"n": 2, "mean": 0.5, "lo": 0.0, "hi": 6.8531},               # 1, 0: 0.5 + t / 2
        "pegging": {"n": 2, "mean": 1.75, "lo": 0.0, "hi": 11.2797},          # 2.5, 1: 1.75 + t * 0.75
        "total": {"n": 2, "mean": 6.25, "lo": 0.0, "hi": 47.5452}}            # 9.5, 3: 6.25 + t * 3.25
    assert per["player"] == {
        "hand": {"n": 2, "mean": 7.0, "lo": 0.0, "hi": 45.1186},              # 4, 10: 7 + t * 3
        "crib": {"n": 2, "mean": 3.25, "lo": 0.0, "hi": 12.7797},             # 2.5, 4: 3.25 + t * 0.75
        "pegging": {"n": 2, "mean": 1.25, "lo": 0.0, "hi": 10.7797},          # 0.5, 2: 1.25 + t * 0.75
        "total": {"n": 2, "mean": 11.5, "lo": 0.0, "hi": 68.6779}}            # 7, 16: 11.5 + t * 4.5
    assert round(4 + t * 2, 4) == 29.4124                                      # the comment's arithmetic
    # the computer's discards: losses 0 (own crib), 1.25 and 0.75 (the player's): s = 0.6292, half 1.5629
    assert f["discards"]["computer"] == {
        "all": {"loss": {"n": 3, "mean": 0.6667, "lo": 0.0, "hi": 2.2296}, "best_choice": w(1, 3, 0.0615, 0.7923)},
        "own_crib": {"loss": {"n": 1, "mean": 0.0, "lo": 0.0, "hi": None}, "best_choice": w(1, 1, 0.2065, 1.0)},
        "opponent_crib": {"loss": {"n": 2, "mean": 1.0, "lo": 0.0, "hi": 4.1766},       # 1 + t / 4
                          "best_choice": w(0, 2, 0.0, 0.6576)}}
    # the player's: 0.5 (the computer's crib), 0 and 2.0 (its own): mean 0.8333, s = 1.0408, half 2.5856
    assert f["discards"]["player"] == {
        "all": {"loss": {"n": 3, "mean": 0.8333, "lo": 0.0, "hi": 3.4189}, "best_choice": w(1, 3, 0.0615, 0.7923)},
        "own_crib": {"loss": {"n": 2, "mean": 1.0, "lo": 0.0, "hi": 13.7062},           # 0, 2: 1 + t
                     "best_choice": w(1, 2, 0.0945, 0.9055)},
        "opponent_crib": {"loss": {"n": 1, "mean": 0.5, "lo": 0.0, "hi": None}, "best_choice": w(0, 1, 0.0, 0.7935)}}
    # the computer's cards: missed 2, 0, 0; best now 2 of 3; left 5/21 once; replied 15/31 once of twice
    assert f["plays"]["computer"] == {
        "cards": 3, "points_missed": {"n": 3, "mean": 0.6667, "lo": 0.0, "hi": 3.5351},
        "best_now": w(2, 3, 0.2077, 0.9385), "leaves_5_or_21": w(1, 3, 0.0615, 0.7923),
        "reply_made_15_or_31": w(1, 2, 0.0945, 0.9055)}
    # the player's: missed 0, 0, 1; best now 2 of 3; left 5/21 twice; replied 15/31 both times answered
    assert f["plays"]["player"] == {
        "cards": 3, "points_missed": {"n": 3, "mean": 0.3333, "lo": 0.0, "hi": 1.7676},
        "best_now": w(2, 3, 0.2077, 0.9385), "leaves_5_or_21": w(2, 3, 0.2077, 0.9385),
        "reply_made_15_or_31": w(2, 2, 0.3424, 1.0)}


def test_the_same_match_the_other_way_round():
    """The player wins A, the computer B: every win rate turns over, and the net game points change sign."""
    a = dataclasses.replace(GAME_A, winner="player")
    b = dataclasses.replace(GAME_B, winner="computer")
    f = match_figures([a, b])
    assert f["computer_wins"] == w(1, 2, 0.0945, 0.9055)            # B
    assert f["first_dealer_wins"] == w(0, 2, 0.0, 0.6576)            # neither first dealer won
    # -1 (A), +2 (B): mean 0.5
    assert f["game_points_net"] == {"n": 2, "mean": 0.5, "lo": -4, "hi": 4}
    both = match_figures([dataclasses.replace(GAME_A, first_dealer="player"),
                          dataclasses.replace(GAME_B, first_dealer="player")])
    assert both["computer_first_dealer"] == w(0, 2, 0.0, 0.6576)
    assert both["first_dealer_wins"] == w(1, 2, 0.0945, 0.9055)     # B only


def test_a_one_game_match_and_an_empty_one():
    f = match_figures([GAME_B])
    assert f["computer_wins"] == w(0, 1, 0.0, 0.7935)
    assert f["game_points_net"] == {"n": 1, "mean": -2.0, "lo": -4, "hi": 4}
    assert f["points_per_deal"]["player"]["total"] == {"n": 1, "mean": 16.0, "lo": 0.0, "hi": None}
    empty = match_figures([UNFINISHED])
    assert empty["games"] == 1 and empty["completed"] == 0 and empty["deals"] == 0
    assert empty["computer_wins"] == {"k": 0, "n": 0, "rate": None, "lo": None, "hi": None}
    assert empty["plays"]["player"]["cards"] == 0
    assert empty["discards"]["computer"]["all"]["loss"] == {"n": 0, "mean": None, "lo": None, "hi": None}


def test_a_won_game_without_game_points_nets_none():
    # game points None (not worked out) add nothing to the net: a won game is 0, not a point either way
    for winner in ("computer", "player"):
        f = match_figures([game(winner, winner, None, GAME_B.deals)])
        assert f["completed"] == 1 and f["game_points_net"]["mean"] == 0.0


def test_the_crib_by_pair_by_hand():
    # the computer threw 5-5 to its own crib (2 points) and to the player's (4), A-K to the player's (5)
    games = [GAME_A, GAME_B]
    assert plain(crib_by_pair(games)) == {"5-5": {"own": [1, 2.0], "opponent": [1, 4.0]},
                                          "A-K": {"own": [0, None], "opponent": [1, 5.0]}}
    assert plain(crib_by_pair(games, "player")) == {"2-3": {"own": [1, 5.0], "opponent": [1, 2.0]},
                                                    "9-T": {"own": [1, 4.0], "opponent": [0, None]}}
    (b,) = GAME_B.deals
    uncounted = game(None, None, None, [dataclasses.replace(b, crib=None), dataclasses.replace(b, discards={})])
    assert crib_by_pair([uncounted]) == {}
    # two cribs of one pair: their mean (3 + 4) / 2
    twice = game(None, None, None, [dataclasses.replace(b, crib=3), b])
    assert plain(crib_by_pair([twice])) == {"5-5": {"own": [0, None], "opponent": [2, 3.5]}}


def test_discard_and_play_figures_count_the_edges():
    # a loss just under the 1e-6 of "best" counts as best; one at it does not
    f = discard_figures([disc(True, 9e-7, "A-2"), disc(False, 1e-6, "A-2")])
    assert f["all"]["best_choice"]["k"] == 1
    assert f["own_crib"]["best_choice"]["k"] == 1 and f["opponent_crib"]["best_choice"]["k"] == 0
    p = play_figures([play("computer", 1, 2, False, False), play("computer", 2, 2, True, None)])
    assert p["reply_made_15_or_31"] == w(0, 1, 0.0, 0.7935)          # the unanswered card is not counted
    assert p["best_now"] == w(1, 2, 0.0945, 0.9055)


# ------------------------------------------------------------------------------------------ one game's events
C, P = Who.COMPUTER, Who.PLAYER
COMPUTER_SIX = ("5H", "TS", "4C", "6D", "KC", "QC")
PLAYER_SIX = ("JH", "5S", "9C", "2D", "AH", "3S")


def one_game(win=Win(C, 121, 88), first=P):
    """The player deals; both throw their last two cards; eight cards are laid (see the test)."""
    return [
        Score(C, 2, ScoreContext.DEMO, 0),                   # the instructions' demonstration: not a game's
        Deal(1, first, COMPUTER_SIX, PLAYER_SIX),
        Discard(C, ("KC", "QC")), Discard(P, ("AH", "3S")), Starter("7S"),
        Play(P, "5S", 0), Play(C, "4C", 5), Play(P, "2D", 9), Play(C, "TS", 11), Play(P, "JH", 21),
        Score(P, 2, ScoreContext.PLAY, 0), Reset(0),
        Play(C, "5H", 0), Play(P, "9C", 5), Play(C, "6D", 14), Score(C, 1, ScoreContext.GO, 0),
        Show(ShowHand.COMPUTER, 0, 0, 0, 0, 0, (), ()), Score(C, 5, ScoreContext.SHOW, 1),
        Show(ShowHand.PLAYER, 0, 0, 0, 0, 0, (), ()), Score(P, 4, ScoreContext.SHOW, 2),
        Show(ShowHand.CRIB, 0, 0, 0, 0, 0, (), ()), Score(P, 6, ScoreContext.SHOW, 6),
        Score(P, 2, ScoreContext.DEMO, 12),
        win,
        Score(C, 9, ScoreContext.SHOW, 0),                   # after the win: not counted
    ]


def test_one_game_by_hand():
    g = analyse_game(one_game())
    assert g["winner"] == "computer" and g["scores"] == {"computer": 121, "player": 88}
    assert g["first_dealer"] == "player"
    assert g["game_points"] == 2                             # a skunk: the loser short of 91
    (d,) = g["deals"]
    assert d["dealer"] == "player" and d["crib"] == 6
    assert d["dealt"] == {"computer": list(COMPUTER_SIX), "player": list(PLAYER_SIX)}
    assert d["points"] == {"computer": {"hand": 5, "crib": 0, "pegging": 1},
                           "player": {"hand": 4, "crib": 6, "pegging": 2}}
    # the plays, worked out: (who, points, best, count after, 5/21 left, legal choices, reply made 15/31)
    laid = [(p["who"], p["points"], p["best"], p["after"], p["leaves_ten"], p["choices"], p["reply_15_31"])
            for p in d["plays"]]
    assert laid == [
        ("player", 0, 0, 5, True, 4, False),        # 5S leads; the 4C answers to 9
        ("computer", 0, 2, 9, False, 4, False),     # 4C at 5: the TS (15) or 5H (a pair) would peg 2; 2D answers 11
        ("player", 0, 0, 11, False, 3, False),      # 2D at 9; TS answers 21
        ("computer", 0, 0, 21, True, 3, True),      # TS at 11 leaves 21; the JH makes 31
        ("player", 2, 2, 31, False, 2, None),       # JH at 21: 31 for 2; the count is reset, nobody answers it
        ("computer", 0, 0, 5, True, 2, False),      # 5H leads the new series; 9C answers 14
        ("player", 0, 0, 14, False, 1, False),      # 9C at 5, its last card; 6D answers 20
        ("computer", 0, 0, 20, False, 1, None)]     # 6D at 14, the last card laid
    # the discards: each against the engine's fifteen expected values (harness/cribbage/discard.py)
    for who, six, thrown, my_crib, pair in (("computer", COMPUTER_SIX, (4, 5), False, "Q-K"),
                                            ("player", PLAYER_SIX, (4, 5), True, "A-3")):
        values = ev_discard_values([parse_card(c) for c in six], my_crib)
        best = max(values.values())
        assert d["discards"][who] == {"my_crib": my_crib, "value": round(values[thrown], 6), "best": round(best, 6),
                                      "loss": round(best - values[thrown], 6), "pair": pair}


def test_one_game_won_by_the_player_and_one_unfinished():
    g = analyse_game(one_game(win=Win(P, 95, 121), first=C))
    assert g["winner"] == "player" and g["game_points"] == 1 and g["first_dealer"] == "computer"
    assert g["deals"][0]["discards"]["computer"]["my_crib"] is True
    assert g["deals"][0]["discards"]["player"]["my_crib"] is False
    assert analyse_game(one_game(win=Win(P, 55, 121)))["game_points"] == 4       # a double skunk: short of 61
    assert analyse_game(one_game(win=Win(P, 90, 121)))["game_points"] == 2
    assert analyse_game(one_game(win=Win(P, 91, 121)))["game_points"] == 1       # the near miss: 91 reached
    unfinished = analyse_game(one_game()[:-2])
    assert unfinished["winner"] is None and unfinished["scores"] is None and unfinished["game_points"] is None
    assert unfinished["first_dealer"] == "player"           # the deals an unfinished game had are still its own
    assert analyse_game([]) == {"winner": None, "scores": None, "first_dealer": None, "game_points": None,
                                "deals": []}


def test_the_first_dealer_is_the_first_deals():
    events = one_game()
    second = Deal(2, C, COMPUTER_SIX, PLAYER_SIX)
    g = analyse_game(events[:-2] + [second, events[-2]])
    assert g["first_dealer"] == "player" and [d["dealer"] for d in g["deals"]] == ["player", "computer"]


def test_what_the_study_cannot_follow():
    with pytest.raises(StudyError) as exc:
        analyse_game([Deal(1, P, COMPUTER_SIX, PLAYER_SIX), Discard(C, ("AH", "QC"))])
    assert str(exc.value) == "a discard AH QC of cards not held (5H TS 4C 6D KC QC)"
    with pytest.raises(StudyError, match="^TS laid at count 25 from TS 9C$"):
        play_choice([parse_card("TS"), parse_card("9C")], [parse_card("KC"), parse_card("5H"), parse_card("TH")],
                    parse_card("TS"), "computer")
    assert play_choice([parse_card("6S"), parse_card("9C")], [parse_card("KC"), parse_card("5H"), parse_card("TH")],
                       parse_card("6S"), "player") == {"who": "player", "points": 2, "best": 2, "after": 31,
                                                       "leaves_ten": False, "choices": 1, "reply_15_31": None}


def test_pair_key_names_the_lower_rank_first():
    assert pair_key(parse_card("KC"), parse_card("AH")) == "A-K"
    assert pair_key(parse_card("5S"), parse_card("5H")) == "5-5"
    assert pair_key(parse_card("TS"), parse_card("9C")) == "9-T"


def test_a_deal_without_a_crib_is_passed_over_not_the_rest_of_its_game():
    (d,) = GAME_B.deals
    five = game(None, None, None, [dataclasses.replace(d, crib=None), dataclasses.replace(d, discards={}),
                                   dataclasses.replace(d, crib=1), dataclasses.replace(d, crib=2),
                                   dataclasses.replace(d, crib=2)])
    # the three counted cribs 1, 2, 2 after the computer's 5-5 to the player's crib: 5/3 = 1.6667 to four places
    assert plain(crib_by_pair([five])) == {"5-5": {"own": [0, None], "opponent": [3, 1.6667]}}


def test_sides_named_by_plain_strings_are_followed_the_same():
    """A transcript's sides may come as the strings themselves ("computer"), not as Who: the same game."""
    def plain(ev):
        return dataclasses.replace(ev, **{k: getattr(ev, k).value for k in ("who", "dealer")
                                         if isinstance(getattr(ev, k, None), Who)})
    events = one_game()
    assert analyse_game([plain(e) for e in events]) == analyse_game(events)


def test_a_card_after_ones_own_answers_nothing_and_a_fifteen_is_a_reply_made():
    """No starter recorded, no crib shown: the computer leads KH, the player makes 15 with the 5S and, the
    computer having said go, lays the 6D after its own card: that one answers nobody."""
    events = [Deal(1, P, ("KH", "2C", "3C", "4C", "QS", "JS"), ("5S", "6D", "9H", "8H", "AD", "2D")),
              Discard(C, ("QS", "JS")), Discard(P, ("AD", "2D")),
              Play(C, "KH", 0), Play(P, "5S", 10), Score(P, 2, ScoreContext.PLAY, 0), Play(P, "6D", 15),
              Score(P, 1, ScoreContext.GO, 2)]
    (d,) = analyse_game(events)["deals"]
    assert [(p["who"], p["points"], p["best"], p["after"], p["choices"], p["reply_15_31"]) for p in d["plays"]] == [
        ("computer", 0, 0, 10, 4, True),          # answered by the 5S: 15
        ("player", 2, 2, 15, 4, None),            # nobody answered it: the next card is the player's own
        ("player", 0, 0, 21, 3, None)]
    assert d["crib"] is None and d["points"]["player"]["pegging"] == 3          # 2 for the fifteen, 1 for the go


def test_what_comes_before_the_first_deal_is_passed_over():
    before = [Score(C, 2, ScoreContext.PLAY, 0), Reset(0), Starter("KS"), Show(ShowHand.CRIB, 0, 0, 0, 0, 0, (), ())]
    assert analyse_game(before + one_game()) == analyse_game(one_game())
