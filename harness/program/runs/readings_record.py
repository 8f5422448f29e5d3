"""The record of `cribbage-zx readings` (docs/data/readings.json): its types, its one reader (`read_readings`,
`readings_record`) and its one writer (`write_readings`); program/runs/readings.py measures it, the command
adds what only it knows (its line, the deviations' table, its own CPU time), and edition/readings_doc.py
writes the pages from it.

The file is a JSON object with its keys sorted. A field written after schema 1 began (the tape, the end, the
readings left undone, the shared tapes, a consequence's vanish_playing, ...) may be missing from an older
record: it is None here, and a None field is left out when the record is written again, so a record read and
written keeps its bytes.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, Mapping

from ...errors import InputError
from ...runtime import atomic
from ...runtime.records import record
from ...runtime.validate import read_json

#: the verdicts, the most telling first
KINDS = ("stops", "play", "picture", "identical", "untested", "stores-alike", "rom-rejects", "not-tokenised")
PLAYED = ("stops", "play", "picture", "identical")
REFUSED = ("rom-rejects", "not-tokenised", "stores-alike")
NO_GAME = "not reached by any game of the reconstruction's run"
BUDGET = "untested (budget): the run stopped (its time budget or Ctrl-C) before this reading's games"


@dataclass(frozen=True)
class Reading:
    """A reading of basic/readings.toml (readings.load): a line as the scan may also be read. Each consequence
    carries its fields."""
    line: int
    id: str
    source: str              # ocr, fragment, confusion, evidence
    what: str
    text: str                # the line's body as this reading has it
    entry: bool              # the line has a judgement entry in basic/RECONSTRUCTION.md


@dataclass(frozen=True)
class TapeRecord:
    """The reconstruction's tape the readings were measured against (build.tape_record: its path, SHA-256 and
    sources' fingerprint; the path and fingerprint may be null)."""
    path: str | None
    sha256: str
    fingerprint: str | None
    WRITES_NULL: ClassVar[bool] = True


@dataclass(frozen=True)
class RecordPlan:
    """The games a reading is played with: *games* of the reconstruction's plain games from *seed*, the thorough
    set or not, the frame budget's (factor, margin). A field an older record lacks is None."""
    games: int | None = None
    seed: int | None = None
    thorough: bool | None = None
    frames_budget: list[int] | None = None


@dataclass(frozen=True)
class BaseGame:
    """One of the reconstruction's games, as the record keeps it: how it ended and how many lines it ran."""
    index: int
    seed: int
    strategy: str
    scores: dict[str, int]
    documented: dict[str, int]
    lines_run: int


@dataclass(frozen=True)
class Consequence:
    """What one reading changes, measured."""
    id: str
    line: int
    source: str
    what: str
    text: str
    entry: bool
    kind: str
    detail: str = ""
    games: list[str] = field(default_factory=list)           # "seed/strategy" of the games played
    moments: list[str] = field(default_factory=list)         # where the picture or the play first differs
    appear: list[str] = field(default_factory=list)          # deviations the variant shows and ours does not
    vanish: list[str] = field(default_factory=list)          # deviations ours shows and the variant does not
    kept: list[str] = field(default_factory=list)            # deviations both show
    # of *vanish*, those that vanish from a variant game that plays on (the program does not stop in it): the
    # ones a second look at the judgement is for; a deviation that vanishes because the program stops
    # before it shows says nothing of the reading of the deviation's line (None: a record from before it)
    vanish_playing: list[str] | None = None

    def playing(self) -> list[str]:
        """The deviations that vanish while the program plays on (a record of schema 1 before the field:
        every one that vanishes from a reading that does not stop)."""
        if self.vanish_playing is not None:
            return list(self.vanish_playing)
        return [] if self.kind == "stops" else list(self.vanish)


@dataclass(frozen=True)
class DeviationRow:
    """A deviation against the readings of its own lines (readings.deviation_table)."""
    deviation: str
    lines: int
    readings: int
    refused: int
    untested: int
    played: int
    keep: list[str]
    vanish: list[str]
    vanish_playing: list[str]                  # the program plays on and the deviation is gone: a second look
    vanish_stops: list[str]
    appear: list[str]
    not_shown: list[str]


@dataclass(frozen=True)
class CpuSeconds:
    """The run's CPU seconds: in all, the games', the ROM's checks', the command's process's."""
    total: float
    games: float
    rom_checks: float | None = None
    command: float | None = None


