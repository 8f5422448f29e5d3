"""A BASIC profiler: every statement the ROM runs, counted, and which way every IF went.

The ROM numbers statements within a line by ':' and THEN (the statement after
THEN gets its own SUBPPC), so a statement is (line, statement). The table of
statements is read from the tokenised program; the counts come from a
statement hook (`Spectrum48.add_statement_hook`). An IF at (l, s) went true
when the next statement run is (l, s+1); anything else means it went false.
Knows nothing of any particular program.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .basic import split_program

NUMBER_MARK = 0x0E        # five hidden bytes of a number's value follow
QUOTE, COLON = 0x22, 0x3A
TOKEN_THEN, TOKEN_REM, TOKEN_IF = 0xCB, 0xEA, 0xFA


def statement_table(program: bytes) -> dict[tuple[int, int], int]:
    """{(line, statement): the first code of the statement} for a tokenised program area."""
    table: dict[tuple[int, int], int] = {}
    for number, body in split_program(program):
        stmt, i, in_string, start = 1, 0, False, True
        while i < len(body):
            b = body[i]
            if b == 0x0D and not in_string:
                break
            if start and b != 0x20:
                table[(number, stmt)] = b
                start = False
                if b == TOKEN_REM:
                    break
            if b == QUOTE:
                in_string = not in_string
            elif not in_string and b == NUMBER_MARK:
                i += 6
                continue
            elif not in_string and b in (COLON, TOKEN_THEN):
                stmt += 1
                start = True
            i += 1
    return table


@dataclass
class Profile:
    """Execution counts of one or more runs; add profiles together to merge runs."""
    counts: Counter = field(default_factory=Counter)            # (line, stmt) -> times run
    if_true: Counter = field(default_factory=Counter)           # (line, stmt) of an IF -> times it went true
    if_false: Counter = field(default_factory=Counter)

    def __add__(self, other: "Profile") -> "Profile":
        return Profile(self.counts + other.counts, self.if_true + other.if_true, self.if_false + other.if_false)

    def as_json(self) -> dict:
        key = "{0[0]}:{0[1]}".format
        return {"counts": {key(k): v for k, v in sorted(self.counts.items())},
                "if_true": {key(k): v for k, v in sorted(self.if_true.items())},
                "if_false": {key(k): v for k, v in sorted(self.if_false.items())}}

    @classmethod
    def from_json(cls, data: dict) -> "Profile":
        def parse(d: dict) -> Counter:
            return Counter({tuple(int(x) for x in k.split(":")): v for k, v in d.items()})
        return cls(parse(data["counts"]), parse(data["if_true"]), parse(data["if_false"]))


class Profiler:
    """A statement hook that fills a `Profile`; `ifs` are the IF statements of the program."""

    def __init__(self, ifs: set[tuple[int, int]]):
        self.ifs = ifs
        self.profile = Profile()
        self._if: tuple[int, int] | None = None

    @classmethod
    def for_program(cls, program: bytes) -> "Profiler":
        return cls({k for k, code in statement_table(program).items() if code == TOKEN_IF})

    def hook(self, line: int, stmt: int) -> bool:
        here = (line, stmt)
        self.profile.counts[here] += 1
        pending = self._if
        if pending is not None:
            if here == (pending[0], pending[1] + 1):
                self.profile.if_true[pending] += 1
            else:
                self.profile.if_false[pending] += 1
            self._if = None
        if here in self.ifs:
            self._if = here
        return False
