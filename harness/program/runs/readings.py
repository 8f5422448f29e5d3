"""What `cribbage-zx readings` runs (the command: harness/commands/readings.py): every other reading the scan
admits (basic/readings.toml, written by tools/write_readings.py) built as a variant tape and played.

For each reading: the one line is tokenised and put to the ROM's own syntax check (a line it refuses is
recorded with the ROM's ``?``, and so is one the tokeniser cannot read); an accepted line is spliced
into the reconstruction's program, which must still LOAD, and must differ from it in its bytes (a
reading the ROM stores exactly as ours is "stores alike", never played). The same seeded games as the
reconstruction's own run are then played on the variant tape, on the job runner, and set against it
(readings_games.py: stops, play, picture, identical or untested). The record is readings_record.py's;
its pages are the edition's (edition/readings_doc.py).

Games are chosen per line from the reconstruction's run: the first *games* of the plain games that
reach it, else the games of the thorough set that do; a line no game of the reconstruction reaches is
``untested`` without being played (the program runs alike up to the first time that line runs).
"""
from __future__ import annotations

import dataclasses
import hashlib
import re
import time
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ... import resources
from ...errors import InputError, needing
from ...runtime.jobs import Outcome, Progress, Setup, run_jobs
from ...spectrum.acceptance import check_loads, rejection_shown
from ...spectrum.basic import split_program, tokenise_line
from ...spectrum.machine import Spectrum48
from ...spectrum.romcheck import RomNumberEncoder, enter_program
from ...spectrum.tape import FLAG_DATA, TapeBlock, program_header, read_tap, write_tap
from ..model.build import tape_record
from ..model.program import AUTOSTART_LINE, PROGRAM_NAME
from . import regress
from .readings_games import FRAMES_FACTOR, FRAMES_MARGIN, GameJob, GamePlayed, no_setup, play, variant_frames, verdict
from .readings_record import (BUDGET, NO_GAME, PLAYED, REFUSED, BaseGame, Consequence, CpuSeconds, DeviationRow,
                              ReadingsRecord, Reading, RecordPlan, Resumed, TapeRecord, left_by_budget,
                              vanish_playing_of)

READINGS = resources.data_path("basic/readings.toml")

__all__ = ["vanish_playing_of"]          # read here by edition/notes.py, with second_looks

#: a note of the run's (a harness failure, the time budget spent), said by the command
Note = Callable[[str], None]


def _silent(text: str) -> None:
    """No note said (a run whose caller passed none)."""


def reading_id(line: int, text: str) -> str:
    """The line and the first 8 hex digits of the SHA-256 of the text (as tools/write_readings.py names it)."""
    return "%d.%s" % (line, hashlib.sha256(text.encode("utf-8")).hexdigest()[:8])


