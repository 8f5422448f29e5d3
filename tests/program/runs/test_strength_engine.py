"""The strength study's engine side, without the emulator: the exact expectations, the crib table against the
published ones, the first dealer's advantage, the planted weak strategy, and the study's measures of one game."""
import random
from itertools import combinations

import pytest

from harness.cribbage.cards import full_deck, parse_cards
from harness.cribbage.discard import crib_table, ev_best_discard, ev_discard_values, expected_crib, expected_hand
from harness.cribbage.pegging import best_peg, peg_values, play_points, reply_risk
from harness.cribbage.play import score_play
from harness.cribbage.rules import PRESETS
from harness.errors import InputError
from harness.cribbage.selfplay import ExpectedValue, play_game
from harness.cribbage.show import score_hand
from harness.program.runs import study
from harness.program.records.events import Deal, Discard, Play, Reset, Score, ScoreContext, Show, ShowHand, Starter, Who, Win
from harness.program.runs.published import published
from harness.program.runs.strength import CRIB_TOLERANCE, crib_validation


# ------------------------------------------------------------------------------------------ exact expectations
def _brute_hand(keep, seen):
    unseen = [c for c in full_deck() if c not in set(keep) | set(seen)]
    return sum(score_hand(keep, s).total for s in unseen) / len(unseen)


def _brute_crib(thrown, seen):
    unseen = [c for c in full_deck() if c not in set(thrown) | set(seen)]
    total = n = 0
    for x, y in combinations(unseen, 2):
        for s in unseen:
            if s not in (x, y):
                total += score_hand(list(thrown) + [x, y], s, crib=True).total
                n += 1
    return total / n


@pytest.mark.parametrize("keep, seen", [("5H 5C 5S JD", "JH 2C"),      # nobs, a pair royal
                                        ("2H 4H 6H JH", "9S KD"),      # a flush with its jack
                                        ("AC 2D 3S KH", "")])
def test_the_expected_hand_is_the_average_over_every_unseen_starter(keep, seen):
    assert expected_hand(keep, seen) == pytest.approx(_brute_hand(parse_cards(keep), parse_cards(seen)), abs=1e-9)


@pytest.mark.parametrize("thrown, seen", [("JH 5H", "2H 3H 9C KS"),    # same suit (a crib flush) and a jack
                                          ("5C 5D", "5S JD TC QH")])
def test_the_expected_crib_is_the_average_over_every_opponents_throw_and_starter(thrown, seen):
    got = expected_crib(thrown, seen)
    want = _brute_crib(parse_cards(thrown), parse_cards(seen))
    assert got == pytest.approx(want, abs=1e-9)
    assert abs(got - want - 0.01) > 1e-3           # the comparison is fine enough to see a hundredth


def test_the_ev_discard_adds_its_own_crib_and_subtracts_the_opponents():
    hand = parse_cards("5H 5C JD QS 2H 9C")
    mine, theirs = ev_discard_values(hand, True), ev_discard_values(hand, False)
    pair = (0, 1)                                       # 5-5 thrown
    keep = [c for k, c in enumerate(hand) if k not in pair]
    crib = expected_crib(hand[:2], keep)
    assert mine[pair] - theirs[pair] == pytest.approx(2 * crib)
    assert ev_best_discard(hand, False) != pair          # nobody gives the dealer two fives


# ------------------------------------------------------------------------------------------ the crib table
def test_the_engines_crib_table_agrees_with_schells_within_the_stated_tolerance():
    check = crib_validation(crib_table(), published())
    assert check.pairs == 91
    assert check.within == 91, check.worst
    assert check.between_own_and_opponent >= 85       # a random opponent lies between a defender and a feeder
    five_five = next(r for r in check.rows if r.pair == "5-5")
    assert 8.79 < five_five.engine < 9.37


def test_a_wrong_crib_table_is_caught_and_a_near_miss_is_not():
    table = crib_table()
    runs_forgotten = {k: (v - 1.2 if abs(k[0] - k[1]) in (1, 2) else v) for k, v in table.items()}
    assert crib_validation(runs_forgotten, published()).within < 91
    near = {k: v + 0.05 for k, v in table.items()}
    assert crib_validation(near, published()).within == 91
    assert CRIB_TOLERANCE == 0.6


def test_the_published_data_names_its_sources():
    ref = published()
    for table in (ref.schell, ref.hessel, ref.first_dealer):
        assert table.source and table.url.startswith("http")
    assert ref.schell.own[4][4] == 8.79 and ref.hessel.opponent[4][4] == 9.39
    assert ref.first_dealer.band == [0.55, 0.56]
    assert list(ref.references()) == ["schell", "hessel", "first_dealer"]


# ------------------------------------------------------------------------------------------ pegging
def test_the_ev_peg_takes_a_fifteen_and_leads_no_five():
    assert best_peg(parse_cards("5H 9C 2D KS"), parse_cards("TD"), [], 3) == parse_cards("5H")[0]
    lead = best_peg(parse_cards("5H 9C 2D 4S"), [], [], 4)
    assert lead != parse_cards("5H")[0]
    values = peg_values(parse_cards("5H 4S"), [], [], 4)
    assert values[parse_cards("5H")[0]] < values[parse_cards("4S")[0]]
    assert best_peg(parse_cards("KH QS"), parse_cards("TD TC 5S"), [], 2) is None      # a go


