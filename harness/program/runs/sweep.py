"""What `cribbage-zx sweep show|play|discard` runs (the command: harness/commands/sweep.py): the program's scoring routines against the engine, exhaustively.

* show: every (four-card hand, starter) up to suit symmetry -- the rank
  multiset with the starter marked, and one representative of each suit
  pattern that matters (no flush, four-card flush, five-card flush, each with
  or without his nobs) weighted by how many of the 12,994,800 deals it stands
  for -- through 4700 (with 1000 and 2400) as a hand; as a crib (CR=1) only
  the patterns where the crib rule differs (a four-card flush), since CR is
  read nowhere else in those routines (line 1310; checked by a test).
* play: the series the rules allow (count <= 31, up to eight cards, at most
  four of a rank: 12,892,167 of them), scored by 2000 after each card. 2000
  reads only SUM, N and the table T(); it stops at the first pair mismatch and
  a run longer than the last cards' distinct suffix cannot pass its sort
  check, so series that agree on the situation (see play_keys) run the same
  tests: one of each is run, weighted by how many series it stands for: all
  544,816 situations by default (about an hour with 2 workers: a long run
  costs the BASIC seconds of Spectrum time), or with --quick every situation
  with a distinct suffix of up to 4 cards and a seeded sample of the longer
  ones (the report states the coverage).
* discard: a random sample of six-card hands through 500: the points the
  program's discard gives away against the engine's best (a strength report).

Work is split in chunks run by the job runner (harness/runtime/jobs.py: a local pool
or a Dask cluster), each written atomically to OUT/<sweep>/chunk-NNNN.json
with the fingerprint of its cases: an interrupted sweep continues where it
stopped, losing no finished chunk, and a chunk file that is corrupt or does
not match its cases is computed again, never counted. The play sweep's
situations are enumerated once per sweeps' folder, in a child process, into
OUT/play-cases-<fingerprint>.npz; its jobs are ranges of that table
(CaseRange), turned into cases by the workers, so the parent holds no case
and starts the workers in well under a second.

This module runs a sweep and writes its report; the rest is in its neighbours: sweep_cases.py (the show
cases, each case scored by the program and by the engine), play_situations.py (the play situations),
play_cases.py (their cache and the chunks of a play sweep), sweep_chunks.py (the workers and the chunk
files). It prints nothing: what a run has to say goes through the runtime's progress reporter (Progress).
"""
from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ...cribbage import discard_values
from ...errors import InputError, OutputError, needing
from ...runtime import atomic
from ...runtime.jobs import Outcome, Progress, Setup, run_jobs
from ...runtime.outdir import claimed
from ...runtime.records import plain, read_record
from ...runtime.validate import JsonObject, expect, read_json
from ...spectrum.profile import Profile
from ...spectrum.tape import read_tap
from ..model.build import played_tape, tape_record
from ..model.program import (DISCARD_BEST, DISCARD_CHOSEN, DISCARD_RANKS, DISCARD_ROUTINE, DISCARD_SUITS,
                             DISCARD_VALUES, MAN, SUIT_CODES, V_DEALER, ZX)
from ..model.subroutine import Subroutine, program_at_editor
from .play_cases import Coverage, PlayChoice, auto_chunk, ensure_cases, play_chunks
from .sweep_chunks import (Cases, Cause, ChunkJob, ChunkResult, causes_of, chunk_path, init_worker, items_sha,
                           read_chunk, run_chunk, sweep_items, weight_of)
from ...cribbage.cards import full_deck


@dataclass(frozen=True)
class SweepSettings:
    """How a sweep runs (the command's options): *chunk* cases per chunk (None: auto_chunk's), only the first
    *limit* cases (None: all), a progress bar or not, the job runner's *workers* and *scheduler*, *replace*
    a folder of another sweep, the tape (*tap*; None: the built game), the accelerator, and for a play sweep
    which situations it runs (*play*; None for show)."""
    workers: int = 1
    chunk: int | None = None
    limit: int | None = None
    progress: bool = True
    scheduler: str | None = None
    replace: bool = False
    tap: Path | None = None
    accelerate: bool = True
    play: PlayChoice | None = None