def load(path: Path = READINGS, entries: set[int] | None = None) -> list[Reading]:
    """The readings of basic/readings.toml: the generated ones and those the entries' evidence names."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: {exc}") from None
    out = []
    for table, source in (("reading", None), ("evidence", "evidence")):
        for k, r in enumerate(data.get(table, []), 1):
            try:
                line, text = int(r["line"]), str(r["text"])
                reading = Reading(line, str(r["id"]), source or str(r["source"]), str(r["what"]), text,
                                  bool(r.get("entry", True)))
            except (KeyError, TypeError, ValueError) as exc:
                raise InputError(f"{path}: [[{table}]] number {k}: {exc}") from None
            if reading.id != reading_id(line, text):
                raise InputError(f"{path}: [[{table}]] {reading.id}: the id is not the line and the text's "
                                 f"SHA-256 ({reading_id(line, text)}): run tools/write_readings.py")
            if entries is None or line in entries:
                out.append(reading)
    return out


# ----------------------------------------------------------------------------------------------- tapes
@dataclass
class Variant:
    """A reading's program: the ROM's verdict on its line and, when accepted, the whole tape."""
    reading: Reading
    verdict: str                       # "tape", "rom-rejects", "not-tokenised", "stores-alike"
    detail: str = ""
    tape: bytes | None = None


class Variants:
    """Builds the variant tapes of one listing: its program records are tokenised once."""

    def __init__(self, base_tape: bytes):
        blocks = read_tap(base_tape)
        self.base_tape = base_tape
        self.blocks = blocks
        self.records = {n: n.to_bytes(2, "big") + len(b).to_bytes(2, "little") + b
                        for n, b in split_program(blocks[1].data)}
        self.encoder = RomNumberEncoder()

    def program(self, line: int, record: bytes) -> bytes:
        return b"".join(record if n == line else r for n, r in self.records.items())

    def build(self, reading: Reading) -> Variant:
        if reading.line not in self.records:
            raise InputError(f"basic/readings.toml: {reading.id}: the listing has no line {reading.line}")
        try:
            number, record = tokenise_line(f"{reading.line} {reading.text}", number_encoder=self.encoder)
        except InputError as exc:
            return Variant(reading, "not-tokenised", str(exc).splitlines()[0])
        machine = Spectrum48(fast=True)
        machine.boot()
        verdict = enter_program(record, machine)[0][0]
        if not verdict.accepted:
            fresh = Spectrum48(fast=True)
            fresh.boot()
            return Variant(reading, "rom-rejects", "the ROM's syntax check stops at the ?: "
                           + rejection_shown(fresh, record))
        if not verdict.identical:
            return Variant(reading, "rom-rejects", "the ROM stores the line otherwise than the tokeniser")
        program = self.program(reading.line, record)
        if program == self.blocks[1].data:
            return Variant(reading, "stores-alike", "the ROM stores this reading byte for byte as the "
                           "reconstruction's line: the same program")
        try:
            check_loads(program, reading.id)
        except InputError as exc:
            return Variant(reading, "rom-rejects", str(exc))
        blocks = [program_header(PROGRAM_NAME, len(program), AUTOSTART_LINE, len(program)),
                  TapeBlock(FLAG_DATA, program), *self.blocks[2:]]
        return Variant(reading, "tape", tape=write_tap(blocks))


# ------------------------------------------------------------------------------------------ the games
@dataclass(frozen=True)
class BaseTape:
    """The reconstruction's tape the readings are measured against: its bytes, and its path when it came
    from a file (the record's "tape" then names its path and its sources' fingerprint: build.tape_record)."""
    data: bytes
    path: Path | None = None


@dataclass
class Plan:
    games: int = 1
    seed: int = 1
    workers: int = 1
    scheduler: str | None = None
    thorough: bool = True
    progress: bool = False
    deadline: float | None = None        # time.monotonic() after which no further game is waited for


def _base_jobs(plan: Plan, thorough: bool, tape: bytes) -> list[GameJob]:
    strategies = regress.STRATEGIES
    games = [(i, regress.spread_seed(plan.seed + i), strategies[i % len(strategies)]) for i in range(plan.games)]
    if thorough:
        games += [(plan.games + k, regress.spread_seed(plan.seed + plan.games + k), s)
                  for k, s in enumerate(regress.THOROUGH_SET)]
    return [GameJob("base", tape, *g) for g in games]


class _Stopped:
    """Set when Ctrl-C (or SIGTERM), or the time budget, stopped the games: the record keeps what finished.
    *by*: the interruption itself (the command raises it again once the record is written: status 130/143)."""
    stopped = False
    by: KeyboardInterrupt | None = None


def stopped_by() -> KeyboardInterrupt | None:
    """The Ctrl-C or SIGTERM that stopped the last run's games, or None (it ended, or its budget stopped it)."""
    return _Stopped.by


def _played(o: Outcome[GameJob, GamePlayed], note: Note) -> GamePlayed:
    """A game's outcome, or the record of a game the harness failed on (said at once)."""
    if o.value is not None:
        return o.value
    note(f"{o.job.key} game {o.job.index}: harness failure: {o.error}")
    return GamePlayed(o.job.key, o.job.index, o.job.seed, o.job.strategy, failure=o.error, harness=True)


def _run(jobs: list[GameJob], plan: Plan, what: str, note: Note) -> list[GamePlayed]:
    out: list[GamePlayed] = []
    if not jobs or _Stopped.stopped:
        return out
    bar = Progress(len(jobs), what, plan.progress)
    try:
        with run_jobs(play, jobs, Setup(no_setup), plan.workers, plan.scheduler) as outcomes:
            for o in outcomes:
                out.append(_played(o, note))
                bar.step()
                if plan.deadline is not None and time.monotonic() > plan.deadline and len(out) < len(jobs):
                    _Stopped.stopped = True
                    note(f"the time budget is spent: {len(out)} of {len(jobs)} {what} finished; "
                         "the rest are recorded as untested")
                    break
    except KeyboardInterrupt as exc:                 # said once, by the command, after the record is written
        _Stopped.stopped = True
        _Stopped.by = exc
    finally:
        bar.close()
    return out


