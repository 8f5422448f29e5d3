"""A sweep's chunks (harness/program/runs/sweep.py runs them): the worker that runs one on the program's
routine, what it hands back (`ChunkResult`, written as OUT/<sweep>/chunk-NNNN.json), and the one reader of
that file (`read_chunk`).

A chunk file is counted only when it holds exactly the result of its cases (their fingerprint, number and
weight, its disagreements of the form a worker writes): one that is corrupt or does not match is computed
again, never counted.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Mapping, Union, cast

from ...errors import InputError, MachineError
from ...runtime.records import record
from ...runtime.validate import read_json
from ...spectrum.accelerate import accelerate as attach_accelerator
from ...spectrum.profile import Profile, Profiler
from ...spectrum.tape import read_tap
from ..model.program import PLAY_ROUTINE, SHOW_ROUTINE
from ..model.subroutine import Subroutine, program_at_editor
from .play_cases import CaseRange, Coverage, PlayCase, PlayChoice, every_play_case
from .sweep_cases import COMPONENTS, ShowCase, ShowItem, engine_play, engine_show, program_play, program_show, show_cases

SHOW_SETUP, PLAY_SETUP = SHOW_ROUTINE.setup, PLAY_ROUTINE.setup
PLAY_RETURNS = set(PLAY_ROUTINE.returns)

#: a sweep's case: a show case with its crib flag, or a play case
Item = Union[ShowItem, PlayCase]
#: a chunk's cases: a list, or a range of the play table the worker computes
Cases = Union[list[Item], CaseRange]
#: a disagreement as a chunk file holds it (JSON: show {case, crib, program, engine}, play {series, weight,
#: program, engine}); read only here (`causes_of`, `weight_of`), the documented deviations match it as it is
Disagreement = dict[str, object]
#: the cause of a disagreement: the part of the routine and the two sides' points
Cause = tuple[Union[str, int], ...]


@dataclass(frozen=True)
class ChunkJob:
    """A chunk of a sweep as a job: its number and its cases (a list, or a CaseRange the worker computes)."""
    index: int
    cases: Cases


@dataclass
class ChunkResult:
    """What a worker hands back for a chunk (the parent writes it as chunk-NNNN.json, in this order): the
    fingerprint of its cases, how many and their weight, the disagreements, the BASIC statements it ran."""
    index: int
    items_sha: str
    cases: int = 0
    weight: int = 0
    disagreements: list[Disagreement] = field(default_factory=list)
    profile: dict[str, dict[str, int]] = field(default_factory=dict)

    def as_json(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True)
class SweepWorker:
    """A sweep's worker: the program at the editor with the routine the sweep calls (*sub*; None for a kind
    that calls none), and the program's statement table (each chunk counts the statements it runs)."""
    kind: str
    sub: Subroutine | None
    statements: dict[tuple[int, int], int]


def load_worker(kind: str, tape: bytes, accelerate: bool = True) -> SweepWorker:
    """The program at the editor (from the tape's bytes) and the routine to call."""
    m = program_at_editor(read_tap(tape))
    attach_accelerator(m, accelerate)
    statements = Profiler.for_program(m.program_bytes()).statements
    sub = None
    if kind == "show":
        sub = Subroutine(m, SHOW_ROUTINE.line, set(SHOW_ROUTINE.returns), setup=SHOW_SETUP)
    elif kind == "play":
        sub = Subroutine(m, PLAY_ROUTINE.line, PLAY_RETURNS, setup=PLAY_SETUP)
    return SweepWorker(kind, sub, statements)


_worker: SweepWorker | None = None         # this worker process's (init_worker)


def init_worker(kind: str, tape: bytes, accelerate: bool = True) -> None:
    """Once per worker process (the job runner's `Setup`): the sweep's worker value, kept for `run_chunk`."""
    global _worker
    _worker = load_worker(kind, tape, accelerate)


def items_sha(items: list[Item]) -> str:
    """The SHA-256 of a chunk's items as JSON (a show case by `ShowCase.as_json`): what its file must match."""
    plain = [(item[0].as_json(), item[1]) if isinstance(item[0], ShowCase) else item for item in items]
    return hashlib.sha256(json.dumps(plain, sort_keys=True).encode()).hexdigest()


def cases_of(chunk: Cases) -> list[Item]:
    """A chunk's cases: the list itself, or a CaseRange's, computed."""
    return list(chunk.items()) if isinstance(chunk, CaseRange) else chunk


def _item_weight(kind: str, item: Item) -> int:
    return cast(ShowItem, item)[0].weight if kind == "show" else cast(PlayCase, item)[0]


def run_chunk(job: ChunkJob) -> ChunkResult:
    """Run one chunk of cases on this worker's machine (`init_worker`); the parent writes it (chunk-NNNN.json)."""
    if _worker is None:
        raise MachineError("no sweep loaded in this worker: init_worker(kind, tape) first")
    return run_chunk_on(_worker, job)


def run_chunk_on(worker: SweepWorker, job: ChunkJob) -> ChunkResult:
    """Run one chunk of cases (a list, or a CaseRange computed here) on *worker*'s machine."""
    items = cases_of(job.cases)
    if worker.sub is None:
        raise MachineError(f"a {worker.kind} sweep calls no routine of the program in chunks")
    result = ChunkResult(job.index, items_sha(items))
    profiler = Profiler(worker.statements)
    profiler.start(worker.sub.m)
    try:
        if worker.kind == "show":
            _run_show(worker.sub, cast("list[ShowItem]", items), result)
        else:
            _run_play(worker.sub, cast("list[PlayCase]", items), result)
    finally:
        result.profile = profiler.stop().as_json()     # which BASIC statements the chunk ran, how often
    return result


