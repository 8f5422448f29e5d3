"""`cribbage-zx html`: write the browsable edition of the listing.

    cribbage-zx html [--out DIR] [--coverage REPORT.json]
    cribbage-zx html --report RUN_DIR


The coverage defaults to out/regress/report.json when that file exists (its
`coverage` key, written by regress); without one the margin heat strip is
empty and the pages say so. Prints the time it took. With --report, writes
report.html for a regress (or sweep) folder instead, as regress does at the
end of every run.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from ..runtime.cliargs import ArgParser
from ..errors import HarnessError
from ..runtime.outdir import MARKER_NAME, claimed, recorded_command
from ..edition.report import write_report_html
from ..edition.site import load_edition, write_site

DEFAULT_OUT = Path("out/html")
DEFAULT_COVERAGE = Path("out/regress/report.json")


class EditionError(HarnessError):
    """Bad arguments for `cribbage-zx html`."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (default out/html)")
    parser.add_argument("--coverage", type=Path, default=None,
                        help="a regress report.json with a coverage key (default out/regress/report.json "
                             "if it exists)")
    parser.add_argument("--report", type=Path, default=None, metavar="RUN_DIR",
                        help="write RUN_DIR/report.html for a regress or sweep folder (its report.json) instead")


def execute(args: argparse.Namespace) -> int:
    if args.report is not None:
        if not (args.report / "report.json").is_file():
            raise EditionError(f"--report {args.report}: no report.json there")
        command = recorded_command(args.report)
        if command is None:
            raise EditionError(f"--report {args.report}: no cribbage-zx run wrote this folder "
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
        raise EditionError(f"--coverage {coverage}: no such file")
    started = time.perf_counter()
    edition = load_edition(coverage)           # read and checked before the folder is touched
    if args.coverage is not None and edition.coverage is None:
        raise EditionError(f"--coverage {coverage}: has no statement counts (expected a regress report.json "
                           f"with a coverage key, or a coverage object with counts)")
    with claimed(args.out, "html", rewrite=True) as folder:     # only an earlier edition's files are removed
        done = write_site(edition, folder, in_place=True)
    elapsed = time.perf_counter() - started
    cov = ("coverage from " + str(coverage) if edition.coverage else
           f"no coverage key in {coverage}" if coverage else "no coverage file")
    print(f"edition: {args.out / 'index.html'} ({done['pages']} pages, {cov}"
          f"{'' if done['dot'] else '; call graph not drawn: no dot'}) in {elapsed:.2f} s")
    return 0


def main(argv: list[str]) -> int:
    parser = ArgParser(prog="cribbage-zx html", error_class=EditionError,
                       description="Write the HTML edition of the listing (static, works from file://).")
    add_arguments(parser)
    return execute(parser.parse_args(argv))
