"""strength.py's figures by hand (issue 36, item 2): self-play figures by pairing, the band check, the crib
table's validation and the verdict, on inputs small enough that every expected value is a literal worked
out in the comments (Wilson's and t's intervals as in tests/program/runs/test_study_by_hand.py)."""
import dataclasses

from harness.cribbage.selfplay import GameResult
from harness.program.runs.published import DealerBand, HesselTable, Published, SchellTable
from harness.program.runs.strength import EngineChunk, band_overlap, crib_validation, engine_figures, verdict
from harness.program.runs.study import Mean, Rate
from harness.runtime.records import plain


def r(winner, first, deals, p0, p1):
    return GameResult(first_dealer=first, winner=winner, scores=(0, 0), game_points=1, deals=deals,
                      points=[dict(zip(("hand", "crib", "pegging"), p0)), dict(zip(("hand", "crib", "pegging"), p1))])


def rate(rate, lo, hi, k=0, n=0):
    return Rate(k=k, n=n, rate=rate, lo=lo, hi=hi)


def test_engine_figures_by_pairing():
    chunks = [EngineChunk(("highest", "ev"), 0, (r(1, 1, 2, (2, 0, 2), (6, 2, 4)),)),
              EngineChunk(("ev", "ev"), 100, (r(0, 1, 1, (3, 0, 2), (5, 2, 0)),)),
              EngineChunk(("ev", "ev"), 0, (r(0, 0, 2, (10, 4, 6), (8, 0, 4)), r(1, 0, 4, (8, 4, 4), (12, 4, 8))))]
    f = plain(engine_figures(chunks))
    assert list(f) == ["ev vs ev", "highest vs ev"]
    ev = f["ev vs ev"]
    assert ev["games"] == 3
    # player 0 won the first and the third; the first dealer (0, 0, 1) won only the first
    assert ev["player0_wins"] == {"k": 2, "n": 3, "rate": 0.6667, "lo": 0.2077, "hi": 0.9385}
    assert ev["first_dealer_wins"] == {"k": 1, "n": 3, "rate": 0.3333, "lo": 0.0615, "hi": 0.7923}
    # points a deal: player 0 20/2, 16/4, 5/1 = 10, 4, 5 (mean 6.3333, s 3.2146, half 4.3027 s / sqrt 3 = 7.9854)
    # player 1 12/2, 24/4, 7/1 = 6, 6, 7 (mean 6.3333, s 0.5774, half 1.4342)
    assert ev["points_per_deal"] == [{"n": 3, "mean": 6.3333, "lo": 0.0, "hi": 14.3187},
                                     {"n": 3, "mean": 6.3333, "lo": 4.8991, "hi": 7.7676}]
    hi = f["highest vs ev"]
    assert hi["games"] == 1 and hi["player0_wins"]["k"] == 0 and hi["first_dealer_wins"]["k"] == 1
    assert hi["points_per_deal"] == [{"n": 1, "mean": 2.0, "lo": 0.0, "hi": None},
                                     {"n": 1, "mean": 6.0, "lo": 0.0, "hi": None}]
    assert engine_figures([]) == {}


def test_band_overlap_at_its_edges():
    band = [0.55, 0.56]
    assert band_overlap(rate(0.5, 0.4, 0.55), band)          # touches the low edge
    assert not band_overlap(rate(0.5, 0.4, 0.5499), band)    # just short of it
    assert band_overlap(rate(0.6, 0.56, 0.7), band)          # touches the high edge
    assert not band_overlap(rate(0.6, 0.5601, 0.7), band)    # just past it
    assert band_overlap(rate(0.555, 0.551, 0.559), band)     # inside
    assert not band_overlap(rate(None, 0.4, 0.7), band)


def _ref(cells):
    own = [[0.0] * 13 for _ in range(13)]
    opp = [[0.0] * 13 for _ in range(13)]
    hes = [[0.0] * 13 for _ in range(13)]
    for (a, b), (o, p, h) in cells.items():
        own[a - 1][b - 1], opp[a - 1][b - 1], hes[a - 1][b - 1] = o, p, h
    return Published(about="", licence="", schell=SchellTable("", "", "", own, opp), hessel=HesselTable("", "", hes),
                     first_dealer=DealerBand([0.55, 0.56], "", ""))


