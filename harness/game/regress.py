"""`cribbage-zx regress`: play N whole games of the BASIC program and check every score.

Each game runs in a worker process on its own embedded Spectrum (the tape is
loaded once per worker and each game starts from that snapshot), with the
automated player strategies taken in turn. The report says how many score
events were checked and how many differences were found, by documented
deviation or unexplained; the exit status is non-zero on any unexplained
difference, BASIC error report or timeout.
"""
from __future__ import annotations

import json
import os
import time
from collections import Counter
from pathlib import Path

from ..build import DEFAULT_TAP, FONT, LISTING, build
from ..cliargs import ArgParser
from ..spectrum.loading import load_tape
from ..spectrum.machine import FRAME_S, Spectrum48
from ..spectrum.tape import read_tap
from .compare import compare
from .deviations import DEVIATIONS
from .driver import GameDriver
from .parallel import Progress, run_jobs
from .players import PLAYERS

STRATEGIES = ("random", "greedy", "adversarial")


class RegressError(Exception):
    """Bad arguments, or no tape could be built."""


def ensure_tape(path: Path = DEFAULT_TAP) -> Path:
    """Build the tape if it is missing or older than the listing or the font."""
    sources = [LISTING, FONT]
    if not path.exists() or any(s.stat().st_mtime > path.stat().st_mtime for s in sources):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(build().tap)
    return path


_snapshot = None


def _init_worker(tap: str) -> None:
    global _snapshot
    m = Spectrum48(fast=True)
    m.boot()
    load_tape(m, read_tap(tap))
    _snapshot = m.snapshot()


def play_one(job: tuple[int, int, str, bool]) -> dict:
    """Play game *index* with *seed* and *strategy*; return its record as plain data."""
    index, seed, strategy, keep_all_screens = job
    m = Spectrum48(fast=True)
    m.restore(_snapshot)
    start_frames = m.frames
    player = PLAYERS[strategy](seed=seed)
    driver = GameDriver(m, player, seed=seed, keep_screens=True, every_action_screen=keep_all_screens)
    t = time.perf_counter()
    rec = driver.play()
    wall = time.perf_counter() - t
    result = compare(rec.transcript)
    by_dev = Counter(d.deviation for d in result.documented)
    return {
        "index": index, "seed": seed, "strategy": strategy, "winner": rec.winner, "scores": rec.scores,
        "completed": rec.winner is not None and rec.timeout is None and not rec.basic_errors,
        "deals": rec.deals, "actions": rec.actions, "score_events": result.score_events,
        "checks": result.checks, "documented": dict(by_dev),
        "unexplained": [d.as_dict() for d in result.unexplained],
        "basic_errors": rec.basic_errors, "timeout": rec.timeout,
        "emulated_s": round((rec.frames - start_frames) * FRAME_S, 2), "wall_s": round(wall, 3),
        "transcript": rec.transcript, "screens": rec.screens,
        "adversarial_tries": getattr(player, "tries", []),
    }


def _write_game(out: Path, game: dict) -> None:
    from PIL import Image
    name = f"game-{game['index']:03d}"
    with open(out / f"{name}.jsonl", "w", encoding="utf-8") as f:
        for ev in game["transcript"]:
            f.write(json.dumps(ev, ensure_ascii=False, sort_keys=True) + "\n")
    shots = out / name
    shots.mkdir(exist_ok=True)
    frames = []
    for n, (label, pixels) in enumerate(game["screens"]):
        img = Image.fromarray(pixels, "RGB")
        if label == "action":
            frames.append(img)
            continue
        img.resize((img.width * 2, img.height * 2), Image.NEAREST).save(shots / f"{n:03d}-{label.replace(' ', '-')}.png")
    if frames:
        frames[0].save(out / f"{name}.gif", save_all=True, append_images=frames[1:], duration=400, loop=0)


