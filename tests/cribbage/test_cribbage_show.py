"""The show: every worked example of the article and the Cadenza manual.

Expected values are the documents' own numbers (quoted), not this code's.
"""

import random

import pytest

from harness.cribbage import parse_cards, score_cards, score_hand
from harness.cribbage.cards import Card, make


# --- the article: the K-Q-Q-J family ------------------------------------------

def test_article_kqqj_is_8():
    # «КОРОЛЬ, ДАМА, ВАЛЕТ - 3 очка / КОРОЛЬ, ДАМА, ВАЛЕТ - 3 очка /
    #  ДАМА, ДАМА - 2 очка / Итого: 8 очков»
    s = score_cards("KS QH QD JC")
    assert s.total == 8
    assert s.runs == 6 and len([c for c in s.combinations if c.kind == "run"]) == 2
    assert s.pairs == 2


def test_article_kqqj_10_is_10():
    # «КОРОЛЬ, ДАМА, ВАЛЕТ, 10-4 очка (twice) / ДАМА, ДАМА - 2 очка / Итого: 10»
    s = score_hand("KS QH QD JC", "TH")
    assert s.total == 10
    assert s.runs == 8 and [c.points for c in s.combinations if c.kind == "run"] == [4, 4]
    assert s.pairs == 2


def test_article_kqqqj_is_15():
    # «КОРОЛЬ, ДАМА, ВАЛЕТ - 3 очка (three times) / ДАМА, ДАМА, ДАМА - 6 ОЧКОВ /
    #  Итого: 15 очков»
    s = score_hand("KS QH QD QC", "JH")
    assert s.total == 15
    assert s.runs == 9 and s.pairs == 6
    assert [c.kind for c in s.combinations if c.points == 6] == ["pair royal"]


def test_article_kqqjj_is_16():
    # «КОРОЛЬ, ДАМА, ВАЛЕТ - 3 очка (four times) / ДАМА, ДАМА - 2 / ВАЛЕТ,
    #  ВАЛЕТ - 2 / Итого: 16 очков»  (jack of the starter's suit not in hand)
    s = score_hand("KS QH QD JC", "JD")
    assert s.total == 16
    assert s.runs == 12 and s.pairs == 4 and s.nobs == 0


# --- the article's example deal -----------------------------------------------

def test_article_example_deal_opponent_hand_is_8():
    # «ПРОТИВНИК / "пятнадцать" В,5 - 2 очка / "пятнадцать" 8,7 - 2 очка /
    #  "секанс" 8,7,6,5 - 4 очка / Итого: 8 очков»; starter «пиковая шестерка»
    s = score_hand("JD 8H 7C 5H", "6S")
    assert s.total == 8
    fifteens = sorted(sorted(c.rank for c in combo.cards)
                      for combo in s.combinations if combo.kind == "fifteen")
    assert fifteens == [[5, 11], [7, 8]]
    assert s.runs == 4


def test_article_example_deal_dealer_hand_is_16():
    # The article only says «У сдатчика уже есть двойной "секанс" 9-9-8-7» and
    # prints no total; counted by hand with the article's rules and starter 6S:
    # fifteens 9+6, 9+6, 8+7 = 6; double run 9-8-7-6 = 8; pair 9-9 = 2; 16.
    s = score_hand("9D 9C 8D 7S", "6S")
    assert (s.fifteens, s.runs, s.pairs, s.total) == (6, 8, 2, 16)


def test_article_example_deal_crib_is_empty():
    # «Сдатчик открывает криб, но там, к сожалению, нет ни одного очка.»
    # crib = opponent's «10-3» + dealer's «К-Т»
    assert score_hand("TS 3C KS AH", "6S", crib=True).total == 0


# --- the Cadenza manual -------------------------------------------------------

def test_cadenza_a783_starter_7_fifteens():
    # "The player in the above example has 2 fifteens: 1: 7&8 both from
    #  player's hand 2: 8 from player's hand and 7 (starter) ... For the two
    #  fifteens, the player scores 4."
    # The manual's example is short by one: A+7+7 = 1+7+7 = 15 is a third
    # combination, and its own rule says "Each combination of 15 scores 2
    # points".  Both listed fifteens must be found, plus A-7-7: 3 x 2 = 6.
    s = score_hand("AH 7C 8D 3S", "7H")
    combos = {tuple(sorted(str(c) for c in combo.cards))
              for combo in s.combinations if combo.kind == "fifteen"}
    assert ("7C", "8D") in combos          # "7&8 both from player's hand"
    assert ("7H", "8D") in combos          # "8 from player's hand and 7 (starter)"
    assert ("7C", "7H", "AH") in combos    # omitted by the manual
    assert s.fifteens == 6


