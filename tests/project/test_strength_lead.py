"""docs/STRENGTH.md and docs/PLAYING.md open with one sentence a cribbage player understands: how often the
computer wins against a careful player, how sure that is, and what two careful players score, from the
strength run kept in docs/data/strength.json (tools/write_strength_doc.py's `lead`)."""
from __future__ import annotations

import copy
import dataclasses
import re
from decimal import ROUND_HALF_UP, Decimal

from helpers import ROOT
from harness.program.runs.strength import read_report
from tools import write_strength_doc as tool

REPORT = read_report(ROOT / "docs" / "data" / "strength.json")


def first_paragraph(page: str) -> str:
    """The page's first paragraph of prose: not its title, not an HTML comment."""
    text = re.sub(r"<!--.*?-->", "", page, flags=re.S)
    return next(p.strip() for p in text.split("\n\n") if p.strip() and not p.lstrip().startswith("#"))


def test_both_pages_open_with_the_sentence():
    sentence = tool.lead(REPORT)
    assert first_paragraph((ROOT / "docs" / "STRENGTH.md").read_text(encoding="utf-8")) == sentence
    assert first_paragraph((ROOT / "docs" / "PLAYING.md").read_text(encoding="utf-8")).startswith(sentence)


def half_up(rate: float) -> int:
    """A whole percentage as a reader rounds it (a half up), worked in decimals, not by the code under test."""
    return int((Decimal(repr(rate)) * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def test_the_sentence_says_the_runs_own_figures():
    sentence = tool.lead(REPORT)
    wins = REPORT.figures["ev"].computer_wins
    assert f"({wins.k} of {wins.n} games, {half_up(wins.k / wins.n)} %;" in sentence
    assert f"between {half_up(wins.lo)} and {half_up(wins.hi)} %" in sentence
    assert f"two careful players win {half_up(REPORT.engine['ev vs ev'].player0_wins.rate)} %" in sentence
    greedy = REPORT.figures["greedy"].computer_wins
    assert f"a greedy player (the most points now) in {half_up(greedy.rate)} %" in sentence
    # the run kept now: 13 of 40 is about a third
    assert (wins.k, wins.n) != (13, 40) or "about one game in three (13 of 40 games, 33 %;" in sentence


def test_a_rate_in_words_is_the_nearest_plain_fraction():
    assert tool.in_words(13 / 40) == "one game in three" and tool.in_words(0.65) == "two games in three"
    assert tool.in_words(0.5) == "one game in two" and tool.in_words(0.06) == "one game in ten"
    assert tool.in_words(0.975) == "every game" and tool.in_words(0.27) == "one game in four"


def test_another_runs_figures_change_the_sentence_and_the_page_is_stale():
    page = (ROOT / "docs" / "STRENGTH.md").read_text(encoding="utf-8")
    planted = copy.deepcopy(REPORT)
    ev = planted.figures["ev"]
    planted.figures["ev"] = dataclasses.replace(ev, computer_wins=dataclasses.replace(ev.computer_wins, k=20, rate=0.5))
    assert "about one game in two (20 of 40 games, 50 %;" in tool.lead(planted)
    assert tool.page_with_block(page, planted) != page
    near_miss = dataclasses.replace(REPORT, references={})            # a figure the sentence does not use
    assert tool.lead(near_miss) == tool.lead(REPORT) and tool.page_with_block(page, near_miss) == page
