"""What `cribbage-zx regress` runs (the command: harness/commands/regress.py): play N whole games of the BASIC program and check every score.

Each game runs in a worker process on its own embedded Spectrum (the tape is
loaded once per worker and each game starts from that snapshot), with the
automated player strategies taken in turn; the job runner (harness/runtime/jobs.py)
runs them on a local pool or on a Dask cluster (--scheduler). The report says
how many score events were checked and how many differences were found, by
documented deviation or unexplained, and which games the harness itself
failed on; the exit status is non-zero on any unexplained difference, BASIC
error report, timeout or harness failure. Each run owns its --out folder
(harness/runtime/outdir.py): a used folder is refused unless --replace.
"""
from __future__ import annotations

import hashlib
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

from ...runtime import atomic
from ...errors import MachineError, UsageError
from ...runtime.jobs import Outcome, Progress, Setup, run_jobs
from ...runtime.outdir import claimed
from ...spectrum import z80snap
from ...spectrum.machine import FRAME_S, Spectrum48
from ...spectrum.recording import RzxRecorder, replay_problem
from ...spectrum.rzx import write_rzx
from ...spectrum.profile import Profile, Profiler
from ...spectrum.tape import read_tap
from ..model.build import played_tape, tape_record
from ..judge.compare import judge
from .coverage import Coverage, RunCoverage
from ..judge.deviations import DEVIATIONS
from ..observe.driver import Budget, DriverOptions, GameDriver
from ..records.frames import GameId, frames_name, frames_record, rzx_tag, write_frames
from ..records.events import Choice, Picture, event_to_json, transcript_records, write_transcript
from ..model.findings import program_findings
from ..judge.judgements import judgements_name, judgements_text
from .loaded import core_class, init_worker, worker_tape
from .regress_report import (REPORT_SCHEMA, GameCounts, HarnessFailure, PerGame, RegressReport, RunFacts,
                             counts_of_judgements, is_report, read_report, summary_table, write_report)
from .screens import Screens, encode_screens, write_screens
from ..observe.players import make as make_player

#: the report's record and reader live in regress_report.py; named here too, as the run's own
__all__ = ["REPORT_SCHEMA", "STRATEGIES", "THOROUGH_SET", "GameCounts", "GameJob", "GameResult", "HarnessFailure",
           "PerGame", "Played", "Recording", "RegressOptions", "RegressReport", "RunFacts", "check_choices",
           "counts_of_judgements", "finish_recording", "is_report", "play_one", "plan_games", "read_report", "run",
           "spread_seed", "summary_table", "write_report"]

STRATEGIES = ("random", "greedy", "adversarial")
THOROUGH_SET = ("explorer",) * 6 + ("stopper",) * 2    # seeds alternate the stopper's two findings


def spread_seed(n: int) -> int:
    """The SEED of game number *n*: consecutive numbers spread over 0..65535 (an odd multiplier is a
    bijection), since seeds 1..N poked into SEED make the first RND tiny and every game start alike."""
    return (n * 40503) % 65536


@dataclass(frozen=True)
class GameJob:
    """One game to play: its number in the run, its SEED, the player strategy; *keep_all_screens*: a
    screenshot of every action too (the run's first game, for its GIF); *rzx*: recorded as an RZX."""
    index: int
    seed: int
    strategy: str
    keep_all_screens: bool = False
    rzx: bool = False
    frames_budget: int | None = None     # emulated frames before the game is given up (None: the driver's own)


@dataclass
class Recording:
    """A game recorded (regress --rzx): the RZX from the first question to the editor after the last
    report, and a .z80 of the machine at its end."""
    rzx: bytes
    end: bytes
    frames: int
    split_instructions: int
    event_frames: dict[str, object] | None = None         # game-NNN.frames.json's object (records/frames.py)
    events: int = 0                                 # the events it gives a frame (its "events")


