"""`cribbage-zx html`: write the browsable edition of the listing.

    cribbage-zx html [--out DIR] [--coverage REPORT.json] [--serve [--port N]]
    cribbage-zx html --report RUN_DIR


The coverage defaults to out/regress/report.json when that file exists (its
`coverage` key, written by regress); without one the margin heat strip is
empty and the pages say so. Prints the time it took. With --report, draws a
run folder's page again from its records instead, as the run did at its end:
report.html for a regress or fairness run and for a sweep's --out (the facts
of its *-report.json), strength.html for a strength run; any other folder is
refused in one line.

Beside the edition, play.html: the game on the WebAssembly core in the page
(harness/web); without a compiler for it, one line says what is missing and
the rest of the edition is written all the same. --serve then serves the
folder on 127.0.0.1 (Ctrl-C stops it), for a browser that refuses file://.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from .cliargs import ArgParser, input_file, input_folder, int_in, output_folder
from ..errors import UsageError, InputError
from ..runtime.outdir import MARKER_NAME, claimed, claimed_whole, recorded_command
from ..edition.report import write_report_html
from ..edition.site import load_edition, write_site
from ..web.page import write_play_page
from ..web.serve import serve
from ..web.watch import report_player
from jinja2 import TemplateError

DEFAULT_OUT = Path("out/html")
DEFAULT_COVERAGE = Path("out/regress/report.json")
PORT = 8000                                    # --serve's default port


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", type=output_folder("html"), default=DEFAULT_OUT, help="output folder (default out/html)")
    parser.add_argument("--coverage", type=input_file("coverage report", json=True), default=None,
                        help="a regress report.json with a coverage key (default out/regress/report.json "
                             "if it exists)")
    parser.add_argument("--report", type=input_folder("fairness, regress, strength or sweep run (the folders --report draws a page of)", commands=tuple(PAGES), writes=True), default=None, metavar="RUN_DIR",
                        help="instead, draw a run folder's page again from its records: RUN_DIR/report.html for a "
                             "regress or fairness run and for a sweep's --out (its *-report.json), "
                             "RUN_DIR/strength.html for a strength run")
    parser.add_argument("--serve", action="store_true",
                        help="then serve the folder on http://127.0.0.1 until Ctrl-C (play.html and the edition)")
    parser.add_argument("--port", type=int_in(0, 65535), default=None, help="--serve's port (default 8000; 0: any free one)")


def execute(args: argparse.Namespace) -> int:
    if args.port is not None and not args.serve:
        raise UsageError(f"--port {args.port} is --serve's port: give --serve too")
    if args.serve and args.report is not None:
        raise UsageError("--serve serves the edition written to --out; --report draws a run's page and serves "
                         "nothing (open its report.html, or serve the folder with --out)")
    args.port = PORT if args.port is None else args.port
    if args.report is not None:
        return _report_page(args.report)
    coverage = args.coverage
    if coverage is None and DEFAULT_COVERAGE.exists():
        coverage = DEFAULT_COVERAGE
    if coverage is not None and not coverage.is_file():
        raise UsageError(f"--coverage {coverage}: no such file")
    started = time.perf_counter()
    edition = load_edition(coverage)           # read and checked before the folder is touched
    if args.coverage is not None and edition.coverage is None:
        raise UsageError(f"--coverage {coverage}: has no statement counts (expected a regress report.json "
                           f"with a coverage key, or a coverage object with counts)")
    with claimed_whole(args.out, "html") as folder:   # made whole beside it, then swapped in: a Ctrl-C or a full
                                                     # disk leaves the earlier edition; files of others are kept
        played = write_play_page(folder)      # first: the index links to it only when it was written
        done = write_site(edition, folder, in_place=True, play=played.path.name if played.path else None)
    elapsed = time.perf_counter() - started
    cov = ("coverage from " + str(coverage) if edition.coverage else
           f"no coverage key in {coverage}" if coverage else "no coverage file")
    print(f"edition: {args.out / 'index.html'} ({done.pages} pages, {cov}"
          f"{'' if done.dot else '; call graph not drawn: no dot'}) in {elapsed:.2f} s")
    if played.path is None:
        print(played.problem)
    else:
        print(f"play: {args.out / played.path.name} ({played.size / 1024:.0f} KB, works from file://)")
    if args.serve:
        serve(args.out, args.port, page=played.path.name if played.path else "index.html")
    return 0


#: the folders html --report draws again, by the command that wrote them, and the page each gets
PAGES = {"regress": "report.html", "fairness": "report.html", "strength": "strength.html", "sweep": "report.html"}


def _report_page(folder: Path) -> int:
    """--report: the page of a run folder drawn again from its records, the page of its own kind (or a
    one-line refusal for a folder that has none)."""
    command = recorded_command(folder)
    if command is None:
        if not (folder / "report.json").is_file():
            raise UsageError(f"--report {folder}: no report.json there")
        raise UsageError(f"--report {folder}: no cribbage-zx run wrote this folder "
                         f"(it has no {MARKER_NAME}); refusing to write into it")
    if command not in PAGES:
        raise UsageError(f"--report {folder}: holds a `cribbage-zx {command}` folder, which has no report page "
                         f"(--report draws {', '.join(sorted(PAGES))} runs' pages)")
    sweep = command == "sweep" and not (folder / "report.json").is_file()
    if sweep and (folder / "params.json").is_file() and recorded_command(folder.parent) == "sweep":
        raise UsageError(f"--report {folder}: the chunks of one sweep; its report is in the sweeps' folder: "
                         f"--report {folder.parent}")
    if command != "sweep" and not (folder / "report.json").is_file():
        raise UsageError(f"--report {folder}: no report.json there (the {command} run ended before writing it)")
    started = time.perf_counter()
    with claimed(folder, command, resume=True):     # no run of it may be writing there meanwhile
        if command == "strength":
            out = _strength_page(folder)
        else:
            player, why = report_player() if any(folder.glob("game-*.rzx")) else (None, None)
            if why:
                print(f"cribbage-zx html: {why}", file=sys.stderr)
            out = write_report_html(folder, sweep=sweep, player=player, no_player=why)
    print(f"report: {out} in {time.perf_counter() - started:.2f} s")
    return 0


def _strength_page(folder: Path) -> Path:
    """strength.html again from a strength run's report.json (the view of harness/edition/strength.py)."""
    # lazy: only the strength page's leg needs them (matplotlib's view)
    from ..edition.strength import write_strength_page
    from ..program.runs.strength import read_report
    path = folder / "report.json"
    report = read_report(path)
    try:
        return write_strength_page(folder, report)
    except (KeyError, TypeError, ValueError, IndexError, TemplateError) as exc:
        raise InputError(f"{path}: not a strength report as this version writes it ({type(exc).__name__}: "
                         f"{str(exc)[:60]})") from None


def main(argv: list[str]) -> int:
    parser = ArgParser(prog="cribbage-zx html", error_class=UsageError,
                       description="Write the HTML edition of the listing (static, works from file://).")
    add_arguments(parser)
    return execute(parser.parse_args(argv))
