"""The discard (harness.cribbage.discard): one measure for the greedy player and the discard sweep."""
from __future__ import annotations

import pytest

from harness.errors import InputError
from harness.cribbage import best_discard, discard_values, parse_cards
from harness.cribbage.discard import thrown_value
from harness.program.observe.players import GreedyPlayer


@pytest.mark.parametrize("pair,points", [
    ("5H 5C", 2),          # a pair (5+5 is 10, no fifteen)
    ("7H 8C", 2),          # a fifteen
    ("5H KC", 2),          # a fifteen with a face card
    ("AH 2C", 0),
    ("KH KC", 2),          # a pair of kings, 20
    ("9H 6C", 2),
    ("9H 7C", 0),          # 16: a near miss
])
def test_thrown_value_counts_a_pair_and_a_fifteen(pair, points):
    a, b = parse_cards(pair)
    assert thrown_value(a, b) == points


def test_three_fives_and_a_jack_are_kept():
    # 5 5 5 J holds 14 before the starter (fifteens 8, pair royal 6): the king and the deuce go,
    # whoever's crib it is
    hand = "5H 5C 5D JS KC 2D"
    assert best_discard(hand, my_crib=True) == (4, 5)
    assert best_discard(hand, my_crib=False) == (4, 5)


def test_whose_crib_it_is_moves_the_thrown_cards_value_both_ways():
    hand = "5H 5C 9D TS KC 2D"
    mine, theirs = discard_values(hand, True), discard_values(hand, False)
    assert len(mine) == 15 and list(mine) == sorted(mine)
    cards = parse_cards(hand)
    for (i, j), value in mine.items():
        assert value - theirs[(i, j)] == pytest.approx(2 * thrown_value(cards[i], cards[j]))


def test_the_greedy_player_discards_what_the_engine_finds_best():
    hand = list(parse_cards("5H 5C 5D JS KC 2D"))
    assert GreedyPlayer(seed=1).discard(hand, my_crib=False) == (5, 6)      # 1-based positions


@pytest.mark.parametrize("hand", ["5H 5C 5D JS KC", "5H 5C 5D JS KC 5H", "5H 5C 5D JS KC 2D 3D"])
def test_anything_but_six_different_cards_is_refused(hand):
    with pytest.raises(InputError, match="6 different cards"):
        best_discard(hand, my_crib=True)


# ------------------------------------------------------------------ the kept hand summed over the starters
def _by_every_starter(keep, seen):
    """The definition: score_hand of the kept four with each unseen starter, added up."""
    from harness.cribbage import score_hand
    from harness.cribbage.cards import full_deck
    known = set(keep) | set(seen)
    return sum(score_hand(list(keep), s).total for s in full_deck() if s not in known)


HANDS = ["5H 5C 5S JD 4D 9C",          # three fives and the jack of the fives' suits: nobs, fifteens, a pair royal
         "2H 4H 6H 8H KS QS",          # a four-card flush kept
         "JC JD JH JS 5C 5D",          # four jacks: nobs with every suit
         "AC 2C 3C 4D 5H 6S",          # runs
         "KC QD JH 10S 9C 8D"]


@pytest.mark.parametrize("text", HANDS)
def test_the_kept_hand_over_the_starters_is_the_sum_of_every_show(text):
    from itertools import combinations
    from harness.cribbage.discard import hand_points_over_starters
    cards = parse_cards(text)
    for i, j in combinations(range(6), 2):
        keep = [c for k, c in enumerate(cards) if k not in (i, j)]
        assert hand_points_over_starters(keep, (cards[i], cards[j])) == _by_every_starter(keep, (cards[i], cards[j]))


def test_the_kept_hand_over_the_starters_on_random_deals_and_the_discard_values_unchanged():
    """Exact on 40 random deals, so discard_values is the same float as the sum of the 46 shows divided
    (a near miss: a starter left out or counted twice changes the integer)."""
    import random
    from harness.cribbage.cards import Card
    from harness.cribbage.discard import hand_points_over_starters
    rng = random.Random(37)
    for _ in range(40):
        cards = [Card(x) for x in rng.sample(range(52), 6)]
        values = discard_values(cards, my_crib=rng.random() < 0.5)
        for (i, j), value in values.items():
            keep = [c for k, c in enumerate(cards) if k not in (i, j)]
            brute = _by_every_starter(keep, (cards[i], cards[j]))
            assert hand_points_over_starters(keep, (cards[i], cards[j])) == brute
            thrown = thrown_value(cards[i], cards[j])
            assert value in (brute / 46 + thrown, brute / 46 - thrown)
    keep = parse_cards("5H 5C 5S JD")
    assert hand_points_over_starters(keep, parse_cards("4D 9C")) != hand_points_over_starters(keep, parse_cards("4D"))