@dataclass
class GameResult:
    """What a worker hands back for one game (picklable, for the local pool and Dask alike): how it went,
    its judgements file's text, its transcript's records, its screens encoded, its profile, its cost."""
    index: int
    seed: int
    strategy: str
    winner: str | None
    scores: dict[str, int]
    games_played: int
    wins: list[dict[str, object]]
    completed: bool
    deals: int
    actions: int
    judgements: str                          # the judgements file's text (emptied once written)
    basic_errors: list[str]
    findings: dict[str, str | None]
    timeout: str | None
    failure: str | None
    failure_kind: str | None
    emulated_s: float
    wall_s: float
    transcript: list[dict[str, object]]
    screens: Screens | None                  # None once written
    profile: dict[str, dict[str, int]]
    adversarial_tries: list[object]
    choices: dict[str, int]
    pictures_at: dict[str, int]
    cpu_s: float
    screen_s: float
    recording: Recording | None = None       # --rzx (None once written)
    rzx_note: str | None = None              # --rzx, and why nothing was recorded
    counts: GameCounts | None = field(default=None)    # the parent's, from the judgements text

    def counted(self) -> GameCounts:
        if self.counts is None:
            raise MachineError(f"game {self.index}: not counted yet")
        return self.counts

    def per_game(self) -> PerGame:
        """The game's entry in report.json's per_game."""
        c = self.counted()
        return PerGame(index=self.index, seed=self.seed, strategy=self.strategy, winner=self.winner,
                       scores=self.scores, completed=self.completed, deals=self.deals,
                       score_events=c.score_events, documented=c.documented, unexplained=c.unexplained,
                       basic_errors=self.basic_errors, timeout=self.timeout, failure=self.failure,
                       emulated_s=self.emulated_s, wall_s=self.wall_s, adversarial_tries=self.adversarial_tries,
                       findings=self.findings, games_played=self.games_played, wins=self.wins,
                       pictures=c.pictures, screen_checks=c.screen_checks,
                       screen_differences=c.screen_differences)


def play_one(job: GameJob) -> GameResult:
    """Play game *job.index* with its seed and strategy on this worker's loaded tape; its record as plain data.

    With *job.rzx* the game runs at real timing on the fetch-counting core and its record also carries the
    RZX file (from the first question to the editor after the last report) and a .z80 of the machine at the
    recording's end. With *job.frames_budget* the game is given up after that many emulated frames (the
    readings give a variant's game a few times its reconstruction game's length).
    """
    loaded = worker_tape()
    m = loaded.machine(recording=job.rzx)
    start_frames = m.frames
    player = make_player(job.strategy, job.seed)
    recorder = RzxRecorder(m) if job.rzx else None
    budget = Budget(frames=job.frames_budget) if job.frames_budget is not None else Budget()
    driver = GameDriver(m, player, seed=job.seed, options=DriverOptions(
        keep_screens=True, every_action_screen=job.keep_all_screens, budget=budget, profiler=loaded.profiler(),
        on_first_question=recorder.start if recorder else None))
    t, cpu = time.perf_counter(), time.process_time()
    rec = driver.play()
    recording, note, refused = (finish_recording(m, recorder, job.index, rec.event_frames, seed=job.seed,
                                                 tape_sha256=hashlib.sha256(loaded.tape).hexdigest())
                                if recorder else (None, None, False))
    failure: str | None = rec.failure
    failure_kind: str | None = rec.failure_kind
    if refused and failure is None:
        failure, failure_kind = note, "recording"
    wall, cpu = time.perf_counter() - t, time.process_time() - cpu
    setup = loaded.setup
    results = judge(rec.events, setup)
    findings = program_findings(rec.events)
    judgements = judgements_text((j for r in results.values() for j in r.judgements), list(results),
                                 game=job.index, seed=job.seed, player=job.strategy, edition=setup.edition)
    profile = loaded.startup_profile + (rec.profile or Profile())
    return GameResult(
        index=job.index, seed=job.seed, strategy=job.strategy, winner=rec.winner, scores=rec.scores,
        games_played=len(rec.wins), wins=[event_to_json(w) for w in rec.wins],
        completed=rec.winner is not None and rec.failure is None and not rec.basic_errors,
        deals=rec.deals, actions=rec.actions, judgements=judgements,
        basic_errors=[r for r in rec.basic_errors if not findings.get(r)], findings=findings,
        timeout=rec.failure if rec.failure_kind == "timeout" else None, failure=failure,
        failure_kind=failure_kind,
        emulated_s=round((rec.frames - start_frames) * FRAME_S, 2), wall_s=round(wall, 3),
        transcript=transcript_records(rec.events, seed=job.seed, player=job.strategy, game=job.index),
        screens=encode_screens(rec.screens), profile=profile.as_json(),
        adversarial_tries=getattr(player, "tries", []), recording=recording, rzx_note=note,
        choices=dict(Counter(e.what.value for e in rec.events if isinstance(e, Choice))),
        pictures_at=dict(Counter(f"{e.moment} ({e.line})" for e in rec.events if isinstance(e, Picture))),
        cpu_s=round(cpu, 3), screen_s=round(driver.observer.picture_seconds, 3))


