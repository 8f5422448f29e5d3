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

import time
from typing import TYPE_CHECKING, Callable
from collections import Counter
from pathlib import Path

from ..runtime import atomic
from .build import DEFAULT_TAP
from ..errors import MachineError, UsageError
from ..runtime.jobs import Progress, Setup, run_jobs
from ..runtime.outdir import claimed
from ..spectrum.loading import load_tape
from ..spectrum import z80snap
from ..spectrum.core import Core
from ..spectrum.cpu import Z80Core
from ..spectrum.machine import FRAME_S, Spectrum48
from ..spectrum.recording import RzxRecorder, recording_machine
from ..spectrum.rzx import write_rzx
from ..spectrum.profile import Profile, Profiler
from ..spectrum.tape import read_tap
from .compare import judge
from .coverage import Coverage, summary_rows
from .deviations import DEVIATIONS
from .driver import Budget, GameDriver, Screenshot
from .events import Choice, Picture, event_to_json, transcript_records, write_transcript
from .findings import program_findings
from .judgements import (JUDGED_UNDER, ComparisonSetup, Counts, comparison_setup, difference_to_json,
                         judgements_name, judgements_text, parse_judgements, under)
from .players import make as make_player

if TYPE_CHECKING:
    from ..spectrum.accelerate import Cache

STRATEGIES = ("random", "greedy", "adversarial")
THOROUGH_SET = ("explorer",) * 6 + ("stopper",) * 2    # seeds alternate the stopper's two findings


def ensure_tape(path: Path = DEFAULT_TAP) -> Path:
    """The built tape, rebuilt when anything it is made from changed (build.ensure_tape: a fingerprint)."""
    from .build import ensure_tape as current_tape
    return current_tape(path)


_snapshot = None
_core = "z80"                               # the CPU core of this worker's machines (--core)
_statements: dict = {}                       # the program's statement table, for the profiler
_startup_profile = Profile()
_setup: ComparisonSetup | None = None      # what the comparison of the tape's program needs


_accelerate: Cache | None = None             # --accelerate: the worker's cache of ROM answers


def core_class(name: str) -> Callable[[], Core]:
    """The CPU core adapter called *name*: "z80" (the default) or "skoolkit" (a GPL test oracle, an extra)."""
    if name == "z80":
        return Z80Core
    if name == "skoolkit":
        from ..spectrum.skoolcore import SkoolKitCore
        return SkoolKitCore
    raise UsageError(f"--core {name}: no such CPU core (z80, skoolkit)")


def _init_worker(tape: bytes, core: str = "z80", accelerate: bool = False) -> None:
    """Once per worker process: boot, load the tape (its bytes, so a remote worker needs no file), snapshot."""
    global _snapshot, _statements, _startup_profile, _setup, _core, _accelerate
    _accelerate = {} if accelerate else None
    blocks = read_tap(tape)
    _core = core
    m = Spectrum48(fast=True, core=core_class(core))
    m.boot()
    startup = Profiler.for_program(blocks[1].data)
    startup.start(m)
    stop = load_tape(m, blocks)
    _startup_profile = startup.stop()            # every game runs these statements before its first question
    if stop.kind == "report":
        raise MachineError(f"the tape's program stopped with report «{stop.report}» before it first waited "
                           f"for a key")
    _snapshot = m.snapshot()
    _statements = Profiler.for_program(m.program_bytes()).statements
    _setup = comparison_setup(m.program_bytes(), JUDGED_UNDER)   # the English edition prints other words


def init_worker(tape: bytes, core: str = "z80", accelerate: bool = False) -> None:
    """Once per worker process: the tape's program loaded and kept, for `loaded_machine` (the public name of the
    job runner's set-up, for other runs that play on the same loaded machine: fairness, strength)."""
    _init_worker(tape, core, accelerate)


def loaded_machine() -> Spectrum48:
    """A fresh machine of this worker's core at the program's first question (the tape `init_worker` loaded)."""
    if _snapshot is None:
        raise MachineError("no tape loaded in this worker: init_worker(tape) first")
    m = Spectrum48(fast=True, core=core_class(_core))
    m.restore(_snapshot)
    return m


def tape_bytes(tap: Path | None) -> bytes:
    """The tape every worker loads: *tap*, or the built game (rebuilt when stale)."""
    return _tape_bytes(tap)


def spread_seed(n: int) -> int:
    """The SEED of game number *n*: consecutive numbers spread over 0..65535 (an odd multiplier is a
    bijection), since seeds 1..N poked into SEED make the first RND tiny and every game start alike."""
    return (n * 40503) % 65536


