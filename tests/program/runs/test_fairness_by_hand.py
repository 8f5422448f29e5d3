"""The fairness checks by hand (issue 36, item 2): samples, the split into games, the chi-square and its flag
on cases small enough to work out in the comments (the expected values are literals, never fairness.py's).

Chi-square with an even number of degrees of freedom 2k has the survival function
exp(-x/2) * sum_{i<k} (x/2)^i / i!: at 2 degrees exp(-x/2); at 12, exp(-x/2) (1 + x/2 + ... + (x/2)^5/5!).
"""
import math
from collections import Counter

import pytest

from harness.program.runs import fairness
from harness.program.records.events import Cut, Deal, Starter, Who

SIX_A = ("AH", "2H", "3H", "4H", "5H", "6H")
SIX_B = ("AS", "2S", "3S", "4S", "5S", "6S")


def test_a_game_adds_its_cut_its_deals_and_its_starters():
    s = fairness.Samples()
    s.add_game([Cut(3, 9), Deal(1, Who.PLAYER, SIX_A, SIX_B), Starter("7C"), Deal(2, Who.COMPUTER, SIX_B, SIX_A),
                Starter("7C")])
    assert (s.games, s.deals) == (1, 2)
    assert s.cuts == Counter({3: 1})                          # the player's rank, not the computer's 9
    assert s.dealt == Counter({c: 2 for c in SIX_A + SIX_B})  # both hands of both deals
    assert s.starters == Counter({"7C": 2})
    s.add_game([Cut(9, 3)])
    assert (s.games, s.deals) == (2, 2) and s.cuts == Counter({3: 1, 9: 1})


def test_games_begin_at_each_cut_and_what_comes_before_the_first_is_no_game():
    before = Deal(1, Who.PLAYER, SIX_A, SIX_B)
    events = [before, Starter("KD"), Cut(1, 2), Starter("7C"), Cut(4, 5), Deal(1, Who.PLAYER, SIX_A, SIX_B)]
    assert fairness.games_of(events) == [[Cut(1, 2), Starter("7C")], [Cut(4, 5), events[-1]]]
    assert fairness.games_of([]) == [] and fairness.games_of([before]) == []
    # the first game of each machine, and the rest
    groups = fairness.collect([events, [Cut(7, 8)], [Starter("2C")]])
    assert groups["first games"].cuts == Counter({1: 1, 7: 1}) and groups["first games"].games == 2
    assert groups["later games"].cuts == Counter({4: 1}) and groups["later games"].games == 1
    assert groups["later games"].deals == 1 and groups["first games"].deals == 0
    assert groups["first games"].starters == Counter({"7C": 1}) and not groups["later games"].starters


def test_chi_square_by_hand():
    # 3, 0, 0 over three: expected 1 each; (2² + 1 + 1) / 1 = 6; 2 degrees: p = exp(-3) = 0.049787
    r = fairness.chi_square(Counter({1: 3}), (1, 2, 3))
    assert r == fairness.ChiSquare(n=3, chi2=6.0, dof=2, p=pytest.approx(math.exp(-3), rel=1e-12), expected_each=1.0,
                                   observed={"1": 3, "2": 0, "3": 0})
    assert r.p == pytest.approx(0.0497870684, rel=1e-9)
    # 1, 2, 3: expected 2; (1 + 0 + 1) / 2 = 1; p = exp(-0.5) = 0.606531
    r = fairness.chi_square(Counter({1: 1, 2: 2, 3: 3}), (1, 2, 3))
    assert (r.chi2, r.expected_each) == (1.0, 2.0) and r.p == pytest.approx(0.6065306597, rel=1e-9)
    # 1, 1, 5: chi2 = (K / n) sum o² - n = (3/7) 27 - 7 = 32/7 = 4.571 (three places), expected 7/3 = 2.333
    r = fairness.chi_square(Counter({1: 1, 2: 1, 3: 5}), (1, 2, 3))
    assert (r.chi2, r.expected_each) == (4.571, 2.333) and r.p == pytest.approx(math.exp(-16 / 7), rel=1e-9)
    # even counts: no departure at all
    r = fairness.chi_square(Counter({"a": 2, "b": 2}), ("a", "b"))
    assert (r.n, r.chi2, r.dof, r.p, r.expected_each) == (4, 0.0, 1, 1.0, 2.0)
    # a category not among those tested is not counted
    assert fairness.chi_square(Counter({1: 3, 4: 9}), (1, 2, 3)).n == 3
    # nothing seen: no statistic
    assert fairness.chi_square(Counter(), (1, 2, 3)) == fairness.ChiSquare(n=0, chi2=None, dof=2, p=None,
                                                                           observed={"1": 0, "2": 0, "3": 0})
    assert "expected_each" not in fairness.chi_square(Counter(), (1, 2, 3)).as_json()     # fairness.json's object


