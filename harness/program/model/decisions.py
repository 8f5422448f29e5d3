"""Every place «КРИБЕДЖ» waits for a person, read from the listing, and what the players do there.

`decision_points` walks the tokenised program for INPUT, INKEY$, PAUSE 0 and
GO SUB 3700 (the card selector); `CHOICES` says, for each, what a person can
do and which automated player does each of those things, so a test can check
that the driver has a handler for every wait the listing has and that the
thorough set reaches every one of them.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...spectrum.profile import statements
from . import program as P

TOKEN_INPUT, TOKEN_INKEY, TOKEN_PAUSE, TOKEN_GO_SUB = 0xEE, 0xA6, 0xF2, 0xED


@dataclass(frozen=True)
class DecisionPoint:
    line: int
    statement: int
    kind: str            # "input", "inkey", "pause", "select"


def decision_points(program: bytes) -> list[DecisionPoint]:
    """The waits for a person in a tokenised program, in listing order."""
    found: list[DecisionPoint] = []
    for line, stmt, codes in statements(program):
        for i, b in enumerate(codes):
            if b == TOKEN_INPUT:
                found.append(DecisionPoint(line, stmt, "input"))
            elif b == TOKEN_INKEY:
                found.append(DecisionPoint(line, stmt, "inkey"))
            elif b == TOKEN_PAUSE and _number_after(codes, i + 1) == 0:
                found.append(DecisionPoint(line, stmt, "pause"))
            elif b == TOKEN_GO_SUB and _number_after(codes, i + 1) == P.SELECTOR_LINE:
                found.append(DecisionPoint(line, stmt, "select"))
    return found


def _number_after(codes: bytes, i: int) -> int | None:
    """The literal number written right after a keyword (its digits, spaces between them ignored)."""
    digits = bytes(c for c in codes[i:i + 8] if c != 0x20)
    n = len(digits) - len(digits.lstrip(b"0123456789"))
    return int(digits[:n]) if n else None


# line -> (what a person can do there, the players that do each)
CHOICES: dict[int, tuple[str, str]] = {
    P.ASK_INSTRUCTIONS: ("Y (the instructions), N, or ENTER alone (finding F1: the program stops)",
                         "explorer (Y), the others (N), stopper (ENTER alone)"),
    P.ASK_MUGGINS: ("Y (muggins on), N, or anything else (taken as N)",
                    "adversarial/explorer (Y), random/greedy (N), explorer (empty, lowercase y, X)"),
    P.ASK_CLAIM: ("the hand's true total, another number 0-50 (muggins: D3), one outside 0-50 (asked again), "
                  "empty (the ROM asks again), a letter (finding F2)",
                  "all (true), adversarial/explorer (wrong), explorer (empty, 99, -1), stopper (A)"),
    P.ASK_CONTINUE_INSTRUCTIONS: ("Y or N (or anything: not Y ends the instructions)",
                                  "explorer (Y, N, empty, lowercase y, X)"),
    P.ASK_AGAIN: ("Y (another game on the same machine), N (STOP), anything else (another game)",
                  "all (N), explorer and series (Y)"),
    P.SELECTOR_KEYS_HELD: ("keys held from before are waited out", "explorer (keys while drawing)"),
    P.SELECTOR_ENTER: ("ENTER chooses the slot under the pointer", "all"),
    P.SELECTOR_SPACE: ("SPACE moves the pointer (wrapping after the last slot)", "all"),
    P.CUT_WAIT: ("any key cuts the deck", "all (ENTER); explorer's held keys cut at once"),
    P.NEXT_DEAL_WAIT: ("any key: the next deal", "all"),
    P.SHOW_PAUSE: ("any key turns the crib over", "all"),
    P.FINAL_BOARD_PAUSE: ("any key after the final board", "all"),
    P.INSTRUCTION_PAGE_WAITS[0]: ("any key: the next instruction page", "explorer"),
    P.DEMO_PAUSE: ("SPACE shows the board demo, another key skips it (9095 GO TO 9175, a missing line)",
                   "explorer (both)"),
    P.DEMO_KEY_READ: ("(INKEY$ read once after PAUSE 0: which key ended the pause)", "explorer (SPACE, ENTER)"),
    P.DEMO_REPEAT_PAUSE: ("SPACE repeats the demo, another key goes on", "explorer (both)"),
    P.INSTRUCTION_PAGE_WAITS[1]: ("any key: the next instruction page", "explorer"),
    P.INSTRUCTION_PAGE_WAITS[2]: ("any key: the next instruction page", "explorer"),
    P.SELECT_PLAY: ("a card that fits (played), one that does not (refused, 2775), an empty slot below 22 "
                    "(ignored, 2742) or at 22 and over (go asked, D2)",
                    "all; adversarial/explorer (refused card, false go), explorer (empty slot)"),
    P.SELECT_GO_CONFIRM: ("the same empty slot confirms the go; a card takes it back (D8)",
                          "all (confirm), explorer (take back)"),
    P.SELECT_FIRST_DISCARD: ("any of the six cards", "all"),
    P.SELECT_SECOND_DISCARD: ("another card, or the same one again (7885 takes the first back)",
                              "all; explorer (the same card again)"),
}
