"""A reading's games (harness/program/runs/readings.py plays them and sets them against each other): one game
on a variant tape or the reconstruction's, as the comparison needs it (`play`, a job of the runner), and the
budget of emulated frames a variant's game is allowed.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Mapping, Sequence

from ...spectrum.machine import FRAME_S
from ...spectrum.profile import Profile
from . import regress
from .loaded import init_worker

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
