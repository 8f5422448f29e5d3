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
"""
from __future__ import annotations

import hashlib
import re
import time
import tomllib
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable

from ... import resources
from ...errors import InputError, MachineError, needing
from ...runtime.jobs import Progress, Setup, run_jobs
from ...spectrum.acceptance import check_loads, rejection_shown
from ...spectrum.basic import split_program, tokenise_line
from ...spectrum.machine import FRAME_S, Spectrum48
from ...spectrum.profile import Profile
from ...spectrum.romcheck import RomNumberEncoder, enter_program
from ...spectrum.tape import FLAG_DATA, TapeBlock, program_header, read_tap, write_tap
from ..model.build import tape_record
from ..model.program import AUTOSTART_LINE, PROGRAM_NAME
from . import regress
from .loaded import init_worker

READINGS = resources.data_path("basic/readings.toml")

Record = dict[str, Any]          # a JSON object: a game's record, a consequence, the run's record
Job = tuple[Any, ...]

#: the verdicts, the most telling first
KINDS = ("stops", "play", "picture", "identical", "untested", "stores-alike", "rom-rejects", "not-tokenised")
PLAYED = ("stops", "play", "picture", "identical")
NO_GAME = "not reached by any game of the reconstruction's run"


@dataclass(frozen=True)
class Reading:
    line: int
    id: str
    source: str              # ocr, fragment, confusion, evidence
    what: str
    text: str                # the line's body as this reading has it
    entry: bool              # the line has a judgement entry in basic/RECONSTRUCTION.md


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
def _no_setup() -> None:
    """The workers' set-up: none (each job carries its tape; a worker keeps the last one loaded)."""


_loaded: str | None = None


#: a variant's game may take this many times its reconstruction game's emulated frames, and FRAMES_MARGIN
#: more, before the harness gives it up (a "stops" verdict, said so): a reading that sends the program into
#: a loop (6015's `IF S-0`: the demonstration for ever) would run to the driver's whole budget of 400 000
#: frames, two minutes of CPU, though its verdict is known at a fraction of that
FRAMES_FACTOR, FRAMES_MARGIN = 3, 10_000


def variant_frames(base: Record) -> int | None:
    """The budget of emulated frames of a variant's game of *base*'s seed (None: the driver's own)."""
    return None if not base.get("frames") else FRAMES_FACTOR * base["frames"] + FRAMES_MARGIN


_SHOT = re.compile(r" \(screenshot: [^)]*\)")


def play(job: Job) -> Record:
    """One game (index, seed, strategy, frames budget or None) on *tape*: what the comparison needs of
    regress's record."""
    global _loaded
    key, tape, index, seed, strategy, frames = job
    digest = hashlib.sha256(tape).hexdigest()
    if digest != _loaded:
        init_worker(tape)
        _loaded = digest
    g = regress.play_one(regress.GameJob(index, seed, strategy, frames_budget=frames))
    failure = _SHOT.sub("", g.failure) if g.failure else g.failure   # a timeout's screenshot: this run's own file
    counts = regress.counts_of_judgements(g.judgements, f"game-{index:03d}")
    return {"key": key, "index": index, "seed": seed, "strategy": strategy, "scores": g.scores,
            "winner": g.winner, "basic_errors": g.basic_errors, "failure": failure,
            "documented": counts.documented, "unexplained": len(counts.unexplained),
            "screen_unexplained": counts.screen_unexplained,
            "transcript": g.transcript,
            "screens": [(name, hashlib.sha256(data).hexdigest()) for name, data in (g.screens.pngs if g.screens else [])],
            "lines_run": sorted({k[0] for k, v in Profile.from_json(g.profile).counts.items() if v}),
            "frames": round(g.emulated_s / FRAME_S), "budget": frames, "cpu_s": g.cpu_s}


def _game_key(g: Record) -> Job:
    return (g["index"], g["seed"], g["strategy"])


# ----------------------------------------------------------------------------------------- the verdict
@dataclass
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
    # before it shows says nothing of the reading of the deviation's line
    vanish_playing: list[str] = field(default_factory=list)


class RefusedVerdict(MachineError):
    """A comparison that would call a reading identical without its line having run."""


#: the events that say what the screen showed, and the fields of each that are read back from the screen (the
#: rest, the program's variables and the moment, say what the program did: a difference there is play)
DRAWN = {"picture": ("slots", "pegs", "rows", "board", "flag", "drawing"), "screen": ("rows",)}


def _drawn_only(a: Record | None, b: Record | None) -> bool:
    """Two events of one moment that differ only in what was read back from the screen."""
    if a is None or b is None or a.get("kind") != b.get("kind") or a.get("kind") not in DRAWN:
        return False
    drawn = DRAWN[a["kind"]]
    return {k: v for k, v in a.items() if k not in drawn} == {k: v for k, v in b.items() if k not in drawn}


