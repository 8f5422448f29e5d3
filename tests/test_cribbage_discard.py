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


# ------------------------------------------------------------------------- the kept cards' sum, by ranks and suits
def _by_hand(keep, starters):
    """The oracle: score_hand, hand by hand, as discard_values counted before kept_total."""
    from harness.cribbage import score_hand
    return sum(score_hand(keep, s).total for s in starters)


@pytest.mark.parametrize("keep", ["5H 5C 5D JS",          # fifteens and pairs, nobs in spades
                                  "2H 7H 9H JH",          # a hand's flush and its jack: flush and nobs together
                                  "3C 4C 5C 6D",          # a near miss of a flush: three of four
                                  "AS 2S 3S 4S", "TD JD QD KD", "5S 5H 5D 5C"])
def test_the_kept_cards_sum_is_score_hands_over_every_starter(keep):
    from harness.cribbage.cards import full_deck
    from harness.cribbage.discard import kept_total
    kept = list(parse_cards(keep))
    unseen = [c for c in full_deck() if c not in kept]
    assert kept_total(kept, unseen) == _by_hand(kept, unseen)
    fewer = unseen[:-13]                                 # the last 13 gone: the counts per rank and suit move
    assert kept_total(kept, fewer) == _by_hand(kept, fewer)


def test_the_kept_cards_sum_agrees_on_random_hands():
    import random
    from itertools import combinations
    from harness.cribbage.cards import full_deck
    from harness.cribbage.discard import kept_total
    rng = random.Random(37)
    deck = full_deck()
    for _ in range(12):
        hand = rng.sample(deck, 6)
        unseen = [c for c in deck if c not in hand]
        for i, j in combinations(range(6), 2):
            keep = [c for k, c in enumerate(hand) if k not in (i, j)]
            assert kept_total(keep, unseen) == _by_hand(keep, unseen), (hand, keep)