def test_cadenza_4555_starter_3_three_of_a_kind():
    # "the player receives 6 for the 3 of a kind ... The player does not have
    #  any pairs (the 3 of a kind cannot be split to form pairs)."
    s = score_hand("4H 5C 5D 5S", "3H")
    assert s.pairs == 6
    assert [c.kind for c in s.combinations if c.kind.startswith(("pair", "double"))] == ["pair royal"]


def test_cadenza_a237_starter_2_two_runs():
    # "the player has two 3-runs: 1: A23 (all cards from player's hand)
    #  2: A23 (using the starter) The player then receives 6"
    s = score_hand("AH 2C 3D 7S", "2H")
    assert s.runs == 6
    runs = [c for c in s.combinations if c.kind == "run"]
    assert len(runs) == 2 and all(sorted(x.rank for x in r.cards) == [1, 2, 3] for r in runs)


def test_cadenza_and_article_flush_rules():
    # Cadenza: "If the player has 4 cards of the same suit in his/her hand ...
    # receives 4. If the starter is also of the same suit ... 5. If the crib and
    # starter are all of the same suit, the player receives 5."  Article: «За 4
    # карты одной масти в крибе не дается ничего».
    assert score_hand("2H 4H 6H 8H", "KC").flush == 4
    assert score_hand("2H 4H 6H 8H", "KH").flush == 5
    assert score_hand("2H 4H 6H 8H", "KC", crib=True).flush == 0
    assert score_hand("2H 4H 6H 8H", "KH", crib=True).flush == 5
    assert score_hand("2H 4H 6H 8C", "KH").flush == 0


def test_his_nobs():
    # "If a player has a jack with the same suit as the starter, the player
    # scores 1 for 'his nobs'."  A jack turned as starter is not nobs.
    assert score_hand("JH 2C 4D 6S", "9H").nobs == 1
    assert score_hand("JH 2C 4D 6S", "9C").nobs == 0
    assert score_hand("2C 4D 6S 9H", "JH").nobs == 0


def test_the_29_hand():
    # Wikipedia "Cribbage statistics": "The highest score for one hand is 29:
    # 555J in hand with the starter 5 of the same suit as the Jack (8 points for
    # four J-5 combinations, 8 points for four 5-5-5 combinations, 12 points for
    # pairs of 5s and one for his nob)."
    s = score_hand("5H 5C 5S JD", "5D")
    assert (s.fifteens, s.pairs, s.nobs, s.total) == (16, 12, 1, 29)
    # "The second highest score is 28 (... any ten-point card plus all four 5s)"
    assert score_hand("5H 5C 5S 5D", "JD").total == 28


def test_accepts_ints_objects_and_text():
    a = score_hand("5H 5C 5S JD", "5D").total
    b = score_hand([int(c) for c in parse_cards("5H 5C 5S JD")], int(parse_cards("5D")[0])).total
    c = score_hand(list(parse_cards("5H 5C 5S JD")), parse_cards("5D")[0]).total
    assert a == b == c


def test_bad_hands_are_rejected():
    with pytest.raises(ValueError):
        score_hand("5H 5C 5S", "5D")
    with pytest.raises(ValueError):
        score_hand("5H 5C 5S 5D", "5D")


# --- properties over many random hands ------------------------------------------

def _random_hands(n, seed):
    rng = random.Random(seed)
    for _ in range(n):
        five = rng.sample(range(52), 5)
        yield [Card(c) for c in five[:4]], Card(five[4]), rng.random() < 0.5


def test_total_is_the_sum_of_the_parts():
    for hand, starter, crib in _random_hands(3000, 1):
        s = score_hand(hand, starter, crib=crib)
        assert s.total == s.fifteens + s.pairs + s.runs + s.flush + s.nobs
        assert s.total == sum(c.points for c in s.combinations)
        assert 0 <= s.total <= 29 and s.total not in (19, 25, 26, 27)


def test_permuting_suits_keeps_the_score():
    rng = random.Random(2)
    for hand, starter, crib in _random_hands(2000, 3):
        perm = list(range(4))
        rng.shuffle(perm)
        moved = [make(c.rank, perm[c.suit]) for c in hand]
        s0 = score_hand(hand, starter, crib=crib)
        s1 = score_hand(moved, make(starter.rank, perm[starter.suit]), crib=crib)
        assert s0.subtotals() == s1.subtotals()


def test_re_suiting_changes_only_flush_and_nobs():
    rng = random.Random(4)
    for hand, starter, crib in _random_hands(2000, 5):
        ranks = [c.rank for c in hand] + [starter.rank]
        # new distinct cards with the same ranks and random suits
        while True:
            new = [make(r, rng.randrange(4)) for r in ranks]
            if len(set(new)) == 5:
                break
        s0 = score_hand(hand, starter, crib=crib)
        s1 = score_hand(new[:4], new[4], crib=crib)
        assert (s0.fifteens, s0.pairs, s0.runs) == (s1.fifteens, s1.pairs, s1.runs)
        assert s0.total - s0.flush - s0.nobs == s1.total - s1.flush - s1.nobs
