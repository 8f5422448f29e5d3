"""What `cribbage-zx strength` runs (the command: harness/commands/strength.py): how strong the magazine's computer player is, measured in whole games.

The BASIC program plays N games against each of the automated players
(random, greedy and the engine's expected-value player `ev`) on the embedded
Spectrum, through the same job runner as `regress` (a local pool, or Dask with
--scheduler); every game's transcript is kept, and `study.py` measures each
discard and each card the program chose against the expected-value player.
Beside the matches, the rules engine plays games by itself (fast, thousands):
equal expected-value players (the first dealer's advantage, published at
55-56 %), and a planted weak strategy (always throw the two highest cards)
against the expected-value player, which must come out worse. The engine's
own crib table is set beside the published ones (Schell, Hessel). Writes
report.json, strength.html with its plots, and a transcript per game.
"""
from __future__ import annotations

import math
import time
from pathlib import Path
from dataclasses import dataclass, replace
from typing import Callable, Union

from ...cribbage.discard import crib_table
from ...cribbage.selfplay import STRATEGIES as ENGINE_STRATEGIES, GameResult, play_game
from ...errors import InputError, MachineError, UsageError
from ...runtime.jobs import Progress, Setup, run_jobs
from ...runtime.cputime import process_cpu_s
from ...runtime.outdir import claimed
from ..model.build import played_tape, tape_record
from ..records.events import read_game, transcript_records, write_transcript
from .loaded import init_worker, worker_tape
from .published import Published, published, schell_value
# the report's record and reader live in strength_report.py; named here too, as the run's own
from .strength_report import GameFailure as GameFailure, StrengthReport as StrengthReport
from .strength_report import read_report as read_report, write_report as write_report
from .strength_report import (ComputerFigures, CribRow, CribSurprise, CribTable, DealerCheck, EngineFigures,
                              FirstDealer, PairCribs, Rung, Validation, earlier_run, run_tape, tape_sha256)
from .regress import spread_seed
from ..judge.judgements import is_transcript_name
from .study import (Z95, GameStudy, MatchFigures, Mean, Rate, StudyError, ThrownCribs, analyse_game, crib_by_pair,
                    discard_figures, match_figures, mean_ci, play_figures, wilson)
from ..observe.players import make
from ..observe.driver import GameDriver
from ...spectrum.machine import FRAME_S

OPPONENTS = ("random", "greedy", "ev")
#: engine self-play: (player 0, player 1); the first measures the first dealer's advantage between equals
ENGINE_PAIRINGS = (("ev", "ev"), ("highest", "ev"), ("greedy", "ev"), ("random", "ev"))
ENGINE_CHUNK = 100
CRIB_TOLERANCE = 0.6      # points: each pair of the engine's crib table against the published midpoint


# ------------------------------------------------------------------------------------------ the jobs
@dataclass(frozen=True)
class ProgramGameJob:
    """A game of the program against an automated player: its number, SEED and the opponent's strategy."""
    index: int
    seed: int
    opponent: str


@dataclass(frozen=True)
class EngineJob:
    """A chunk of engine self-play games: the pairing (player 0, player 1), the first game and how many."""
    first: str
    second: str
    start: int
    count: int


@dataclass
class ProgramGame:
    """What a worker hands back for a program game: how it ended, its transcript's records, its study."""
    index: int
    seed: int
    opponent: str
    failure: str | None
    basic_errors: list[str]
    emulated_s: float
    transcript: list[dict[str, object]]
    study: GameStudy | None = None
    cpu_s: float = 0.0

    def studied(self) -> StudiedGame:
        """The game as `summarise` takes it (the transcript, written on its own, left out)."""
        return StudiedGame(index=self.index, seed=self.seed, opponent=self.opponent, failure=self.failure,
                           study=self.study, cpu_s=self.cpu_s, emulated_s=self.emulated_s)


@dataclass(frozen=True)
class EngineChunk:
    """A chunk of engine self-play games played: the pairing, the first game and every game's result."""
    pairing: tuple[str, str]
    start: int
    results: tuple[GameResult, ...]


