"""What `cribbage-zx readings` runs (the command: harness/commands/readings.py): every other reading the scan
admits (basic/readings.toml, written by tools/write_readings.py) built as a variant tape and played.

For each reading: the one line is tokenised and put to the ROM's own syntax check (a line it refuses is
recorded with the ROM's ``?``, and so is one the tokeniser cannot read); an accepted line is spliced
into the reconstruction's program, which must still LOAD, and must differ from it in its bytes (a
reading the ROM stores exactly as ours is "stores alike", never played). The same seeded games as the
reconstruction's own run are then played on the variant tape, on the job runner, and set against it:

- ``stops``: the variant ends in a BASIC error report or the harness gives up where ours did not;
- ``play``: scores, the winner, a choice or a message, or the judgements (deviations appearing or
  vanishing, unexplained differences) differ;
- ``picture``: only what the screen shows differs (at the moments named);
- ``identical``: nothing differs, and the statement coverage of the variant's own games shows its
  line ran; where it did not, the verdict is ``untested``, never ``identical``.

Games are chosen per line from the reconstruction's run: the first *games* of the plain games that
reach it, else the games of the thorough set that do; a line no game of the reconstruction reaches is
``untested`` without being played (the program runs alike up to the first time that line runs).

The variant tapes are readings_tapes.py's, a game as the comparison needs it readings_games.py's, the record
readings_record.py's (its one reader and writer); its pages are the edition's (edition/readings_doc.py).
"""
from __future__ import annotations

import dataclasses
import hashlib
import re
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ...errors import InputError, MachineError, needing
from ...runtime.jobs import Outcome, Progress, Setup, run_jobs
from ..model.build import tape_record
from . import regress
from .readings_games import (FRAMES_FACTOR, FRAMES_MARGIN, Event, GameJob, GamePlayed, no_setup, play,
                             variant_frames)
from .readings_record import (BUDGET, KINDS, NO_GAME, PLAYED, REFUSED, BaseGame, Consequence, CpuSeconds,
                              DeviationRow, ReadingsRecord, Reading, RecordPlan, Resumed, TapeRecord)
from .readings_record import vanish_playing_of as vanish_playing_of     # edition/notes.py reads it here
from .readings_tapes import Variant, Variants
from ..judge.deviations import DEVIATIONS, deviation_lines

#: a note of the run's (a harness failure, the time budget spent), said by the command
Note = Callable[[str], None]


def _silent(text: str) -> None:
    """No note said (a run whose caller passed none)."""


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


# ----------------------------------------------------------------------------------------- the verdict
class RefusedVerdict(MachineError):
    """A comparison that would call a reading identical without its line having run."""


#: the events that say what the screen showed, and the fields of each that are read back from the screen (the
#: rest, the program's variables and the moment, say what the program did: a difference there is play)
DRAWN = {"picture": ("slots", "pegs", "rows", "board", "flag", "drawing"), "screen": ("rows",)}


def _drawn_only(a: Event, b: Event) -> bool:
    """Two events of one moment that differ only in what was read back from the screen (`_moments` asks it
    only where both games have an event)."""
    if a.get("kind") != b.get("kind"):
        return False
    drawn = DRAWN.get(str(a.get("kind")))
    if drawn is None:
        return False
    return {k: v for k, v in a.items() if k not in drawn} == {k: v for k, v in b.items() if k not in drawn}


def _stops(base: GamePlayed, variant: GamePlayed) -> str | None:
    """The detail of a variant that stops where the reconstruction's game did not, else None."""
    if not (variant.basic_errors or variant.failure) or base.basic_errors or base.failure:
        return None
    said = "; ".join(map(str, variant.basic_errors)) or str(variant.failure)
    if not variant.basic_errors and variant.budget and variant.frames >= variant.budget - 2:
        said = (f"the harness gave it up past its budget of {variant.budget} frames ({FRAMES_FACTOR} times "
                f"the reconstruction's game and {FRAMES_MARGIN}): {said}")
    return f"the program stops: {said}"


def _play_differences(base: GamePlayed, variant: GamePlayed) -> list[str]:
    """How the scores and the judgements of the play differ (the screen's unexplained differences aside)."""
    out = [] if (variant.scores, variant.winner) == (base.scores, base.winner) else [
        f"scores {base.scores} -> {variant.scores}"]
    screen_b, screen_v = base.screen_unexplained, variant.screen_unexplained
    if variant.documented != base.documented or \
            variant.unexplained - screen_v != base.unexplained - screen_b:
        out.append(f"judgements: documented {base.documented} -> {variant.documented}, "
                   f"unexplained {base.unexplained - screen_b} -> {variant.unexplained - screen_v}")
    return out


