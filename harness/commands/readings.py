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
from pathlib import Path
from typing import Any

from .. import resources
from ..errors import InputError, UsageError
from ..program.runs import readings as R
from ..program.model.build import played_tape
from ..runtime import atomic
from .cliargs import add_replace_option, add_runner_options, command_parser, input_file, int_in, naming_flags, output_file
from ..runtime.validate import read_json


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
    import tomllib
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
                        default=R.READINGS, help="the readings (default basic/readings.toml)")
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
    from ..runtime.validate import read_text
    text = read_text(resources.LISTING, InputError, "listing")
    return [int(row.split(" ", 1)[0]) for row in text.splitlines() if row.strip()]


def _entries() -> tuple[Path, str, list[int]]:
    path = resources.data_path("basic/RECONSTRUCTION.md")
    text = path.read_text(encoding="utf-8")
    return path, text, R.entries_of(text)


def execute(args: argparse.Namespace) -> int:
    log_path, log_text, entries = _entries()
    if args.check_docs:
        record = R.check_record(read_json(args.out, InputError), str(args.out))
        problems = R.stale_consequences(log_text, record)
        for p in problems:
            print(f"cribbage-zx readings: {log_path}: {p}", file=sys.stderr)
        return 1 if problems else 0
    if args.all and args.entries:
        raise UsageError("--all and --entries: choose one")
    if args.resume and (args.from_record or args.all or args.entries):
        raise UsageError("--resume takes the record's own readings: not with --from-record, --all or --entries")
    if args.resume and args.replace:
        raise UsageError(f"--resume continues the record in --out {args.out}; --replace would start afresh: "
                         f"choose one")
    listing_lines = _listing_lines()
    started = time.process_time()
    if args.from_record:
        record = R.check_record(read_json(args.out, InputError), str(args.out))
        _write_docs(args, record, listing_lines, log_path, log_text, entries)
        return 0
    with naming_flags({"entries": lambda m: f"--entries: {m}"}):
        chosen = R.select(R.load(args.readings), listing_lines, every=args.all, entries=args.entries)
    plan = R.Plan(games=args.games, seed=args.seed, workers=args.workers, scheduler=args.scheduler,
                  thorough=not args.no_thorough, progress=not args.quiet,
                  deadline=None if args.stop_after is None else time.monotonic() + args.stop_after)

    def note(s: str) -> None:
        print(f"cribbage-zx readings: {s}", file=sys.stderr)

    where, tape = played_tape(None)
    if args.resume:
        old = read_json(args.out, InputError)      # another command's record, another tape: refused before a game
        record = R.resume(old, R.load(args.readings), tape, plan, note=note, where=where, name=str(args.out))
        record["command"] = old.get("command", "cribbage-zx readings") + " && cribbage-zx readings --resume" + (
            f" --stop-after {args.stop_after}" if args.stop_after else "")
        record["deviations"] = R.deviation_table(record, listing_lines)
        record["cpu_s"]["command"] = round(old["cpu_s"].get("command", 0.0) + time.process_time() - started, 1)
        return _finish(args, record, listing_lines, log_path, log_text, entries, started)
    record = R.run(chosen, tape, plan, note=note, where=where)
    record["command"] = " ".join(["cribbage-zx readings", f"--games {args.games}", f"--seed {args.seed}"]
                                 + (["--all"] if args.all else [])
                                 + ([f"--entries {','.join(map(str, sorted(args.entries)))}"] if args.entries else [])
                                 + (["--no-thorough"] if args.no_thorough else [])
                                 + ([f"--stop-after {args.stop_after}"] if args.stop_after else [])
                                 + ["--write-docs"] * args.write_docs)
    record["deviations"] = R.deviation_table(record, listing_lines)
    record["cpu_s"]["command"] = round(time.process_time() - started, 1)
    return _finish(args, record, listing_lines, log_path, log_text, entries, started)


def _finish(args: argparse.Namespace, record: dict[str, Any], listing_lines: list[int], log_path: Path,
            log_text: str, entries: list[int], started: float) -> int:
    """Write the record (and the docs); a run Ctrl-C or SIGTERM stopped then ends as stopped (130 or 143),
    its one line saying what the record left undone."""
    atomic.write_json(args.out, record, indent=1, sort_keys=True)
    stop = R.stopped_by()
    if stop is not None:
        undone = len(record.get("undone", []))
        stop.said = (f"the record {args.out} keeps what finished; " + (  # type: ignore[attr-defined]
            f"{undone} readings left untested: `cribbage-zx readings --resume` plays them" if undone else
            "no reading was left untested"))
        raise stop
    _write_docs(args, record, listing_lines, log_path, log_text, entries)
    counts = record["counts"]
    print("readings: " + ", ".join(f"{counts.get(k, 0)} {k}" for k in R.KINDS))
    print(f"CPU: {record['cpu_s']['total']} s ({time.process_time() - started:.1f} s in this process); "
          f"record: {args.out}")
    return 0


def _write_docs(args: argparse.Namespace, record: dict[str, Any], listing_lines: list[int], log_path: Path, log_text: str,
                entries: list[int]) -> None:
    if not args.write_docs:
        return
    measured = sorted({c["line"] for c in record["readings"]})
    atomic.write_text(args.out.with_name("READINGS.md"), R.markdown(record, listing_lines, entries, record["command"],
                                                                       R.second_looks(log_text)))
    atomic.write_text(log_path, R.update_reconstruction(log_text, record, entries))
    print(f"wrote {args.out.with_name('READINGS.md')} and the consequences of {len(entries)} entries "
          f"({len(measured)} lines measured) in {log_path}")


def main(argv: list[str]) -> int:
    return execute(command_parser(sys.modules[__name__], "cribbage-zx readings", UsageError).parse_args(argv))