RZX_SETTLE_FRAMES = 300     # after the game's last report, frames for the ROM to print it and wait in the editor


def finish_recording(m: Spectrum48, recorder: RzxRecorder, game: int, event_frames: list[int],
                     seed: int | None = None, tape_sha256: str | None = None
                     ) -> tuple[Recording | None, str | None, bool]:
    """The RZX of a recorded game and the .z80 at its end, or why there is none and whether that is a
    failure (a recording that does not replay); the editor's wait after the last report is included, so
    that a player replaying it ends on the same still screen.

    The recording is checked before it is kept: replayed on the embedded core to its last frame as Fuse
    and SkoolKit play it (`recording.replay_problem`), it must end where the game's machine ended; one
    that does not is not kept, and its note (the first frame that fails) is the game's failure (issue 48:
    a recording Fuse refused was written and reported as good). The RZX and its frames file name the game
    (*game*, *seed*, the tape's *tape_sha256*; records/frames.py), so that neither is taken for another's."""
    if recorder.snapshot is None:
        return None, "not recorded: the game ended before its first question", False
    if not m.mid_frame and m.last_report is not None:
        m.run(RZX_SETTLE_FRAMES, until_wait=True, stop_on_report=False, what="the editor after the last report")
    recording = recorder.stop()
    end = z80snap.from_machine(m)
    problem = replay_problem(recording, end)
    if problem is not None:
        return None, f"game-{game:03d}.rzx does not replay: {problem}", True
    recording.custom = rzx_tag(GameId(game, seed, tape_sha256))
    rzx = write_rzx(recording)
    events = frames_record(game, event_frames, recorder.start_frame, seed, tape_sha256, rzx)
    return Recording(rzx, z80snap.write_z80(end), len(recording.frames),
                     recorder.split_instructions, events, len(event_frames)), None, False


def _write_recording(out: Path, game: GameResult) -> None:
    """game-NNN.rzx and game-NNN-end.z80 of a game played with --rzx (the bytes leave the record)."""
    if game.recording is not None:
        atomic.write_bytes(out / f"game-{game.index:03d}.rzx", game.recording.rzx)
        atomic.write_bytes(out / f"game-{game.index:03d}-end.z80", game.recording.end)
        if game.recording.event_frames is not None:
            if game.recording.events != len(game.transcript) - 1:
                raise MachineError(f"game {game.index}: {game.recording.events} event frames "
                                   f"for {len(game.transcript) - 1} events")
            write_frames(out / frames_name(game.index), game.recording.event_frames)
        game.recording = None


def _count(game: GameResult) -> None:
    """The game's counts for the report, taken from the text of its judgements file (before any file is
    written: once its files are on disk, a game is counted at once, so a Ctrl-C cannot fall in between)."""
    game.counts = counts_of_judgements(game.judgements, judgements_name(game.index))


def _write_judgements(out: Path, game: GameResult) -> None:
    """The game's judgements, written once (every rule set judged); the text leaves the record."""
    atomic.write_text(out / judgements_name(game.index), game.judgements)
    game.judgements = ""


def _write_transcript(out: Path, game: GameResult) -> None:
    write_transcript(out / f"game-{game.index:03d}.jsonl", game.transcript)


