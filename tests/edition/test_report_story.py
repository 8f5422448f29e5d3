"""The game page's story and the report's words, each piece from a small planted record (no machine).

The pictures of the screen folded into a small table with English beside the Russian; the screen's texts
translated from the English edition's table; the run in sentences; the plots' whole-number count axes and
the cards' axis as four suits of ranks; the memory map's areas from a moment's system variables.
"""
from __future__ import annotations

import json
import re

from harness.edition import plots
from harness.edition.notes import Moment, SystemVariables, read_moments
from harness.edition.report import SHOW_NOTES, Cards, picture_view, run_words, screen_english
from harness.edition.site import memory_map
from harness.program.records import events as E
from harness.program.runs.coverage import RunCoverage
from harness.program.runs.regress import RegressReport


# ------------------------------------------------------------------------------------------ the screen's English
def test_a_whole_literal_of_the_listing_gets_the_english_editions_words():
    assert screen_english("ВЫБЕРИТЕ КАРТУ") == "CHOOSE A CARD"          # 2715 in basic/translation.tsv
    assert screen_english("ВЫ СДАЕТЕ") == "YOU DEAL"


def test_a_literal_with_its_trailing_dash_and_a_row_of_several_are_found_by_their_words():
    assert screen_english("ПАРЫ") == "PAIRS"                           # 4840 "ПАРЫ -"
    assert screen_english("15-ТЬ -4 ПАРЫ -2") == "15S -4 PAIRS -2"      # two literals and their numbers
    assert screen_english('ИГРАЕМ С ПРАВИЛОМ МАГГИНЗ? "С"') == 'PLAY THE MUGGINS RULE? "С"'   # the answer typed after
    assert screen_english('ВАМ НУЖНА ИНСТРУКЦИЯ? (Y/N):"С"') == 'NEED INSTRUCTIONS? (Y/N):"С"'   # ... glued to the prompt


def test_a_word_two_literals_share_takes_the_literal_that_is_that_word():
    assert screen_english("ВСЕГО 0") == "COUNT 0"                      # 2920 "ВСЕГО ", not 4880 "ВСЕГО = "
    assert screen_english("ВСЕГО = 12") == "TOTAL = 12"


def test_no_russian_or_only_a_fragment_has_no_english():
    assert screen_english("0") is None
    assert screen_english("« n »") is None
    assert screen_english("Д!") is None                                # the tail of a «ХОД!» written over (D12)
    assert screen_english("ВЫБЕРИТЕ КАРТ") is None                     # near miss: a word cut short
    assert screen_english("ВЫБЕРИТЕ") is None                          # near miss: «ВЫ» [YOU] is no start of it


# ------------------------------------------------------------------------------------------ a picture, folded
def _picture(**kw) -> E.Picture:
    base = dict(moment="select 2720", line=3730, slots={"hand 1": "up 5H 7/2", "deck": "down", "cut pack 1": "empty",
                                                      "laid player 2": "other  7 |   |"},
                pegs={"computer": [3, 4], "player": "none"},
                rows={"message": "ВЫБЕРИТЕ КАРТУ", "line 22": "", "table 6:0": "ВСЕГО", "table 6:10": "0"},
                board=True, flag=False, variables={})
    base.update(kw)
    return E.Picture(**base)


def test_a_picture_becomes_a_small_table_with_english_beside_its_texts():
    p = picture_view(_picture(), Cards())
    assert p.summary == "4 card slots, the pegs, 3 texts, the board"
    assert [(name, what) for name, what, _ in p.slots] == [
        ("hand 1", "face up (paper 7, ink 2)"), ("deck", "face down"), ("cut pack 1", "empty table"),
        ("laid player 2", "something else: “7 |   |”")]
    assert p.slots[0][2].latin == "5♥" and p.slots[1][2] is None
    assert p.pegs == [("computer", "3, 4"), ("player", "none")]
    assert p.texts == [("message", "ВЫБЕРИТЕ КАРТУ", "CHOOSE A CARD"), ("table 6:0", "ВСЕГО", "COUNT"),
                       ("table 6:10", "0", None)]
    assert p.said == [("ВЫБЕРИТЕ КАРТУ", "CHOOSE A CARD")]               # the message line, shown unfolded


def test_a_picture_without_cards_or_text_says_so_and_a_screen_reading_lists_its_rows():
    bare = picture_view(_picture(slots={}, pegs={}, rows={"message": "  "}, board=False), Cards())
    assert (bare.summary, bare.texts, bare.said) == ("no card", [], [])
    screen = E.Screen(what="count", rows=((6, "ВСЕГО 12 "), (7, "   ")), variables={})
    view = picture_view(screen, Cards())
    assert view.summary == "1 row of text" and view.texts == [("row 6", "ВСЕГО 12", "COUNT 12")]


# ------------------------------------------------------------------------------------------ the run in words
def _report(**given):
    """A RegressReport of the run's facts *given*, every count of its games zero."""
    coverage = RunCoverage(0, 0, 0, 0, [], [], [], {}, {}, {}, {}, {})
    zero = dict(completed=0, score_events=0, checks=0, documented_differences=0, documented_by_deviation={},
                unexplained_differences=0, basic_errors=0, timeouts=0, harness_failures=0, harness_failure_details=[],
                deviations={}, findings={}, documented_by_rules={}, unexplained_by_rules={}, per_game=[],
                coverage=coverage)
    return RegressReport(**{**zero, **given})