@dataclass(frozen=True)
class _Planned:
    """A sweep's chunks, the size asked of them, what they cover, the fingerprint of their cases, and what
    was said while planning them (an unreadable play table, enumerated again)."""
    chunks: list[Cases]
    size: int | None
    coverage: Coverage
    fingerprint: str
    said: list[str]


def _plan(kind: str, sweeps: Path, settings: SweepSettings) -> _Planned:
    """The chunks of a sweep in the sweeps' folder *sweeps*: a play sweep's are ranges of the table cached
    there (ensure_cases: the parent never builds its cases)."""
    with claimed(sweeps, "sweep", resume=True, wait=10):       # --out is a sweeps' folder (or new)
        table, said = ensure_cases(sweeps) if kind == "play" else (None, None)
    if table is not None:
        ranges, coverage, fingerprint = play_chunks(table, settings.chunk, settings.limit,
                                                    settings.play or PlayChoice())
        return _Planned(list(ranges), len(ranges[0]) if ranges else settings.chunk, coverage, fingerprint,
                        [said] if said else [])
    items, coverage = sweep_items(kind)
    if settings.limit is not None:
        items = items[:settings.limit]
    size = settings.chunk or auto_chunk(len(items))
    chunks: list[Cases] = [items[i:i + size] for i in range(0, len(items), size)]
    return _Planned(chunks, size, coverage, items_sha(items), [])


def run_sweep(kind: str, out: Path, settings: SweepSettings = SweepSettings()) -> SweepReport:
    """Run the chunks not yet done (a chunk file that fails validation is done again) and summarise.

    Resumable by design: OUT/<kind> keeps the finished chunks. It is held by
    one run at a time (harness/runtime/outdir.py); *replace* starts it afresh. A chunk
    whose job raises is reported at once as a harness failure and not written,
    so the next run does it again. A play sweep's chunks are ranges of a table
    cached in OUT (ensure_cases): the parent never builds its cases.
    """
    where, tape = played_tape(settings.tap)
    planned = _plan(kind, out, settings)
    chunks = planned.chunks
    with claimed(out / kind, "sweep", resume=True, replace=settings.replace) as folder:
        options = asdict(settings.play) if kind == "play" and settings.play else {}
        check_same_sweep(folder, {"kind": kind, "items": sum(map(len, chunks)), "chunk": planned.size,
                                  "limit": settings.limit, "fingerprint": planned.fingerprint, **options})
        jobs, said = _jobs_to_do(folder, kind, chunks)
        bar = Progress(len(chunks), f"{kind} chunks", settings.progress, done=len(chunks) - len(jobs))
        for line in planned.said + said:
            bar.note(line)
        failures: list[ChunkFailure] = []
        try:
            setup = Setup(init_worker, (kind, tape, settings.accelerate))
            with run_jobs(run_chunk, jobs, setup, settings.workers, settings.scheduler) as outcomes:
                for outcome in outcomes:
                    failure = _keep(folder, kind, outcome)
                    if failure is not None:
                        failures.append(failure)
                        bar.note(f"cribbage-zx sweep {kind}: chunk {failure.chunk}: harness failure: {failure.error}")
                    bar.step()
        finally:
            bar.close()
        facts = SweepFacts(bar.elapsed, settings.workers, planned.coverage, failures, tape_record(where, tape))
        return summarise(kind, folder, chunks, facts)


def _jobs_to_do(folder: Path, kind: str, chunks: list[Cases]) -> tuple[list[ChunkJob], list[str]]:
    """The chunks whose file is missing or fails validation, as jobs, and a line for each that failed."""
    jobs, said = [], []
    for i, c in enumerate(chunks):
        found, why_not = read_chunk(folder, kind, i, c) if chunk_path(folder, i).exists() else (None, None)
        if found is None:
            if why_not:
                said.append(f"{chunk_path(folder, i)}: {why_not}; computing it again")
            jobs.append(ChunkJob(i, c))
    return jobs, said