def compare_game(line: int, base: Record, variant: Record) -> tuple[str, str, list[str]]:
    """(kind, detail, moments) of one variant game against the reconstruction's game of the same seed.

    A difference in what the screen shows (a picture's or a screen check's rows, the unexplained screen
    differences the comparison finds in them) is ``picture``; one in what the program did (an event, the
    variables beside a picture, the scores, the documented deviations, an unexplained difference of the
    play) is ``play``."""
    if (variant["basic_errors"] or variant["failure"]) and not (base["basic_errors"] or base["failure"]):
        said = "; ".join(map(str, variant["basic_errors"])) or variant["failure"]
        if not variant["basic_errors"] and variant.get("budget") and variant.get("frames", 0) >= variant["budget"] - 2:
            said = (f"the harness gave it up past its budget of {variant['budget']} frames ({FRAMES_FACTOR} times "
                    f"the reconstruction's game and {FRAMES_MARGIN}): {said}")
        return "stops", f"the program stops: {said}", []
    moments: list[str] = []
    play_diff = [] if (variant["scores"], variant["winner"]) == (base["scores"], base["winner"]) else [
        f"scores {base['scores']} -> {variant['scores']}"]
    screen_b, screen_v = base.get("screen_unexplained", 0), variant.get("screen_unexplained", 0)
    if variant["documented"] != base["documented"] or \
            variant["unexplained"] - screen_v != base["unexplained"] - screen_b:
        play_diff.append(f"judgements: documented {base['documented']} -> {variant['documented']}, "
                         f"unexplained {base['unexplained'] - screen_b} -> {variant['unexplained'] - screen_v}")
    bt, vt = base["transcript"], variant["transcript"]
    picture_only = True
    for k in range(max(len(bt), len(vt))):
        a, b = (bt[k] if k < len(bt) else None), (vt[k] if k < len(vt) else None)
        if a == b:
            continue
        if _drawn_only(a, b):
            if len(moments) < 5:
                assert a is not None and b is not None
                moments.append(f"{a.get('moment') or a.get('what')}: " + ", ".join(_picture_change(a, b)))
            continue
        picture_only = False
        ev: Record = a if a is not None else b if b is not None else {}
        where = ev.get("moment") or ev.get("kind")
        moments.append(f"event {k} ({where}): {_brief(a)} -> {_brief(b)}")
        break
    if play_diff or not picture_only:
        return "play", "; ".join(play_diff) or "the game goes otherwise", moments
    if screen_v != screen_b:
        moments = moments or [f"{screen_b} -> {screen_v} unexplained screen differences"]
        return "picture", (f"the picture differs at {len(moments)} moment(s) or more; unexplained screen "
                           f"differences {screen_b} -> {screen_v}"), moments
    if moments:
        return "picture", f"the picture differs at {len(moments)} moment(s) or more", moments
    shots = [a[0] for a, b in zip(base["screens"], variant["screens"]) if a != b]
    if shots or len(base["screens"]) != len(variant["screens"]):
        return "picture", "the screenshots differ in their pixels", shots[:5]
    if line not in variant["lines_run"]:
        return "untested", f"line {line} did not run in this game", []
    return "identical", "", []


def _picture_change(a: Record, b: Record) -> list[str]:
    """What differs between two pictures of one moment: the rows by name and value, the rest by name."""
    out = []
    rows_a, rows_b = a.get("rows") or {}, b.get("rows") or {}
    if not isinstance(rows_a, dict) or not isinstance(rows_b, dict):      # a screen check's (row, text) pairs
        rows_a, rows_b = ({str(r): t for r, t in rows} for rows in (rows_a or [], rows_b or []))
    for name in sorted(set(rows_a) | set(rows_b)):
        if rows_a.get(name) != rows_b.get(name):
            out.append(f"{name} {rows_a.get(name)!r} -> {rows_b.get(name)!r}")
    out += [key for key in ("slots", "pegs", "board", "flag") if a.get(key) != b.get(key)]
    return out


def _brief(event: Record | None) -> str:
    if event is None:
        return "nothing"
    shown = {k: v for k, v in event.items() if k not in ("variables", "kind")}
    text = f"{event.get('kind')} {shown}"
    return text if len(text) <= 120 else text[:117] + "..."


