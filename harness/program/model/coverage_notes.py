"""Why a run does not reach some statements of «КРИБЕДЖ», or sees some IFs one way only.

Part of the program model: each note names the statements (line ranges) or
IF outcomes it explains, a kind (dead code, data, DEBUG only, a missing GO TO
target, cannot arise, needs a situation the players do not create) and the
evidence, so docs/COVERAGE.md can say why and a reviewer can check it.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Note:
    id: str
    kind: str
    statements: tuple[tuple[int, int], ...] = ()       # line ranges (first, last), every statement in them
    outcomes: tuple[tuple[int, int, str], ...] = ()    # (line, statement, "true"/"false") of an IF
    why: str = ""

    def covers_statement(self, k: tuple[int, int]) -> bool:
        return any(a <= k[0] <= b for a, b in self.statements)

    def covers_outcome(self, k: tuple[int, int], outcome: str) -> bool:
        return (k[0], k[1], outcome) in self.outcomes


NOTES: tuple[Note, ...] = (
    Note("C1", "utility", statements=((5, 5),),
         why="5 SAVE \"CRIBBAGE\" LINE 2: STOP is the author's save line, run by hand (GO TO 5), never by the "
             "program: no GO TO/GO SUB names it, and 4 ends with RUN."),
    Note("C2", "dead code", statements=((9, 9),),
         why="9 POKE 23606,0: POKE 23607,60: RETURN puts CHARS back to the ROM font; no GO SUB 9 anywhere in "
             "the listing (the author's, for listing the program readably)."),
    Note("C3", "DEBUG only", statements=((652, 652), (665, 665), (3230, 3230), (3490, 3490), (7805, 7805)),
         outcomes=((652, 1, "true"), (665, 5, "true"), (3230, 1, "true"), (3490, 1, "true"), (7805, 1, "true")),
         why="DEBUG is set to 0 at 7005 and assigned nowhere else, so every IF DEBUG is false and what follows "
             "its THEN never runs."),
    Note("C4", "unreachable", statements=((3260, 3260), (3280, 3280), (6015, 6015)),
         why="A REM after THEN GO TO or THEN RETURN on the same line (3260:3, 3280:4, 6015:3): a false IF skips "
             "the rest of the line and a true one jumps away, so the REM is never reached."),
    Note("C5", "dead code", statements=((4985, 4985),),
         why="4985 LET E(5)=K: LET E$(5)=K$ repeats 4975 after 4980 RETURN, and no GO TO/GO SUB names it "
             "(a leftover of an edit)."),
    Note("C6", "data", statements=((9600, 9850),),
         why="DATA lines: 9905 RESTORE 9600 and the READs at 9910-9920 take the UDGs from them; control never "
             "flows into them (9590 RETURN stands before)."),
    Note("C7", "cannot arise", outcomes=((2370, 1, "false"),),
         why="2370 IF R>P THEN LET P=R in the play's run check: L (and R=L) grows from 3 to N, P starts at 0 "
             "(2120 has returned if there was a pair) and only ever takes an earlier, smaller R, so R>P is "
             "always true."),
    Note("C8", "rare: a sweep covers it", statements=((2100, 2100),), outcomes=((2100, 1, "true"),),
         why="2100 IF P=6 THEN LET P=12: four cards of one rank laid in one series (a double pair royal) in a "
             "whole game is rare; the play sweep runs 2000 on every situation, four of a kind included, "
             "and agrees with the engine: its report's basic_coverage shows 2100's THEN run (62 times in "
             "cribbage-zx sweep play --quick)."),
    Note("C9", "rare", statements=((4160, 4160),), outcomes=((4160, 3, "true"),),
         why="4160 ... IF WIN>0 THEN RETURN: the player's 121st point must be the point for a go (the "
             "computer's 4260 happens more often); possible, but no seeded game of the default or thorough set "
             "ends that way."),
)
