"""A BASIC profiler: every statement the ROM runs, counted, and which way every IF went.

The ROM numbers statements within a line by ':' and THEN (the statement after
THEN gets its own SUBPPC), so a statement is (line, statement). The table of
statements is read from the tokenised program; the machine counts each one
as the ROM starts it (`Spectrum48.count_statements`). An IF at (l, s) went
true as often as (l, s+1) ran. Knows nothing of any particular program.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterator, Mapping, Sequence

from .basic import split_program
from .tape import FLAG_HEADER, HEADER_LENGTH, TYPE_PROGRAM, parse_header

if TYPE_CHECKING:
    from .machine import Spectrum48
    from .tape import TapeBlock

#: a BASIC statement: (line, statement number within the line)
Statement = tuple[int, int]

NUMBER_MARK = 0x0E        # five hidden bytes of a number's value follow
QUOTE, COLON = 0x22, 0x3A
TOKEN_THEN, TOKEN_REM, TOKEN_IF = 0xCB, 0xEA, 0xFA


def statements(program: bytes) -> Iterator[tuple[int, int, bytes]]:
    """Each statement of a tokenised program area as (line, statement, its codes): the codes as typed, with
    what the ROM splits statements by taken out, and neither a string's contents (its quotes stay), the
    hidden five-byte numbers nor a REM's text. A statement that is only spaces is not one."""
    for number, body in split_program(program):
        stmt, i, in_string, codes = 1, 0, False, bytearray()
        while i < len(body):
            b = body[i]
            if b == 0x0D and not in_string:
                break
            if b == QUOTE:
                in_string = not in_string
                codes.append(b)
            elif in_string:
                pass
            elif b == NUMBER_MARK:
                i += 6
                continue
            elif b in (COLON, TOKEN_THEN):
                if codes.strip(b" "):
                    yield number, stmt, bytes(codes)
                stmt, codes = stmt + 1, bytearray()
            else:
                codes.append(b)
                if b == TOKEN_REM and not codes[:-1].strip(b" "):
                    break                           # REM: the rest of the line is its text
            i += 1
        if codes.strip(b" "):
            yield number, stmt, bytes(codes)


def statement_table(program: bytes) -> dict[tuple[int, int], int]:
    """{(line, statement): the first code of the statement} for a tokenised program area."""
    return {(line, stmt): codes.lstrip(b" ")[0] for line, stmt, codes in statements(program)}


@dataclass
class Profile:
    """Execution counts of one or more runs; add profiles together to merge runs."""
    counts: Counter[Statement] = field(default_factory=Counter)     # (line, stmt) -> times run
    if_true: Counter[Statement] = field(default_factory=Counter)    # (line, stmt) of an IF -> times it went true
    if_false: Counter[Statement] = field(default_factory=Counter)

    def __add__(self, other: "Profile") -> "Profile":
        return Profile(self.counts + other.counts, self.if_true + other.if_true, self.if_false + other.if_false)

    def as_json(self) -> dict[str, dict[str, int]]:
        key = "{0[0]}:{0[1]}".format
        return {"counts": {key(k): v for k, v in sorted(self.counts.items())},
                "if_true": {key(k): v for k, v in sorted(self.if_true.items())},
                "if_false": {key(k): v for k, v in sorted(self.if_false.items())}}

    @classmethod
    def from_json(cls, data: Mapping[str, Mapping[str, int]]) -> "Profile":
        def statement(key: str) -> Statement:
            line, stmt = key.split(":")
            return int(line), int(stmt)

        def parse(d: Mapping[str, int]) -> Counter[Statement]:
            return Counter({statement(k): v for k, v in d.items()})
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
        self._machine: Spectrum48 | None = None
        self._counts: list[int] | None = None

    @classmethod
    def for_program(cls, program: bytes) -> "Profiler":
        return cls(statement_table(program))

    @staticmethod
    def program_of_tape(blocks: Sequence[TapeBlock]) -> bytes:
        """The program area saved on a tape: the first data block after a program header, cut to its length."""
        for head, data in zip(blocks, blocks[1:]):
            if head.flag == FLAG_HEADER and len(head.data) == HEADER_LENGTH:
                header = parse_header(head)
                if header.type == TYPE_PROGRAM:
                    return data.data[:header.param2]
        raise ValueError("the tape holds no BASIC program")

    def start(self, machine: Spectrum48) -> None:
        self._machine = machine
        self._counts = machine.count_statements(self.last_line)

    def stop(self) -> Profile:
        counts, self._counts = self._counts, None
        if self._machine is not None:
            self._machine.stop_counting_statements()
        if counts is not None:
            # only the program's own statements (a direct command's, line 0 before PPC is set, is not):
            # read where they are counted, not the whole list
            run = Counter({k: n for k in self.statements if (n := counts[k[0] << 8 | k[1]])})
            self.profile = self.profile + profile_of_counts(run, self.ifs)
        return self.profile


def profile_of_counts(counts: Counter[Statement], ifs: set[Statement]) -> Profile:
    """The profile of statement counts, with each IF's outcomes derived as `Profiler` explains."""
    true: Counter[Statement] = Counter()
    false: Counter[Statement] = Counter()
    for line, stmt in ifs:
        ran = counts.get((line, stmt), 0)
        if ran:
            went = min(ran, counts.get((line, stmt + 1), 0))
            if went:
                true[(line, stmt)] = went
            if ran - went:
                false[(line, stmt)] = ran - went
    return Profile(Counter(counts), true, false)