StrengthJob = Union[ProgramGameJob, EngineJob]
StrengthResult = Union[ProgramGame, EngineChunk]


def run_job(job: StrengthJob) -> StrengthResult:
    """A game of the program against an automated player, or a chunk of engine self-play games."""
    if isinstance(job, EngineJob):
        return engine_chunk(job.first, job.second, job.start, job.count)
    return _program_game(job.index, job.seed, job.opponent)


def _program_game(index: int, seed: int, opponent: str) -> ProgramGame:
    cpu = time.process_time()
    m = worker_tape().machine()
    start = m.frames
    rec = GameDriver(m, make(opponent, seed), seed=seed).play()
    out = ProgramGame(index=index, seed=seed, opponent=opponent, failure=rec.failure,
                      basic_errors=rec.basic_errors, emulated_s=round((rec.frames - start) * FRAME_S, 2),
                      transcript=transcript_records(rec.events, seed=seed, player=opponent, game=index))
    try:
        out.study = analyse_game(rec.events)
    except StudyError as exc:
        out.study, out.failure = None, out.failure or f"study: {exc}"
    out.cpu_s = round(time.process_time() - cpu, 3)
    return out


def engine_chunk(first: str, second: str, start: int, count: int) -> EngineChunk:
    """*count* engine self-play games of the pairing from game *start*, as `engine_figures` reads them."""
    results = []
    for i in range(start, start + count):
        strategies = (ENGINE_STRATEGIES[first](2 * i), ENGINE_STRATEGIES[second](2 * i + 1))
        results.append(play_game(strategies, seed=i, first_dealer=i % 2))
    return EngineChunk((first, second), start, tuple(results))


# ------------------------------------------------------------------------------------------ the figures
def engine_figures(chunks: list[EngineChunk]) -> dict[str, EngineFigures]:
    """Self-play figures by pairing: player 0's win rate, the first dealer's, points per deal."""
    by_pairing: dict[str, list[GameResult]] = {}
    for c in sorted(chunks, key=lambda c: (c.pairing, c.start)):
        by_pairing.setdefault(" vs ".join(c.pairing), []).extend(c.results)
    out = {}
    for name, rs in by_pairing.items():
        first, second = (mean_ci((sum(r.points[p].values()) / r.deals for r in rs), 0.0) for p in (0, 1))
        out[name] = EngineFigures(games=len(rs), player0_wins=wilson(sum(r.winner == 0 for r in rs), len(rs)),
                                  first_dealer_wins=wilson(sum(r.winner == r.first_dealer for r in rs), len(rs)),
                                  points_per_deal=(first, second))
    return out


def band_overlap(measured: Rate, band: list[float]) -> bool:
    """Whether a rate's interval meets the published band [low, high]."""
    return (measured.rate is not None and measured.lo is not None and measured.hi is not None
            and measured.lo <= band[1] and measured.hi >= band[0])


def first_dealer_check(measured: Rate | None, band: list[float], z: float = Z95) -> DealerCheck:
    """The first dealer's rate between equal players against the published band, said as it is.

    The band (55-56 %) is only worth testing against with an interval narrow enough to tell it from no
    advantage at all (50 %): a half-width below the band's low edge less 50 %. With a wider interval
    the check says "too few games" and how many would do (at the band's middle, Wilson's half-width
    is about z * sqrt(p (1 - p) / n)); with a narrower one, "consistent at 95 %" when the interval
    meets the band, "inconsistent at 95 %" when it lies wholly below or above it.
    """
    needed = round(band[0] - 0.5, 4)
    middle = (band[0] + band[1]) / 2
    games_needed = math.ceil(z * z * middle * (1 - middle) / (needed * needed))
    if not measured or measured.rate is None or measured.lo is None or measured.hi is None:
        return DealerCheck(band, measured, needed, games_needed, "too few games", None)
    half = round(max(measured.rate - measured.lo, measured.hi - measured.rate), 4)
    if half >= needed:
        status = "too few games"
    elif band_overlap(measured, band):
        status = "consistent at 95 %"
    else:
        status = "inconsistent at 95 %"
    return DealerCheck(band, measured, needed, games_needed, status, half)