def verdict(reading: Reading, pairs: list[tuple[Record, Record]]) -> Consequence:
    """The consequence of a played reading from its (reconstruction, variant) games."""
    worst, detail, moments = "untested", "", []
    for base, var in pairs:
        kind, d, m = compare_game(reading.line, base, var)
        if KINDS.index(kind) < KINDS.index(worst):
            worst, detail, moments = kind, d, m
    base_dev = Counter(k for b, _ in pairs for k, v in b["documented"].items() if v)
    var_dev = Counter(k for _, v in pairs for k, n in v["documented"].items() if n)
    vanish = sorted(set(base_dev) - set(var_dev))
    playing = {k for b, v in pairs if compare_game(reading.line, b, v)[0] != "stops"
               for k, n in b["documented"].items() if n and not v["documented"].get(k)}
    c = Consequence(reading.id, reading.line, reading.source, reading.what, reading.text, reading.entry, worst,
                    detail, [f"{b['seed']}/{b['strategy']}" for b, _ in pairs], moments,
                    appear=sorted(set(var_dev) - set(base_dev)), vanish=vanish,
                    kept=sorted(set(base_dev) & set(var_dev)), vanish_playing=sorted(playing & set(vanish)))
    check(c, pairs)
    return c


def check(c: Consequence, pairs: list[tuple[Record, Record]]) -> None:
    """Refuse "identical" for a reading whose line ran in none of its variant games."""
    if c.kind == "identical" and not any(c.line in v["lines_run"] for _, v in pairs):
        raise RefusedVerdict(f"{c.id}: 'identical' although line {c.line} ran in none of its games")


# --------------------------------------------------------------------------------------------- the run
@dataclass
class Plan:
    games: int = 1
    seed: int = 1
    workers: int = 1
    scheduler: str | None = None
    thorough: bool = True
    progress: bool = False
    deadline: float | None = None        # time.monotonic() after which no further game is waited for


def _base_jobs(plan: Plan, thorough: bool, tape: bytes) -> list[Job]:
    strategies = regress.STRATEGIES
    games = [(i, regress.spread_seed(plan.seed + i), strategies[i % len(strategies)]) for i in range(plan.games)]
    if thorough:
        games += [(plan.games + k, regress.spread_seed(plan.seed + plan.games + k), s)
                  for k, s in enumerate(regress.THOROUGH_SET)]
    return [("base", tape, *g, None) for g in games]


class _Stopped:
    """Set when Ctrl-C (or SIGTERM), or the time budget, stopped the games: the record keeps what finished.
    *by*: the interruption itself (the command raises it again once the record is written: status 130/143)."""
    stopped = False
    by: KeyboardInterrupt | None = None


def stopped_by() -> KeyboardInterrupt | None:
    """The Ctrl-C or SIGTERM that stopped the last run's games, or None (it ended, or its budget stopped it)."""
    return _Stopped.by


def _run(jobs: list[Job], plan: Plan, what: str, note: Callable[[str], None]) -> list[Record]:
    out: list[Record] = []
    if not jobs or _Stopped.stopped:
        return out
    bar = Progress(len(jobs), what, plan.progress)
    try:
        with run_jobs(play, jobs, Setup(_no_setup), plan.workers, plan.scheduler) as outcomes:
            for o in outcomes:
                if o.ok:
                    out.append(o.value)
                else:
                    note(f"{o.job[0]} game {o.job[2]}: harness failure: {o.error}")
                    out.append({"key": o.job[0], "index": o.job[2], "seed": o.job[3], "strategy": o.job[4],
                                "failure": o.error, "harness": True})
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


def choose_games(readings: list[Reading], base_games: list[Record], games: int) -> dict[str, list[Record]]:
    """For each reading, the reconstruction's games its variant plays: the first *games* of the plain games
    (index below *games*) whose statement coverage ran its line, else the first game of the thorough set
    (index *games* on) that ran it, else none (the reading is untested: no game of ours reaches its line)."""
    chosen: dict[str, list[Record]] = {}
    for r in readings:
        plain = [g for g in base_games if g["index"] < games and r.line in g["lines_run"]]
        extra = [g for g in base_games if g["index"] >= games and r.line in g["lines_run"]]
        chosen[r.id] = plain[:games] or extra[:1]
    return chosen


BUDGET = "untested (budget): the run stopped (its time budget or Ctrl-C) before this reading's games"


def consequence(v: Variant, chosen: list[Record], games: list[Record], base_by_key: dict[Job, Record],
                unreached: str, stopped: bool) -> Consequence:
    """One reading's consequence: the ROM's verdict on its line; else *untested* with the reason (no game of
    the run reaches its line: *unreached*; the run stopped first; a game failed in the harness); else the
    verdict of its variant *games* against the reconstruction's games of the same seeds (*chosen*)."""
    r = v.reading
    fields = (r.id, r.line, r.source, r.what, r.text, r.entry)
    if v.verdict != "tape":
        return Consequence(*fields, v.verdict, detail=v.detail)
    if not chosen:
        return Consequence(*fields, "untested", detail=unreached)
    games = sorted(games, key=_game_key)
    failed = [g for g in games if g.get("harness")]
    if not games and stopped:
        return Consequence(*fields, "untested", detail=BUDGET)
    if failed or len(games) != len(chosen):
        return Consequence(*fields, "untested", detail="a variant game failed in the harness: "
                           + (failed[0]["failure"] if failed else "lost"))
    return verdict(r, [(base_by_key[_game_key(g)], g) for g in games])