def _coverage(tape: bytes, results: Sequence[GameResult]) -> RunCoverage:
    """The statements and IF outcomes all the games ran, against the program on the tape (see coverage.py)."""
    program = Profiler.program_of_tape(read_tap(tape))
    total = Profile()
    choices: Counter[str] = Counter()
    pictures: Counter[str] = Counter()
    for g in results:
        total = total + Profile.from_json(g.profile)
        choices.update(g.choices)
        pictures.update(g.pictures_at)
    return RunCoverage(**Coverage.of(program, total).as_json(), choices=dict(sorted(choices.items())),
                       pictures_at=dict(sorted(pictures.items())))


def plan_games(games: int, seed: int, strategies: Sequence[str] = STRATEGIES, thorough: bool = False,
               rzx: bool = False) -> list[GameJob]:
    """The run's games: *games* of the strategies in turn (then the thorough set), game i seeded from
    seed + i spread over 0..65535; the first keeps a screenshot of every action (its GIF)."""
    plan = [strategies[i % len(strategies)] for i in range(games)] + (list(THOROUGH_SET) if thorough else [])
    return [GameJob(i, spread_seed(seed + i), strategy, i == 0, rzx) for i, strategy in enumerate(plan)]


def check_choices(rzx: bool, core: str, accelerate: bool) -> None:
    """What cannot be combined, said before any worker starts: an RZX records the plain ROM's own run on the
    z80 core (the fetch-counting core), so no other core goes with it (its games run on the plain ROM,
    the accelerator or not: `LoadedTape.machine`). A UsageError naming no option: the command names them
    (commands/regress.py)."""
    if rzx and core != "z80":
        raise UsageError(f"an RZX recording is made on the z80 core only, not on {core}")
    core_class(core)


@dataclass(frozen=True)
class RegressOptions:
    """How a regress run plays, beyond how many games from which seed on how many workers: the strategies
    taken in turn, the tape (None: build/cribbage.tap, built when stale), the thorough set, RZX recordings,
    the core and the accelerator, the runner (None: the local pool), the progress bar, whether an earlier
    run's folder is cleared, and the command the folder is claimed for."""
    strategies: Sequence[str] = STRATEGIES
    tap: Path | None = None
    thorough: bool = False
    rzx: bool = False
    core: str = "z80"
    accelerate: bool = True
    scheduler: str | None = None
    progress: bool = True
    replace: bool = False
    command: str = "regress"


@dataclass
class Played:
    """The games a run has taken back so far: their results (each written to its folder as it came), the
    harness failures, and the games' own CPU seconds in their workers (the runner's is the rest)."""
    results: list[GameResult] = field(default_factory=list)
    failures: list[HarnessFailure] = field(default_factory=list)
    jobs_cpu: float = 0.0

    def take(self, outcome: Outcome[GameJob, GameResult], folder: Path, bar: Progress) -> None:
        """A finished game: counted, its files written, and a harness failure said at once on stderr."""
        job = outcome.job
        failure = outcome.error
        if outcome.value is not None:
            game = outcome.value
            self.jobs_cpu += outcome.cpu_s or 0.0
            _count(game)
            _write_transcript(folder, game)
            _write_judgements(folder, game)
            _write_recording(folder, game)
            self.results.append(game)            # its transcript is on disk: the report may count it
            write_screens(folder, game.index, game.screens)
            game.screens = None
            failure = game.failure
        if failure:
            self.failures.append(HarnessFailure(job.index, job.seed, job.strategy, failure))
            bar.note(f"cribbage-zx regress: game {job.index} (seed {job.seed}, {job.strategy}): "
                     f"harness failure: {failure}")