def test_analyse_one_game_by_hand_and_the_flag_at_alpha():
    """One game: its single cut over 13 ranks gives chi2 = 12 (n = 1: (12/13)² + 12 (1/13)², times 13), 12 degrees:
    p = exp(-6) (1 + 6 + 18 + 36 + 54 + 64.8) = 179.8 exp(-6) = 0.445680. Its deal: 12 different cards of 52,
    expected 12/52 = 0.231 each: (12 (10/13)² + 40 (3/13)²) / (3/13) = 40."""
    game = [Cut(5, 6), Deal(1, Who.PLAYER, SIX_A, SIX_B)]
    r = fairness.analyse([game], alpha=0.5)
    assert r.alpha == 0.5 and r.machines == 1
    first = r.groups["first games"]
    assert (first.games, first.deals) == (1, 1)
    cut = first.tests["cut for deal (player's rank)"]
    assert (cut.n, cut.chi2, cut.dof) == (1, 12.0, 12)
    assert cut.p == pytest.approx(179.8 * math.exp(-6), rel=1e-9) and cut.flagged is True
    dealt = first.tests["dealt cards"]
    assert (dealt.n, dealt.chi2, dealt.dof, dealt.expected_each) == (12, 40.0, 51, 0.231)
    starter = first.tests["starter"]
    assert (starter.n, starter.p, starter.flagged) == (0, None, False)   # no starter: nothing to flag
    later = r.groups["later games"]
    assert (later.games, later.deals) == (0, 0)
    assert all(t.flagged is False for t in later.tests.values())
    # the near miss: alpha just under p does not flag, just over it does
    p = cut.p
    assert fairness.analyse([game], alpha=p).groups["first games"].tests["cut for deal (player's rank)"].flagged is False
    assert fairness.analyse([game], alpha=p * 1.000001).groups["first games"].tests[
        "cut for deal (player's rank)"].flagged is True
    assert fairness.analyse([game]).alpha == 0.001


def test_a_flag_is_classified_and_names_the_ranks_never_seen_in_order():
    game = [Cut(5, 6), Deal(1, Who.PLAYER, SIX_A, SIX_B)]
    r = fairness.analyse([game], alpha=0.5)
    fairness.classify_flags(r)
    cut = r.groups["first games"].tests["cut for deal (player's rank)"]
    assert cut.classified                          # flagged: classified (a single 5 is not D10's pattern)
    assert not r.groups["first games"].tests["starter"].classified
    assert not r.groups["later games"].tests["dealt cards"].classified


def _cuts(ranks):
    return [[Cut(r, 13), Deal(1, Who.PLAYER, SIX_A, SIX_B)] for r in ranks]


def test_a_first_cut_never_showing_an_ace_two_or_three_is_d10_and_one_missing_a_ten_too_is_not():
    """Ten first games cutting 4..K once each: n = 10, e = 10/13, (10 (3/13)² + 3 (10/13)²) 13/10 = 3.0;
    flagged only at an alpha above its p (12 degrees: exp(-1.5) (1 + 1.5 + 1.125 + 0.5625 + 0.2109 + 0.0633))."""
    r = fairness.analyse(_cuts(range(4, 14)), alpha=0.999)
    cut = r.groups["first games"].tests["cut for deal (player's rank)"]
    assert cut.chi2 == 3.0 and cut.p == pytest.approx(math.exp(-1.5) * (1 + 1.5 + 1.125 + 0.5625 + 0.2109375
                                                                           + 0.06328125), rel=1e-9)
    fairness.classify_flags(r)
    assert cut.flagged and cut.deviation == "D10"
    near = fairness.analyse(_cuts([4, 5, 6, 7, 8, 9, 11, 12, 13, 4]), alpha=0.999)   # no ten either
    fairness.classify_flags(near)
    assert near.groups["first games"].tests["cut for deal (player's rank)"].deviation is None
    later = fairness.analyse([[Cut(1, 13)] + g for g in _cuts(range(4, 14))], alpha=0.999)   # the same, later games
    fairness.classify_flags(later)
    assert later.groups["later games"].tests["cut for deal (player's rank)"].deviation is None


def test_a_flag_after_one_not_flagged_is_still_classified():
    """One machine, thirteen games cutting each rank once: the twelve later ones cut 2..K (chi2 = (K/n) sum o² - n
    = 13/12 12 - 12 = 1, p near 1, not flagged), every starter the AH (flagged): the starter, after the cut and
    the deal in the group, is classified all the same."""
    games = [[Cut(r, 1), Deal(1, Who.PLAYER, SIX_A, SIX_B), Starter("AH")] for r in range(1, 14)]
    r = fairness.analyse([[e for g in games for e in g]], alpha=0.01)
    fairness.classify_flags(r)
    tests = r.groups["later games"].tests
    assert tests["cut for deal (player's rank)"].chi2 == 1.0 and not tests["cut for deal (player's rank)"].flagged
    assert tests["starter"].flagged and tests["starter"].classified and tests["starter"].deviation is None
    assert not tests["cut for deal (player's rank)"].classified