def tape_of(base_tape: bytes, where: Path | None = None) -> Record:
    """The record's "tape": the reconstruction's tape the readings were measured against, by its SHA-256 (and,
    from *where*, its path and its sources' fingerprint: build.tape_record)."""
    if where is None:
        return {"path": None, "sha256": hashlib.sha256(base_tape).hexdigest(), "fingerprint": None}
    return tape_record(where, base_tape)


#: what a readings record holds whatever its age (schema 1), and of what type; "tape" came later (issue 45)
RECORD_KEYS: dict[str, type] = {"base_games": list, "plan": dict, "readings": list, "cpu_s": dict}


def check_record(record: Any, name: str) -> Record:
    """*record* (read from *name*) when it is a readings record as `run` writes it, else an InputError in one
    line naming the file and what it holds instead (another command's record: a regress report, a sweep's)."""
    if not isinstance(record, dict):
        raise InputError(f"{name}: not a readings record (a JSON {type(record).__name__}, not an object)")
    missing = [k for k in RECORD_KEYS if k not in record]
    wrong = [k for k, kind in RECORD_KEYS.items() if k in record and not isinstance(record[k], kind)]
    if wrong and not missing:
        raise InputError(f"{name}: not a readings record as this version writes it ('{wrong[0]}' is not a "
                         f"{RECORD_KEYS[wrong[0]].__name__})")
    if missing or record.get("schema") != 1:
        seems = ("a regress or fairness report: it has per_game" if "per_game" in record else
                 f"written by `{record['command']}`" if isinstance(record.get("command"), str)
                 and not record["command"].startswith("cribbage-zx readings") else
                 f"schema {record.get('schema')!r}, not 1" if not missing else f"no {', '.join(missing)}")
        raise InputError(f"{name}: not a readings record ({seems})")
    return record


def check_tape(record: Record, base_tape: bytes, name: str) -> str | None:
    """An InputError in one line when *record* was measured on another tape than *base_tape* (by SHA-256);
    for a record older than the tape's fingerprint, the one-line note that says it names no tape (the
    reconstruction's games played again are then the only check), else None."""
    tape = record.get("tape")
    if not isinstance(tape, dict) or not isinstance(tape.get("sha256"), str):
        return (f"{name}: the record names no tape (written before readings kept the tape's SHA-256): its "
                f"reconstruction's games, played again, are the check that the tape is the same")
    now = hashlib.sha256(base_tape).hexdigest()
    if tape["sha256"] != now:
        raise InputError(f"{name}: a record of another tape (SHA-256 {tape['sha256'][:12]}…"
                         f"{', ' + str(tape['path']) if tape.get('path') else ''}), not of this one "
                         f"({now[:12]}…): its readings are not comparable; measure afresh")
    return None