def _keep(folder: Path, kind: str, outcome: Outcome[ChunkJob, ChunkResult]) -> ChunkFailure | None:
    """A chunk's outcome written to its file, or its failure (not written: the next run does it again)."""
    if outcome.value is not None:
        atomic.write_json(chunk_path(folder, outcome.job.index), outcome.value.as_json())
        return None
    return ChunkFailure(outcome.job.index, outcome.error)


def check_same_sweep(folder: Path, params: dict[str, object]) -> None:
    """Finished chunks are reused only by the very same sweep (same cases in the same chunks); a folder of
    another sweep, or an unreadable record of it, is refused needing *replace* (or another *out*)."""
    path = folder / "params.json"
    if path.exists():
        try:
            before = expect(read_json(path), dict, str(path))
        except InputError as exc:
            raise needing(InputError(str(exc)), "replace") from None
        if before != params:
            changed = sorted(k for k in set(before) | set(params) if before.get(k) != params.get(k))
            raise needing(OutputError(f"{folder} holds a different sweep (differs in {', '.join(changed)})"),
                          "replace or another out")
    else:
        atomic.write_json(path, params, indent=1)


@dataclass(frozen=True)
class ChunkFailure:
    """A chunk whose job raised: a sweep report's harness failure (not written, so the next run does it again)."""
    chunk: int
    error: str | None


@dataclass
class SweepGroup:
    """The disagreements of one cause (`_causes`): how many cases and their weight, the first met, and the
    documented deviation that explains them (None: unexplained)."""
    cause: list[object]                      # the part and the two sides' points (sweep_chunks.Cause)
    cases: int
    weight: int
    example: dict[str, object]              # the first disagreement met, as its chunk holds it
    deviation: str | None


@dataclass(frozen=True)
class BasicCoverage:
    """The BASIC statements a sweep's chunks ran: how many, their lines, each IF's (true, false) counts."""
    statements_run: int
    lines: list[int]
    ifs: dict[str, list[int]]


@dataclass(frozen=True)
class SweepReport:
    """OUT/<kind>-report.json, written by `summarise` and read by `read_report`, the one type of both (its
    fields in the file's order)."""
    sweep: str
    items: int
    chunks: int
    coverage: Coverage                       # what the cases cover: its keys are the kind's (sweep_items)
    cases_checked: int
    chunks_missing: list[int]
    harness_failures: int
    harness_failure_details: list[ChunkFailure]
    weight_checked: int
    wall_s_this_run: float
    workers: int
    groups: list[SweepGroup]
    unexplained_groups: int
    tape: JsonObject | None
    basic_coverage: BasicCoverage

    def as_json(self) -> dict[str, object]:
        return plain(self)


def read_report(path: Path) -> SweepReport:
    """A sweep's report (OUT/<kind>-report.json) as its type; anything else is an InputError naming the field."""
    return read_record(SweepReport, path, "sweep report")


@dataclass(frozen=True)
class SweepFacts:
    """What a sweep's report says of the run rather than of its chunks: its wall time, workers, what its
    cases cover, the chunks whose jobs failed, the tape it ran (build.tape_record)."""
    wall: float
    workers: int
    coverage: Coverage
    failures: list[ChunkFailure] | None = None
    tape: JsonObject | None = None


@dataclass
class _Sums:
    """The summary's running sums over the chunks read."""
    cases: int = 0
    weight: int = 0
    profile: Profile = field(default_factory=Profile)


def _basic_coverage(profile: Profile) -> BasicCoverage:
    return BasicCoverage(
        statements_run=len(profile.counts), lines=sorted({line for line, _ in profile.counts}),
        ifs={f"{k[0]}:{k[1]}": [profile.if_true.get(k, 0), profile.if_false.get(k, 0)]
             for k in sorted(set(profile.if_true) | set(profile.if_false))})


