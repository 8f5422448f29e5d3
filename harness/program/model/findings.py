"""Where the original program stops with a BASIC error report, and why: findings, not harness failures.

A report the program stops with under some input a person can give (an empty
answer to a question, say) is a defect of the original, not of the harness:
each known one is listed with its lines, what a person does to cause it and
what the listing does with it. `program_findings` names the finding of each
error report in a game's record, or None for a report nobody has explained.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ..records.events import Event, Report
from . import program as P


@dataclass(frozen=True)
class Finding:
    id: str
    code: str                 # the report's code, as the ROM prints it
    line: int                 # the line:statement it stops at
    statement: int
    lines: str                # the BASIC lines involved
    cause: str                # what a person does
    what: str                 # what the listing does with it
    brief: str                # the finding in one line, for the README's table


FINDINGS = (
    Finding("F1", "3", P.INSTRUCTIONS_TESTED, 1, f"{P.ASK_INSTRUCTIONS}-{P.INSTRUCTIONS_TESTED}",
            "answers the first question («ВАМ НУЖНА ИНСТРУКЦИЯ? (Y/N):») with ENTER alone",
            "7070 tests I$(1)=\"Y\": the first character of an empty string is out of range, "
            "so the program stops with «3 Subscript wrong» before the game begins (RUN starts again).",
            "ENTER alone at the first question stops the program («3 Subscript wrong»)"),
    Finding("F2", "2", P.ASK_CLAIM, 1, f"{P.ASK_CLAIM}-{P.CLAIM_RANGE_CHECK}",
            "types a letter at «ВВЕДИТЕ СВОЙ СЧЕТ:» (muggins on)",
            "SS is a numeric INPUT: the ROM evaluates what is typed as an expression, and a letter that "
            "names no simple variable of the program stops it with «2 Variable not found» (one that does, "
            "such as S or P, is taken as that variable's value); 4785 only re-asks a number below 0 or "
            "above 50.",
            "a letter typed as the muggins count stops the program («2 Variable not found»)"),
)


def finding_for(code: str, line: int, statement: int) -> Finding | None:
    return next((f for f in FINDINGS if (f.code, f.line, f.statement) == (code, line, statement)), None)


def program_findings(events: Iterable[Event]) -> dict[str, str | None]:
    """{report text: finding id or None} for every error report among a game's events."""
    out: dict[str, str | None] = {}
    for ev in events:
        if isinstance(ev, Report) and ev.code not in ("0", "9"):
            f = finding_for(ev.code, ev.line, ev.statement)
            out[f"{ev.code} {ev.message}, {ev.line}:{ev.statement}"] = f.id if f else None
    return out


def table_markdown() -> str:
    rows = ["| id | report | BASIC lines | what a person does | what the listing does |",
            "| --- | --- | --- | --- | --- |"]
    rows += [f"| {f.id} | {f.code} at {f.line}:{f.statement} | {f.lines} | {f.cause} | {f.what} |" for f in FINDINGS]
    return "\n".join(rows)