def run(games: int, seed: int, workers: int, out: Path, strategies=STRATEGIES, tap: Path | None = None,
        progress: bool = True) -> dict:
    tap = ensure_tape(tap or DEFAULT_TAP)
    out.mkdir(parents=True, exist_ok=True)
    jobs = [(i, (seed + i) % 65536, strategies[i % len(strategies)], i == 0) for i in range(games)]
    progress_bar = Progress(games, "games", progress)
    results = []
    for game in run_jobs(play_one, jobs, workers, _init_worker, (str(tap),)):
        _write_game(out, game)
        game.pop("screens")
        results.append(game)
        progress_bar.step()
    progress_bar.close()
    wall = progress_bar.elapsed
    results.sort(key=lambda g: g["index"])
    documented = Counter()
    for g in results:
        documented.update(g["documented"])
    report = {
        "games": games,
        "completed": sum(g["completed"] for g in results),
        "deals": sum(g["deals"] for g in results),
        "actions": sum(g["actions"] for g in results),
        "score_events": sum(g["score_events"] for g in results),
        "checks": sum(g["checks"] for g in results),
        "documented_differences": sum(documented.values()),
        "documented_by_deviation": dict(sorted(documented.items())),
        "unexplained_differences": sum(len(g["unexplained"]) for g in results),
        "basic_errors": sum(len(g["basic_errors"]) for g in results),
        "timeouts": sum(1 for g in results if g["timeout"]),
        "wall_s": round(wall, 2),
        "emulated_s": round(sum(g["emulated_s"] for g in results), 1),
        "wall_s_per_game": round(sum(g["wall_s"] for g in results) / max(1, len(results)), 3),
        "workers": workers,
        "deviations": {k: {"lines": d["lines"], "what": d["what"], "rule": d["rule"]} for k, d in DEVIATIONS.items()},
        "per_game": [{k: g[k] for k in ("index", "seed", "strategy", "winner", "scores", "completed", "deals",
                                        "score_events", "documented", "unexplained", "basic_errors", "timeout",
                                        "emulated_s", "wall_s", "adversarial_tries")} for g in results],
    }
    with open(out / "report.json", "w", encoding="utf-8") as f:
        json.dump(report, f, ensure_ascii=False, indent=1, sort_keys=True)
    return report


def summary_table(report: dict) -> str:
    rows = [
        ("games", report["games"]), ("completed", report["completed"]), ("deals", report["deals"]),
        ("actions", report["actions"]), ("score events checked", report["score_events"]),
        ("engine checks", report["checks"]),
        ("documented differences", report["documented_differences"]),
        *((f"  {k}", v) for k, v in report["documented_by_deviation"].items()),
        ("unexplained differences", report["unexplained_differences"]),
        ("BASIC error reports", report["basic_errors"]), ("timeouts", report["timeouts"]),
        ("emulated seconds", report["emulated_s"]), ("wall seconds", report["wall_s"]),
        ("wall seconds per game", report["wall_s_per_game"]),
    ]
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k:<{width}}  {v}" for k, v in rows)


def main(argv: list[str]) -> int:
    parser = ArgParser(prog="cribbage-zx regress", error_class=RegressError,
                       description="Play whole games of the BASIC program and check every score.")
    parser.add_argument("--games", type=int, default=6, help="games to play (default 6)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1), help="worker processes")
    parser.add_argument("--out", type=Path, default=Path("out/regress"), help="output folder")
    parser.add_argument("--strategy", choices=sorted(PLAYERS), action="append",
                        help="player strategy (repeatable; default: random, greedy, adversarial in turn)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    if args.games < 1 or args.workers < 1:
        raise RegressError("--games and --workers must be at least 1")
    report = run(args.games, args.seed, args.workers, args.out, tuple(args.strategy or STRATEGIES),
                 progress=not args.quiet)
    print(summary_table(report))
    print(f"report: {args.out / 'report.json'}")
    bad = report["unexplained_differences"] or report["basic_errors"] or report["timeouts"]
    return 1 if bad else 0