def run(readings: list[Reading], base_tape: bytes, plan: Plan, note: Callable[[str], None] = lambda s: None,
        where: Path | None = None) -> Record:
    """Every reading judged, built and played; the record written to docs/data/readings.json. *where*: the
    tape's path, for the record's "tape" (its sources' fingerprint)."""
    cpu0 = time.process_time()
    _Stopped.stopped, _Stopped.by = False, None
    variants = Variants(base_tape)
    built = [variants.build(r) for r in readings]
    rom_cpu = time.process_time() - cpu0
    # the entries' own readings first, then the rest (a run stopped by its budget has played those)
    tapes = sorted((v for v in built if v.verdict == "tape"),
                   key=lambda v: (not (v.reading.entry or v.reading.source == "evidence"), v.reading.line))
    lines = {v.reading.line for v in tapes}
    base = _run(_base_jobs(plan, False, base_tape), plan, "reconstruction games", note)
    reached = {n for g in base for n in g.get("lines_run", [])}
    thorough_base: list[Record] = []
    if plan.thorough and lines - reached:
        thorough_base = _run(_base_jobs(plan, True, base_tape)[plan.games:], plan, "thorough-set games", note)
    base_stopped = _Stopped.stopped
    base_games = [g for g in base + thorough_base if not g.get("harness")]
    chosen = choose_games([v.reading for v in tapes], base_games, plan.games)
    # a tape several readings share (their lines tokenise to the same program) is played once for all of them
    first_of: dict[tuple[bytes | None, tuple[Job, ...]], str] = {}
    same_as: dict[str, str] = {}
    for v in tapes:
        same_as[v.reading.id] = first_of.setdefault((v.tape, tuple(_game_key(g) for g in chosen[v.reading.id])),
                                                     v.reading.id)
    jobs = [(v.reading.id, v.tape, g["index"], g["seed"], g["strategy"], variant_frames(g)) for v in tapes
            if same_as[v.reading.id] == v.reading.id for g in chosen[v.reading.id]]
    played = _run(jobs, plan, "variant games", note)
    by_reading: dict[str, list[Record]] = {}
    for g in played:
        by_reading.setdefault(g["key"], []).append(g)
    for rid, first in same_as.items():
        if rid != first and first in by_reading:
            by_reading[rid] = by_reading[first]
    base_by_key = {_game_key(g): g for g in base_games}
    unreached = NO_GAME + (f": {plan.games} plain game(s) and the thorough set" if thorough_base else
                           f": {plan.games} plain game(s); the thorough set was not played")
    if base_stopped:                   # which lines the games reach is not known: every reading waits for a resume
        unreached = BUDGET
    results = [consequence(v, chosen.get(v.reading.id, []), by_reading.get(v.reading.id, []), base_by_key,
                           unreached, _Stopped.stopped) for v in built]
    games_cpu = sum(g.get("cpu_s", 0.0) for g in base_games + played)
    here = plan.workers == 1 and not plan.scheduler          # the games ran in this process: counted already
    cpu = time.process_time() - cpu0 + (0.0 if here else games_cpu)
    return {
        "schema": 1,
        "tape": tape_of(base_tape, where),
        "ended": "stopped" if _Stopped.stopped else "complete",
        "plan": {"games": plan.games, "seed": plan.seed, "thorough": plan.thorough and bool(thorough_base),
                 "frames_budget": [FRAMES_FACTOR, FRAMES_MARGIN]},
        "base_games": [{"index": g["index"], "seed": g["seed"], "strategy": g["strategy"], "scores": g["scores"],
                        "documented": g["documented"], "lines_run": len(g["lines_run"])} for g in base_games],
        "readings": [asdict(c) for c in results],
        "counts": dict(Counter(c.kind for c in results)),
        "undone": sorted(c.id for c in results if c.kind == "untested" and c.detail == BUDGET),
        "variant_games": len(played),
        "shared_tapes": sum(1 for rid, first in same_as.items() if rid != first),
        "cpu_s": {"total": round(cpu, 1), "rom_checks": round(rom_cpu, 1),
                  "games": round(games_cpu, 1)},
    }



def left_by_budget(record: Record) -> set[str]:
    """The readings a stopped run left untested for want of time (its budget or Ctrl-C), by id."""
    return {c["id"] for c in record["readings"] if c["kind"] == "untested" and c["detail"] == BUDGET}