def choose_games(readings: list[Reading], base_games: list[GamePlayed], games: int) -> dict[str, list[GamePlayed]]:
    """For each reading, the reconstruction's games its variant plays: the first *games* of the plain games
    (index below *games*) whose statement coverage ran its line, else the first game of the thorough set
    (index *games* on) that ran it, else none (the reading is untested: no game of ours reaches its line)."""
    chosen: dict[str, list[GamePlayed]] = {}
    for r in readings:
        plain = [g for g in base_games if g.index < games and r.line in g.lines_run]
        extra = [g for g in base_games if g.index >= games and r.line in g.lines_run]
        chosen[r.id] = plain[:games] or extra[:1]
    return chosen


def consequence(v: Variant, chosen: list[GamePlayed], games: list[GamePlayed],
                base_by_key: dict[tuple[int, int, str], GamePlayed], unreached: str, stopped: bool) -> Consequence:
    """One reading's consequence: the ROM's verdict on its line; else *untested* with the reason (no game of
    the run reaches its line: *unreached*; the run stopped first; a game failed in the harness); else the
    verdict of its variant *games* against the reconstruction's games of the same seeds (*chosen*)."""
    r = v.reading
    fields = (r.id, r.line, r.source, r.what, r.text, r.entry)
    if v.verdict != "tape":
        return Consequence(*fields, v.verdict, detail=v.detail, vanish_playing=[])
    if not chosen:
        return Consequence(*fields, "untested", detail=unreached, vanish_playing=[])
    games = sorted(games, key=lambda g: g.game_key)
    failed = [g for g in games if g.harness]
    if not games and stopped:
        return Consequence(*fields, "untested", detail=BUDGET, vanish_playing=[])
    if failed or len(games) != len(chosen):
        return Consequence(*fields, "untested", detail="a variant game failed in the harness: "
                           + (str(failed[0].failure) if failed else "lost"), vanish_playing=[])
    return verdict(r, [(base_by_key[g.game_key], g) for g in games])


def tape_of(tape: BaseTape) -> TapeRecord:
    """The record's "tape": the reconstruction's tape the readings were measured against, by its SHA-256 (and,
    from its path, the path and its sources' fingerprint: build.tape_record)."""
    if tape.path is None:
        return TapeRecord(None, hashlib.sha256(tape.data).hexdigest(), None)
    return TapeRecord(**tape_record(tape.path, tape.data))


def check_tape(rec: ReadingsRecord, base_tape: bytes, name: str) -> str | None:
    """An InputError in one line when *rec* was measured on another tape than *base_tape* (by SHA-256);
    for a record older than the tape's fingerprint, the one-line note that says it names no tape (the
    reconstruction's games played again are then the only check), else None."""
    if rec.tape is None:
        return (f"{name}: the record names no tape (written before readings kept the tape's SHA-256): its "
                f"reconstruction's games, played again, are the check that the tape is the same")
    now = hashlib.sha256(base_tape).hexdigest()
    if rec.tape.sha256 != now:
        raise InputError(f"{name}: a record of another tape (SHA-256 {rec.tape.sha256[:12]}…"
                         f"{', ' + str(rec.tape.path) if rec.tape.path else ''}), not of this one "
                         f"({now[:12]}…): its readings are not comparable; measure afresh")
    return None


# --------------------------------------------------------------------------------------------- the run
@dataclass(frozen=True)
class _BaseRun:
    """The reconstruction's games played (the harness's failures left out), whether the thorough set was,
    and whether the run stopped before they were all played."""
    games: list[GamePlayed]
    thorough: bool
    stopped: bool