@dataclass(frozen=True)
class Resumed:
    """A `--resume` of the record: the readings it played, their CPU seconds, how it ended."""
    readings: int
    cpu_s: float
    ended: str


@dataclass(frozen=True)
class ReadingsRecord:
    """docs/data/readings.json: the run (plan, the reconstruction's games, CPU), every reading's consequence,
    the counts by verdict; what the command adds (its line, the deviations' table) and the resumes."""
    schema: int
    plan: RecordPlan
    base_games: list[BaseGame]
    readings: list[Consequence]
    counts: dict[str, int]
    variant_games: int
    cpu_s: CpuSeconds
    tape: TapeRecord | None = None
    ended: str | None = None
    undone: list[str] | None = None
    shared_tapes: int | None = None
    command: str | None = None
    deviations: list[DeviationRow] | None = None
    resumed: list[Resumed] | None = None


# ------------------------------------------------------------------------------------ the writer
def as_json(value: object) -> object:
    """*value* as the record's JSON: dataclasses as objects of their fields, a None field left out (the
    tape's path and fingerprint, written as null, aside)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        keeps_null = getattr(value, "WRITES_NULL", False)
        return {f.name: as_json(getattr(value, f.name)) for f in dataclasses.fields(value)
                if keeps_null or getattr(value, f.name) is not None}
    if isinstance(value, (list, tuple)):
        return [as_json(v) for v in value]
    if isinstance(value, dict):
        return {k: as_json(v) for k, v in value.items()}
    return value


def write_readings(path: Path, rec: ReadingsRecord) -> None:
    """The record to *path*, atomically, its keys sorted (the form `cribbage-zx readings` recognises)."""
    atomic.write_json(path, as_json(rec), indent=1, sort_keys=True)


# ------------------------------------------------------------------------------------ the reader
#: what a readings record holds whatever its age (schema 1), and of what type; "tape" came later (issue 45)
RECORD_KEYS: dict[str, type] = {"base_games": list, "plan": dict, "readings": list, "cpu_s": dict}


def check_record(data: object, name: str) -> dict[str, object]:
    """*data* (read from *name*) when it is a readings record as `run` writes it, else an InputError in one
    line naming the file and what it holds instead (another command's record: a regress report, a sweep's)."""
    if not isinstance(data, dict):
        raise InputError(f"{name}: not a readings record (a JSON {type(data).__name__}, not an object)")
    missing = [k for k in RECORD_KEYS if k not in data]
    wrong = [k for k, kind in RECORD_KEYS.items() if k in data and not isinstance(data[k], kind)]
    if wrong and not missing:
        raise InputError(f"{name}: not a readings record as this version writes it ('{wrong[0]}' is not a "
                         f"{RECORD_KEYS[wrong[0]].__name__})")
    if missing or data.get("schema") != 1:
        seems = ("a regress or fairness report: it has per_game" if "per_game" in data else
                 f"written by `{data['command']}`" if isinstance(data.get("command"), str)
                 and not data["command"].startswith("cribbage-zx readings") else
                 f"schema {data.get('schema')!r}, not 1" if not missing else f"no {', '.join(missing)}")
        raise InputError(f"{name}: not a readings record ({seems})")
    return data


def readings_record(data: object, name: str) -> ReadingsRecord:
    """A readings record from the JSON read from *name*: another command's record refused in one line
    (check_record), then every field typed (runtime/records.py), an InputError naming the field. A "tape"
    that is not a tape's record names no tape (check_tape says so)."""
    found = dict(check_record(data, name))
    tape = found.get("tape")
    if tape is not None and not (isinstance(tape, dict) and isinstance(tape.get("sha256"), str)):
        del found["tape"]
    rec: ReadingsRecord = record(ReadingsRecord, found, f"{name}: readings record")
    return rec


def read_readings(path: Path) -> ReadingsRecord:
    """The readings record in *path* (readings_record)."""
    return readings_record(read_json(path, InputError), str(path))


def vanish_playing_of(c: Mapping[str, object]) -> list[str]:
    """A consequence's deviations that vanish while the program plays on, from its JSON (Consequence.playing;
    edition/notes.py reads the record's consequences as JSON objects)."""
    if "vanish_playing" in c:
        return _ids(c["vanish_playing"])
    return [] if c["kind"] == "stops" else _ids(c["vanish"])


def _ids(value: object) -> list[str]:
    """A consequence's list of deviation ids, as its JSON holds it."""
    if not isinstance(value, list):
        raise InputError(f"a consequence's deviations are {value!r}, not a list")
    return [str(v) for v in value]