#: the ladder of players, weakest first: (name, who it is in a player's words); "program" is the BASIC program
LADDER = (("random", "a random player"), ("highest", "a player who always throws away its two highest cards"),
          ("greedy", "a greedy player (the most points now)"), ("program", "the magazine's program"),
          ("ev", "a careful player (the exact expected value of every choice)"))


def ladder(figures: dict[str, MatchFigures], engine: dict[str, EngineFigures]) -> list[Rung]:
    """Each player's games won against the expected-value player, weakest first: the engine's by self-play
    ("X vs ev", player 0's wins; "ev vs ev" is the ev player against itself), the program's from its match
    against ev on the Spectrum. A player with no such games is left out."""
    rungs = []
    for name, words in LADDER:
        if name == "program":
            f = figures.get("ev")
            if not f or not f.completed:
                continue
            wins, source = f.computer_wins, f"the program on the Spectrum, {f.completed} games"
        else:
            e = engine.get(f"{name} vs ev")
            if not e or not e.games:
                continue
            wins, source = e.player0_wins, f"the rules engine by itself, {e.games} games"
        rungs.append(Rung(player=name, words=words, wins_vs_ev=wins, source=source))
    return rungs


def _placed(program: Rate, rungs: list[Rung]) -> tuple[list[str], list[str], list[str]]:
    """The engine's players the program beats, cannot be told from, and loses to (intervals apart or not)."""
    above, level, below = [], [], []
    assert program.lo is not None and program.hi is not None
    for r in rungs:
        w = r.wins_vs_ev
        if r.player == "program" or w.rate is None or w.lo is None or w.hi is None:
            continue
        if program.lo > w.hi:
            above.append(r.words)
        elif program.hi < w.lo:
            below.append(r.words)
        else:
            level.append(r.words)
    return above, level, below


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def percent(rate: float) -> int:
    """A rate as a whole percentage, a half rounded up as a reader expects (13 of 40 games: 33 %, not Python's
    round-half-even 32 %)."""
    return math.floor(100 * rate + 0.5 + 1e-9)


def plain_words(rungs: list[Rung], loss: Mean, ev: MatchFigures | None) -> str:
    """The page's first sentence: how strong the computer is in a player's terms (where it stands on the
    *rungs* of the ladder, its games won against a careful player, from its match *ev*) and what its discards
    cost it in a game (*loss*, points a deal)."""
    program = next((r.wins_vs_ev for r in rungs if r.player == "program"), None)
    if (program is None or program.rate is None or program.lo is None or program.hi is None or loss.mean is None
            or not ev or not ev.completed):
        return "Too few games for a verdict: the program has no completed game against the careful player."
    above, level, below = _placed(program, rungs)
    parts = []
    if above:
        parts.append(f"plays measurably better than {_listed(above)}")
    if level:
        parts.append(f"is neither measurably better nor measurably worse than {_listed(level)}")
    if below:
        parts.append(f"plays measurably worse than {_listed(below)}")
    if not parts:                                  # no engine games: no ladder to stand on
        parts.append("has no engine players to be set against (no self-play games)")
    deals = ev.deals / ev.completed
    per_game = loss.mean * deals
    lo = "" if loss.lo is None else f"{loss.lo * deals:.1f}"
    hi = "" if loss.hi is None else f"{loss.hi * deals:.1f}"
    span = f" (95 %: {lo}-{hi})" if lo and hi else ""
    careful = next((r.wins_vs_ev for r in rungs if r.player == "ev"), None)
    against_itself = "" if careful is None or careful.rate is None else \
        f", where two careful players win {percent(careful.rate)} % against each other"
    return (f"The computer {_listed(parts)} in these games: against the careful player it wins "
            f"{percent(program.rate)} % of its games (95 %: {percent(program.lo)}-{percent(program.hi)} %, "
            f"{program.n} games){against_itself}. Its discards alone give away {loss.mean:.2f} points a deal against the best "
            f"throw, about {per_game:.1f} points{span} over a game of {deals:.1f} deals, of the 121 it must peg.")


