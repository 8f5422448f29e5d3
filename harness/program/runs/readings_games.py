"""A reading's games and their verdict (harness/program/runs/readings.py runs them): one game on a variant
tape as the comparison needs it (`play`, a job of the runner), a variant game set against the
reconstruction's game of the same seed (`compare_game`), and a reading's consequence over its games
(`verdict`).

- ``stops``: the variant ends in a BASIC error report or the harness gives up where ours did not;
- ``play``: scores, the winner, a choice or a message, or the judgements (deviations appearing or
  vanishing, unexplained differences) differ;
- ``picture``: only what the screen shows differs (at the moments named);
- ``identical``: nothing differs, and the statement coverage of the variant's own games shows its
  line ran; where it did not, the verdict is ``untested``, never ``identical``.
"""
from __future__ import annotations

import hashlib
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Mapping, Sequence

from ...errors import MachineError
from ...spectrum.machine import FRAME_S
from ...spectrum.profile import Profile
from . import regress
from .loaded import init_worker
from .readings_record import KINDS, Consequence, Reading

#: an event of a game's transcript (events.Event as JSON: its fields by name)
Event = Mapping[str, object]

#: a variant's game may take this many times its reconstruction game's emulated frames, and FRAMES_MARGIN
#: more, before the harness gives it up (a "stops" verdict, said so): a reading that sends the program into
#: a loop (6015's `IF S-0`: the demonstration for ever) would run to the driver's whole budget of 400 000
#: frames, two minutes of CPU, though its verdict is known at a fraction of that
FRAMES_FACTOR, FRAMES_MARGIN = 3, 10_000


@dataclass(frozen=True)
class GameJob:
    """One game to play for the readings: *key* ("base" or a reading's id), the tape, the game's index, seed
    and strategy, and its budget of emulated frames (None: the driver's own)."""
    key: str
    tape: bytes
    index: int
    seed: int
    strategy: str
    frames: int | None = None


@dataclass(frozen=True)
class GamePlayed:
    """What the comparison needs of one game (regress's record of it), or of a game the harness failed on
    (*harness*: its job raised; *failure* says why)."""
    key: str
    index: int
    seed: int
    strategy: str
    scores: dict[str, int] = field(default_factory=dict)
    winner: str | None = None
    basic_errors: list[str] = field(default_factory=list)
    failure: str | None = None
    documented: dict[str, int] = field(default_factory=dict)
    unexplained: int = 0
    screen_unexplained: int = 0
    transcript: Sequence[Event] = ()
    screens: Sequence[tuple[str, str]] = ()       # (name, SHA-256 of the PNG)
    lines_run: list[int] = field(default_factory=list)
    frames: int = 0                                # emulated frames
    budget: int | None = None                      # the frames it was allowed (None: the driver's own)
    cpu_s: float = 0.0
    harness: bool = False

    @property
    def game_key(self) -> tuple[int, int, str]:
        return self.index, self.seed, self.strategy


def variant_frames(base: GamePlayed) -> int | None:
    """The budget of emulated frames of a variant's game of *base*'s seed (None: the driver's own)."""
    return None if not base.frames else FRAMES_FACTOR * base.frames + FRAMES_MARGIN


_SHOT = re.compile(r" \(screenshot: [^)]*\)")
_loaded: str | None = None


def no_setup() -> None:
    """The workers' set-up: none (each job carries its tape; a worker keeps the last one loaded)."""


def play(job: GameJob) -> GamePlayed:
    """One game (index, seed, strategy, frames budget or None) on the job's tape: what the comparison needs
    of regress's record."""
    global _loaded
    digest = hashlib.sha256(job.tape).hexdigest()
    if digest != _loaded:
        init_worker(job.tape)
        _loaded = digest
    g = regress.play_one(regress.GameJob(job.index, job.seed, job.strategy, frames_budget=job.frames))
    failure = _SHOT.sub("", g.failure) if g.failure else g.failure   # a timeout's screenshot: this run's own file
    counts = regress.counts_of_judgements(g.judgements, f"game-{job.index:03d}")
    return GamePlayed(
        key=job.key, index=job.index, seed=job.seed, strategy=job.strategy, scores=g.scores, winner=g.winner,
        basic_errors=g.basic_errors, failure=failure, documented=counts.documented,
        unexplained=len(counts.unexplained), screen_unexplained=counts.screen_unexplained,
        transcript=g.transcript,
        screens=[(name, hashlib.sha256(data).hexdigest()) for name, data in (g.screens.pngs if g.screens else [])],
        lines_run=sorted({k[0] for k, v in Profile.from_json(g.profile).counts.items() if v}),
        frames=round(g.emulated_s / FRAME_S), budget=job.frames, cpu_s=g.cpu_s)


class RefusedVerdict(MachineError):
    """A comparison that would call a reading identical without its line having run."""


#: the events that say what the screen showed, and the fields of each that are read back from the screen (the
#: rest, the program's variables and the moment, say what the program did: a difference there is play)
DRAWN = {"picture": ("slots", "pegs", "rows", "board", "flag", "drawing"), "screen": ("rows",)}


def _drawn_only(a: Event | None, b: Event | None) -> bool:
    """Two events of one moment that differ only in what was read back from the screen."""
    if a is None or b is None or a.get("kind") != b.get("kind"):
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
