"""Every hand and tally check of the comparison is the subject of a planted fault (issue 36, item 3): each
peg in the play and the show, each go, each part of each show, each slot of the hand and each line of the games
tally read from the screen, the fault caught with its cause at its place,
the near miss not caught; docs/COMPARE_PLACES.md is the table of them, current and with no empty row."""
import checkout
import ast
import dataclasses

import pytest

from harness.program.judge.judgements import Cause
from harness.program.model import program as P

from compare_faults import caught, near_caught, rows, table

ROOT = checkout.ROOT
ROWS = rows()
HAND_AND_TALLY = {Cause.PEGGED, Cause.GO_PEGGED, Cause.SHOW_PART, Cause.SCREEN_HAND, Cause.SCREEN_TALLY}
# the sequence and outcome checks planted here too; those not yet (tests/test_detectors.py plants them one by one)
# and the screen's board, count and show
PLANTED_TOO = {Cause.SHOW_ORDER, Cause.CARD_REFUSED, Cause.GAMES_TALLY}
NOT_YET = {Cause.UNMATCHED_PEG, Cause.SCORED_AFTER_121, Cause.DEALER_AFTER_CUT, Cause.OUT_OF_TURN,
           Cause.PLAYED_AFTER_121, Cause.GO_WITH_A_CARD, Cause.GO_OUT_OF_TURN, Cause.TURN_SKIPPED,
           Cause.SHOW_PHASE, Cause.ENGINE_REFUSED, Cause.WINNER, Cause.FINAL_SCORES,
           Cause.GAME_CREDITED, Cause.BEFORE_GAME, Cause.AFTER_WIN, Cause.HARNESS_ERROR,
           Cause.SCREEN_CHECK_UNKNOWN, Cause.SCREEN_BOARD, Cause.SCREEN_COUNT, Cause.SCREEN_SHOW}


def _called(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Call) and (isinstance(node.func, ast.Attribute) and node.func.attr == name
                                           or isinstance(node.func, ast.Name) and node.func.id == name)


def _causes_passed_to_diff() -> set:
    """The causes compare.py passes to its `_diff`, and the text screens' checks (screen_checks.py) to the
    findings it makes differences of."""
    out = set()
    for module, call in (("compare.py", "_diff"), ("screen_checks.py", "ScreenFinding")):
        tree = ast.parse((ROOT / "harness" / "program" / "judge" / module).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if _called(node, call):
                for arg in node.args:
                    if isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name) and arg.value.id == "Cause":
                        out.add(Cause[arg.attr])
    return out


def test_every_hand_and_tally_cause_passed_to_diff_has_a_row():
    found = _causes_passed_to_diff()
    assert HAND_AND_TALLY <= found
    assert found <= HAND_AND_TALLY | PLANTED_TOO | NOT_YET, "a new Cause in compare.py: give it a row"
    assert HAND_AND_TALLY | PLANTED_TOO <= {r.cause for r in ROWS}


def test_every_part_of_every_show_and_both_players_pegs_have_rows():
    parts = {(r.who, r.kind) for r in ROWS if r.cause == Cause.SHOW_PART}
    assert parts == {(h, f"show:{p}") for h in ("player", "computer", "crib") for p in P.SHOW_PARTS}
    pegs = {(r.kind, r.who) for r in ROWS if r.cause in (Cause.PEGGED, Cause.GO_PEGGED)}
    assert pegs == {(k, w) for k in ("play", "show", "go") for w in ("player", "computer")} | {("show", "crib"), ("heels", "computer")}
    assert len(ROWS) == 12 + 2 + 1 + 15 + 3 + P.HAND_SLOTS + 4


def test_every_slot_of_the_hand_and_both_lines_of_the_tally_have_rows():
    assert [r.fault.split(":")[0] for r in ROWS if r.cause == Cause.SCREEN_HAND] == \
        [f"slot {i}" for i in range(1, P.HAND_SLOTS + 1)]
    assert [r.who for r in ROWS if r.cause == Cause.SCREEN_TALLY] == ["player", "player", "computer", "computer"]


@pytest.mark.parametrize("row", ROWS, ids=lambda r: f"{r.kind}-{r.who}-{r.fault.split(': ')[-1]}")
def test_each_fault_is_caught_with_its_cause_at_its_place(row):
    assert caught(row) == row.expect


@pytest.mark.parametrize("row", ROWS, ids=lambda r: f"{r.kind}-{r.who}-{r.fault.split(': ')[-1]}")
def test_each_near_miss_yields_no_difference(row):
    assert near_caught(row) == ()


def test_the_table_of_places_is_current():
    assert (ROOT / "docs" / "COMPARE_PLACES.md").read_text(encoding="utf-8") == table(ROWS), \
        "docs/COMPARE_PLACES.md is stale: python -m tools.compare_places"


def test_an_uncaught_fault_shows_as_nothing_in_the_table():
    row = dataclasses.replace(ROWS[0], plant=lambda evs: evs)
    assert "**nothing**" in table([row])