def play_one(job: tuple) -> dict:
    """Play game *index* with *seed* and *strategy*; return its record as plain data (events as JSON).

    With *rzx* (a fifth item, --rzx) the game runs at real timing on the fetch-counting core and its
    record also carries the RZX file (from the first question to the editor after the last report) and
    a .z80 of the machine at the recording's end. A sixth item, when not None, is the game's budget of
    emulated frames (the readings give a variant's game a few times its reconstruction game's length).
    """
    index, seed, strategy, keep_all_screens, *rest = job
    rzx = bool(rest and rest[0])
    budget = Budget(frames=rest[1]) if len(rest) > 1 and rest[1] is not None else Budget()
    if rzx and _core != "z80":
        raise UsageError(f"--rzx records on the z80 core only, not --core {_core}")
    m = recording_machine() if rzx else Spectrum48(fast=True, core=core_class(_core))
    m.restore(_snapshot)
    if _accelerate is not None:
        m.accelerate(cache=_accelerate)
    start_frames = m.frames
    player = make_player(strategy, seed)
    profiler = Profiler(_statements)
    recorder = RzxRecorder(m) if rzx else None
    driver = GameDriver(m, player, seed=seed, keep_screens=True, every_action_screen=keep_all_screens,
                        profiler=profiler, budget=budget, on_first_question=recorder.start if recorder else None)
    t, cpu = time.perf_counter(), time.process_time()
    rec = driver.play()
    recording = _finish_recording(m, recorder) if recorder else {}
    wall, cpu = time.perf_counter() - t, time.process_time() - cpu
    assert _setup is not None, "play_one before _init_worker"
    results = judge(rec.events, _setup)
    findings = program_findings(rec)
    judgements = judgements_text((j for r in results.values() for j in r.judgements), list(results),
                                 game=index, seed=seed, player=strategy, edition=_setup.edition)
    return {
        "index": index, "seed": seed, "strategy": strategy, "winner": rec.winner, "scores": rec.scores,
        "games_played": len(rec.wins), "wins": [event_to_json(w) for w in rec.wins],
        "completed": rec.winner is not None and rec.failure is None and not rec.basic_errors,
        "deals": rec.deals, "actions": rec.actions, "judgements": judgements,
        "basic_errors": [r for r in rec.basic_errors if not findings.get(r)],
        "findings": findings,
        "timeout": rec.failure if rec.failure_kind == "timeout" else None, "failure": rec.failure,
        "failure_kind": rec.failure_kind,
        "emulated_s": round((rec.frames - start_frames) * FRAME_S, 2), "wall_s": round(wall, 3),
        "transcript": transcript_records(rec.events, seed=seed, player=strategy, game=index),
        "screens": _encode_screens(rec.screens), "profile": (_startup_profile + rec.profile).as_json(),
        "adversarial_tries": getattr(player, "tries", []),
        **recording,
        "choices": dict(Counter(e.what.value for e in rec.events if isinstance(e, Choice))),
        "pictures_at": dict(Counter(f"{e.moment} ({e.line})" for e in rec.events if isinstance(e, Picture))),
        "cpu_s": round(cpu, 3), "screen_s": round(driver.observer.picture_seconds, 3),
    }


RZX_SETTLE_FRAMES = 300     # after the game's last report, frames for the ROM to print it and wait in the editor


def _finish_recording(m: Spectrum48, recorder: RzxRecorder) -> dict:
    """The RZX of a recorded game and the .z80 at its end; the editor's wait after the last report is
    included, so that a player replaying it ends on the same still screen."""
    if recorder.snapshot is None:
        return {"rzx_note": "not recorded: the game ended before its first question"}
    if m.s.mid_frame is False and m.last_report is not None:
        m.run(RZX_SETTLE_FRAMES, until_wait=True, stop_on_report=False, what="the editor after the last report")
    recording = recorder.stop()
    return {"rzx": write_rzx(recording), "rzx_end": z80snap.write_z80(z80snap.from_machine(m)),
            "rzx_frames": len(recording.frames), "rzx_split_instructions": recorder.split_instructions}


def _write_recording(out: Path, game: dict) -> None:
    """game-NNN.rzx and game-NNN-end.z80 of a game played with --rzx (the bytes leave the record)."""
    if "rzx" in game:
        atomic.write_bytes(out / f"game-{game['index']:03d}.rzx", game.pop("rzx"))
        atomic.write_bytes(out / f"game-{game['index']:03d}-end.z80", game.pop("rzx_end"))