def crib_validation(table: dict[tuple[int, int], float], ref: Published) -> CribTable:
    """The engine's crib table (uniform opponent) against Schell's: each pair within CRIB_TOLERANCE of the
    midpoint of his own-crib and opponent's-crib values (a defending and a feeding opponent)."""
    own, opp = ref.schell.own, ref.schell.opponent
    rows: list[CribRow] = []
    for (r1, r2), v in sorted(table.items()):
        o, p = own[r1 - 1][r2 - 1], opp[r1 - 1][r2 - 1]
        rows.append(CribRow(pair=f"{'A23456789TJQK'[r1 - 1]}-{'A23456789TJQK'[r2 - 1]}", engine=round(v, 3),
                            schell_own=o, schell_opponent=p, hessel_opponent=ref.hessel.opponent[r1 - 1][r2 - 1],
                            off_midpoint=round(v - (o + p) / 2, 3)))
    worst = max(rows, key=lambda r: abs(r.off_midpoint))
    return CribTable(tolerance=CRIB_TOLERANCE, pairs=len(rows),
                     within=sum(abs(r.off_midpoint) <= CRIB_TOLERANCE for r in rows),
                     between_own_and_opponent=sum(min(r.schell_own, r.schell_opponent) <= r.engine
                                                  <= max(r.schell_own, r.schell_opponent) for r in rows),
                     worst=worst, rows=rows)


@dataclass(frozen=True)
class StudiedGame:
    """A program game as `summarise` takes it: its number, seed and opponent, why it failed (None: it did not),
    its study (None: not studied), and what it cost in its worker."""
    index: int
    seed: int
    opponent: str
    failure: str | None = None
    study: GameStudy | None = None
    cpu_s: float = 0
    emulated_s: float = 0


def _crib_less_schell(every: list[GameStudy], ref: Published) -> CribSurprise:
    """Each crib the program threw to, less Schell's value of its pair, by whose crib it was."""
    surprise: dict[bool, list[float]] = {True: [], False: []}
    for s in every:
        for d in s.deals:
            choice = d.discards.get("computer")
            if choice and d.crib is not None:
                role = "own" if choice.my_crib else "opponent"
                surprise[choice.my_crib].append(d.crib - schell_value(ref, role, choice.pair))
    return CribSurprise(own=mean_ci(surprise[True]), opponent=mean_ci(surprise[False]))


def _validation(ref: Published, engine: dict[str, EngineFigures]) -> Validation:
    """The engine's crib table against Schell's, the first dealer's rate between equals against the published
    band, and the planted weak player's figures."""
    band = ref.first_dealer.band
    equal = engine.get("ev vs ev")
    measured = equal.first_dealer_wins if equal else None
    return Validation(crib_table=crib_validation(crib_table(), ref),
                      first_dealer=FirstDealer(band=band, source=ref.first_dealer.source, measured=measured,
                                               overlaps_band=measured is not None and band_overlap(measured, band),
                                               check=first_dealer_check(measured, band)),
                      planted_highest=engine.get("highest vs ev"))


def _pair_cribs(crib: dict[str, ThrownCribs], ref: Published) -> dict[str, PairCribs]:
    """The program's cribs by the rank pair it threw, beside Schell's values of the pair."""
    return {pair: PairCribs(own=c.own, opponent=c.opponent, schell_own=schell_value(ref, "own", pair),
                            schell_opponent=schell_value(ref, "opponent", pair)) for pair, c in crib.items()}


