"""report.json of a regress run, the record both sides read: `RegressReport` with its games (`PerGame`) and
harness failures, written by `write_report` and read back by `read_report`, the one reader (the command's, the
edition's, `cribbage-zx html --report`'s); a game's counts summed from its judgements file
(`counts_of_judgements`); and the summary the command prints."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from ...errors import InputError
from ...runtime import atomic
from ...runtime.records import plain, record
from ...runtime.validate import JsonObject, expect, read_json
from ..judge.judgements import Counts, difference_to_json, parse_judgements, under
from .coverage import RunCoverage, summary_rows


@dataclass(frozen=True)
class RulesCounts:
    """A game's documented and unexplained differences under one rule set."""
    documented: dict[str, int]
    unexplained: list[dict[str, object]]


@dataclass
class GameCounts:
    """A game's counts for report.json, summed from its judgements file: the verdict's rule set's, and
    every rule set's documented and unexplained differences (*under_rules*)."""
    score_events: int
    checks: int
    pictures: int
    screen_checks: int
    screen_differences: int
    screen_unexplained: int
    documented: dict[str, int]
    unexplained: list[dict[str, object]]
    under_rules: dict[str, RulesCounts]


#: report.json's layout: bumped when a field changes meaning or goes (a new field with a default does not)
REPORT_SCHEMA = 1


@dataclass(frozen=True)
class PerGame:
    """A game's entry in report.json's per_game."""
    index: int
    seed: int
    strategy: str
    winner: str | None
    scores: dict[str, int]
    completed: bool
    deals: int
    score_events: int
    documented: dict[str, int]
    unexplained: list[dict[str, object]]
    basic_errors: list[str]
    timeout: str | None
    failure: str | None
    emulated_s: float
    wall_s: float
    adversarial_tries: list[object]
    findings: dict[str, str | None]
    games_played: int
    wins: list[dict[str, object]]
    pictures: int
    screen_checks: int
    screen_differences: int


@dataclass(frozen=True)
class HarnessFailure:
    """A game the harness failed on (its job raised, or its driver gave up): report.json's
    harness_failure_details."""
    index: int
    seed: int
    strategy: str
    error: str


@dataclass(frozen=True)
class RegressReport:
    """report.json of a regress run: written by `run` (`write_report`) and read by `read_report`, the one type
    of both (runtime/records.py), so the writer and every reader agree on each field."""
    games: int
    ended: str
    played: int
    completed: int
    deals: int
    actions: int
    score_events: int
    checks: int
    pictures: int
    screen_checks: int
    screen_differences: int
    screen_unexplained: int
    screen_cpu_share: float
    documented_differences: int
    documented_by_deviation: dict[str, int]
    unexplained_differences: int
    basic_errors: int
    timeouts: int
    harness_failures: int
    harness_failure_details: list[HarnessFailure]
    wall_s: float
    emulated_s: float
    wall_s_per_game: float
    workers: int
    scheduler: str | None
    deviations: dict[str, dict[str, str]]
    findings: dict[str, int]
    documented_by_rules: dict[str, dict[str, int]]
    unexplained_by_rules: dict[str, int]
    per_game: list[PerGame]
    thorough: bool
    accelerate: bool
    jobs_cpu_s: float
    tape: JsonObject
    coverage: RunCoverage
    report_schema: int = REPORT_SCHEMA

    def as_json(self) -> dict[str, object]:
        return plain(self)


def write_report(path: Path, report: RegressReport) -> None:
    atomic.write_json(path, report.as_json(), indent=1, sort_keys=True)


def is_report(data: Mapping[str, object]) -> bool:
    """Whether a report.json's object is a regress run's (a sweep's of old holds other facts)."""
    return "per_game" in data


def read_report(path: Path) -> RegressReport:
    """A regress run's report.json as its type, the one reader of it (the command's and the edition's); an
    older one (before report_schema) is read when every field is there, else refused in one line, as is one
    of a later schema."""
    data = expect(read_json(path), dict, str(path))
    schema = data.get("report_schema", 0)
    if not isinstance(schema, int) or isinstance(schema, bool) or schema > REPORT_SCHEMA:
        raise InputError(f"{path}: report_schema {schema!r}: written by a later cribbage-zx "
                         f"(this one reads up to {REPORT_SCHEMA}); run regress again")
    try:
        found: RegressReport = record(RegressReport, dict(data, report_schema=REPORT_SCHEMA), f"{path}: report")
    except InputError as exc:
        if schema < REPORT_SCHEMA:
            raise InputError(f"{path}: a report.json of schema {schema}, older than {REPORT_SCHEMA}, "
                             f"and not readable as it ({str(exc).removeprefix(f'{path}: ')}); run regress again") \
                from None
        raise
    return found


def counts_of_judgements(text: str, name: str) -> GameCounts:
    """A game's counts for report.json, summed from its judgements file's records (*text*, named *name*):
    the verdict's rule set at the top level, every rule set under "under_rules"."""
    head, judgements = parse_judgements(text.splitlines(), name)
    rule_sets = head.rule_sets
    under_rules: dict[str, RulesCounts] = {}
    for rules in rule_sets:
        js = under(judgements, rules)
        under_rules[rules] = RulesCounts(Counts.of(js).documented,
                                         [difference_to_json(d) for j in js for d in j.unexplained])
    c, verdict = Counts.of(under(judgements, rule_sets[0])), under_rules[rule_sets[0]]
    return GameCounts(score_events=c.score_events, checks=c.checks, pictures=c.pictures,
                      screen_checks=c.screen_checks, screen_differences=c.screen_differences,
                      screen_unexplained=c.screen_unexplained, documented=verdict.documented,
                      unexplained=verdict.unexplained, under_rules=under_rules)


@dataclass(frozen=True)
class RunFacts:
    """What report.json says of the run itself rather than of its games (`_report` adds the games' sums)."""
    games: int
    ended: str
    wall_s: float
    workers: int
    scheduler: str | None
    thorough: bool
    accelerate: bool
    jobs_cpu_s: float
    tape: JsonObject
    coverage: RunCoverage


def summary_table(report: RegressReport) -> str:
    rows = [
        ("games", report.games), ("completed", report.completed), ("deals", report.deals),
        ("actions", report.actions), ("score events checked", report.score_events),
        ("engine checks", report.checks),
        ("screen pictures judged", report.pictures),
        ("screen judgements", report.screen_checks),
        ("screen differences", report.screen_differences),
        ("  of them unexplained", report.screen_unexplained),
        ("documented differences", report.documented_differences),
        *((f"  {k}", v) for k, v in report.documented_by_deviation.items()),
        ("unexplained differences", report.unexplained_differences),
        ("BASIC error reports", report.basic_errors), ("timeouts", report.timeouts),
        ("harness failures", report.harness_failures),
        *((f"finding {k} (the original stops)", v) for k, v in report.findings.items()),
        *((f"unexplained under {k} rules", v) for k, v in report.unexplained_by_rules.items() if k != "standard"),
        *summary_rows(report.coverage, report.thorough),
        ("emulated seconds", report.emulated_s), ("wall seconds", report.wall_s),
        ("wall seconds per game, in its worker", report.wall_s_per_game),
    ]
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k:<{width}}  {v}" for k, v in rows)