def _moments(base: GamePlayed, variant: GamePlayed) -> tuple[list[str], bool]:
    """Where the transcripts differ: up to five moments whose picture alone differs, then the first event
    that differs otherwise; and whether only pictures differ."""
    moments: list[str] = []
    bt, vt = base.transcript, variant.transcript
    for k in range(max(len(bt), len(vt))):
        a, b = (bt[k] if k < len(bt) else None), (vt[k] if k < len(vt) else None)
        if a == b:
            continue
        if a is not None and b is not None and _drawn_only(a, b):
            if len(moments) < 5:
                moments.append(f"{a.get('moment') or a.get('what')}: " + ", ".join(_picture_change(a, b)))
            continue
        ev: Event = a if a is not None else b if b is not None else {}
        moments.append(f"event {k} ({ev.get('moment') or ev.get('kind')}): {_brief(a)} -> {_brief(b)}")
        return moments, False
    return moments, True


def compare_game(line: int, base: GamePlayed, variant: GamePlayed) -> tuple[str, str, list[str]]:
    """(kind, detail, moments) of one variant game against the reconstruction's game of the same seed.

    A difference in what the screen shows (a picture's or a screen check's rows, the unexplained screen
    differences the comparison finds in them) is ``picture``; one in what the program did (an event, the
    variables beside a picture, the scores, the documented deviations, an unexplained difference of the
    play) is ``play``."""
    stops = _stops(base, variant)
    if stops is not None:
        return "stops", stops, []
    play_diff = _play_differences(base, variant)
    moments, picture_only = _moments(base, variant)
    if play_diff or not picture_only:
        return "play", "; ".join(play_diff) or "the game goes otherwise", moments
    screen_b, screen_v = base.screen_unexplained, variant.screen_unexplained
    if screen_v != screen_b:
        moments = moments or [f"{screen_b} -> {screen_v} unexplained screen differences"]
        return "picture", (f"the picture differs at {len(moments)} moment(s) or more; unexplained screen "
                           f"differences {screen_b} -> {screen_v}"), moments
    if moments:
        return "picture", f"the picture differs at {len(moments)} moment(s) or more", moments
    shots = [a[0] for a, b in zip(base.screens, variant.screens) if a != b]
    if shots or len(base.screens) != len(variant.screens):
        return "picture", "the screenshots differ in their pixels", shots[:5]
    if line not in variant.lines_run:
        return "untested", f"line {line} did not run in this game", []
    return "identical", "", []


def _rows(event: Event) -> dict[str, object]:
    """A picture's rows by name, or a screen check's (row, text) pairs by row number."""
    rows = event.get("rows") or {}
    if isinstance(rows, dict):
        return {str(k): v for k, v in rows.items()}
    return {str(r): t for r, t in rows} if isinstance(rows, list) else {}


def _picture_change(a: Event, b: Event) -> list[str]:
    """What differs between two pictures of one moment: the rows by name and value, the rest by name."""
    out = []
    rows_a, rows_b = _rows(a), _rows(b)
    for name in sorted(set(rows_a) | set(rows_b)):
        if rows_a.get(name) != rows_b.get(name):
            out.append(f"{name} {rows_a.get(name)!r} -> {rows_b.get(name)!r}")
    out += [key for key in ("slots", "pegs", "board", "flag") if a.get(key) != b.get(key)]
    return out


def _brief(event: Event | None) -> str:
    if event is None:
        return "nothing"
    shown = {k: v for k, v in event.items() if k not in ("variables", "kind")}
    text = f"{event.get('kind')} {shown}"
    return text if len(text) <= 120 else text[:117] + "..."


def verdict(reading: Reading, pairs: list[tuple[GamePlayed, GamePlayed]]) -> Consequence:
    """The consequence of a played reading from its (reconstruction, variant) games."""
    worst, detail, moments = "untested", "", []
    for base, var in pairs:
        kind, d, m = compare_game(reading.line, base, var)
        if KINDS.index(kind) < KINDS.index(worst):
            worst, detail, moments = kind, d, m
    base_dev = Counter(k for b, _ in pairs for k, v in b.documented.items() if v)
    var_dev = Counter(k for _, v in pairs for k, n in v.documented.items() if n)
    vanish = sorted(set(base_dev) - set(var_dev))
    playing = {k for b, v in pairs if compare_game(reading.line, b, v)[0] != "stops"
               for k, n in b.documented.items() if n and not v.documented.get(k)}
    c = Consequence(reading.id, reading.line, reading.source, reading.what, reading.text, reading.entry, worst,
                    detail, [f"{b.seed}/{b.strategy}" for b, _ in pairs], moments,
                    appear=sorted(set(var_dev) - set(base_dev)), vanish=vanish,
                    kept=sorted(set(base_dev) & set(var_dev)), vanish_playing=sorted(playing & set(vanish)))
    check(c, pairs)
    return c


def check(c: Consequence, pairs: list[tuple[GamePlayed, GamePlayed]]) -> None:
    """Refuse "identical" for a reading whose line ran in none of its variant games."""
    if c.kind == "identical" and not any(c.line in v.lines_run for _, v in pairs):
        raise RefusedVerdict(f"{c.id}: 'identical' although line {c.line} ran in none of its games")


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
def left_by_budget(rec: ReadingsRecord) -> set[str]:
    """The readings a stopped run left untested for want of time (its budget or Ctrl-C), by id."""
    return {c.id for c in rec.readings if c.kind == "untested" and c.detail == BUDGET}


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


