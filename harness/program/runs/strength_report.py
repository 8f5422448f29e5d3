"""report.json of a strength run: `StrengthReport`, written by `write_report` and read back by `read_report`, the
one type of both (runtime/records.py), and its games the study has no figures of (`GameFailure`)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...runtime import atomic
from ...runtime.records import plain, read_record


@dataclass(frozen=True)
class GameFailure:
    """A program game the study has no figures of: its job raised, its driver gave up, or it was not studied."""
    index: int
    seed: int
    opponent: str
    failure: str | None


@dataclass(frozen=True)
class StrengthReport:
    """A strength run's report.json, written by `run` and `reanalyse` and read by `read_report`, the one type of
    both. Its figures are study.py's and this module's (match, discard and play figures, intervals), kept as
    the JSON they are; `ladder`, `verdict` and `plain_words` read them."""
    opponents: list[str]
    figures: dict[str, Any]                  # per opponent: study.match_figures
    computer: dict[str, Any]                 # the program's discards and plays, its cribs against Schell's
    crib_by_pair: dict[str, Any]
    engine: dict[str, Any]                   # per pairing: engine_figures
    validation: dict[str, Any]               # the crib table, the first dealer's band, the planted weak player
    harness_failures: list[GameFailure]
    references: dict[str, Any]
    ladder: list[dict[str, Any]]             # `ladder`'s rungs, weakest first
    verdict: str
    plain_words: str
    run: dict[str, Any]                      # how it was run (games, seed, workers, wall and CPU time)
    tape: dict[str, Any] | None = None       # the tape the games played (model/build.py tape_record)

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = plain(self)
        return out


def write_report(path: Path, report: StrengthReport) -> None:
    atomic.write_json(path, report.as_json(), indent=1, sort_keys=True)


def read_report(path: Path) -> StrengthReport:
    """A strength run's report.json as its type; anything else is an InputError naming the field."""
    return read_record(StrengthReport, path, "strength report")
