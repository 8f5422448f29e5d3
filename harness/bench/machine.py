"""What `cribbage-zx bench` measures (the command: harness/commands/bench.py): emulated seconds per wall second, for the harness and for the bare CPU core.

Three figures: (a) boot, power-on to the © message, repeated; (b) a CPU-heavy
BASIC program the project keeps (harness/data/bench.bas), run through the
harness; (c) the same program from the same state on the bare core with no
harness work at all, so the harness overhead is the ratio of (b) to (c).
Each figure is the best of several repetitions: the machines here are noisy.
"""
from __future__ import annotations

import dataclasses
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from statistics import median_high
from typing import TYPE_CHECKING, Callable, Iterator, TypedDict

from ..errors import MachineError
from .. import resources
from ..spectrum.accelerate import Accelerator
from ..spectrum import machine as machine_module
from ..spectrum.basic import tokenise_line
from ..spectrum.typist import Typist, typed_form
from ..spectrum.cpu import Z80Core, run_raw_frames
from ..spectrum.machine import FRAME_S, FRAME_T, Spectrum48

from .routines import RoutineProfile, RoutinesFigures, profile_figures, profile_game

if TYPE_CHECKING:
    from ..program.runs.regress import GameJob, GameResult

BENCH_PROGRAM = resources.BENCH_PROGRAM


def _figure(frames: int, wall: float) -> dict[str, float]:
    emulated = frames * FRAME_S
    return {"emulated_s": round(emulated, 3), "wall_s": round(wall, 4), "x_realtime": round(emulated / wall, 1)}


def _best(fn: Callable[[], tuple[int, float]], repeat: int) -> tuple[int, float]:
    """The fastest of *repeat* runs of *fn* (frames run, wall seconds)."""
    return min((fn() for _ in range(repeat)), key=lambda run: run[1])


def bench_boot(repeat: int = 5) -> dict[str, float]:
    def once() -> tuple[int, float]:
        t = time.perf_counter()
        m = Spectrum48()
        m.boot()
        return m.frames, time.perf_counter() - t
    return _figure(*_best(once, repeat))


def basic_machine(fast: bool = True) -> Spectrum48:
    """A booted machine with the benchmark program typed in by the ROM's own editor, RUN and warmed up."""
    m = Spectrum48(fast=fast)
    m.boot()
    typist = Typist(m)
    for n, text in enumerate(BENCH_PROGRAM.read_text().splitlines(), 1):
        if text.strip():
            _, record = tokenise_line(text, line_no_in_file=n)
            typist.enter_line(typed_form(record))
    typist.type_codes(bytes([0xF7, 0x0D]))  # RUN
    m.run_frames(50)
    if m.reports:
        raise MachineError(f"benchmark program stopped: {m.reports[-1]}")
    return m


def bench_basic(frames: int = 1500, repeat: int = 3) -> tuple[dict[str, float], dict[str, float]]:
    m = basic_machine()
    snap = m.snapshot()

    def harness_once() -> tuple[int, float]:
        m.restore(snap)
        t = time.perf_counter()
        m.run_frames(frames)
        wall = time.perf_counter() - t
        if m.reports:
            raise MachineError(f"benchmark program stopped: {m.reports[-1]}")
        return frames, wall

    core_state = snap[0]

    def raw_once() -> tuple[int, float]:
        core = Z80Core()                 # the bare core the machine runs on
        core.load_state(core_state)
        t = time.perf_counter()
        run_raw_frames(core, frames, FRAME_T)
        return frames, time.perf_counter() - t

    basic = _figure(*_best(harness_once, repeat))
    raw = _figure(*_best(raw_once, repeat))
    return basic, raw


def bench_core(frames: int = 1500, repeat: int = 3) -> float:
    """The bare core's speed on the BASIC benchmark: T-states per CPU second (median of *repeat*)."""
    core_state = basic_machine().snapshot()[0]
    times = []
    for _ in range(repeat):
        core = Z80Core()
        core.load_state(core_state)
        t = time.process_time()
        run_raw_frames(core, frames, FRAME_T)
        times.append(time.process_time() - t)
    return frames * FRAME_T / median_high(times)


def bench_game(core_t_per_s: float, repeat: int = 3) -> GameFigures:
    """One regress game (play_one, screens and profile included) in CPU seconds, with the accelerator (the
    default) and on the plain ROM, in turn from one process (each loaded once; the accelerator's table is
    recorded in its first game), against the bare core's time for the T-states it ran; the two games'
    records must be identical. Also: the share of the T-states the accelerator answered, and where a plain
    game's T-states go among the ROM's list walks (harness/bench/routines.py)."""
    from ..program.model.build import tape_bytes  # lazy: 0.4 s of imports that bench --cores and --web skip
    from ..program.runs import loaded
    from ..program.runs.regress import GameJob, spread_seed
    tape = tape_bytes(None)
    job = GameJob(0, spread_seed(1), "random")
    try:
        with _accelerators_counted() as made:
            played = _played_both_ways(tape, job, repeat, made)
            frames = game_frames_run(tape, job)
            profile = profile_game(tape, job)
    finally:
        loaded.init_worker(tape)
    return _game_figures(played, frames, profile, core_t_per_s)


@dataclass
class _Played:
    """The game played *repeat* times each way: CPU seconds and what it did, by accelerated or not; and the
    T-states the accelerator answered in its last game (of them, LOOK-VARS's)."""
    times: dict[bool, list[float]] = field(default_factory=lambda: {False: [], True: []})
    games: dict[bool, dict[str, object]] = field(default_factory=dict)
    answered_t: int = 0
    vars_t: int = 0


