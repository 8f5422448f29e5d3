"""`cribbage-zx bench`: emulated seconds per wall second, for the harness and for the bare CPU core.

The command line only: what it runs, and why, is told in harness/bench/machine.py.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from ..bench import command as main_job
from ..bench.command import bench_command
from ..bench.machine import bench_basic, bench_boot, bench_core, bench_game, command_t_states
from ..bench.figures import (BENCH_BEGIN, BENCH_END, BenchFigures, bench_figures, figures_agree, format_bench,
                             write_figures)
from ..bench import runner          # its bench_runner and format_result looked up when called (tests stub them)
from ..bench.runner import bench_dask, dask_missing, runner_agrees, runner_figures
from .cliargs import command_parser, int_in, page_file
from ..errors import UsageError
from ..runtime.validate import shown_path


#: the markers --write-doc puts the figures between: the default bench's, and --web's (web/bench.py)
DEFAULT_MARKERS = (BENCH_BEGIN, BENCH_END)
WEB_MARKERS = ("<!-- bench --web: begin -->", "<!-- bench --web: end -->")     # web/bench.py's MARK_BEGIN, MARK_END


def _has_markers(page: bytes) -> bool:
    return any(b.encode() in page and e.encode() in page for b, e in (DEFAULT_MARKERS, WEB_MARKERS))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--runner", action="store_true",
                        help="instead: regress --games N on one worker, the local pool and a Dask LocalCluster")
    parser.add_argument("--games", type=int_in(1, 10_000), default=None, help="--runner: games per run (default 20)")
    parser.add_argument("--workers", type=int_in(2, 512), default=None,
                        help="workers of the pool and of Dask (default 2)")
    parser.add_argument("--no-dask", action="store_true", help="leave out the Dask LocalCluster runs")
    parser.add_argument("--dask-games", type=int_in(2, 10_000), default=None,
                        help="games per run for Dask's overhead over the local pool (default 2)")
    parser.add_argument("--no-command", action="store_true",
                        help="leave out the main job (regress --games 2 in a fresh process, with report.html "
                             "and with --no-html, three times each; about 120 CPU s)")
    parser.add_argument("--web", action="store_true",
                        help="instead: play.html in headless chromium against the embedded machine (frames a "
                             "second, the title's time, the page's weight)")
    parser.add_argument("--write-doc", type=page_file("page", _has_markers, "no <!-- bench: begin --> or "
                                                                           "<!-- bench --web: begin --> markers"),
                        default=None, metavar="DOC",
                        help="also put the figures into DOC between its bench markers (docs/PERFORMANCE.md; with --web, docs/BROWSER.md)")
    parser.add_argument("--cores", action="store_true",
                        help="instead: the same work (boot, load, run to the first question) on each CPU core")


#: the benches (--web, --cores, --runner, or none of them: the default) and the options each one takes
BENCHES = ("--web", "--cores", "--runner")
TAKES = {"--games": ("--runner",), "--workers": ("default", "--runner"), "--no-dask": ("default", "--runner"),
         "--dask-games": ("default",), "--no-command": ("default",)}


def check_options(args: argparse.Namespace) -> None:
    """One bench a run, and only its own options: UsageError naming what does not go together."""
    chosen = [b for b in BENCHES if getattr(args, b[2:])]
    if len(chosen) > 1:
        raise UsageError(f"{' and '.join(chosen)} are {len(chosen)} benches: give one of them (each runs alone)")
    bench = chosen[0] if chosen else "default"
    for option, benches in TAKES.items():
        if getattr(args, option[2:].replace("-", "_")) not in (None, False) and bench not in benches:
            what = "the default bench" if bench == "default" else bench
            goes = " or ".join("the default bench" if b == "default" else b for b in benches)
            raise UsageError(f"{option} is for {goes}, not {what}" + (" (give --runner with it)"
                                                                      if benches == ("--runner",) else ""))
    if args.write_doc is not None and (args.cores or args.runner or args.json):
        raise UsageError("--write-doc goes with the default bench or --web, not with --cores, --runner or --json")
    if args.write_doc is not None:                 # found now, not after the bench's two minutes
        begin, end = WEB_MARKERS if args.web else DEFAULT_MARKERS
        page = args.write_doc.read_text(encoding="utf-8")
        if begin not in page or end not in page:
            raise UsageError(f"--write-doc {shown_path(args.write_doc)}: no {begin} ... {end} block for the "
                             f"figures" + (" (it has --web's)" if not args.web else " (it has the default bench's)"))
    args.games = 20 if args.games is None else args.games
    args.workers = 2 if args.workers is None else args.workers
    args.dask_games = 2 if args.dask_games is None else args.dask_games


def execute(args: argparse.Namespace) -> int:
    check_options(args)
    # each mode's modules are imported in its branch: a run of one mode does not pay for the others' imports
    if args.web:
        return _web(args)
    if args.cores:
        from ..bench.cores import bench_cores, format_cores  # lazy: only --cores needs these (the tape's build: 0.1 s)
        from ..program.model.build import tape_bytes
        cores = bench_cores(tape_bytes(None))
        print(json.dumps(cores) if args.json else format_cores(cores))
        return 0
    if args.runner:
        missing = None if args.no_dask else dask_missing()
        timings = runner.bench_runner(args.games, args.workers, dask=not (args.no_dask or missing))
        result = runner_figures(timings, missing)
        print(json.dumps(result) if args.json else runner.format_result(result))
        if missing and not args.json:
            print(f"dask: left out ({missing})")
        return 0 if runner_agrees(result) else 1
    boot = bench_boot()
    basic, raw = bench_basic()
    core = bench_core()
    game = bench_game(core)
    command = None if args.no_command else bench_command(command_t_states(main_job.GAMES, main_job.SEED), bench_core)
    left_out = "--no-dask" if args.no_dask else dask_missing()
    dask = None if left_out else bench_dask(args.dask_games, args.workers)
    figures = bench_figures(BenchFigures(boot=boot, basic=basic, raw_core=raw, core_t_per_cpu_s=round(core),
                                         game=game, command=command, dask=dask), left_out)
    print(json.dumps(figures) if args.json else format_bench(figures))
    if args.write_doc is not None:
        write_figures(args.write_doc, "cribbage-zx bench" + (" --no-dask" if args.no_dask else "")
                      + (" --no-command" if args.no_command else ""), format_bench(figures))
    return 0 if figures_agree(figures) else 1


def main(argv: list[str]) -> int:
    return execute(command_parser(sys.modules[__name__], "cribbage-zx bench", UsageError).parse_args(argv))


def _web(args: argparse.Namespace) -> int:
    from ..web.bench import bench_web, format_web, write_doc  # lazy: only --web needs the page and its bench (0.15 s)
    from ..web.page import tape_bytes, write_play_page
    with tempfile.TemporaryDirectory(prefix="cribbage-zx-bench-web-") as tmp:
        folder = Path(tmp)
        written = write_play_page(folder)
        if written.path is None:
            raise UsageError(f"bench --web: {written.problem}")
        tape = folder / "cribbage.tap"
        tape.write_bytes(tape_bytes("ru"))
        result = bench_web(written.path, tape)
    print(json.dumps(result.as_json()) if args.json else format_web(result))
    if args.write_doc is not None:
        write_doc(args.write_doc, result)
    return 0
