"""`cribbage-zx readings`: build a variant tape for every other reading the scan admits and play it.

The command line only: what it runs, and why, is told in harness/program/runs/readings.py. The readings are
basic/readings.toml (tools/write_readings.py); the record goes to --out (default docs/data/readings.json);
--write-docs also writes docs/READINGS.md and each entry's measured consequence in
basic/RECONSTRUCTION.md.
"""
from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

from .. import resources
from ..edition import readings_doc
from ..errors import InputError, UsageError
from ..program.runs import readings as R
from ..program.runs.readings_record import KINDS, ReadingsRecord, read_readings, write_readings
from ..program.runs.readings_tapes import READINGS, load
from ..program.model.build import played_tape
from ..runtime import atomic
from .cliargs import add_replace_option, add_runner_options, command_parser, input_file, int_in, naming_flags, output_file
import tomllib
from ..runtime.validate import read_text


def _lines(text: str) -> set[int]:
    try:
        out = {int(x) for x in text.split(",") if x.strip()}
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: line numbers separated by commas") from None
    if not out:
        raise argparse.ArgumentTypeError("no line numbers")
    return out
_lines.__name__ = "line list"


def _toml(data: bytes) -> bool:
    try:
        tomllib.loads(data.decode("utf-8-sig"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError):
        return False
    return True


def _is_record(head: bytes) -> bool:
    """A readings record as this command writes it (keys sorted, one space of indent: base_games first)."""
    return head.startswith(b'{\n "base_games": ')


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int_in(1, 1000), default=1,
                        help="games per reading, of the reconstruction's plain games that run its line (default 1)")
    parser.add_argument("--seed", type=int_in(0, 65535), default=1, help="seed of the first game (default 1)")
    parser.add_argument("--entries", type=_lines, metavar="LINE,LINE",
                        help="only the readings of these lines (default: every judgement entry's, the evidence's "
                             "and those of the deviations' own lines)")
    parser.add_argument("--all", action="store_true", help="every reading of basic/readings.toml")
    parser.add_argument("--no-thorough", action="store_true",
                        help="do not play the thorough set for lines the plain games do not reach")
    parser.add_argument("--readings", type=input_file("readings TOML", text=True, max_bytes=4 * 2**20,
                                                   valid=_toml, expect="not TOML"),
                        default=READINGS, help="the readings (default basic/readings.toml)")
    parser.add_argument("--out", type=output_file("readings record", _is_record), default=Path("docs/data/readings.json"),
                        help="the record (default docs/data/readings.json)")
    parser.add_argument("--write-docs", action="store_true",
                        help="also write docs/READINGS.md beside --out and the consequences in basic/RECONSTRUCTION.md")
    parser.add_argument("--from-record", action="store_true",
                        help="play nothing: write the docs (with --write-docs) from the record already in --out")
    parser.add_argument("--check-docs", action="store_true",
                        help="play nothing: exit 1 if basic/RECONSTRUCTION.md's consequences are not --out's")
    parser.add_argument("--stop-after", type=int_in(1, 10**7), metavar="SECONDS",
                        help="a wall-clock budget: after it no further game is waited for, and the readings not "
                             "played are recorded as untested (the entries' own readings are played first)")
    parser.add_argument("--resume", action="store_true",
                        help="play only the readings the record in --out left untested because its run stopped "
                             "(its --stop-after or Ctrl-C), with the record's --games and --seed; keep the rest")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    add_replace_option(parser, "--out")
    add_runner_options(parser, "games")


def _listing_lines() -> list[int]:
    text = read_text(resources.LISTING, InputError, "listing")
    return [int(row.split(" ", 1)[0]) for row in text.splitlines() if row.strip()]


def _entries() -> tuple[Path, str, list[int]]:
    path = resources.data_path("basic/RECONSTRUCTION.md")
    text = path.read_text(encoding="utf-8")
    return path, text, readings_doc.entries_of(text)


@dataclass(frozen=True)
class _Docs:
    """What the pages are written from besides the record: basic/RECONSTRUCTION.md (its path, its text, its
    judgement entries) and the listing's line numbers."""
    log_path: Path
    log_text: str
    entries: list[int]
    listing_lines: list[int]


def _check_options(args: argparse.Namespace) -> None:
    if args.all and args.entries:
        raise UsageError("--all and --entries: choose one")
    if args.resume and (args.from_record or args.all or args.entries):
        raise UsageError("--resume takes the record's own readings: not with --from-record, --all or --entries")
    if args.resume and args.replace:
        raise UsageError(f"--resume continues the record in --out {args.out}; --replace would start afresh: "
                         f"choose one")