def test_play_points_by_ranks_are_score_plays_whatever_the_suits():
    """The pegging engine's cache scores a rank sequence once: the same total as score_play for every suit
    pattern of 3,000 random series under every preset, and a series one rank off scores as its own ranks."""
    rng = random.Random(23)
    checked = 0
    for _ in range(3000):
        deck = list(full_deck())
        rng.shuffle(deck)
        series, count = [], 0
        for c in deck:
            if count + c.value > 31 or len(series) == 8:
                break
            series.append(c)
            count += c.value
        ranks = tuple(c.rank for c in series)
        for rules in PRESETS.values():
            assert play_points(ranks, rules) == score_play(series, rules).total, (series, rules)
        checked += play_points(ranks) > 0
    assert checked > 500                                   # plenty of series that score
    assert play_points((5, 10)) == 2 and play_points((5, 9)) == 0       # a fifteen, and one pip short of it


def test_the_reply_risk_still_refuses_a_card_both_on_the_table_and_unseen():
    with pytest.raises(InputError, match="duplicate card"):
        reply_risk(parse_cards("5H 9C"), parse_cards("5H 2D KS"), 3)
    assert reply_risk(parse_cards("5H 9C"), parse_cards("2D KS 7C"), 3) >= 0      # the near miss: no card twice


# ------------------------------------------------------------------------------------------ self-play
def test_self_play_reaches_121_and_counts_every_point():
    r = play_game((ExpectedValue(1), ExpectedValue(2)), seed=3, first_dealer=0)
    assert max(r.scores) >= 121 and r.scores[r.winner] == max(r.scores)
    assert [sum(p.values()) for p in r.points] == list(r.scores)


# ------------------------------------------------------------------------------------------ the study of one game
def test_wilson_and_the_t_interval():
    w = study.wilson(50, 100)
    assert (w.lo, w.hi) == (0.4038, 0.5962)
    assert study.wilson(0, 1).hi == 0.7935
    m = study.mean_ci([1, 2, 3, 4])
    assert m.mean == 2.5 and m.lo == pytest.approx(2.5 - 3.182446 * 1.290994 / 2, abs=1e-4)   # t(0.975, 3)


def _game(computer_throw=("5D", "5S"), computer_card="TC"):
    deal = Deal(n=1, dealer=Who.COMPUTER, computer=("5D", "5S", "5C", "JD", "TC", "2H"),
                player=("AH", "3C", "9D", "9S", "KH", "QC"))
    return [deal,
            Discard(who=Who.COMPUTER, cards=computer_throw), Discard(who=Who.PLAYER, cards=("KH", "QC")),
            Starter(card="7C"),
            Play(who=Who.PLAYER, card="AH", count=1),
            Play(who=Who.COMPUTER, card=computer_card, count=1),
            Play(who=Who.PLAYER, card="3C", count=14 if computer_card == "TC" else 7),
            Reset(count=14),
            Score(who=Who.COMPUTER, points=2, context=ScoreContext.PLAY, before=0),
            Show(hand=ShowHand.CRIB, fifteens=4, pairs=2, runs=0, flush=0, nobs=0, ranks=(5, 5, 12, 13, 7),
                 suits=(1, 2, 3, 4, 1)),
            Score(who=Who.COMPUTER, points=6, context=ScoreContext.SHOW, before=2),
            Win(who=Who.COMPUTER, computer=121, player=50)]


def test_the_study_measures_a_discard_a_card_and_the_points():
    g = study.analyse_game(_game())
    d = g.deals[0]
    assert d.discards["computer"].my_crib and d.discards["computer"].pair == "5-5"
    assert d.points["computer"] == {"hand": 0, "crib": 6, "pegging": 2} and d.crib == 6
    ten = d.plays[1]
    assert ten.who == "computer" and ten.points == 0 and ten.after == 11
    assert g.winner == "computer" and g.first_dealer == "computer" and g.game_points == 4


def test_a_worse_discard_and_a_missed_point_are_measured_and_a_best_choice_is_not():
    hand = parse_cards("5D 5S 5C JD TC 2H")
    values = ev_discard_values(hand, True)
    best = max(values.values())
    i, j = ev_best_discard(hand, True)
    assert values[(i, j)] == best and not {i, j} & {0, 1, 2}       # the three fives are kept
    good = study.analyse_game(_game(computer_throw=(str(hand[i]), str(hand[j])), computer_card="5C")).deals[0]
    assert good.discards["computer"].loss == 0
    bad = study.analyse_game(_game()).deals[0]          # the two fives laid away
    assert bad.discards["computer"].loss == pytest.approx(best - values[(0, 1)], abs=1e-6)
    assert bad.discards["computer"].loss > 5
    five = good.plays[1]
    assert five.points == 0 and five.best == 0 and five.after == 6    # at count 1 nothing scores now
    reply = study.play_choice(parse_cards("5C JD"), list(parse_cards("AH 9D")), parse_cards("JD")[0], "computer")
    assert reply.points == 0 and reply.best == 2        # the 5 made 15: two points missed


def test_a_card_the_player_does_not_hold_is_an_error():
    events = _game()
    events[5] = Play(who=Who.COMPUTER, card="KS", count=1)
    with pytest.raises(study.StudyError, match="KS"):
        study.analyse_game(events)