def summarise(games: list[StudiedGame], engine_chunks: list[EngineChunk], opponents: tuple[str, ...],
              run: dict[str, object] | None = None, tape: dict[str, object] | None = None) -> StrengthReport:
    """Every figure of the study, from the games' results and the engine's chunks (deterministic); *run* and
    *tape* say how it was run and on what."""
    ref = published()
    games = sorted(games, key=lambda g: g.index)
    every = [g.study for g in games if g.study]
    figures = {o: match_figures([g.study for g in games if g.study and g.opponent == o]) for o in opponents}
    computer = ComputerFigures(
        discards=discard_figures([c for s in every for d in s.deals if (c := d.discards.get("computer")) is not None]),
        plays=play_figures([p for s in every for d in s.deals for p in d.plays if p.who == "computer"]),
        crib_less_schell=_crib_less_schell(every, ref))
    engine = engine_figures(engine_chunks)
    rungs = ladder(figures, engine)
    loss, ev = computer.discards.all.loss, figures.get("ev")
    return StrengthReport(opponents=list(opponents), figures=figures, computer=computer,
                          crib_by_pair=_pair_cribs(crib_by_pair(every), ref), engine=engine,
                          validation=_validation(ref, engine),
                          harness_failures=[GameFailure(g.index, g.seed, g.opponent, g.failure)
                                            for g in games if g.failure or not g.study],
                          references=ref.references(), ladder=rungs,
                          verdict=verdict(loss, ev.computer_wins if ev else None),
                          plain_words=plain_words(rungs, loss, ev), run=run or {}, tape=tape)


def verdict(loss: Mean, wins: Rate | None) -> str:
    """The one sentence of the README: *loss*, the points a deal the discards threw away, and *wins*, the
    games won against the ev player (None: no such match)."""
    if loss.mean is None or wins is None or wins.rate is None or wins.lo is None or wins.hi is None:
        return "not enough games for a verdict"
    span = (f"95 % CI {loss.lo:.2f}-{loss.hi:.2f}" if loss.lo is not None and loss.hi is not None
            else "one discard: no interval")
    return (f"The computer throws away {loss.mean:.2f} points a deal ({span}) "
            f"in its discards to an expected-value player, and wins {percent(wins.rate)} % of its games against it "
            f"(95 % CI {percent(wins.lo)}-{percent(wins.hi)} %, {wins.n} games).")


# ------------------------------------------------------------------------------------------ the run
def _plan(games: int, seed: int, opponents: tuple[str, ...], engine_games: int) -> list[StrengthJob]:
    jobs: list[StrengthJob] = []
    for k in range(games * len(opponents)):
        opponent = opponents[k % len(opponents)]
        jobs.append(ProgramGameJob(k, spread_seed(seed + k), opponent))
    for first, second in ENGINE_PAIRINGS:
        for start in range(0, engine_games, ENGINE_CHUNK):
            jobs.append(EngineJob(first, second, start, min(ENGINE_CHUNK, engine_games - start)))
    return jobs


@dataclass(frozen=True)
class StrengthOptions:
    """How a strength run plays, beyond how many games from which seed on how many workers: the opponents taken
    in turn, the engine's self-play games per pairing, the tape (None: build/cribbage.tap, built when stale),
    the runner (None: the local pool), whether an earlier run's folder is cleared, and the progress bar.
    A study again (`reanalyse`) takes its engine games, runner and clearing only."""
    opponents: tuple[str, ...] = OPPONENTS
    engine_games: int = 2000
    tap: Path | None = None
    scheduler: str | None = None
    replace: bool = False
    progress: bool = True


