"""The exhaustive checks of the program's scoring routines: case generation, weights, and a few runs."""
import checkout
import re

import pytest

from harness.errors import OutputError
from harness.cribbage.cards import parse_cards
from harness.program.runs import play_situations, sweep, sweep_cases, sweep_chunks
from harness.program.model.subroutine import Subroutine, program_at_editor

ROOT = checkout.ROOT


def test_show_cases_stand_for_every_deal_exactly_once():
    cases = sweep_cases.show_cases()
    assert sum(c.weight for c in cases) == 52 * 51 * 50 * 49 // 24 * 48 == 12_994_800
    # the 29 hand (5 5 5 J with the 5 of the jack's suit turned) is one of them, with weight 4
    nobs29 = [c for c in cases if sorted(r for r, _ in c.hand) == [5, 5, 5, 11] and c.starter[0] == 5
              and c.nobs]
    assert len(nobs29) == 1 and nobs29[0].weight == 4


def test_crib_flag_is_read_only_at_line_1310():
    """The crib is swept only where a four-card flush makes CR matter: CR is tested nowhere else
    in 4700-4895, 1000-1510 and 2400-2460."""
    lines = (ROOT / "basic" / "cribbage.bas").read_text(encoding="utf-8").splitlines()
    users = []
    for text in lines:
        number = int(text.split()[0])
        if 1000 <= number <= 1510 or 2400 <= number <= 2460 or 4700 <= number <= 4895:
            code = re.sub(r'"[^"]*"', "", text.split("REM")[0])
            if re.search(r"\bCR\b", code[len(str(number)):]):
                users.append(number)
    assert users == [1310]


@pytest.fixture(scope="module")
def editor_snapshot(built_tape):
    return program_at_editor(built_tape.blocks).snapshot()      # the run's one build (tests/conftest.py)


@pytest.fixture
def editor_machine(editor_snapshot):
    from harness.spectrum.machine import Spectrum48
    m = Spectrum48(fast=True)
    m.restore(editor_snapshot)
    return m


def test_the_program_scores_hands_like_the_engine_on_known_hands(editor_machine):
    sub = Subroutine(editor_machine, 4700, {(4765, 1)}, setup=sweep_chunks.SHOW_SETUP)
    # (hand, starter, crib) -> totals counted by hand: 29; the article's K-Q-Q-J + 10 = 10;
    # A-7-8-3 + 7: fifteens 7+8, 7+8, A+7+7 (6) and the pair of sevens (2) = 8;
    # a four-card flush: 4 in a hand, nothing in a crib, 5 with the starter of its suit
    examples = [("5H 5C 5D JS", "5S", False, 29), ("KD QS QC JH", "TD", False, 10),
                ("AH 7D 8S 3C", "7C", False, 8), ("2H 4H 6H 8H", "KS", False, 4),
                ("2H 4H 6H 8H", "KS", True, 0), ("2H 4H 6H 8H", "KH", True, 5)]
    for hand, starter, crib, total in examples:
        cards = [(c.rank, c.suit + 1) for c in parse_cards(hand)]
        s = parse_cards(starter)[0]
        case = sweep_cases.ShowCase(tuple(cards), (s.rank, s.suit + 1), "none", 0, 0)   # flush, nobs, weight: not read
        got = sweep_cases.program_show(sub, case, crib)
        assert got == sweep_cases.engine_show(case, crib), hand
        assert sum(got.values()) == total, hand


def test_the_program_scores_plays_like_the_engine_on_known_series(editor_machine):
    sub = Subroutine(editor_machine, 2000, sweep_chunks.PLAY_RETURNS, setup=sweep_chunks.PLAY_SETUP)
    # series -> points for the last card (the seeds: runs out of order, a foreign card, pair royal, 31)
    examples = [((5, 10), 2), ((3, 1, 2), 3), ((4, 6, 5, 7), 4), ((4, 6, 9, 5), 0), ((7, 7, 7), 6),
                ((10, 10, 10, 1), 2), ((1, 1, 1, 1), 12), ((9, 8, 7), 3)]
    for series, points in examples:
        assert sweep_cases.program_play(sub, series) == sweep_cases.engine_play(series) == points, series


def test_a_different_sweep_will_not_reuse_the_chunks(tmp_path):
    sweep.run_sweep("show", tmp_path, sweep.SweepSettings(workers=1, chunk=2, progress=False, limit=2))
    with pytest.raises(OutputError, match="differs in"):
        sweep.run_sweep("show", tmp_path, sweep.SweepSettings(workers=1, chunk=2, progress=False, limit=4))


def test_the_play_table_round_trips_a_small_set_of_situations():
    small = {(0, 2, (7,), 2): [5, (7, 7)], (15, 2, (5, 10), 1): [4, (5, 10)], (0, 3, (3, 1, 2), 1): [1, (3, 1, 2)]}
    keys, weights, examples = play_situations.table_of(small)
    assert sorted(keys.tolist()) == keys.tolist()
    assert play_situations.suffix_lengths(keys).tolist() == [len(k[2]) for k in sorted(small)] == [1, 3, 2]
    assert weights.tolist() == [5, 1, 4]
