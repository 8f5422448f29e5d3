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
    """Counts a machine's statements while a program runs; `stop()` gives the `Profile`.

    The machine counts (one list increment a statement, no Python call); the
    IF outcomes are derived afterwards: the statement after THEN, (l, s+1),
    runs only when the IF at (l, s) went true, so that IF went true
    count(l, s+1) times and false count(l, s) - count(l, s+1) times.
    """

    def __init__(self, statements: dict[tuple[int, int], int]):
        self.statements = statements               # the program's statement table (statement_table)
        self.ifs = {k for k, code in statements.items() if code == TOKEN_IF}
        self.last_line = max((line for line, _ in statements), default=0)
        self.profile = Profile()
        self._machine = None
        self._counts: list[int] | None = None

    @classmethod
    def for_program(cls, program: bytes) -> "Profiler":
        return cls(statement_table(program))

    @staticmethod
    def program_of_tape(blocks: list) -> bytes:
        """The program area saved on a tape: the first data block after a program header, cut to its length."""
        from .tape import FLAG_HEADER, HEADER_LENGTH, TYPE_PROGRAM, parse_header
        for head, data in zip(blocks, blocks[1:]):
            if head.flag == FLAG_HEADER and len(head.data) == HEADER_LENGTH:
                header = parse_header(head)
                if header.type == TYPE_PROGRAM:
                    return data.data[:header.param2]
        raise ValueError("the tape holds no BASIC program")

    def start(self, machine) -> None:
        self._machine = machine
        self._counts = machine.count_statements(self.last_line)

    def stop(self) -> Profile:
        counts, self._counts = self._counts, None
        if self._machine is not None:
            self._machine.stop_counting_statements()
        if counts is not None:
            # only the program's own statements: a direct command's (line 0 before PPC is set) is not
            run = Counter({(k >> 8, k & 0xFF): n for k, n in enumerate(counts)
                           if n and (k >> 8, k & 0xFF) in self.statements})
            self.profile = self.profile + profile_of_counts(run, self.ifs)
        return self.profile


def profile_of_counts(counts: Counter, ifs: set[tuple[int, int]]) -> Profile:
    """The profile of statement counts, with each IF's outcomes derived as `Profiler` explains."""
    true, false = Counter(), Counter()
    for line, stmt in ifs:
        ran = counts.get((line, stmt), 0)
        if ran:
            went = min(ran, counts.get((line, stmt + 1), 0))
            if went:
                true[(line, stmt)] = went
            if ran - went:
                false[(line, stmt)] = ran - went
    return Profile(Counter(counts), true, false)