def counts_of_judgements(text: str, name: str) -> dict:
    """A game's counts for report.json, summed from its judgements file's records (*text*, named *name*):
    the verdict's rule set at the top level, every rule set under "under_rules"."""
    head, judgements = parse_judgements(text.splitlines(), name)
    by_rules = {}
    for rules in head["rule_sets"]:
        js = under(judgements, rules)
        c = Counts.of(js)
        by_rules[rules] = {"score_events": c.score_events, "checks": c.checks, "documented": c.documented,
                           "unexplained": [difference_to_json(d) for j in js for d in j.unexplained]}
    verdict = by_rules[head["rule_sets"][0]]
    c = Counts.of(under(judgements, head["rule_sets"][0]))
    return {"score_events": verdict["score_events"], "checks": verdict["checks"],
            "pictures": c.pictures, "screen_checks": c.screen_checks,
            "screen_differences": c.screen_differences, "screen_unexplained": c.screen_unexplained,
            "documented": verdict["documented"], "unexplained": verdict["unexplained"],
            "under_rules": {k: {"documented": v["documented"], "unexplained": v["unexplained"]}
                            for k, v in by_rules.items()}}


def _count(game: dict) -> None:
    """The game's counts for the report, taken from the text of its judgements file (before any file is
    written: once its files are on disk, a game is counted at once, so a Ctrl-C cannot fall in between)."""
    game.update(counts_of_judgements(game["judgements"], judgements_name(game["index"])))


def _write_judgements(out: Path, game: dict) -> None:
    """The game's judgements, written once (every rule set judged)."""
    atomic.write_text(out / judgements_name(game["index"]), game.pop("judgements"))


def _write_transcript(out: Path, game: dict) -> None:
    write_transcript(out / f"game-{game['index']:03d}.jsonl", game["transcript"])


def _encode_screens(screens: list[Screenshot]) -> dict:
    """The game's screenshots as files, encoded in the worker: PNGs (twice the size, named in order) and,
    for the frames of every action, a GIF. Kilobytes rather than the megabytes of raw pixels, which
    matters when a result crosses a network (Dask)."""
    import io
    from PIL import Image
    pngs, frames = [], []
    for n, (label, pixels) in enumerate(screens):
        img = _palette_image(Image.fromarray(pixels, "RGB"))   # no quantising: the 16 colours are known
        if label == "action":
            frames.append(img)
            continue
        buf = io.BytesIO()                 # a palette PNG: the same pixels, in about half the bytes and CPU
        img.resize((img.width * 2, img.height * 2), Image.NEAREST).save(buf, format="PNG")
        pngs.append((f"{n:03d}-{label.replace(' ', '-')}.png", buf.getvalue()))
    gif = None
    if frames:
        buf = io.BytesIO()
        frames[0].save(buf, format="GIF", save_all=True, append_images=frames[1:], duration=400, loop=0)
        gif = buf.getvalue()
    return {"pngs": pngs, "gif": gif}


def _palette_image(img):
    """A screenshot (RGB, the Spectrum's 16 colours only) as a palette image indexed like screen.PALETTE."""
    import numpy as np
    from PIL import Image
    from ..spectrum.screen import PALETTE
    rgb = np.asarray(img)
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    index = ((r == 0xFF) | (g == 0xFF) | (b == 0xFF)) * 8 + (g > 0) * 4 + (r > 0) * 2 + (b > 0)
    out = Image.fromarray(index.astype(np.uint8), "P")
    out.putpalette(PALETTE.tobytes())
    return out


def _write_screens(out: Path, game: dict) -> None:
    """The game's PNGs and (for the first game) its GIF, each file written atomically."""
    name = f"game-{game['index']:03d}"
    shots = out / name
    shots.mkdir(exist_ok=True)
    for filename, data in game["screens"]["pngs"]:
        atomic.write_bytes(shots / filename, data)
    if game["screens"]["gif"]:
        atomic.write_bytes(out / f"{name}.gif", game["screens"]["gif"])


def _tape_bytes(tap: Path | None) -> bytes:
    """The tape every worker loads: the given file, or the built game (rebuilt when stale)."""
    from ..spectrum.tape import read_program_tape
    return read_program_tape(ensure_tape(DEFAULT_TAP) if tap is None else Path(tap))