def resume(record: Record, readings: list[Reading], base_tape: bytes, plan: Plan,
           note: Callable[[str], None] = lambda s: None, where: Path | None = None,
           name: str = "the record") -> Record:
    """*record* (read from *name*) with the readings its run left untested for want of time played now, on the
    same plan (games, seed) and the same tape; every other consequence is kept as measured. A record of
    another command, or of another tape (its "tape" SHA-256), is refused before anything is played; the
    reconstruction's games are played again and must be the record's (the same scores and judgements): else
    the program changed and the consequences would not be comparable, and the record is refused."""
    _Stopped.stopped, _Stopped.by = False, None          # a stop of an earlier run in this process is not this one's
    check_record(record, name)
    older = check_tape(record, base_tape, name)
    if older is not None:
        note(older)
    old_plan = record.get("plan", {})
    if (old_plan.get("games"), old_plan.get("seed")) != (plan.games, plan.seed) or \
            old_plan.get("frames_budget") != [FRAMES_FACTOR, FRAMES_MARGIN]:
        raise InputError(f"{name}: measured with {old_plan.get('games')} game(s) a reading from seed "
                         f"{old_plan.get('seed')} and frame budget {old_plan.get('frames_budget')}: a resumed run "
                         f"plays the same ({plan.games} from seed {plan.seed} asked)")
    wanted = left_by_budget(record)
    todo = [r for r in readings if r.id in wanted]
    if len(todo) != len(wanted):
        missing = sorted(wanted - {r.id for r in todo})
        raise InputError(f"{name}: {len(missing)} reading(s) it left untested are no longer among the readings "
                         f"(first: {missing[0]}): measure afresh")
    if not todo:
        note(f"{name}: no reading left untested by its budget: nothing to play")
        return record
    part = run(todo, base_tape, plan, note)
    old_base = {(g["index"], g["seed"], g["strategy"]): (g["scores"], g["documented"]) for g in record["base_games"]}
    for g in part["base_games"]:
        key = (g["index"], g["seed"], g["strategy"])
        if key in old_base and old_base[key] != (g["scores"], g["documented"]):
            scores, documented = old_base[key]
            now, then = ((f"{g['scores']}", f"{scores}") if g["scores"] != scores else
                         (f"{g['scores']} with {g['documented']} documented deviation(s)", f"{documented}"))
            raise InputError(f"{name}: the reconstruction's game {g['index']} (seed {g['seed']}) ends {now} now, "
                             f"{then} in the record: the tape changed; measure afresh")
    fresh = {c["id"]: c for c in part["readings"]}
    merged = dict(record)
    merged["readings"] = [fresh.get(c["id"], c) for c in record["readings"]]
    merged["counts"] = dict(Counter(c["kind"] for c in merged["readings"]))
    merged["ended"] = part["ended"]
    merged["tape"] = tape_of(base_tape, where)
    merged["undone"] = sorted(left_by_budget(merged))
    known = {(g["index"], g["seed"], g["strategy"]) for g in record["base_games"]}
    merged["base_games"] = record["base_games"] + [g for g in part["base_games"]
                                                   if (g["index"], g["seed"], g["strategy"]) not in known]
    merged["plan"] = dict(old_plan, thorough=old_plan.get("thorough", False) or part["plan"]["thorough"])
    merged["variant_games"] = record["variant_games"] + part["variant_games"]
    merged["shared_tapes"] = record.get("shared_tapes", 0) + part["shared_tapes"]
    merged["cpu_s"] = {k: round(record["cpu_s"].get(k, 0.0) + part["cpu_s"][k], 1) for k in part["cpu_s"]}
    merged["resumed"] = record.get("resumed", []) + [{"readings": len(todo), "cpu_s": part["cpu_s"]["total"],
                                                     "ended": part["ended"]}]
    return merged



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
def deviation_table(record: Record, listing_lines: list[int]) -> list[Record]:
    """For each deviation, its own lines' readings: which keep it, which make it vanish because the program
    stops, which make it vanish while the program plays on (flagged for a second look at the judgement: the
    reading was played, the deviation had shown in our games and the variant's game went on without it)."""
    rows: list[Record] = []
    by_line: dict[int, list[Record]] = {}
    for c in record["readings"]:
        by_line.setdefault(c["line"], []).append(c)
    for dev, lines in deviations_lines(listing_lines).items():
        cs = [c for n in lines for c in by_line.get(n, [])]
        played = [c for c in cs if c["kind"] in PLAYED]
        rows.append({
            "deviation": dev, "lines": len(lines), "readings": len(cs),
            "refused": sum(1 for c in cs if c["kind"] in ("rom-rejects", "not-tokenised", "stores-alike")),
            "untested": sum(1 for c in cs if c["kind"] == "untested"),
            "played": len(played),
            "keep": sorted(c["id"] for c in played if dev in c["kept"]),
            "vanish": sorted(c["id"] for c in played if dev in c["vanish"]),
            # the program plays on in the variant's game and the deviation is not there: a second look
            "vanish_playing": sorted(c["id"] for c in played if dev in vanish_playing_of(c)),
            "vanish_stops": sorted(c["id"] for c in played if dev in c["vanish"] and dev not in vanish_playing_of(c)),
            "appear": sorted(c["id"] for c in played if dev in c["appear"]),
            "not_shown": sorted(c["id"] for c in played if dev not in c["kept"] + c["vanish"] + c["appear"]),
        })
    return rows


def vanish_playing_of(c: Record) -> list[str]:
    """The deviations that vanish from a consequence's games while the program plays on in them (a record of
    schema 1, before the field: every one that vanishes from a reading that does not stop)."""
    if "vanish_playing" in c:
        return list(c["vanish_playing"])
    return [] if c["kind"] == "stops" else list(c["vanish"])


# ------------------------------------------------------------------------------------------ the pages
ENTRY_MARK = "<!-- readings {line} -->"
ENTRY_END = "<!-- /readings -->"
_HEADING = re.compile(r"^###\s+(\d+)\s*$")          # an entry's heading (edition/notes.py reads the same form)


