"""The text screens the observer reads at a moment (a `Screen` event) against the variables they were printed
from: the board's scores, the play's count, the player's hand, the show's breakdown and the games tally. Each
check is a function of what was printed and returns its findings; `compare.Comparator` makes them differences.
Found by name in `SCREEN_CHECKS` (program.ScreenCheck), never by a method's name."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

from ...cribbage.cards import parse_card
from ..model import program as P
from ..records.events import Who
from .judgements import Cause, HandSlot, NoFacts, ShowLine, TallyLine
from .screen_judgements import ScreenFinding


@dataclass(frozen=True)
class TextScreen:
    """What a check needs beyond the rows and variables: the edition's screen words, and the player's
    muggins claim of the show in progress (None: no claim)."""
    words: P.ScreenWords
    claim: int | None


#: a check: (the screen's words and claim, the rows by number padded to 32 columns, the variables) -> findings
ScreenCheckFn = Callable[[TextScreen, dict[int, str], dict[str, Any]], list[ScreenFinding]]


def _screen_board_scores(t: TextScreen, rows: dict[int, str], v: dict[str, Any]) -> list[ScreenFinding]:
    text = rows[P.BOARD_ROW][P.BOARD_COL:]
    board = text.split()          # nothing until the first peg, then both totals
    want = [v["player"], v["computer"]]
    if board and (not all(x.isdigit() for x in board) or [int(x) for x in board] != want):
        return [ScreenFinding(Cause.SCREEN_BOARD, None, want, text.rstrip(), NoFacts())]
    return []


def _screen_count(t: TextScreen, rows: dict[int, str], v: dict[str, Any]) -> list[ScreenFinding]:
    text = rows[P.COUNT_ROW][:P.COUNT_COLS]
    count = text.split()
    if count[:1] == [t.words.total] and count[1:] != [str(v["sum"])]:
        return [ScreenFinding(Cause.SCREEN_COUNT, None, v["sum"], text.rstrip(), NoFacts())]
    return []


def _screen_hand(t: TextScreen, rows: dict[int, str], v: dict[str, Any]) -> list[ScreenFinding]:
    top, bottom = (rows[r] for r in P.HAND_ROWS)
    found = []
    for i, card in enumerate(v["cards"]):
        col = P.HAND_COL_STEP * i
        shown = top[col] + bottom[col]
        want = P.card_text(parse_card(card), t.words.ranks) if card else "  "
        if shown != want:
            found.append(ScreenFinding(Cause.SCREEN_HAND, Who.PLAYER, want, shown, HandSlot(i + 1)))
    return found


def _screen_show_breakdown(t: TextScreen, rows: dict[int, str], v: dict[str, Any]) -> list[ScreenFinding]:
    line = v["print_row"]
    total_row = next((r for r in (line, line - 1) if r in rows and t.words.show_total in rows[r]), None)
    if total_row is None:
        return [ScreenFinding(Cause.SCREEN_SHOW, None, v["total"], "", ShowLine("total"))]
    block = " ".join(rows[r] for r in range(total_row - 3, total_row + 1) if r in rows)
    seen = P.breakdown_numbers(block, rows[total_row], t.words)
    # 4790 skips the breakdown when the claim was right: only the total is printed
    agreed = t.claim is not None and v["muggins"] != 2
    want = {"total": v["total"]}
    if not agreed:
        parts = {k: v[k] for k in ("fifteens", "pairs", "flush", "nobs")}
        want.update(parts, runs=v["total"] - sum(parts.values()))
    return [ScreenFinding(Cause.SCREEN_SHOW, None, value, seen[key], ShowLine(key))
            for key, value in want.items() if seen[key] != value]


def _screen_games_tally(t: TextScreen, rows: dict[int, str], v: dict[str, Any]) -> list[ScreenFinding]:
    found = []
    for row, label, whose in zip(P.TALLY_ROWS, (t.words.you, t.words.me), (Who.PLAYER, Who.COMPUTER)):
        m = re.search(re.escape(label) + r"\s*:\s*(\d+)", rows[row])
        if m is None or int(m.group(1)) != v[whose.value]:
            found.append(ScreenFinding(Cause.SCREEN_TALLY, whose, v[whose.value], rows[row].strip(),
                                       TallyLine(whose)))
    return found


#: the check of each kind of text screen
SCREEN_CHECKS: dict[str, ScreenCheckFn] = {
    P.ScreenCheck.BOARD: _screen_board_scores, P.ScreenCheck.COUNT: _screen_count,
    P.ScreenCheck.HAND: _screen_hand, P.ScreenCheck.BREAKDOWN: _screen_show_breakdown,
    P.ScreenCheck.TALLY: _screen_games_tally,
}