def run(games: int, seed: int, workers: int, out: Path, options: RegressOptions = RegressOptions(),
        report_page: Callable[[Path], object] | None = None) -> RegressReport:
    """Play and check *games* games into the folder *out*; returns the report (also out/report.json).

    *report_page*, when given, renders the folder's records as pages (the command passes the HTML report,
    harness/edition/report.py: a view, which this program-side module does not import); it runs inside
    the folder's claim, so no other run can mix in.

    A game whose job raises, or whose driver gives up (its record's failure),
    is reported at once on stderr as a harness failure and the run goes on.
    On Ctrl-C the games finished so far keep their files and a report marked
    interrupted is written before the interrupt goes on.
    """
    o = options
    check_choices(o.rzx, o.core, o.accelerate)           # refused here, not inside every game as its failure
    where, tape = played_tape(o.tap)
    jobs = plan_games(games, seed, o.strategies, o.thorough, o.rzx)
    with claimed(out, o.command, replace=o.replace) as folder:
        bar = Progress(len(jobs), "games", o.progress)
        played = Played()
        ended = "complete"
        report: RegressReport | None = None
        try:
            with run_jobs(play_one, jobs, Setup(init_worker, (tape, o.core, o.accelerate)), workers,
                          o.scheduler) as outcomes:
                for outcome in outcomes:
                    played.take(outcome, folder, bar)
                    bar.step()
        except KeyboardInterrupt:
            ended = "interrupted"
            raise
        except BaseException as exc:
            ended = f"stopped: {exc}".splitlines()[0]
            raise
        finally:
            bar.close()
            if played.results or played.failures:   # a run that ended before any game has nothing to report
                report = _report(played.results, played.failures, RunFacts(
                    games=len(jobs), ended=ended, wall_s=round(bar.elapsed, 2), workers=workers,
                    scheduler=o.scheduler, thorough=o.thorough, accelerate=o.accelerate,
                    jobs_cpu_s=round(played.jobs_cpu, 3), tape=tape_record(where, tape),
                    coverage=_coverage(tape, played.results)))
                write_report(folder / "report.json", report)
        if report_page is not None:
            report_page(folder)                            # still inside the claim: no other run can mix in
    if report is None:
        raise MachineError(f"{out}: no game was played, nothing to report")
    return report


def _report(results: list[GameResult], failures: list[HarnessFailure], run: RunFacts) -> RegressReport:
    results = sorted(results, key=lambda g: g.index)
    counts = [g.counted() for g in results]
    documented: Counter[str] = Counter()
    for c in counts:
        documented.update(c.documented)
    rule_sets = list(counts[0].under_rules) if counts else []
    return RegressReport(
        games=run.games,
        ended=run.ended,
        played=len(results),
        completed=sum(g.completed for g in results),
        deals=sum(g.deals for g in results),
        actions=sum(g.actions for g in results),
        score_events=sum(c.score_events for c in counts),
        checks=sum(c.checks for c in counts),
        pictures=sum(c.pictures for c in counts),
        screen_checks=sum(c.screen_checks for c in counts),
        screen_differences=sum(c.screen_differences for c in counts),
        screen_unexplained=sum(c.screen_unexplained for c in counts),
        screen_cpu_share=round(sum(g.screen_s for g in results) / max(1e-9, sum(g.cpu_s for g in results)), 4),
        documented_differences=sum(documented.values()),
        documented_by_deviation=dict(sorted(documented.items())),
        unexplained_differences=sum(len(c.unexplained) for c in counts),
        basic_errors=sum(len(g.basic_errors) for g in results),
        timeouts=sum(1 for g in results if g.timeout),
        harness_failures=len(failures),
        harness_failure_details=sorted(failures, key=lambda f: f.index),
        wall_s=run.wall_s,
        emulated_s=round(sum(g.emulated_s for g in results), 1),
        wall_s_per_game=round(sum(g.wall_s for g in results) / max(1, len(results)), 3),
        workers=run.workers,
        scheduler=run.scheduler,
        deviations={k: {"lines": d.lines, "what": d.what, "rule": d.rule} for k, d in DEVIATIONS.items()},
        findings=dict(sorted(Counter(f for g in results for f in g.findings.values() if f).items())),
        documented_by_rules={
            name: dict(sorted(sum((Counter(c.under_rules[name].documented) for c in counts), Counter()).items()))
            for name in rule_sets},
        unexplained_by_rules={name: sum(len(c.under_rules[name].unexplained) for c in counts)
                              for name in rule_sets},
        per_game=[g.per_game() for g in results],
        thorough=run.thorough,
        accelerate=run.accelerate,
        jobs_cpu_s=run.jobs_cpu_s,
        tape=run.tape,
        coverage=run.coverage,
    )