def _play_base(tapes: list[Variant], tape: bytes, plan: Plan, note: Note) -> _BaseRun:
    """The reconstruction's plain games, and the thorough set where they leave a variant's line unreached."""
    base = _run(_base_jobs(plan, False, tape), plan, "reconstruction games", note)
    reached = {n for g in base for n in g.lines_run}
    thorough: list[GamePlayed] = []
    if plan.thorough and {v.reading.line for v in tapes} - reached:
        thorough = _run(_base_jobs(plan, True, tape)[plan.games:], plan, "thorough-set games", note)
    return _BaseRun([g for g in base + thorough if not g.harness], bool(thorough), _Stopped.stopped)


@dataclass(frozen=True)
class _VariantRun:
    """The variant games played, by reading (a reading that shares another's tape and games has its games),
    and how many readings shared."""
    played: list[GamePlayed]
    by_reading: dict[str, list[GamePlayed]]
    shared: int


def _play_variants(tapes: list[Variant], chosen: dict[str, list[GamePlayed]], plan: Plan,
                   note: Note) -> _VariantRun:
    """Each variant's games; a tape several readings share (their lines tokenise to the same program) is
    played once for all of them."""
    first_of: dict[tuple[bytes | None, tuple[tuple[int, int, str], ...]], str] = {}
    same_as: dict[str, str] = {}
    for v in tapes:
        same_as[v.reading.id] = first_of.setdefault((v.tape, tuple(g.game_key for g in chosen[v.reading.id])),
                                                     v.reading.id)
    jobs = [GameJob(v.reading.id, v.tape or b"", g.index, g.seed, g.strategy, variant_frames(g)) for v in tapes
            if same_as[v.reading.id] == v.reading.id for g in chosen[v.reading.id]]
    played = _run(jobs, plan, "variant games", note)
    by_reading: dict[str, list[GamePlayed]] = {}
    for g in played:
        by_reading.setdefault(g.key, []).append(g)
    for rid, first in same_as.items():
        if rid != first and first in by_reading:
            by_reading[rid] = by_reading[first]
    return _VariantRun(played, by_reading, sum(1 for rid, first in same_as.items() if rid != first))


def _unreached(plan: Plan, base: _BaseRun) -> str:
    """Why a reading no game reaches is untested (a stopped run: which lines the games reach is not known,
    and every reading waits for a resume)."""
    if base.stopped:
        return BUDGET
    return NO_GAME + (f": {plan.games} plain game(s) and the thorough set" if base.thorough else
                      f": {plan.games} plain game(s); the thorough set was not played")


def _built(readings: list[Reading], tape: bytes) -> tuple[list[Variant], list[Variant]]:
    """Every reading's variant, and those that make a tape: the entries' own readings first, then the rest
    (a run stopped by its budget has played those)."""
    variants = Variants(tape)
    built = [variants.build(r) for r in readings]
    tapes = sorted((v for v in built if v.verdict == "tape"),
                   key=lambda v: (not (v.reading.entry or v.reading.source == "evidence"), v.reading.line))
    return built, tapes


def run(readings: list[Reading], tape: BaseTape, plan: Plan, note: Note = _silent) -> ReadingsRecord:
    """Every reading judged, built and played: the record for docs/data/readings.json (the command adds its
    line, the deviations' table and its own CPU time)."""
    cpu0 = time.process_time()
    _Stopped.stopped, _Stopped.by = False, None
    built, tapes = _built(readings, tape.data)
    rom_cpu = time.process_time() - cpu0
    base = _play_base(tapes, tape.data, plan, note)
    chosen = choose_games([v.reading for v in tapes], base.games, plan.games)
    variants = _play_variants(tapes, chosen, plan, note)
    base_by_key = {g.game_key: g for g in base.games}
    unreached = _unreached(plan, base)
    results = [consequence(v, chosen.get(v.reading.id, []), variants.by_reading.get(v.reading.id, []), base_by_key,
                           unreached, _Stopped.stopped) for v in built]
    games_cpu = sum(g.cpu_s for g in base.games + variants.played)
    here = plan.workers == 1 and not plan.scheduler          # the games ran in this process: counted already
    cpu = time.process_time() - cpu0 + (0.0 if here else games_cpu)
    return ReadingsRecord(
        schema=1, tape=tape_of(tape), ended="stopped" if _Stopped.stopped else "complete",
        plan=RecordPlan(games=plan.games, seed=plan.seed, thorough=plan.thorough and base.thorough,
                        frames_budget=[FRAMES_FACTOR, FRAMES_MARGIN]),
        base_games=[BaseGame(g.index, g.seed, g.strategy, g.scores, g.documented, len(g.lines_run))
                    for g in base.games],
        readings=results, counts=dict(Counter(c.kind for c in results)),
        undone=sorted(c.id for c in results if c.kind == "untested" and c.detail == BUDGET),
        variant_games=len(variants.played), shared_tapes=variants.shared,
        cpu_s=CpuSeconds(total=round(cpu, 1), rom_checks=round(rom_cpu, 1), games=round(games_cpu, 1)))