def _tape_record(path: Path, tape: bytes) -> dict:
    """Which tape the games played: its SHA-256 and the fingerprint of what it was built from (or null)."""
    from .build import tape_record
    try:
        return tape_record(path)
    except OSError:
        import hashlib
        return {"path": str(path), "sha256": hashlib.sha256(tape).hexdigest(), "fingerprint": None}


def _coverage(tape: bytes, results: list[dict]) -> dict:
    """The statements and IF outcomes all the games ran, against the program on the tape (see coverage.py)."""
    program = Profiler.program_of_tape(read_tap(tape))
    total = Profile()
    choices: Counter = Counter()
    pictures: Counter = Counter()
    for g in results:
        total = total + Profile.from_json(g["profile"])
        choices.update(g.get("choices", {}))
        pictures.update(g.get("pictures_at", {}))
    return {**Coverage.of(program, total).as_json(), "choices": dict(sorted(choices.items())),
            "pictures_at": dict(sorted(pictures.items()))}


def run(games: int, seed: int, workers: int, out: Path, strategies=STRATEGIES, tap: Path | None = None,
        progress: bool = True, replace: bool = False, scheduler: str | None = None, thorough: bool = False,
        rzx: bool = False, core: str = "z80", accelerate: bool = False, command: str = "regress",
        report_page: Callable[[Path], None] | None = None) -> dict:
    """Play and check *games* games into the folder *out*; returns the report (also out/report.json).

    *report_page*, when given, renders the folder's records as pages (the command passes the HTML report,
    harness/edition/report.py: a view, which this program-side module does not import); it runs inside
    the folder's claim, so no other run can mix in.

    A game whose job raises, or whose driver gives up (its record's failure),
    is reported at once on stderr as a harness failure and the run goes on.
    On Ctrl-C the games finished so far keep their files and a report marked
    interrupted is written before the interrupt goes on.
    """
    tape_path = ensure_tape(DEFAULT_TAP) if tap is None else Path(tap)
    tape = _tape_bytes(tape_path)
    plan = [strategies[i % len(strategies)] for i in range(games)] + (list(THOROUGH_SET) if thorough else [])
    games = len(plan)
    if rzx and accelerate:
        raise UsageError("--rzx records the plain ROM's own run: it does not go with --accelerate")
    if rzx and core != "z80":                          # refused here, not inside every game as its failure
        raise UsageError(f"--rzx records on the z80 core only, not --core {core}")
    jobs = [(i, spread_seed(seed + i), strategy, i == 0) + ((True,) if rzx else ()) for i, strategy in enumerate(plan)]
    core_class(core)                                   # an unknown core fails here, before any worker starts
    with claimed(out, command, replace=replace) as folder:
        bar = Progress(games, "games", progress)
        results: list[dict] = []
        failures: list[dict] = []
        jobs_cpu = 0.0                                      # the games' own CPU in their workers (the runner's is the rest)
        ended = "complete"
        try:
            setup = Setup(_init_worker, (tape, core, True) if accelerate else (tape,) if core == "z80" else (tape, core))
            with run_jobs(play_one, jobs, setup, workers, scheduler) as outcomes:
                for outcome in outcomes:
                    index, game_seed, strategy = outcome.job[:3]
                    failure = outcome.error
                    if outcome.ok:
                        game = outcome.value
                        jobs_cpu += outcome.cpu_s or 0.0
                        _count(game)
                        _write_transcript(folder, game)
                        _write_judgements(folder, game)
                        _write_recording(folder, game)
                        results.append(game)            # its transcript is on disk: the report may count it
                        _write_screens(folder, game)
                        game.pop("screens", None)
                        failure = game.get("failure")
                    if failure:
                        failures.append({"index": index, "seed": game_seed, "strategy": strategy, "error": failure})
                        bar.note(f"cribbage-zx regress: game {index} (seed {game_seed}, {strategy}): "
                                 f"harness failure: {failure}")
                    bar.step()
        except KeyboardInterrupt:
            ended = "interrupted"
            raise
        except BaseException as exc:
            ended = f"stopped: {exc}".splitlines()[0]
            raise
        finally:
            bar.close()
            if results or failures:                # a run that ended before any game has nothing to report
                report = _report(games, workers, scheduler, results, failures, bar.elapsed, ended)
                report["thorough"] = thorough
                report["accelerate"] = accelerate
                report["jobs_cpu_s"] = round(jobs_cpu, 3)
                report["tape"] = _tape_record(tape_path, tape)
                report["coverage"] = _coverage(tape, results)
                atomic.write_json(folder / "report.json", report, indent=1, sort_keys=True)
        if report_page is not None:
            report_page(folder)                            # still inside the claim: no other run can mix in
    return report