def test_crib_validation_by_hand():
    # (pair): engine, Schell own, Schell opponent -> midpoint, off it
    table = {(6, 6): 7.0,        # 7.0, 6.0: 6.5, +0.5; between (at own's edge)
             (1, 1): 5.0,        # 5.5, 4.3: 4.9, +0.1; between
             (2, 3): 5.0,        # 4.0, 4.0: 4.0, +1.0: outside the tolerance, the worst
             (4, 4): 6.6,        # 6.0, 6.0: 6.0, +0.6: at the tolerance, within
             (5, 5): 8.6,        # 8.5, 7.9: 8.2, +0.4; not between
             (1, 13): 3.2,       # 4.0, 3.0: 3.5, -0.3; between
             (7, 7): 6.0,        # 7.0, 6.0: 6.5, -0.5; between (at the opponent's edge, the lower)
             (8, 8): 3.0004}     # 3.0, 3.0: to three places 3.0 and off 0.0; between
    ref = _ref({(6, 6): (7.0, 6.0, 6.1), (1, 1): (5.5, 4.3, 4.4), (2, 3): (4.0, 4.0, 4.2), (4, 4): (6.0, 6.0, 5.9),
                (5, 5): (8.5, 7.9, 8.0), (1, 13): (4.0, 3.0, 3.3), (7, 7): (7.0, 6.0, 6.2), (8, 8): (3.0, 3.0, 3.1)})
    v = plain(crib_validation(table, ref))
    assert (v["tolerance"], v["pairs"], v["within"], v["between_own_and_opponent"]) == (0.6, 8, 7, 5)
    assert [(x["pair"], x["engine"], x["schell_own"], x["schell_opponent"], x["hessel_opponent"], x["off_midpoint"])
            for x in v["rows"]] == [("A-A", 5.0, 5.5, 4.3, 4.4, 0.1), ("A-K", 3.2, 4.0, 3.0, 3.3, -0.3),
                                    ("2-3", 5.0, 4.0, 4.0, 4.2, 1.0), ("4-4", 6.6, 6.0, 6.0, 5.9, 0.6),
                                    ("5-5", 8.6, 8.5, 7.9, 8.0, 0.4), ("6-6", 7.0, 7.0, 6.0, 6.1, 0.5),
                                    ("7-7", 6.0, 7.0, 6.0, 6.2, -0.5), ("8-8", 3.0, 3.0, 3.0, 3.1, 0.0)]
    assert v["worst"]["pair"] == "2-3"
    # the worst by its size either way: -1.2 beats +1.0
    table[(7, 8)] = 2.8
    ref.schell.own[6][7], ref.schell.opponent[6][7] = 4.0, 4.0
    assert crib_validation(table, ref).worst.pair == "7-8"


def _report(loss, wins):
    """verdict's two figures: the discards' loss a deal, and the games won against ev (None: no such match)."""
    return Mean(**loss), (Rate(**wins) if wins else None)


def test_the_verdict_in_words():
    loss = {"n": 4, "mean": 0.5, "lo": 0.25, "hi": 0.75}
    wins = {"k": 1, "n": 2, "rate": 0.5, "lo": 0.0945, "hi": 0.9055}
    assert verdict(*_report(loss, wins)) == (
        "The computer throws away 0.50 points a deal (95 % CI 0.25-0.75) in its discards to an expected-value "
        "player, and wins 50 % of its games against it (95 % CI 9-91 %, 2 games).")
    many = {"k": 9, "n": 10, "rate": 0.9, "lo": 0.596, "hi": 0.95}          # per cent to the unit: 90, 60, 95
    assert verdict(*_report({"n": 30, "mean": 1.234, "lo": 1.005, "hi": 1.996}, many)) == (
        "The computer throws away 1.23 points a deal (95 % CI 1.00-2.00) in its discards to an expected-value "
        "player, and wins 90 % of its games against it (95 % CI 60-95 %, 10 games).")
    one = {"n": 1, "mean": 1.5, "lo": 0.0, "hi": None}
    assert "(one discard: no interval)" in verdict(*_report(one, wins))
    assert "(one discard: no interval)" in verdict(*_report({"n": 1, "mean": 1.5, "lo": None, "hi": 2.0}, wins))
    none = "not enough games for a verdict"
    assert verdict(*_report({"n": 0, "mean": None, "lo": None, "hi": None}, wins)) == none
    assert verdict(*_report(loss, None)) == none
    assert verdict(*_report(loss, {"k": 0, "n": 0, "rate": None, "lo": None, "hi": None})) == none