RUN = dict(games=2, played=2, ended="complete", deals=14, actions=297, workers=1, scheduler=None, thorough=False,
           accelerate=False, wall_s=102.35, wall_s_per_game=47.279, jobs_cpu_s=15.184, emulated_s=1077.7,
           pictures=156, screen_checks=3565, screen_differences=27, screen_unexplained=0, screen_cpu_share=0.0207,
           tape={"path": "build/cribbage.tap", "sha256": "332ca5d9ef7470f54731", "fingerprint": None})


def test_the_run_in_sentences():
    words = run_words(_report(**RUN))
    assert words[0] == "2 games asked for, 2 played; the run ended complete, every game played to its end."
    assert words[1].startswith("14 deals and 297 actions")
    assert words[2] == "The games ran in this machine's process pool, 1 worker process."
    assert "18 minutes at 50 frames a second" in words[3]                # 1077.7 s / 60 = 17.96
    assert words[4].startswith("156 pictures of the screen were judged, with 3,565 checks")
    assert "2.1 % of the games' CPU time" in words[4]
    stopped = run_words(_report(**{**RUN, "games": 3, "played": 1, "ended": "interrupted", "workers": 2,
                                   "scheduler": "tls://h:8786", "thorough": True}))
    assert stopped[0] == "3 games asked for, 1 played; the run ended interrupted."
    assert stopped[2] == ("The games ran in the Dask cluster at tls://h:8786, 2 worker processes; "
                          "the thorough rule set was played too.")


def test_the_show_plots_say_why_kept_hands_beat_random_ones():
    assert "Why kept hands beat random ones" in SHOW_NOTES["hands"] and "four a player chose to keep" in SHOW_NOTES["hands"]
    assert "threw away" in SHOW_NOTES["cribs"]


# ------------------------------------------------------------------------------------------ the plots' axes
def _tick_labels(svg: str) -> list[str]:
    return re.findall(r">\s*([-\d.]+)\s*</text>", svg)


def test_count_axes_have_whole_numbers_only():
    few = plots.histogram("t", "Starter", plots.Categories(["A", "2", "3"], [0, 1, 2]), 0.5, "cards")
    assert not [t for t in _tick_labels(few.svg) if "." in t]            # no 0.5, 1.5 cards
    dist = plots.distribution("d", "Show scores", [0, 1, 0, 1], [1, 2, 3, 4], "hands")
    assert not [t for t in _tick_labels(dist.svg) if "." in t]


def test_the_cards_axis_is_four_suits_of_upright_ranks():
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    names = [r + s for s in "♥♣♦♠" for r in ranks]
    suits = [("♥ hearts", 13), ("♣ clubs", 13), ("♦ diamonds", 13), ("♠ spades", 13)]
    p = plots.histogram("c", "Dealt cards", plots.Categories(ranks * 4, [1] * 52, groups=suits, names=names), 0.9,
                        "cards")
    for suit in ("hearts", "clubs", "diamonds", "spades"):
        assert suit in p.svg
    assert p.svg.count("rotate(-90") == 1                               # the ranks stand upright: only "count" turns
    assert p.rows[0][0] == "A♥" and p.rows[-1][0] == "K♠"               # the table names each card whole
    plain = plots.histogram("c", "Dealt cards", plots.Categories(names, [1] * 52), 0.9, "cards")
    assert plain.svg.count("rotate(-90") == 53                          # near miss: 52 whole names must turn


# ------------------------------------------------------------------------------------------ the memory map
AREAS = {"PROG": 23755, "VARS": 43202, "E_LINE": 44071, "WORKSP": 44076, "STKBOT": 44076, "STKEND": 44076,
         "RAMTOP": 64599, "UDG": 65368, "CHARS": 64344, "P_RAMT": 65535}
SYSTEM = SystemVariables(prog=23755, vars=43202, e_line=44071, stkend=44076, ramtop=64599, udg=65368, chars=64344)


def test_the_memory_map_covers_the_48k_in_order_from_the_system_variables():
    areas = memory_map(Moment("setup", "set-up", 7400, {}, SYSTEM, {}), udgs=21)
    assert areas[0].start == 0 and areas[-1].end == 65536
    assert all(a.end == b.start for a, b in zip(areas, areas[1:]))      # no gap, no overlap
    by = {a.name: a for a in areas}
    assert (by["program"].start, by["program"].size) == (23755, 43202 - 23755)
    assert (by["variables"].start, by["variables"].size) == (43202, 44071 - 43202)
    assert (by["the chr font"].start, by["the chr font"].end) == (64600, 64600 + 768)
    assert (by["UDGs"].start, by["UDGs"].size) == (65368, 168)          # 21 UDGs of 8 bytes: to 65535
    assert "top" not in by and "above RAMTOP" not in by


def test_a_moment_without_its_system_variables_has_no_map(tmp_path):
    assert memory_map(Moment("old", "an older file", 7400, {}, None, {}), udgs=21) == []
    path = tmp_path / "variable_values.json"
    moments = [{"id": name, "what": "", "line": 7400, "values": {}, "areas": areas}
               for name, areas in (("old", {}), ("half", {"PROG": 23755}), ("whole", AREAS))]
    path.write_text(json.dumps({"moments": moments}), encoding="utf-8")
    old, half, whole = read_moments(path)
    assert old.system is None and half.system is None                  # the reader leaves out a partial map
    assert whole.system == SYSTEM                                       # near miss: a whole one is read
    assert memory_map(half, udgs=21) == [] and memory_map(whole, udgs=21)