def _report(games: int, workers: int, scheduler: str | None, results: list[dict], failures: list[dict],
            wall: float, ended: str) -> dict:
    results = sorted(results, key=lambda g: g["index"])
    documented = Counter()
    for g in results:
        documented.update(g["documented"])
    return {
        "games": games,
        "ended": ended,
        "played": len(results),
        "completed": sum(g["completed"] for g in results),
        "deals": sum(g["deals"] for g in results),
        "actions": sum(g["actions"] for g in results),
        "score_events": sum(g["score_events"] for g in results),
        "checks": sum(g["checks"] for g in results),
        "pictures": sum(g.get("pictures", 0) for g in results),
        "screen_checks": sum(g.get("screen_checks", 0) for g in results),
        "screen_differences": sum(g.get("screen_differences", 0) for g in results),
        "screen_unexplained": sum(g.get("screen_unexplained", 0) for g in results),
        "screen_cpu_share": round(sum(g.get("screen_s", 0) for g in results)
                                  / max(1e-9, sum(g.get("cpu_s", 0) for g in results)), 4),
        "documented_differences": sum(documented.values()),
        "documented_by_deviation": dict(sorted(documented.items())),
        "unexplained_differences": sum(len(g["unexplained"]) for g in results),
        "basic_errors": sum(len(g["basic_errors"]) for g in results),
        "timeouts": sum(1 for g in results if g["timeout"]),
        "harness_failures": len(failures),
        "harness_failure_details": sorted(failures, key=lambda f: f["index"]),
        "wall_s": round(wall, 2),
        "emulated_s": round(sum(g["emulated_s"] for g in results), 1),
        "wall_s_per_game": round(sum(g["wall_s"] for g in results) / max(1, len(results)), 3),
        "workers": workers,
        "scheduler": scheduler,
        "deviations": {k: {"lines": d.lines, "what": d.what, "rule": d.rule} for k, d in DEVIATIONS.items()},
        "findings": dict(sorted(Counter(f for g in results for f in g.get("findings", {}).values() if f).items())),
        "documented_by_rules": {
            name: dict(sorted(sum((Counter(g["under_rules"][name]["documented"]) for g in results), Counter()).items()))
            for name in (results[0]["under_rules"] if results else {})},
        "unexplained_by_rules": {name: sum(len(g["under_rules"][name]["unexplained"]) for g in results)
                                 for name in (results[0]["under_rules"] if results else {})},
        "per_game": [{k: g.get(k) for k in ("index", "seed", "strategy", "winner", "scores", "completed", "deals",
                                            "score_events", "documented", "unexplained", "basic_errors", "timeout",
                                            "failure", "emulated_s", "wall_s", "adversarial_tries", "findings",
                                            "games_played", "wins", "pictures", "screen_checks",
                                            "screen_differences")}
                     for g in results],
    }


def summary_table(report: dict) -> str:
    rows = [
        ("games", report["games"]), ("completed", report["completed"]), ("deals", report["deals"]),
        ("actions", report["actions"]), ("score events checked", report["score_events"]),
        ("engine checks", report["checks"]),
        ("screen pictures judged", report.get("pictures", 0)),
        ("screen judgements", report.get("screen_checks", 0)),
        ("screen differences", report.get("screen_differences", 0)),
        ("  of them unexplained", report.get("screen_unexplained", 0)),
        ("documented differences", report["documented_differences"]),
        *((f"  {k}", v) for k, v in report["documented_by_deviation"].items()),
        ("unexplained differences", report["unexplained_differences"]),
        ("BASIC error reports", report["basic_errors"]), ("timeouts", report["timeouts"]),
        ("harness failures", report["harness_failures"]),
        *((f"finding {k} (the original stops)", v) for k, v in report.get("findings", {}).items()),
        *((f"unexplained under {k} rules", v) for k, v in report.get("unexplained_by_rules", {}).items()
          if k != "standard"),
        *(summary_rows(report["coverage"], bool(report.get("thorough"))) if report.get("coverage") else ()),
        ("emulated seconds", report["emulated_s"]), ("wall seconds", report["wall_s"]),
        ("wall seconds per game, in its worker", report["wall_s_per_game"]),
    ]
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k:<{width}}  {v}" for k, v in rows)