def _run_show(sub: Subroutine, items: list[ShowItem], result: ChunkResult) -> None:
    for case, crib in items:
        got, want = program_show(sub, case, crib), engine_show(case, crib)
        if got != want:
            result.disagreements.append({"case": case.as_json(), "crib": crib, "program": got, "engine": want})
        result.weight += case.weight
        result.cases += 1


def _run_play(sub: Subroutine, items: list[PlayCase], result: ChunkResult) -> None:
    for weight, series in items:
        got_points, want_points = program_play(sub, tuple(series)), engine_play(tuple(series))
        if got_points != want_points:
            result.disagreements.append({"series": list(series), "weight": weight,
                                         "program": got_points, "engine": want_points})
        result.weight += weight
        result.cases += 1


def chunk_path(folder: Path, index: int) -> Path:
    return folder / f"chunk-{index:04d}.json"


def read_chunk(folder: Path, kind: str, index: int, items: Cases) -> tuple[ChunkResult | None, str | None]:
    """A finished chunk if its file holds exactly the result of these items (a list, or a CaseRange),
    else (None, why not): the one reader of chunk-NNNN.json."""
    path = chunk_path(folder, index)
    if not path.exists():
        return None, None
    cases = cases_of(items)
    try:
        r = read_json(path)
    except InputError as exc:
        return None, f"unreadable ({str(exc).removeprefix(f'{path}: ').splitlines()[0]})"
    if not isinstance(r, dict):
        return None, "not a chunk object"
    expected = {"index": index, "items_sha": items_sha(cases), "cases": len(cases),
                "weight": sum(_item_weight(kind, item) for item in cases)}
    wrong = [k for k, v in expected.items() if r.get(k) != v]
    if wrong:
        return None, f"does not match its cases ({', '.join(wrong)})"
    disagreements = r.get("disagreements")
    if not isinstance(disagreements, list) or not all(_good_disagreement(kind, d) for d in disagreements):
        return None, "its disagreements are malformed"
    if "profile" in r:
        try:
            Profile.from_json(r["profile"])
        except (KeyError, TypeError, ValueError, AttributeError):
            return None, "its profile is malformed"
    try:
        chunk: ChunkResult = record(ChunkResult, r, str(path))
    except InputError as exc:
        return None, f"not a chunk ({str(exc).removeprefix(f'{path}: ')})"
    return chunk, None


def _whole(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _good_disagreement(kind: str, d: object) -> bool:
    """A disagreement as `run_chunk` writes it: what summarise reads is there, of its type (`causes_of`)."""
    whole = _whole
    if not (isinstance(d, dict) and "program" in d and "engine" in d):
        return False
    if kind == "show":
        return (isinstance(d.get("crib"), bool) and isinstance(d.get("case"), dict)
                and whole(d["case"].get("weight", 0))
                and all(isinstance(d[k], dict) and all(whole(d[k].get(c)) for c in COMPONENTS)
                        for k in ("program", "engine")))
    return whole(d.get("weight")) and all(whole(d[k]) for k in ("program", "engine"))


def _points(value: object) -> int:
    """A side's points in a disagreement `read_chunk` took (`_good_disagreement`: a whole number)."""
    if isinstance(value, int):
        return value
    raise InputError(f"a disagreement's points are {value!r}, not a whole number")


def _components(value: object) -> Mapping[str, object]:
    """A side's points by component in a show disagreement `read_chunk` took (`_good_disagreement`)."""
    if isinstance(value, dict):
        return value
    raise InputError(f"a disagreement's components are {value!r}, not an object")


def causes_of(kind: str, d: Disagreement) -> list[Cause]:
    """A disagreement's causes: for show, each component the two sides score otherwise (hand or crib, the
    component, the engine's points, the program's); for play, the two sides' points."""
    engine, program = d.get("engine"), d.get("program")
    if kind == "show":
        mine, theirs = _components(engine), _components(program)
        return [("crib" if d.get("crib") else "hand", c, _points(mine.get(c)), _points(theirs.get(c)))
                for c in COMPONENTS if mine.get(c) != theirs.get(c)]
    return [("play", _points(engine), _points(program))]


def weight_of(d: Disagreement) -> int:
    """The deals or series a disagreement stands for (its case's weight)."""
    case = d.get("case")
    weight = d.get("weight", case.get("weight", 0) if isinstance(case, dict) else 0)
    return weight if isinstance(weight, int) else 0


def sweep_items(kind: str, choice: PlayChoice = PlayChoice()) -> tuple[list[Item], Coverage]:
    """The cases of a sweep, and what part of the whole space they cover (for play, every case built here:
    run_sweep hands the workers ranges of a cached table instead, CaseRange)."""
    if kind == "show":
        cases = show_cases()
        items: list[Item] = [(c, False) for c in cases]
        items += [(c, True) for c in cases if c.flush == "four"]
        return items, {"cases": len(items), "deals": sum(c.weight for c in cases)}
    play, coverage = every_play_case(choice)
    return list(play), coverage