# ------------------------------------------------------------------------------------------ a resume
def _check_resumable(rec: ReadingsRecord, readings: list[Reading], plan: Plan, name: str) -> list[Reading]:
    """The readings a resume of *rec* plays (those its run left untested for want of time), or an InputError
    when it was measured with other games, seed or frame budget, or one of them is no longer a reading."""
    old_plan = rec.plan
    if (old_plan.games, old_plan.seed) != (plan.games, plan.seed) or \
            old_plan.frames_budget != [FRAMES_FACTOR, FRAMES_MARGIN]:
        raise InputError(f"{name}: measured with {old_plan.games} game(s) a reading from seed "
                         f"{old_plan.seed} and frame budget {old_plan.frames_budget}: a resumed run "
                         f"plays the same ({plan.games} from seed {plan.seed} asked)")
    wanted = left_by_budget(rec)
    todo = [r for r in readings if r.id in wanted]
    if len(todo) != len(wanted):
        missing = sorted(wanted - {r.id for r in todo})
        raise InputError(f"{name}: {len(missing)} reading(s) it left untested are no longer among the readings "
                         f"(first: {missing[0]}): measure afresh")
    return todo


def _check_same_games(rec: ReadingsRecord, part: ReadingsRecord, name: str) -> None:
    """An InputError when a reconstruction's game the record has ends otherwise now (the tape changed)."""
    old_base = {(g.index, g.seed, g.strategy): (g.scores, g.documented) for g in rec.base_games}
    for g in part.base_games:
        key = (g.index, g.seed, g.strategy)
        if key in old_base and old_base[key] != (g.scores, g.documented):
            scores, documented = old_base[key]
            now, then = ((f"{g.scores}", f"{scores}") if g.scores != scores else
                         (f"{g.scores} with {g.documented} documented deviation(s)", f"{documented}"))
            raise InputError(f"{name}: the reconstruction's game {g.index} (seed {g.seed}) ends {now} now, "
                             f"{then} in the record: the tape changed; measure afresh")


def _merged(rec: ReadingsRecord, part: ReadingsRecord, todo: int, tape: BaseTape) -> ReadingsRecord:
    """*rec* with the consequences *part* measured in place of the old, and the run's figures added up."""
    fresh = {c.id: c for c in part.readings}
    readings = [fresh.get(c.id, c) for c in rec.readings]
    known = {(g.index, g.seed, g.strategy) for g in rec.base_games}
    old_cpu, new_cpu = dataclasses.asdict(rec.cpu_s), dataclasses.asdict(part.cpu_s)
    cpu = {k: round((old_cpu[k] or 0.0) + v, 1) for k, v in new_cpu.items() if v is not None}
    merged = dataclasses.replace(
        rec, readings=readings, counts=dict(Counter(c.kind for c in readings)), ended=part.ended,
        tape=tape_of(tape), base_games=rec.base_games + [g for g in part.base_games
                                                         if (g.index, g.seed, g.strategy) not in known],
        plan=dataclasses.replace(rec.plan, thorough=rec.plan.thorough or part.plan.thorough or False),
        variant_games=rec.variant_games + part.variant_games,
        shared_tapes=(rec.shared_tapes or 0) + (part.shared_tapes or 0), cpu_s=CpuSeconds(**cpu),
        resumed=(rec.resumed or []) + [Resumed(todo, part.cpu_s.total, part.ended or "complete")])
    return dataclasses.replace(merged, undone=sorted(left_by_budget(merged)))


