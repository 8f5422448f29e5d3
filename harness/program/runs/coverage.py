"""How much of «КРИБЕДЖ» a run exercised: statements run, IFs seen both ways, and why the rest is not.

The profiles of every game (`spectrum.profile`) are added up and set against
the program's statement table. What never ran, and every IF seen one way only,
is matched against `coverage_notes.NOTES`: each note names statements or IF
outcomes and says why a run does not reach them (dead code, a missing GO TO
target, DEBUG only, a situation that cannot arise...) with its evidence. A
never-run item without a note is a gap in the verification, reported as such.
"""
from __future__ import annotations

from typing import TypedDict

from dataclasses import dataclass, field

from ...spectrum.profile import TOKEN_IF, Profile, statement_table
from ..model.coverage_notes import NOTES, Note


def key(line: int, stmt: int) -> str:
    return f"{line}:{stmt}"


@dataclass
class Coverage:
    statements: dict[tuple[int, int], int]           # every statement -> its first code
    profile: Profile
    never_run: list[tuple[int, int]] = field(default_factory=list)
    one_way: list[tuple[tuple[int, int], str]] = field(default_factory=list)   # (IF, the outcome never seen)

    @classmethod
    def of(cls, program: bytes, profile: Profile) -> "Coverage":
        table = statement_table(program)
        cov = cls(table, profile)
        cov.never_run = sorted(k for k in table if not profile.counts.get(k))
        for k in sorted(table):
            if table[k] != TOKEN_IF or not profile.counts.get(k):
                continue
            if not profile.if_true.get(k):
                cov.one_way.append((k, "true"))
            if not profile.if_false.get(k):
                cov.one_way.append((k, "false"))
        return cov

    @property
    def ifs(self) -> list[tuple[int, int]]:
        return [k for k, code in self.statements.items() if code == TOKEN_IF]

    @property
    def ifs_both(self) -> int:
        return sum(1 for k in self.ifs if self.profile.if_true.get(k) and self.profile.if_false.get(k))

    def explained(self) -> dict[str, Note | None]:
        """Every never-run statement and one-way IF outcome, with the note that explains it (or None)."""
        out: dict[str, Note | None] = {}
        for k in self.never_run:
            out[key(*k)] = next((n for n in NOTES if n.covers_statement(k)), None)
        for k, outcome in self.one_way:
            out[f"{key(*k)} {outcome}"] = next((n for n in NOTES if n.covers_outcome(k, outcome)), None)
        return out

    def as_json(self) -> CoverageFigures:
        explained = self.explained()
        ifs = self.ifs
        return {
            "statements_run": len(self.statements) - len(self.never_run),
            "statements_total": len(self.statements),
            "ifs_both": self.ifs_both,
            "ifs_total": len(ifs),
            "never_run": [key(*k) for k in self.never_run],
            "one_way": [f"{key(*k)} {outcome}" for k, outcome in self.one_way],
            "unexplained": sorted(k for k, n in explained.items() if n is None),
            "explained_by": {k: n.id for k, n in explained.items() if n is not None},
            "counts": {key(*k): v for k, v in sorted(self.profile.counts.items())},
            "ifs": {key(*k): [self.profile.if_true.get(k, 0), self.profile.if_false.get(k, 0)] for k in sorted(ifs)},
        }


class CoverageFigures(TypedDict):
    """`Coverage.as_json`: what report.json's coverage says of the statements and IFs (RunCoverage's first
    fields)."""
    statements_run: int
    statements_total: int
    ifs_both: int
    ifs_total: int
    never_run: list[str]
    one_way: list[str]
    unexplained: list[str]
    explained_by: dict[str, str]
    counts: dict[str, int]
    ifs: dict[str, list[int]]


@dataclass(frozen=True)
class RunCoverage:
    """report.json's coverage: a run's `Coverage.as_json`, with the kinds of choice the players took and the
    pictures judged at each moment (regress sums them over the games)."""
    statements_run: int
    statements_total: int
    ifs_both: int
    ifs_total: int
    never_run: list[str]
    one_way: list[str]
    unexplained: list[str]
    explained_by: dict[str, str]
    counts: dict[str, int]
    ifs: dict[str, list[int]]
    choices: dict[str, int]
    pictures_at: dict[str, int]


def summary_rows(cov: RunCoverage, thorough: bool) -> list[tuple[str, str]]:
    """The run summary's coverage rows. Without --thorough the items left without a note are expected: the
    thorough set reaches them (tests/test_coverage.py holds the default run to exactly that); after the
    thorough set, each one is a gap in the verification."""
    left = ("  without a note: a gap (see docs/COVERAGE.md)" if thorough
            else "  without a note: --thorough reaches them (docs/COVERAGE.md)")
    return [("statements run", f"{cov.statements_run}/{cov.statements_total}"),
            ("IFs seen both ways", f"{cov.ifs_both}/{cov.ifs_total}"),
            ("never run / one-way IF outcomes", f"{len(cov.never_run)} / {len(cov.one_way)}"),
            (left, str(len(cov.unexplained)))]
