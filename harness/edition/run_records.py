"""The records of a run folder as the report pages read them: report.json, each game's transcript and judgements.

Nothing is judged again: `read_run` reads what regress left (report.json through regress.read_report, every
`game-NNN.jsonl` and `game-NNN.judgements.jsonl`) and checks only that each judgement stands at the action it
judges. The report, the game pages and the watch pages are drawn from what it returns.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError
from ..program.judge.judgements import (VERDICT_RULES, Judgement, check_actions, is_transcript_name,
                                        judgements_name, read_judgements)
from ..program.records import events as E
from ..program.runs.regress import PerGame, RegressReport, is_report, read_report
from ..runtime.validate import expect, read_json

__all__ = ["GameRecords", "RunView", "read_run"]


@dataclass
class GameRecords:
    index: int
    name: str                            # game-NNN
    head: E.Header
    events: list[E.Event]
    judgements: list[Judgement] | None   # None: no records file
    record: PerGame | None               # report.json's per_game entry (None: the report has none for it)

    def under(self, rules: str) -> list[Judgement]:
        return [j for j in self.judgements or [] if j.rules == rules]


@dataclass
class RunView:
    report: RegressReport | None         # None: a sweeps' folder, its facts only
    games: list[GameRecords]
    rule_sets: list[str]                 # the verdict's first
    facts: dict[str, object] = field(default_factory=dict)   # a sweeps' folder's reports, shown as they are


def read_run(run_dir: Path) -> RunView:
    """report.json (regress.read_report), every transcript and every judgements file of a run folder; a
    report.json that is not a regress run's, in a folder without transcripts (a sweep's of old), is shown as
    its facts."""
    path = run_dir / "report.json"
    data = expect(read_json(path, InputError), dict, f"{path}", InputError)
    games, rule_sets = _read_games(run_dir)
    if not games and not is_report(data):
        return RunView(None, [], [VERDICT_RULES], data)
    report = read_report(path)
    per_game = {g.index: g for g in report.per_game}
    for g in games:
        g.record = per_game.get(g.index)
    if not rule_sets:
        rule_sets = list(report.unexplained_by_rules) or [VERDICT_RULES]
    rule_sets.sort(key=lambda n: n != VERDICT_RULES)
    return RunView(report, games, rule_sets)


def _read_games(run_dir: Path) -> tuple[list[GameRecords], list[str]]:
    """Every game's transcript and judgements of a run folder, and the rule sets they were judged under."""
    games = []
    rule_sets: list[str] = []
    for path in sorted(run_dir.glob("game-*.jsonl")):
        if not is_transcript_name(path.name):
            continue
        index = int(path.stem.split("-")[1])
        try:
            with open(path, encoding="utf-8") as f:
                head, events = E.read_jsonl(f)
        except OSError as exc:
            raise InputError(f"{path}: {exc.strerror}") from None
        except InputError as exc:
            raise InputError(f"{path}: {exc}") from None
        records = run_dir / judgements_name(index)
        judgements = None
        if records.exists():
            jhead, judgements = read_judgements(records)        # an InputError naming FILE:LINE
            check_actions(events, judgements, str(records))   # each judgement at the action it judges
            for name in jhead.rule_sets:
                if name not in rule_sets:
                    rule_sets.append(name)
        games.append(GameRecords(index, path.stem, head, events, judgements, None))
    return games, rule_sets