def resume(rec: ReadingsRecord, readings: list[Reading], tape: BaseTape, plan: Plan, note: Note = _silent,
           name: str = "the record") -> ReadingsRecord:
    """*rec* (read from *name*) with the readings its run left untested for want of time played now, on the
    same plan (games, seed) and the same tape; every other consequence is kept as measured. A record of
    another tape (its "tape" SHA-256) is refused before anything is played; the reconstruction's games are
    played again and must be the record's (the same scores and judgements): else the program changed and
    the consequences would not be comparable, and the record is refused."""
    _Stopped.stopped, _Stopped.by = False, None          # a stop of an earlier run in this process is not this one's
    older = check_tape(rec, tape.data, name)
    if older is not None:
        note(older)
    todo = _check_resumable(rec, readings, plan, name)
    if not todo:
        note(f"{name}: no reading left untested by its budget: nothing to play")
        return rec
    part = run(todo, BaseTape(tape.data), plan, note)
    _check_same_games(rec, part, name)
    return _merged(rec, part, len(todo), tape)


# ------------------------------------------------------------------------------------- the selection
def select(readings: list[Reading], listing_lines: list[int], every: bool = False,
           entries: set[int] | None = None) -> list[Reading]:
    """The readings a run takes: those of *entries* (line numbers) if given; else every judged entry's,
    the evidence's and the readings of the deviations' own lines (*every*: all of them)."""
    if entries is not None:
        missing = sorted(entries - {r.line for r in readings})
        if missing:
            raise needing(InputError(f"no reading of line(s) {', '.join(map(str, missing))} in basic/readings.toml"),
                          "entries")
        return [r for r in readings if r.line in entries]
    if every:
        return list(readings)
    cited = {n for lines in deviations_lines(listing_lines).values() for n in lines}
    return [r for r in readings if r.entry or r.source == "evidence" or r.line in cited]


def deviations_lines(listing_lines: list[int]) -> dict[str, list[int]]:
    """D1..D12 -> the listing's lines each cites."""
    from ..judge.deviations import DEVIATIONS, deviation_lines
    return {k: deviation_lines(d.lines, listing_lines) for k, d in DEVIATIONS.items()}


# ------------------------------------------------------------------------------------- the deviations
def deviation_table(rec: ReadingsRecord, listing_lines: list[int]) -> list[DeviationRow]:
    """For each deviation, its own lines' readings: which keep it, which make it vanish because the program
    stops, which make it vanish while the program plays on (flagged for a second look at the judgement: the
    reading was played, the deviation had shown in our games and the variant's game went on without it)."""
    rows: list[DeviationRow] = []
    by_line: dict[int, list[Consequence]] = {}
    for c in rec.readings:
        by_line.setdefault(c.line, []).append(c)
    for dev, lines in deviations_lines(listing_lines).items():
        cs = [c for n in lines for c in by_line.get(n, [])]
        played = [c for c in cs if c.kind in PLAYED]
        rows.append(DeviationRow(
            deviation=dev, lines=len(lines), readings=len(cs),
            refused=sum(1 for c in cs if c.kind in REFUSED),
            untested=sum(1 for c in cs if c.kind == "untested"),
            played=len(played),
            keep=sorted(c.id for c in played if dev in c.kept),
            vanish=sorted(c.id for c in played if dev in c.vanish),
            # the program plays on in the variant's game and the deviation is not there: a second look
            vanish_playing=sorted(c.id for c in played if dev in c.playing()),
            vanish_stops=sorted(c.id for c in played if dev in c.vanish and dev not in c.playing()),
            appear=sorted(c.id for c in played if dev in c.appear),
            not_shown=sorted(c.id for c in played if dev not in c.kept + c.vanish + c.appear)))
    return rows


# ------------------------------------------------------------------------------ basic/RECONSTRUCTION.md
_SECOND_LOOK = re.compile(r"^- Second look:(.*)$")
_READING_ID = re.compile(r"\b(\d+\.[0-9a-f]{8})\b")


def second_looks(text: str) -> dict[str, int]:
    """The readings basic/RECONSTRUCTION.md has taken a second look at: the reading ids a `- Second look:`
    line names (in the entry of the line, or in the section on the deviations' own lines), each with its
    line (the id's number)."""
    return {rid: int(rid.split(".")[0]) for row in text.splitlines() if (m := _SECOND_LOOK.match(row))
            for rid in _READING_ID.findall(m.group(1))}


