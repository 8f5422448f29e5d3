"""`cribbage-zx html`: write the browsable edition of the listing.

    cribbage-zx html [--out DIR] [--coverage REPORT.json] [--serve [--port N]]
    cribbage-zx html --report RUN_DIR


The coverage defaults to out/regress/report.json when that file exists (its
`coverage` key, written by regress); without one the margin heat strip is
empty and the pages say so. Prints the time it took. With --report, writes
report.html for a regress (or sweep) folder instead, as regress does at the
end of every run.

Beside the edition, play.html: the game on the WebAssembly core in the page
(harness/web); without a compiler for it, one line says what is missing and
the rest of the edition is written all the same. --serve then serves the
folder on 127.0.0.1 (Ctrl-C stops it), for a browser that refuses file://.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from .cliargs import ArgParser
from ..errors import UsageError
from ..runtime.outdir import MARKER_NAME, claimed, recorded_command
from ..edition.report import write_report_html
from ..edition.site import load_edition, write_site
from ..web.page import write_play_page
from ..web.serve import serve

DEFAULT_OUT = Path("out/html")
DEFAULT_COVERAGE = Path("out/regress/report.json")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (default out/html)")
    parser.add_argument("--coverage", type=Path, default=None,
                        help="a regress report.json with a coverage key (default out/regress/report.json "
                             "if it exists)")
    parser.add_argument("--report", type=Path, default=None, metavar="RUN_DIR",
                        help="write RUN_DIR/report.html for a regress or sweep folder (its report.json) instead")
    parser.add_argument("--serve", action="store_true",
                        help="then serve the folder on http://127.0.0.1 until Ctrl-C (play.html and the edition)")
    parser.add_argument("--port", type=int, default=8000, help="--serve's port (default 8000; 0: any free one)")


def execute(args: argparse.Namespace) -> int:
    if args.report is not None:
        if not (args.report / "report.json").is_file():
            raise UsageError(f"--report {args.report}: no report.json there")
        command = recorded_command(args.report)
        if command is None:
            raise UsageError(f"--report {args.report}: no cribbage-zx run wrote this folder "
                               f"(it has no {MARKER_NAME}); refusing to write into it")
        started = time.perf_counter()
        with claimed(args.report, command, resume=True):     # no run of it may be writing there meanwhile
            out = write_report_html(args.report)
        print(f"report: {out} in {time.perf_counter() - started:.2f} s")
        return 0
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
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port {args.port}: a port is 0-65535")
    with claimed(args.out, "html", rewrite=True) as folder:     # only an earlier edition's files are removed
        done = write_site(edition, folder, in_place=True)
        played = write_play_page(folder)
    elapsed = time.perf_counter() - started
    cov = ("coverage from " + str(coverage) if edition.coverage else
           f"no coverage key in {coverage}" if coverage else "no coverage file")
    print(f"edition: {args.out / 'index.html'} ({done['pages']} pages, {cov}"
          f"{'' if done['dot'] else '; call graph not drawn: no dot'}) in {elapsed:.2f} s")
    if played.path is None:
        print(played.problem)
    else:
        print(f"play: {args.out / played.path.name} ({played.size / 1024:.0f} KB, works from file://)")
    if args.serve:
        serve(args.out, args.port)
    return 0


def main(argv: list[str]) -> int:
    parser = ArgParser(prog="cribbage-zx html", error_class=UsageError,
                       description="Write the HTML edition of the listing (static, works from file://).")
    add_arguments(parser)
    return execute(parser.parse_args(argv))