def _one(c: Record) -> str:
    what = {"identical": "identical", "untested": "untested", "stops": "the program stops",
            "play": "the play differs", "picture": "the picture differs", "stores-alike": "stored alike",
            "rom-rejects": "the ROM rejects it", "not-tokenised": "does not tokenise"}[c["kind"]]
    extra = ""
    if c["kind"] in ("play", "picture", "stops") and c["detail"]:
        extra = f": {c['detail'].removeprefix('the program stops: ')}"
    if c["vanish"] or c["appear"]:
        playing = vanish_playing_of(c)
        stopping = [d for d in c["vanish"] if d not in playing]
        extra += "".join([f"; {', '.join(stopping)} vanish(es) because the program stops" if stopping else "",
                          f"; {', '.join(playing)} vanish(es) while the program plays on" if playing else "",
                          f"; {', '.join(c['appear'])} appear(s)" if c["appear"] else ""])
    return f"{c['id']} ({c['source']}) {what}{extra}"


def entry_consequence(record: Record, line: int) -> str:
    """The generated line of entry *line* in basic/RECONSTRUCTION.md: what each of its readings changes."""
    cs = [c for c in record["readings"] if c["line"] == line]
    if not cs:
        body = "no reading of this line was measured"
    else:
        counts = Counter(c["kind"] for c in cs)
        body = ", ".join(f"{counts[k]} {k}" for k in KINDS if counts[k]) + ". " + "; ".join(_one(c) for c in cs)
        if all(c["kind"] in ("untested", "rom-rejects", "not-tokenised", "stores-alike") for c in cs) \
                and any(c["kind"] == "untested" for c in cs):
            body += f". Not reached by any run: {NO_GAME}"
    return f"- Consequence: {ENTRY_MARK.format(line=line)} {body} {ENTRY_END}"


def update_reconstruction(text: str, record: Record, entries: list[int]) -> str:
    """basic/RECONSTRUCTION.md with each entry's generated consequence put (or replaced) after its Evidence."""
    out, current = [], None
    for row in text.splitlines():
        m = _HEADING.match(row)
        if m:
            current = int(m.group(1))
        if row.startswith("- Consequence: <!-- readings "):
            continue
        out.append(row)
        if current in entries and row.startswith("- Evidence:"):
            out.append(entry_consequence(record, current))
    return "\n".join(out) + ("\n" if text.endswith("\n") else "")


def stale_consequences(text: str, record: Record) -> list[str]:
    """Each entry whose generated consequence is not what *record* says of its own line (or is missing)."""
    problems, current = [], None
    seen: set[int] = set()
    for row in text.splitlines():
        m = _HEADING.match(row)
        if m:
            current = int(m.group(1))
            continue
        if row.startswith("- Consequence:") and current is not None:
            seen.add(current)
            if row != entry_consequence(record, current):
                problems.append(f"entry {current}: its consequence is not the measured one of line {current}")
    return problems + [f"entry {n}: no consequence" for n in sorted(set(entries_of(text)) - seen)]


def entries_of(text: str) -> list[int]:
    return [int(m.group(1)) for row in text.splitlines() if (m := _HEADING.match(row))]


_SECOND_LOOK = re.compile(r"^- Second look:(.*)$")
_READING_ID = re.compile(r"\b(\d+\.[0-9a-f]{8})\b")


def second_looks(text: str) -> dict[str, int]:
    """The readings basic/RECONSTRUCTION.md has taken a second look at: the reading ids a `- Second look:`
    line names (in the entry of the line, or in the section on the deviations' own lines), each with its
    line (the id's number)."""
    return {rid: int(rid.split(".")[0]) for row in text.splitlines() if (m := _SECOND_LOOK.match(row))
            for rid in _READING_ID.findall(m.group(1))}


def second_look_of(row: Record, looked: dict[str, int]) -> str:
    """The deviations' table's last column: "no"; "yes" (a reading makes it vanish while the program plays
    on, and basic/RECONSTRUCTION.md has not looked at it again); "looked at: line N" once every such
    reading is answered there."""
    flagged = row["vanish_playing"]
    if not flagged:
        return "no"
    if all(rid in looked for rid in flagged):
        return "looked at: " + ", ".join(f"line {n}" for n in sorted({looked[rid] for rid in flagged}))
    return "yes"


