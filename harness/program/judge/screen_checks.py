"""The text screens the observer reads at a moment (a `Screen` event) against the variables they were printed
from: the board's scores, the play's count, the player's hand, the show's breakdown and the games tally. Each
check is a function of what was printed and returns its findings; `compare.Comparator` makes them differences.
Found by name in `SCREEN_CHECKS` (program.ScreenCheck), never by a method's name."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Mapping

from ...cribbage.cards import parse_card
from ...errors import InputError
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
ScreenCheckFn = Callable[[TextScreen, dict[int, str], Mapping[str, object]], list[ScreenFinding]]


def _number(v: Mapping[str, object], name: str) -> int:
    """A variable the observer read as a whole number (observer.py `_screen`)."""
    value = v[name]
    if not isinstance(value, int) or isinstance(value, bool):
        raise InputError(f"screen variable {name}={value!r}: not a whole number")
    return value


def _cards(v: Mapping[str, object], name: str) -> list[str | None]:
    """A variable the observer read as a row of cards (None: an empty slot)."""
    value = v[name]
    if not isinstance(value, list) or not all(c is None or isinstance(c, str) for c in value):
        raise InputError(f"screen variable {name}={value!r}: not a row of cards")
    return [c if isinstance(c, str) else None for c in value]


def _screen_board_scores(t: TextScreen, rows: dict[int, str], v: Mapping[str, object]) -> list[ScreenFinding]:
    text = rows[P.BOARD_ROW][P.BOARD_COL:]
    board = text.split()          # nothing until the first peg, then both totals
    want = [_number(v, "player"), _number(v, "computer")]
    if board and (not all(x.isdigit() for x in board) or [int(x) for x in board] != want):
        return [ScreenFinding(Cause.SCREEN_BOARD, None, want, text.rstrip(), NoFacts())]
    return []


def _screen_count(t: TextScreen, rows: dict[int, str], v: Mapping[str, object]) -> list[ScreenFinding]:
    text = rows[P.COUNT_ROW][:P.COUNT_COLS]
    count = text.split()
    total = _number(v, "sum")
    if count[:1] == [t.words.total] and count[1:] != [str(total)]:
        return [ScreenFinding(Cause.SCREEN_COUNT, None, total, text.rstrip(), NoFacts())]
    return []


def _screen_hand(t: TextScreen, rows: dict[int, str], v: Mapping[str, object]) -> list[ScreenFinding]:
    top, bottom = (rows[r] for r in P.HAND_ROWS)
    found = []
    for i, card in enumerate(_cards(v, "cards")):
        col = P.HAND_COL_STEP * i
        shown = top[col] + bottom[col]
        want = P.card_text(parse_card(card), t.words.ranks) if card else "  "
        if shown != want:
            found.append(ScreenFinding(Cause.SCREEN_HAND, Who.PLAYER, want, shown, HandSlot(i + 1)))
    return found


def _screen_show_breakdown(t: TextScreen, rows: dict[int, str], v: Mapping[str, object]) -> list[ScreenFinding]:
    line, total = _number(v, "print_row"), _number(v, "total")
    total_row = next((r for r in (line, line - 1) if r in rows and t.words.show_total in rows[r]), None)
    if total_row is None:
        return [ScreenFinding(Cause.SCREEN_SHOW, None, total, "", ShowLine("total"))]
    block = " ".join(rows[r] for r in range(total_row - 3, total_row + 1) if r in rows)
    seen = P.breakdown_numbers(block, rows[total_row], t.words)
    # 4790 skips the breakdown when the claim was right: only the total is printed
    agreed = t.claim is not None and _number(v, "muggins") != 2
    want = {"total": total}
    if not agreed:
        parts = {k: _number(v, k) for k in ("fifteens", "pairs", "flush", "nobs")}
        want.update(parts, runs=total - sum(parts.values()))
    return [ScreenFinding(Cause.SCREEN_SHOW, None, value, seen[key], ShowLine(key))
            for key, value in want.items() if seen[key] != value]


def _screen_games_tally(t: TextScreen, rows: dict[int, str], v: Mapping[str, object]) -> list[ScreenFinding]:
    found = []
    for row, label, whose in zip(P.TALLY_ROWS, (t.words.you, t.words.me), (Who.PLAYER, Who.COMPUTER)):
        m = re.search(re.escape(label) + r"\s*:\s*(\d+)", rows[row])
        won = _number(v, whose.value)
        if m is None or int(m.group(1)) != won:
            found.append(ScreenFinding(Cause.SCREEN_TALLY, whose, won, rows[row].strip(),
                                       TallyLine(whose)))
    return found


#: the check of each kind of text screen
SCREEN_CHECKS: dict[str, ScreenCheckFn] = {
    P.ScreenCheck.BOARD: _screen_board_scores, P.ScreenCheck.COUNT: _screen_count,
    P.ScreenCheck.HAND: _screen_hand, P.ScreenCheck.BREAKDOWN: _screen_show_breakdown,
    P.ScreenCheck.TALLY: _screen_games_tally,
}