def run(games: int, seed: int, workers: int, out: Path, options: StrengthOptions = StrengthOptions(),
        page: Callable[[Path, StrengthReport], object] | None = None) -> StrengthReport:
    """Play the matches and the engine's games into *out*; returns the report (also out/report.json)."""
    opponents, engine_games, scheduler = options.opponents, options.engine_games, options.scheduler
    tape_file, tape = played_tape(options.tap)
    jobs = _plan(games, seed, opponents, engine_games)
    started, cpu0 = time.perf_counter(), process_cpu_s()
    with claimed(out, "strength", replace=options.replace) as folder:
        results: list[StudiedGame] = []
        chunks: list[EngineChunk] = []
        bar = Progress(len(jobs), "jobs", options.progress)
        try:
            with run_jobs(run_job, jobs, Setup(init_worker, (tape,)), workers, scheduler) as outcomes:
                for outcome in outcomes:
                    job, value = outcome.job, outcome.value
                    if value is None:
                        if isinstance(job, EngineJob):
                            raise MachineError(f"engine games {job.first} vs {job.second} from {job.start}: "
                                               f"{outcome.error}")
                        results.append(StudiedGame(job.index, job.seed, job.opponent, failure=outcome.error))
                        bar.note(f"cribbage-zx strength: game {job.index} (seed {job.seed}, {job.opponent}): "
                                 f"harness failure: {outcome.error}")
                    elif isinstance(value, EngineChunk):
                        chunks.append(value)
                    else:
                        write_transcript(folder / f"game-{value.index:03d}.jsonl", value.transcript)
                        results.append(value.studied())
                        if value.failure:
                            bar.note(f"cribbage-zx strength: game {value.index} (seed {value.seed}, "
                                     f"{value.opponent}): harness failure: {value.failure}")
                    bar.step()
        finally:
            bar.close()
        report = summarise(results, chunks, opponents,
                           run={"games_per_opponent": games, "seed": seed, "engine_games": engine_games,
                                "workers": workers, "scheduler": scheduler,
                                "wall_s": round(time.perf_counter() - started, 1),
                                "cpu_s_here": round(process_cpu_s() - cpu0, 1),
                                "game_cpu_s": round(sum(g.cpu_s for g in results), 1),
                                "emulated_s": round(sum(g.emulated_s for g in results), 1)},
                           tape=tape_record(tape_file, tape))   # which tape the games played: --from may add runs of it only
        write_report(folder / "report.json", report)
        if page:                                        # the view (edition/strength.py), passed by the command
            page(folder, report)
    return report


def reanalyse(folder: Path | list[Path], workers: int, options: StrengthOptions = StrengthOptions(),
              page: Callable[[Path, StrengthReport], object] | None = None, out: Path | None = None) -> StrengthReport:
    """The figures again from a folder's transcripts (after the study changed), the engine's games replayed.

    The report and page are rewritten in the folder, which must be a strength run's, or go to *out*, a
    folder of their own (cleared first with *options.replace*); the engine's games are *options.engine_games*
    per pairing, on *options.scheduler*. With several folders (runs of other seeds, say, to reach a larger N)
    their games are studied together, numbered in the folders' order, into *out*; the same game (seed and
    opponent) in two folders is refused rather than counted twice.
    """
    engine_games, scheduler = options.engine_games, options.scheduler
    folders = [folder] if isinstance(folder, Path) else list(folder)
    results = _studied(folders)
    opponents = tuple(dict.fromkeys(r.opponent for r in results))      # in the order the run took them
    old_run: dict[str, object] = {}     # the run's facts only, read leniently: the report may be of a study since changed
    tape = None
    if len(folders) == 1 and (folders[0] / "report.json").exists():
        old_run, tape = earlier_run(folders[0] / "report.json")
    if len(folders) > 1:
        tape = one_tape(folders)
    chunks = []
    jobs = _plan(0, 0, opponents, engine_games)
    with run_jobs(run_job, jobs, Setup(_noop), workers, scheduler) as outcomes:
        for outcome in outcomes:
            if not isinstance(outcome.value, EngineChunk):
                raise MachineError(f"engine games {outcome.job}: {outcome.error}")
            chunks.append(outcome.value)
    run = dict(old_run, reanalysed=True, engine_games=engine_games)
    if len(folders) > 1:
        run["from"] = [str(f) for f in folders]
        if out is None:
            raise UsageError("several folders studied together: the report needs a folder of its own (out)")
    report = summarise(results, chunks, opponents, run=run, tape=tape)
    # in place only in a folder a strength run wrote (claimed refuses any other); else in a folder of its own
    target = claimed(out, "strength", replace=options.replace) if out is not None else claimed(folders[0], "strength", resume=True)
    with target as written:
        write_report(written / "report.json", report)
        if page:
            page(written, report)
    return report