def markdown(record: Record, listing_lines: list[int], entries: list[int], command: str,
             looked: dict[str, int] | None = None) -> str:
    """docs/READINGS.md: the run, the summary (entries x kind), the deviations' table, every entry's readings;
    *looked*: second_looks of basic/RECONSTRUCTION.md."""
    looked = looked or {}
    plan = record["plan"]
    counts = record["counts"]
    out = ["# Every reading tested", "",
           "Measured by `%s` (`harness/program/runs/readings.py`), the record `docs/data/readings.json`; this page and each "
           "entry's `- Consequence:` in `basic/RECONSTRUCTION.md` are written from the record by `--write-docs` "
           "(`cribbage-zx readings --from-record --write-docs` for a stored one). Do not edit." % command,
           "",
           "For every judgement entry of `basic/RECONSTRUCTION.md`, every line where `tools/ocr_diff.py` applies "
           "an OCR confusion, and the alternatives an entry's evidence names, `basic/readings.toml` holds the "
           "other readings the scan admits (written by `tools/write_readings.py`, checked current by "
           "`tests/test_readings.py`). Each is tokenised, put to the ROM's own syntax check, built as a variant "
           "tape and played with the same seeded games as the reconstruction; a line no game runs is "
           "*untested*, never *identical*.", "",
           "## The run", "",
           f"- readings measured: {len(record['readings'])} (of lines: {len({c['line'] for c in record['readings']})})",
           f"- games per reading: the first {plan['games']} of the reconstruction's plain games (seed {plan['seed']}) "
           f"that run its line, else the first game of the thorough set that does "
           f"({'played' if plan['thorough'] else 'not played: its lines are untested'}); a reading whose line no "
           f"game of the run reaches is *untested*, with that reason, and never played",
           f"- the reconstruction's games: " + ", ".join(f"{g['seed']}/{g['strategy']}" for g in record["base_games"]),
           f"- variant games played: {record['variant_games']}"
           + (f" ({record['shared_tapes']} reading(s) share the tape and the games of another reading of their line)"
              if record.get("shared_tapes") else "")
           + f"; the run {record.get('ended', 'complete')}"
           + ("" if record.get("ended", "complete") == "complete" else
              " (stopped at the time limit: the readings it did not play are recorded as untested)"),
           *([f"- a variant's game may take {plan['frames_budget'][0]} times its reconstruction game's emulated "
              f"frames and {plan['frames_budget'][1]} more: "
              f"{sum(1 for c in record['readings'] if 'past its budget' in c['detail'])} reading(s) ran on past "
              "that (a loop) and were given up there, as *stops*"] if "frames_budget" in plan else []),
           *[f"- resumed (`--resume`): {r['readings']} reading(s) the run before had left untested by its time "
             f"budget, played in {r['cpu_s']} CPU s; that run {r['ended']}" for r in record.get("resumed", [])],
           f"- CPU time: {record['cpu_s']['total']} s (the ROM's checks {record['cpu_s']['rom_checks']} s, "
           f"the games {record['cpu_s']['games']} s)"
           + (f"; the command's process: {record['cpu_s']['command']} s" if "command" in record["cpu_s"] else ""),
           "",
           "| verdict | readings |", "| --- | --- |"]
    out += [f"| {k} | {counts.get(k, 0)} |" for k in KINDS]
    out += ["", "## Entries x kind of consequence", "",
            "| entry | " + " | ".join(KINDS) + " |", "| --- |" + " --- |" * len(KINDS)]
    for n in entries:
        c = Counter(x["kind"] for x in record["readings"] if x["line"] == n)
        out.append(f"| {n} | " + " | ".join(str(c.get(k, 0)) for k in KINDS) + " |")
    out += ["", "## The deviations against the readings of their own lines", "",
            "A deviation *vanishes* under a reading when our games show it and the variant's same games do not. "
            "It vanishes *because the program stops* when the variant's game ends in a report (or the harness "
            "gives it up) before the deviation shows: that says nothing of the deviation's own reading. It "
            "vanishes *while the program plays on* when the variant's game goes on and the deviation is not "
            "there: only that is flagged for a second look at the judgement, until `basic/RECONSTRUCTION.md` "
            "says what the second look found (a `- Second look:` naming the reading).", "",
            "| deviation | lines | readings | refused by the ROM | untested | played | keep | "
            "vanish, the program stops | vanish, it plays on | appear | not shown by its games | second look |",
            "| --- |" + " --- |" * 11]
    for row in record.get("deviations") or deviation_table(record, listing_lines):
        out.append(f"| {row['deviation']} | {row['lines']} | {row['readings']} | {row['refused']} | "
                   f"{row['untested']} | {row['played']} | {len(row['keep'])} | "
                   f"{', '.join(row['vanish_stops']) or 0} | {', '.join(row['vanish_playing']) or 0} | "
                   f"{', '.join(row['appear']) or 0} | {len(row['not_shown'])} | "
                   f"{second_look_of(row, looked)} |")
    out += ["", "## Every reading that was played and changed something", ""]
    for c in record["readings"]:
        if c["kind"] in ("stops", "play", "picture"):
            out.append(f"- **{c['line']}** `{c['text']}` — {c['what']}: {_one(c)}"
                       + (f" (first at {c['moments'][0]})" if c["moments"] else ""))
    return "\n".join(out) + "\n"
