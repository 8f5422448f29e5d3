"""report.json of a strength run: `StrengthReport`, written by `write_report` and read back by `read_report`, the
one type of both (runtime/records.py), and the records it is made of: the engine's self-play figures, the
crib table's validation, the first dealer's check, the ladder's rungs, the games the study has no figures of.
The match figures (rates, means, discards, plays) are study.py's records."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...runtime import atomic
from ...runtime.records import plain, read_record
from ...runtime.validate import expect, read_json
from .published import Reference
from .study import DiscardFigures, MatchFigures, Mean, PlayFigures, Rate


@dataclass(frozen=True)
class GameFailure:
    """A program game the study has no figures of: its job raised, its driver gave up, or it was not studied."""
    index: int
    seed: int
    opponent: str
    failure: str | None


@dataclass(frozen=True)
class EngineFigures:
    """The engine's self-play games of one pairing (`engine_figures`): how many, player 0's wins, the first
    dealer's, and each player's points a deal."""
    games: int
    player0_wins: Rate
    first_dealer_wins: Rate
    points_per_deal: tuple[Mean, Mean]


@dataclass(frozen=True)
class CribRow:
    """A thrown rank pair of the crib table: the engine's exact crib value, Schell's own and opponent's, Hessel's
    opponent's, and the engine's distance from Schell's midpoint."""
    pair: str
    engine: float
    schell_own: float
    schell_opponent: float
    hessel_opponent: float
    off_midpoint: float


@dataclass(frozen=True)
class CribTable:
    """The engine's crib table against Schell's (`crib_validation`): the pairs within the tolerance of his
    midpoint, those between his two values, the worst pair, and every row."""
    tolerance: float
    pairs: int
    within: int
    between_own_and_opponent: int
    worst: CribRow
    rows: list[CribRow]


@dataclass(frozen=True)
class DealerCheck:
    """The first dealer's rate between equal players against the published band (`first_dealer_check`)."""
    band: list[float]
    estimate: Rate | None
    half_width_needed: float
    games_needed: int
    status: str
    half_width: float | None


@dataclass(frozen=True)
class FirstDealer:
    """The first dealer's advantage: the published band and its source, the rate measured between equal
    players (None: no such games), whether it meets the band, and the check said in words."""
    band: list[float]
    source: str
    measured: Rate | None
    overlaps_band: bool
    check: DealerCheck


@dataclass(frozen=True)
class Validation:
    """The engine set against the published figures, and the planted weak player's figures (None: not played)."""
    crib_table: CribTable
    first_dealer: FirstDealer
    planted_highest: EngineFigures | None


@dataclass(frozen=True)
class CribSurprise:
    """The cribs the program threw to, less Schell's value of the pair thrown, by whose crib it was."""
    own: Mean
    opponent: Mean


@dataclass(frozen=True)
class ComputerFigures:
    """The program's discards and cards laid over all its games, and its cribs against Schell's."""
    discards: DiscardFigures
    plays: PlayFigures
    crib_less_schell: CribSurprise


@dataclass(frozen=True)
class PairCribs:
    """The cribs after the program threw a rank pair, (how many, mean points) to its own crib and the
    opponent's, beside Schell's values of the pair."""
    own: tuple[int, float | None]
    opponent: tuple[int, float | None]
    schell_own: float
    schell_opponent: float


@dataclass(frozen=True)
class Rung:
    """A player on the ladder: its name, who it is in a player's words, its games won against the expected-value
    player, and where they were played."""
    player: str
    words: str
    wins_vs_ev: Rate
    source: str


@dataclass(frozen=True)
class StrengthReport:
    """A strength run's report.json, written by `run` and `reanalyse` and read by `read_report`, the one type of
    both. `run` (how it was run: games, seed, workers, wall and CPU time; a study again keeps the earlier run's
    and adds its own) and `tape` (model/build.py tape_record) are kept as the JSON objects they are."""
    opponents: list[str]
    figures: dict[str, MatchFigures]         # per opponent: study.match_figures
    computer: ComputerFigures
    crib_by_pair: dict[str, PairCribs]
    engine: dict[str, EngineFigures]         # per pairing ("ev vs ev"): engine_figures
    validation: Validation
    harness_failures: list[GameFailure]
    references: dict[str, Reference]
    ladder: list[Rung]                       # `ladder`'s rungs, weakest first
    verdict: str
    plain_words: str
    run: dict[str, object]
    tape: dict[str, object] | None = None

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = plain(self)
        return out


def write_report(path: Path, report: StrengthReport) -> None:
    atomic.write_json(path, report.as_json(), indent=1, sort_keys=True)


def read_report(path: Path) -> StrengthReport:
    """A strength run's report.json as its type; anything else is an InputError naming the field."""
    return read_record(StrengthReport, path, "strength report")


def earlier_run(path: Path) -> tuple[dict[str, object], dict[str, object] | None]:
    """The run facts and tape of an earlier report.json, read leniently (the report may be of a study since
    changed, so not through `read_report`): ({}, None) for what it does not hold."""
    old = expect(read_json(path), dict, str(path))
    run, tape = old.get("run", {}), old.get("tape")
    return (run if isinstance(run, dict) else {}), (tape if isinstance(tape, dict) else None)


def run_tape(folder: Path) -> dict[str, object] | None:
    """The tape a run's games played, as its report.json records it (a strength or regress run), or None."""
    path = folder / "report.json"
    if not path.exists():
        return None
    tape = expect(read_json(path), dict, str(path)).get("tape")
    if not (isinstance(tape, dict) and isinstance(tape.get("sha256"), str)):
        return None
    return tape


def tape_sha256(tape: dict[str, object]) -> str:
    """The SHA-256 of a tape `run_tape` returned (it has one)."""
    return str(tape.get("sha256"))