def _studied(folders: list[Path]) -> list[StudiedGame]:
    """The games of the folders' transcripts studied, each folder's in its games' order, numbered afresh
    when there are several; InputError for a folder without transcripts, a transcript that is not a game,
    or a game (seed and opponent) in two folders."""
    results: list[StudiedGame] = []
    seen: dict[tuple[object, object], Path] = {}
    for place in folders:
        paths = sorted(p for p in place.glob("game-*.jsonl") if is_transcript_name(p.name))
        if not paths:
            raise InputError(f"{place}: no game-*.jsonl transcripts to study")
        found = []
        for path in paths:
            head, events = read_game(path, "a strength or regress run")
            try:
                study = analyse_game(events)
            except (InputError, ValueError) as exc:          # a StudyError: the events are not a game
                raise InputError(f"{path}: {exc}") from None
            key = (head.seed, head.player)
            if key in seen:
                raise InputError(f"{path}: the game of seed {key[0]} against {key[1]} is in {seen[key]} too")
            seen[key] = path
            found.append(StudiedGame(head.game, head.seed, head.player, study=study))
        found.sort(key=lambda r: r.index)
        results += found
    if len(folders) > 1:
        results = [replace(r, index=n) for n, r in enumerate(results)]
    return results


def one_tape(folders: list[Path]) -> dict[str, object]:
    """The one tape the games of several runs played; InputError naming both folders when two runs played
    different tapes (or a run's report.json names none): their games are not one study."""
    first = None
    for place in folders:
        tape = run_tape(place)
        if tape is None:
            raise InputError(f"{place}: its report.json names no tape, so its games cannot be told to be "
                             f"of the same program as the others'; study it alone (or run it again)")
        if first is None:
            first = (place, tape)
        elif tape_sha256(tape) != tape_sha256(first[1]):
            raise InputError(f"the runs in {first[0]} and {place} played different tapes (SHA-256 "
                             f"{tape_sha256(first[1])[:12]}… and {tape_sha256(tape)[:12]}…): not one study; "
                             f"study each alone")
    assert first is not None
    return first[1]


def _noop() -> None:
    pass


def summary_table(report: StrengthReport) -> str:
    """What `cribbage-zx strength` prints: a line a match, a line an engine pairing, the crib table, the first
    dealer's check, the ladder, the verdict."""
    rows = []
    for o, f in report.figures.items():
        w, fd, loss = f.computer_wins, f.first_dealer_wins, f.discards.computer.all.loss
        pp = f.points_per_deal
        rows.append(f"vs {o:<7} games {f.completed:>4}  computer wins {_pct(w)}  first dealer wins {_pct(fd)}  "
                    f"points/deal computer {_fixed(pp.computer.total.mean)} vs {_fixed(pp.player.total.mean)}  "
                    f"discard loss {_fixed(loss.mean)}")
    for name, e in report.engine.items():
        rows.append(f"engine {name:<14} games {e.games:>5}  player 0 wins {_pct(e.player0_wins)}  "
                    f"first dealer wins {_pct(e.first_dealer_wins)}")
    c = report.validation.crib_table
    rows.append(f"crib table: {c.within}/{c.pairs} pairs within {c.tolerance} of Schell's midpoint")
    check = report.validation.first_dealer.check
    rows.append(f"first dealer between equal players: {check.status}"
                + (f" (half-width {100 * check.half_width:.1f} points, {100 * check.half_width_needed:.0f} "
                   f"needed: about {check.games_needed} games)" if check.half_width is not None else ""))
    for rung in report.ladder:
        rows.append(f"ladder: {rung.player:<8} wins vs ev {_pct(rung.wins_vs_ev)}  ({rung.source})")
    rows.append(report.plain_words or report.verdict)
    rows.append(report.verdict)
    if report.harness_failures:
        rows.append(f"harness failures: {len(report.harness_failures)}")
    return "\n".join(rows)


def _fixed(value: float | None) -> str:
    """A mean to two places; None (a match without a completed game) fails as formatting None always did here."""
    if value is None:
        raise TypeError("unsupported format string passed to NoneType.__format__")
    return f"{value:.2f}"


def _pct(w: Rate) -> str:
    if w.rate is None or w.lo is None or w.hi is None:
        return "   -   "
    return f"{100 * w.rate:5.1f} % [{100 * w.lo:.1f}, {100 * w.hi:.1f}]"


DEFAULT_OUT = Path("out/strength")
