"""cribbage-zx fairness: the chi-square flags a biased distribution and passes a fair one, games split
into first and later games at each cut for deal, a flag is named D10 only for the first games' cut
that never shows A, 2, 3, and the quick cut sampler really reaches the program's cut."""
import random
from collections import Counter

import pytest

from harness.errors import InputError
from harness.cribbage.cards import full_deck
from harness.program.runs import fairness
from harness.program.records.events import Cut, Deal, Starter, Who

CARDS = [str(c) for c in full_deck()]


def machine(rng, cut_ranks, deals=3):
    """One machine's events: a game per cut rank, each with *deals* fair deals."""
    events = []
    for rank in cut_ranks:
        events.append(Cut(player_rank=rank, computer_rank=rank % 13 + 1))
        for n in range(deals):
            cards = rng.sample(CARDS, 13)
            events.append(Deal(n=n + 1, dealer=Who.PLAYER, computer=tuple(cards[:6]), player=tuple(cards[6:12])))
            events.append(Starter(card=cards[12]))
    return events


def test_games_are_split_at_each_cut_and_grouped_first_and_later():
    rng = random.Random(1)
    groups = fairness.collect([machine(rng, [4, 5, 6]), machine(rng, [7])])
    assert (groups["first games"].games, groups["later games"].games) == (2, 2)
    assert groups["first games"].cuts == Counter({4: 1, 7: 1})
    assert groups["later games"].deals == 6 and sum(groups["later games"].dealt.values()) == 72


def test_fair_draws_pass_and_a_cut_without_low_ranks_is_flagged_as_d10():
    rng = random.Random(2)
    fair = [machine(rng, [rng.randint(1, 13), rng.randint(1, 13)]) for _ in range(400)]
    result = fairness.analyse(fair, alpha=0.001)
    fairness.classify_flags(result)
    assert not any(t.flagged for g in result.groups.values() for t in g.tests.values())
    low_free = [machine(rng, [rng.randint(4, 13), rng.randint(1, 13)]) for _ in range(400)]
    result = fairness.analyse(low_free, alpha=0.001)
    fairness.classify_flags(result)
    first = result.groups["first games"].tests["cut for deal (player's rank)"]
    later = result.groups["later games"].tests["cut for deal (player's rank)"]
    assert first.flagged and first.p < 1e-10 and first.deviation == "D10"
    assert first.observed["1"] == first.observed["2"] == first.observed["3"] == 0
    assert not later.flagged


def test_near_miss_the_same_bias_in_later_games_or_other_ranks_is_unexplained():
    rng = random.Random(3)
    later_biased = [machine(rng, [rng.randint(1, 13), rng.randint(4, 13)]) for _ in range(400)]
    result = fairness.analyse(later_biased, alpha=0.001)
    fairness.classify_flags(result)
    later = result.groups["later games"].tests["cut for deal (player's rank)"]
    assert later.flagged and later.deviation is None
    high_free = [machine(rng, [rng.randint(1, 10), 1]) for _ in range(400)]
    result = fairness.analyse(high_free, alpha=0.001)
    fairness.classify_flags(result)
    first = result.groups["first games"].tests["cut for deal (player's rank)"]
    assert first.flagged and first.deviation is None


def test_a_dealt_card_that_never_comes_is_flagged():
    rng = random.Random(4)
    events = []
    for _ in range(300):
        cards = rng.sample([c for c in CARDS if c != "AS"], 13)
        events.append(Deal(n=1, dealer=Who.PLAYER, computer=tuple(cards[:6]), player=tuple(cards[6:12])))
    result = fairness.analyse([[Cut(player_rank=5, computer_rank=6)] + events])
    assert result.groups["first games"].tests["dealt cards"].flagged


def test_the_cut_sampler_reaches_the_programs_cut_for_deal():
    from harness.program.runs import regress
    from harness.program.model.build import tape_bytes
    from harness.program.runs.loaded import init_worker
    init_worker(tape_bytes(None))
    cuts = [fairness.cut_for_deal(fairness.CutJob(i, regress.spread_seed(i + 1))) for i in range(4)]
    for player_rank, computer_rank in ((c.player_rank, c.computer_rank) for c in cuts):
        assert 4 <= player_rank <= 13 and 4 <= computer_rank <= 13 and player_rank != computer_rank
    assert len(set(cuts)) > 1


def test_from_a_folder_without_transcripts_is_one_line(tmp_path):
    with pytest.raises(InputError, match="no game-\\*.jsonl transcripts"):
        fairness.read_runs([tmp_path])


@pytest.mark.parametrize("seed", range(6))
def test_chi_square_is_scipy_stats_chisquare(seed):
    """The statistic and p-value from scipy.special equal scipy.stats.chisquare's (the oracle), bit for bit,
    on uniform, biased and sparse counts; a draw moved to the commonest category raises the statistic."""
    from scipy.stats import chisquare
    rng = random.Random(seed)
    categories = tuple(range(1, 14)) if seed % 2 else tuple(range(52))
    weights = [1 + (seed * c) % 5 for c in categories] if seed > 1 else [1] * len(categories)
    counts = Counter(rng.choices(categories, weights, k=rng.choice((20, 300, 5000))))
    got = fairness.chi_square(counts, categories)
    want = chisquare([counts.get(c, 0) for c in categories])
    assert got.chi2 == round(float(want.statistic), 3) and got.p == float(want.pvalue)
    most = max(categories, key=lambda c: counts.get(c, 0))
    least = min((c for c in categories if counts.get(c, 0)), key=lambda c: counts[c])
    moved = Counter(counts)
    moved[most] += 1                                # one draw moved to the commonest: further from uniform
    moved[least] -= 1
    assert fairness.chi_square(moved, categories).chi2 > got.chi2
    assert fairness.chi_square(moved, categories).p < got.p