def summarise(kind: str, folder: Path, chunks: list[Cases], facts: SweepFacts) -> SweepReport:
    """The report over every valid chunk (written to OUT/<kind>-report.json); chunks missing or invalid
    are counted, never silently dropped."""
    # lazy: the deviations (20 ms) only for the summary, not the sweep's workers
    from ..judge.deviations import classify_sweep
    groups: dict[Cause, SweepGroup] = {}
    sums, missing = _Sums(), []
    for index, items in enumerate(chunks):
        r, _ = read_chunk(folder, kind, index, items)
        if r is None:
            missing.append(index)
            continue
        if r.profile:
            sums.profile = sums.profile + Profile.from_json(r.profile)
        sums.cases += r.cases
        sums.weight += r.weight
        for d in r.disagreements:
            for cause in causes_of(kind, d):
                g = groups.setdefault(cause, SweepGroup(list(cause), 0, 0, d, classify_sweep(kind, cause, d)))
                g.cases += 1
                g.weight += weight_of(d)
    failures = facts.failures or []
    report = SweepReport(
        sweep=kind, items=sum(map(len, chunks)), chunks=len(chunks), coverage=facts.coverage,
        cases_checked=sums.cases, chunks_missing=missing, harness_failures=len(failures),
        harness_failure_details=failures, weight_checked=sums.weight, wall_s_this_run=round(facts.wall, 1),
        workers=facts.workers, groups=sorted(groups.values(), key=lambda g: -g.weight),
        unexplained_groups=sum(1 for g in groups.values() if not g.deviation), tape=facts.tape,
        basic_coverage=_basic_coverage(sums.profile))
    with claimed(folder.parent, "sweep", resume=True, wait=10):     # the sweeps' folder, held while it is written
        atomic.write_json(folder.parent / f"{kind}-report.json", report.as_json(), indent=1)
    return report


# ---------------------------------------------------------------------------------------------- discard
@dataclass(frozen=True)
class DiscardRole:
    """The program's discards in one role (dealer or pone) against the engine's best."""
    hands: int
    mean_points_given_away: float
    best_choice_share: float


@dataclass(frozen=True)
class DiscardReport:
    """OUT/discard-report.json, written by the command from `discard_report` and read by `read_discard_report`."""
    dealer: DiscardRole
    pone: DiscardRole

    def as_json(self) -> dict[str, object]:
        return plain(self)


def read_discard_report(path: Path) -> DiscardReport:
    """A discard sweep's report as its type; anything else is an InputError naming the field."""
    return read_record(DiscardReport, path, "discard report")


def _role(lost: list[float]) -> DiscardRole:
    return DiscardRole(hands=len(lost), mean_points_given_away=round(sum(lost) / max(1, len(lost)), 3),
                       best_choice_share=round(sum(1 for x in lost if x < 1e-9) / max(1, len(lost)), 3))


def discard_report(samples: int, seed: int, tap: str | bytes) -> DiscardReport:
    """For random six-card hands, the program's discard (routine 500) against the engine's best."""
    m = program_at_editor(read_tap(tap))
    sub = Subroutine(m, DISCARD_ROUTINE.line, set(DISCARD_ROUTINE.returns), setup=DISCARD_ROUTINE.setup,
                     max_frames=DISCARD_ROUTINE.max_frames)
    rng = random.Random(seed)
    deck = list(full_deck())
    lost_dealing: list[float] = []
    lost_not_dealing: list[float] = []
    for i in range(samples):
        hand = sorted(rng.sample(deck, 6))
        dealer = i % 2 == 0
        sub.begin()
        sub.set_array(DISCARD_RANKS, [c.rank for c in hand])
        sub.set_chars(DISCARD_SUITS, bytes(SUIT_CODES[c.suit] for c in hand))
        sub.set_array(DISCARD_VALUES, [min(c.rank, 10) for c in hand])
        sub.set_number(V_DEALER, ZX if dealer else MAN)
        sub.set_number(DISCARD_BEST, -99)
        sub.set_array(DISCARD_CHOSEN, [1, 6])
        sub.run()
        t = sub.output_array(DISCARD_CHOSEN)
        first, second = sorted((int(t[0]) - 1, int(t[1]) - 1))
        values = discard_values(hand, my_crib=dealer)
        (lost_dealing if dealer else lost_not_dealing).append(max(values.values()) - values[(first, second)])
    return DiscardReport(dealer=_role(lost_dealing), pone=_role(lost_not_dealing))