def test_the_first_dealer_check_in_full_and_at_its_edge():
    from harness.program.runs.strength import first_dealer_check
    band = [0.55, 0.56]
    # needed: 0.55 - 0.5 = 0.05; games: 1.96² 0.555 0.445 / 0.05² = 379.5 -> 380
    common = {"band": band, "half_width_needed": 0.05, "games_needed": 380}
    assert plain(first_dealer_check(None, band)) == common | {"estimate": None, "status": "too few games",
                                                              "half_width": None}
    at_edge = rate(0.55, 0.5, 0.6)                                       # half-width 0.05: not narrower than needed
    assert plain(first_dealer_check(at_edge, band)) == common | {"estimate": plain(at_edge), "status": "too few games",
                                                                 "half_width": 0.05}
    assert first_dealer_check(None, [0.55004, 0.56]).half_width_needed == 0.05        # to four places
    narrow = rate(0.55, 0.51003, 0.58)                                   # 0.03997 to four places: 0.04
    assert plain(first_dealer_check(narrow, band)) == common | {"estimate": plain(narrow), "status": "consistent at 95 %",
                                                                "half_width": 0.04}


def test_the_ladder_leaves_out_a_rung_without_games_not_the_ones_after_it():
    from harness.program.runs.strength import ladder
    from harness.program.runs.study import match_figures, wilson
    engine = {"random vs ev": _engine(0, wilson(0, 0)), "greedy vs ev": _engine(4, wilson(1, 4)),
              "ev vs ev": _engine(4, wilson(2, 4))}
    # no program match (no "ev" figures), no highest games, random with none: greedy and ev only
    assert [r.player for r in ladder({}, engine)] == ["greedy", "ev"]
    assert [r.player for r in ladder({"ev": match_figures([])}, engine)] == ["greedy", "ev"]


def _engine(games, player0_wins):
    """A pairing's self-play figures with the ladder's two (the rest empty)."""
    from harness.program.runs.strength import EngineFigures
    from harness.program.runs.study import mean_ci, wilson
    return EngineFigures(games=games, player0_wins=player0_wins, first_dealer_wins=wilson(0, 0),
                         points_per_deal=(mean_ci([]), mean_ci([])))


def _words_report(random_hi, ev_lo):
    from harness.program.runs.strength import LADDER
    words = dict(LADDER)
    from harness.program.runs.strength import Rung
    from harness.program.runs.study import match_figures
    rungs = [Rung("random", words["random"], rate(0.1, 0.05, random_hi), ""),
             Rung("program", words["program"], rate(0.3, 0.2, 0.4, n=10), ""),
             Rung("ev", words["ev"], rate(0.5, ev_lo, 0.6), "")]
    ev = dataclasses.replace(match_figures([]), completed=10, deals=80)      # the figures the words read
    return rungs, Mean(n=80, mean=0.5, lo=0.25, hi=0.75), ev


def test_intervals_that_touch_cannot_be_told_apart_and_ones_just_apart_can():
    from harness.program.runs.strength import plain_words
    tail = (" in these games: against the careful player it wins 30 % of its games (95 %: 20-40 %, 10 games), where two "
            "careful players win 50 % against each other. Its "
            "discards alone give away 0.50 points a deal against the best throw, about 4.0 points (95 %: 2.0-6.0) "
            "over a game of 8.0 deals, of the 121 it must peg.")
    assert plain_words(*_words_report(0.2, 0.4)) == (
        "The computer is neither measurably better nor measurably worse than a random player and a careful player "
        "(the exact expected value of every choice)" + tail)
    assert plain_words(*_words_report(0.1999, 0.4001)) == (
        "The computer plays measurably better than a random player and plays measurably worse than a careful "
        "player (the exact expected value of every choice)" + tail)