@contextmanager
def _accelerators_counted() -> Iterator[list[Accelerator]]:
    """The accelerators made while the context lasts, listed as they are made (their T-states answered)."""
    made: list[Accelerator] = []
    real_init: Callable[..., None] = Accelerator.__init__

    def counted(self: Accelerator, *args: object, **kwargs: object) -> None:
        real_init(self, *args, **kwargs)
        made.append(self)
    try:
        setattr(Accelerator, "__init__", counted)
        yield made
    finally:
        setattr(Accelerator, "__init__", real_init)


def _played_both_ways(tape: bytes, job: GameJob, repeat: int, made: list[Accelerator]) -> _Played:
    """The game played *repeat* times on the plain ROM and with the accelerator, in turn (each tape loaded once)."""
    from ..program.runs import loaded  # lazy: 0.4 s of imports that bench --cores and --web skip
    from ..program.runs.regress import play_one
    played = _Played()
    tapes = {accelerate: loaded.load(tape, accelerate=accelerate) for accelerate in (False, True)}
    for _ in range(repeat):
        for accelerate in (False, True):
            loaded._worker = tapes[accelerate]
            made.clear()
            t = time.process_time()
            game = play_one(job)
            played.times[accelerate].append(time.process_time() - t)
            played.games[accelerate] = what_it_did(game)
            if accelerate:
                played.answered_t = sum(a.stats.ticks_saved for a in made)
                played.vars_t = sum(a.stats.vars_ticks_saved for a in made)
    return played


class GameFigures(TypedDict):
    """bench_game's figures, in the order its record keeps them."""
    answered_t: int
    game_cpu_s: float
    plain_cpu_s: float
    accelerated_cpu_s: float
    t_states: int
    emulated_s: float
    core_s: float
    game_over_core: float
    plain_over_core: float
    answered_share: float
    x_realtime_per_cpu_s: float
    accelerator_gain: float
    identical: bool
    routines: RoutinesFigures


def _game_figures(played: _Played, frames: int, profile: RoutineProfile, core_t_per_s: float) -> GameFigures:
    """bench_game's figures, in the order its record keeps them."""
    answered = {"LINE-ADDR": played.answered_t - played.vars_t, "LOOK-VARS": played.vars_t}
    game_cpu_s, plain_cpu_s = round(median_high(played.times[True]), 3), round(median_high(played.times[False]), 3)
    t_states, emulated_s = frames * FRAME_T, round(frames * FRAME_S, 2)
    core_s = round(t_states / core_t_per_s, 3)
    out = GameFigures(answered_t=played.answered_t, game_cpu_s=game_cpu_s, plain_cpu_s=plain_cpu_s,
                      accelerated_cpu_s=game_cpu_s, t_states=t_states, emulated_s=emulated_s, core_s=core_s,
                      game_over_core=round(game_cpu_s / core_s, 3), plain_over_core=round(plain_cpu_s / core_s, 3),
                      answered_share=round(played.answered_t / t_states, 4),
                      x_realtime_per_cpu_s=round(emulated_s / game_cpu_s, 1),
                      accelerator_gain=round(1 - game_cpu_s / plain_cpu_s, 3),
                      identical=played.games[False] == played.games[True],
                      routines=profile_figures(profile, core_t_per_s, plain_cpu_s))
    left_t = profile.total_t - out["answered_t"]           # what the accelerated game still emulates
    for name, r in out["routines"].items():
        if name in answered and not isinstance(r, int):
            r["answered_t"] = answered[name]
            r["share_after"] = round((r["t_states"] - answered[name]) / left_t, 4) if left_t > 0 else 0.0
    return out


def command_t_states(games: int, seed: int) -> int:
    """The T-states the games of `regress --games *games* --seed *seed*` run (each game played here once, as
    the command's plan makes it): what the bare core's time for the command is taken from."""
    from ..program.model.build import tape_bytes  # lazy: 0.4 s of imports that bench --cores and --web skip
    from ..program.runs.regress import plan_games
    tape = tape_bytes(None)
    return sum(game_frames_run(tape, job) for job in plan_games(games, seed)) * FRAME_T


TIMINGS = ("wall_s", "cpu_s", "screen_s")     # a game record's measures of how long it took


def what_it_did(game: GameResult) -> dict[str, object]:
    """A regress game's record without its timings: what two runs of the same game must agree on."""
    return {k: v for k, v in dataclasses.asdict(game).items() if k not in TIMINGS}


#: frames run by the games counted so far, by (tape, seed, player): bench_game's game is the command's first
_FRAMES_RUN: dict[tuple[bytes, int, str], int] = {}


def game_frames_run(tape: bytes, job: GameJob) -> int:
    """How many frames the game's machine ran (frames skipped by fast mode's PAUSE are not T-states run);
    a game is played for this once a process (its seed and player decide them; its screenshots do not)."""
    key = (tape, job.seed, job.strategy)
    if key not in _FRAMES_RUN:
        _FRAMES_RUN[key] = _count_frames_run(tape, job)
    return _FRAMES_RUN[key]


def _count_frames_run(tape: bytes, job: GameJob) -> int:
    from ..program.runs.loaded import init_worker  # lazy: 0.4 s of imports that bench --cores and --web skip
    from ..program.runs.regress import play_one
    made: list[Spectrum48] = []
    real_init: Callable[..., None] = machine_module.Spectrum48.__init__

    def spy(self: Spectrum48, *args: object, **kwargs: object) -> None:
        real_init(self, *args, **kwargs)
        made.append(self)
    init_worker(tape)
    setattr(machine_module.Spectrum48, "__init__", spy)
    try:
        play_one(job)
    finally:
        setattr(machine_module.Spectrum48, "__init__", real_init)
    return sum(m.frames_run for m in made)
