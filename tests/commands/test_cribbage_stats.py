"""`stats hands`: the symmetric count against brute force and published figures."""

import json
from collections import Counter
from itertools import combinations
from math import comb

import pytest

from harness.errors import UsageError
from harness.cribbage import score_hand
from harness.cribbage.cards import make
from harness.commands.stats import main
from harness.cribbage.stats import distribution, exact_show_counts, hands_report

# Steven S. Lumetta, "Amusing Cribbage Facts"
# (http://lumetta.web.engr.illinois.edu/humor/cribbage.html), "the number of
# hands with that score (out of 12,994,800)" -- a hand, not a crib:
PUBLISHED_HAND = {
    0: 1009008, 1: 99792, 2: 2813796, 3: 505008, 4: 2855676, 5: 697508, 6: 1800268,
    7: 751324, 8: 1137236, 9: 361224, 10: 388740, 11: 51680, 12: 317340, 13: 19656,
    14: 90100, 15: 9168, 16: 58248, 17: 11196, 18: 2708, 19: 0, 20: 8068, 21: 2496,
    22: 444, 23: 356, 24: 3680, 25: 0, 26: 0, 27: 0, 28: 76, 29: 4,
}


@pytest.fixture(scope="module")
def full():
    return distribution()


def test_total_is_c52_4_times_48(full):
    hand, crib = full
    assert sum(hand) == sum(crib) == comb(52, 4) * 48 == 12_994_800


def test_published_hand_distribution(full):
    hand, _ = full
    # the brief's figures: 0 occurs 1,009,008 times, 29 four times, 28 76 times
    assert hand[0] == 1_009_008 and hand[29] == 4 and hand[28] == 76
    assert {i: n for i, n in enumerate(hand)} == PUBLISHED_HAND


def test_stored_counts_are_what_distribution_computes(full):
    # the report plots the stored table: it must be the computed one, row for row
    assert exact_show_counts() == full
    hand, crib = exact_show_counts()
    assert {i: n for i, n in enumerate(hand)} == PUBLISHED_HAND and crib[0] == 1_022_208


def test_published_mean_and_impossible_scores(full):
    hand, crib = full
    mean = sum(i * n for i, n in enumerate(hand)) / sum(hand)
    assert mean == pytest.approx(4.77, abs=0.005)       # "about 4.77"
    # "All scores between 0 and 29 are possible, with the exception of 19, 25,
    # 26 and 27."
    for table in (hand, crib):
        assert [i for i, n in enumerate(table) if n == 0] == [19, 25, 26, 27]


def test_published_crib_zero(full):
    # Wikipedia, "Cribbage statistics": "1,009,008 (approximately 7.8%) of these
    # score zero points, or 1,022,208 if the hand is the crib, as the starter
    # must be the same suit as the crib's four cards for a flush."
    _, crib = full
    assert crib[0] == 1_022_208


def _brute(ranks):
    deck = [make(r, s) for r in ranks for s in range(4)]
    hand, crib = Counter(), Counter()
    for four in combinations(deck, 4):
        for starter in deck:
            if starter in four:
                continue
            hand[score_hand(four, starter).total] += 1
            crib[score_hand(four, starter, crib=True).total] += 1
    return ([hand[i] for i in range(30)], [crib[i] for i in range(30)])


@pytest.mark.parametrize("ranks", [(4, 5, 6, 11), (1, 2, 3, 13), (5, 7, 8, 11)])
def test_symmetric_count_equals_brute_force_on_small_decks(ranks):
    # fifteens, runs, pairs up to four of a kind, flushes, nobs, jack starters
    assert distribution(ranks) == _brute(ranks)


def test_main_json_and_errors(capsys):
    assert main(["hands", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"hand", "crib", "seconds"}
    assert list(out["hand"]) == [str(i) for i in range(30)]
    assert list(out["crib"]) == [str(i) for i in range(30)]
    assert out["hand"]["19"] == 0 and out["hand"]["29"] == 4
    assert isinstance(out["seconds"], float)
    assert main(["hands"]) == 0
    assert "mean" in capsys.readouterr().out
    for bad, said in (([], "required: what"), (["hand"], "invalid choice: 'hand'"),
                      (["hands", "--xml"], "unrecognized arguments: --xml")):
        with pytest.raises(UsageError, match=said):        # a bad command line, not a bad file
            main(bad)


def test_report_keys():
    r = hands_report()
    assert sum(r["hand"].values()) == 12_994_800