def _note(s: str) -> None:
    print(f"cribbage-zx readings: {s}", file=sys.stderr)


def _command_line(args: argparse.Namespace) -> str:
    """The record's "command": this run's options as a line to run again."""
    return " ".join(["cribbage-zx readings", f"--games {args.games}", f"--seed {args.seed}"]
                    + (["--all"] if args.all else [])
                    + ([f"--entries {','.join(map(str, sorted(args.entries)))}"] if args.entries else [])
                    + (["--no-thorough"] if args.no_thorough else [])
                    + ([f"--stop-after {args.stop_after}"] if args.stop_after else [])
                    + ["--write-docs"] * args.write_docs)


def execute(args: argparse.Namespace) -> int:
    log_path, log_text, entries = _entries()
    if args.check_docs:
        problems = readings_doc.stale_consequences(log_text, read_readings(args.out))
        for p in problems:
            print(f"cribbage-zx readings: {log_path}: {p}", file=sys.stderr)
        return 1 if problems else 0
    _check_options(args)
    docs = _Docs(log_path, log_text, entries, _listing_lines())
    started = time.process_time()
    if args.from_record:
        _write_docs(args, read_readings(args.out), docs)
        return 0
    with naming_flags({"entries": lambda m: f"--entries: {m}"}):
        chosen = R.select(load(args.readings), docs.listing_lines, every=args.all, entries=args.entries)
    plan = R.Plan(games=args.games, seed=args.seed, workers=args.workers, scheduler=args.scheduler,
                  thorough=not args.no_thorough, progress=not args.quiet,
                  deadline=None if args.stop_after is None else time.monotonic() + args.stop_after)
    where, data = played_tape(None)
    tape = R.BaseTape(data, where)
    if args.resume:
        old = read_readings(args.out)      # another command's record, another tape: refused before a game
        record = R.resume(old, load(args.readings), tape, plan, note=_note, name=str(args.out))
        command = (old.command or "cribbage-zx readings") + " && cribbage-zx readings --resume" + (
            f" --stop-after {args.stop_after}" if args.stop_after else "")
        before = old.cpu_s.command or 0.0
    else:
        record = R.run(chosen, tape, plan, note=_note)
        command, before = _command_line(args), 0.0
    record = replace(record, command=command, deviations=R.deviation_table(record, docs.listing_lines),
                     cpu_s=replace(record.cpu_s, command=round(before + time.process_time() - started, 1)))
    return _finish(args, record, docs, started)


def _finish(args: argparse.Namespace, record: ReadingsRecord, docs: _Docs, started: float) -> int:
    """Write the record (and the docs); a run Ctrl-C or SIGTERM stopped then ends as stopped (130 or 143),
    its one line saying what the record left undone."""
    write_readings(args.out, record)
    stop = R.stopped_by()
    if stop is not None:
        undone = len(record.undone or [])
        stop.said = (f"the record {args.out} keeps what finished; " + (  # type: ignore[attr-defined]
            f"{undone} readings left untested: `cribbage-zx readings --resume` plays them" if undone else
            "no reading was left untested"))
        raise stop
    _write_docs(args, record, docs)
    counts = record.counts
    print("readings: " + ", ".join(f"{counts.get(k, 0)} {k}" for k in KINDS))
    print(f"CPU: {record.cpu_s.total} s ({time.process_time() - started:.1f} s in this process); "
          f"record: {args.out}")
    return 0


def _write_docs(args: argparse.Namespace, record: ReadingsRecord, docs: _Docs) -> None:
    if not args.write_docs:
        return
    measured = sorted({c.line for c in record.readings})
    page = readings_doc.markdown(record, docs.listing_lines, docs.entries, record.command or "",
                                 R.second_looks(docs.log_text))
    atomic.write_text(args.out.with_name("READINGS.md"), page)
    atomic.write_text(docs.log_path, readings_doc.update_reconstruction(docs.log_text, record, docs.entries))
    print(f"wrote {args.out.with_name('READINGS.md')} and the consequences of {len(docs.entries)} entries "
          f"({len(measured)} lines measured) in {docs.log_path}")


def main(argv: list[str]) -> int:
    return execute(command_parser(sys.modules[__name__], "cribbage-zx readings", UsageError).parse_args(argv))
