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


NOTES: tuple[Note, ...] = ()
