"""docs/SUITE.md, the test suite's figures, written from the runs' own measurements (issue 37).

Two steps, so the page can never say what its run did not:

    pytest --cpu-table --cpu-json=run.json ... > run.log      # tests/cpu_durations.py measures
    python tools/suite_figures.py record run.json --as current [--log run.log] [--note "..."]
    python tools/suite_figures.py write                         # docs/SUITE.md from docs/suite/*.json

`record` keeps the run's summary (totals, CPU by kind, by test file, the costliest tests, counts) as
docs/suite/<as>.json; a run measured before the plugin knew its wall time gives it with --log (pytest's
last line, "... in 1234.56s"). `write` renders every recorded run side by side; tests/test_docs.py checks
the page is what `write` makes of the recorded runs and that each record is well-formed.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ROOT / "docs" / "suite"
PAGE = ROOT / "docs" / "SUITE.md"
ORDER = ("baseline", "current")             # the columns, old beside new; any other record after them
REQUIRED = {"tests": int, "cpu_in_tests": (int, float), "cpu_of_processes": (int, float), "by_kind": dict,
            "by_file": dict, "counts": dict, "wall_s": (int, float), "workers": int, "costliest": list,
            "label": str, "note": str, "machine": dict, "outcomes": dict}
TOP_FILES, TOP_TESTS = 20, 15


class FiguresError(Exception):
    pass


def wall_from_log(text: str) -> float:
    found = re.findall(r" in ([\d.]+)s(?: \([\d:]+\))?(?: =+)?\s*$", text, re.M)
    if not found:
        raise FiguresError("no 'in N s' line of pytest's in the log")
    return float(found[-1])


def record(run: dict, label: str, note: str, log: str | None) -> dict:
    """A run's JSON (--cpu-json) reduced to what the page shows."""
    summary = dict(run["summary"])
    if "wall_s" not in summary:
        if log is None:
            raise FiguresError("the run's JSON has no wall time: give --log (pytest's output of that run)")
        summary["wall_s"] = wall_from_log(log)
    summary.setdefault("workers", max(0, len(summary.get("processes", {})) - 1))
    summary.setdefault("machine", {})
    if "outcomes" not in summary and log is not None:
        last = [line for line in log.splitlines() if re.search(r" in [\d.]+s", line)][-1:]
        summary["outcomes"] = {k: int(n) for n, k in re.findall(r"(\d+) (passed|failed|skipped|error|xfailed)",
                                                                 last[0] if last else "")}
    summary.setdefault("outcomes", {})
    ranked = sorted(run["tests"].items(), key=lambda kv: kv[1]["cpu"], reverse=True)
    summary["costliest"] = [[nodeid, r["cpu"], max(r["by_kind"], key=r["by_kind"].get)]
                            for nodeid, r in ranked[:TOP_TESTS]]
    summary["label"], summary["note"] = label, note
    summary["by_file"] = dict(list(summary["by_file"].items())[:TOP_FILES * 2])
    summary.pop("processes", None)
    check(summary, label)
    return summary


def check(rec: dict, name: str) -> None:
    """A record the page can be written from: every field, of its type, and totals that add up."""
    for key, kind in REQUIRED.items():
        if key not in rec:
            raise FiguresError(f"docs/suite/{name}.json: no {key!r}")
        if not isinstance(rec[key], kind):
            raise FiguresError(f"docs/suite/{name}.json: {key!r} is a {type(rec[key]).__name__}")
    if abs(sum(rec["by_kind"].values()) - rec["cpu_in_tests"]) > 0.5 + 0.001 * rec["cpu_in_tests"]:
        raise FiguresError(f"docs/suite/{name}.json: the kinds add up to {sum(rec['by_kind'].values()):.1f}, "
                           f"not the tests' {rec['cpu_in_tests']}")


def load_records(folder: Path = RECORDS) -> dict[str, dict]:
    records = {}
    for path in sorted(folder.glob("*.json"), key=lambda p: (p.stem not in ORDER, ORDER.index(p.stem)
                                                               if p.stem in ORDER else 0, p.stem)):
        try:
            rec = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as exc:
            raise FiguresError(f"{path}: not JSON: {exc}") from None
        check(rec, path.stem)
        records[path.stem] = rec
    if not records:
        raise FiguresError(f"{folder}: no recorded run")
    return records


#: what issue 37 changed in the tests themselves (the page lists it: a merge or a smaller sample is said, not hidden)
CHANGED_TESTS = (
    "`test_conformance::test_near_miss_a_known_block_repeat_bit_is_counted_not_a_divergence` is merged into "
    "`test_lockstep_on_our_workload_for_a_minute_and_a_known_block_repeat_bit_is_counted_not_a_divergence`: "
    "the minute's lockstep runs with the near miss's planted bit (one F of the 2,500,000 instructions, "
    "counted and resynced), so the near miss no longer replays the minute's first 650,000 instructions.",
    "`test_conformance::test_lockstep_on_our_workload_for_a_minute_and_a_known_block_repeat_bit_is_counted_not_a_"
    "divergence` is now `test_lockstep_on_every_opcode_of_our_workload_and_...`: 1,000,000 instructions, not "
    "2,500,000; the 271 distinct opcodes the 2,500,000 compare are all met by instruction 897,723, and the test "
    "asserts the same set (tests/data/lockstep-opcodes.json, written by `conformance --lockstep --opcodes`).",
    "`test_emulators::test_zx_loads_the_tape_to_the_title[en]` is now `test_mame_loads_the_tape_headless_to_the_"
    "title[en]`: zx answers every IN of the ROM's loader in Python (~75 CPU-s a tape), MAME loads one in ~20; "
    "the English tape is still loaded by two emulators besides ours (Fuse and MAME; it was Fuse and zx), the "
    "Russian by three (Fuse, zx, MAME).",
    "`test_emulators::test_zx_playing_a_truncated_recording_does_not_reach_our_final_screen`: the recording cut "
    "to its first tenth, not its first half (the same planted fault, a tenth of zx's playing).",
    "`test_strength_engine::test_the_first_dealers_advantage_between_equal_players_meets_the_published_band`: "
    "200 engine games, not 600 (as many as the planted bad dealer is caught with; the 95 % half-width "
    "asserted at most 0.07), the 200 shared with the planted-strategy test.",
    "`test_dask::test_a_local_cluster_gives_the_local_pools_transcripts_and_survives_a_killed_worker`: 3 games, "
    "not 4 (two workers: a game in flight on each when one is killed).",
    "`test_conformance`, `test_emulators`, `test_english`: the run's one build of each edition "
    "(tests/conftest.py `build_of`), not builds of their own; `test_emulators`: our machine's title once a tape.",
    "`test_mypy`, `test_core_protocol`: one mypy cache a worker for the runs with the same options.",
    "Every build of a program the ROM has accepted once in the run skips typing it into the ROM again "
    "(tests/conftest.py `rom_accepts_a_program_once`; refusals are always checked afresh, and "
    "`test_cribbage_program` types the game's every line into the ROM itself).",
)


def render(records: dict[str, dict] | None = None) -> str:
    records = records if records is not None else load_records()
    names = list(records)
    cols = " | ".join(records[n]["label"] for n in names)
    line = "| --- " * (len(names) + 1) + "|"
    out = ["# The test suite's figures", "",
           "Written by `tools/suite_figures.py` from the runs' own measurements (`pytest --cpu-table",
           "--cpu-json`, tests/cpu_durations.py); do not edit by hand. CPU-s are user+system seconds of",
           "pytest's processes and every child they waited for (Fuse, Xvfb, Chromium, commands, pools),",
           "pytest's own count; wall time follows the neighbours on a shared machine, CPU time much less.", ""]
    for n in names:
        out.append(f"- **{records[n]['label']}**: {records[n]['note']}")
    out += ["", "## How the suite runs", "",
            "- `make test` runs `pytest -n auto --dist loadfile` (pytest-xdist: one worker a core; each test",
            "  file on one worker, so a module's fixtures are made once). `make test TEST_WORKERS=0` is one",
            "  process; `pytest -m 'not slow'` leaves out the oracles (Fuse, Chromium, Dask, the wheel, Xvfb).",
            "- Tapes built and games played that several files read are made once per run for every worker",
            "  (`tests/game_store.py`, keyed by the sources' fingerprint or the tape's SHA-256, seed, player and",
            "  options; a lock file per entry; a worker that waits for another's says so on stderr).",
            "- Waits for outside processes (Xvfb's display, Fuse's and the play window's appearance, Fuse",
            "  reaching a line) are by event where X or the process gives one, and their budgets are seconds",
            "  on an idle machine stretched by the load per core (`tests/waiting.py`).",
            "- `pytest --cpu-durations=N` ranks tests by CPU; `--cpu-table` prints where the CPU went;",
            "  `--cpu-json=PATH` keeps it for `tools/suite_figures.py record` (this page's source).",
            "", "## The runs", "", f"| | {cols} |", line]

    def row(title: str, cell) -> None:
        out.append(f"| {title} | " + " | ".join(cell(records[n]) for n in names) + " |")
    row("tests run", lambda r: f"{r['tests']:,}")
    row("passed / failed / skipped", lambda r: " / ".join(str(r["outcomes"].get(k, 0))
                                                          for k in ("passed", "failed", "skipped")))
    row("CPU-s in the tests (set-up to teardown)", lambda r: f"{r['cpu_in_tests']:,.0f}")
    row("CPU-s of pytest's processes (start-up, collection included)", lambda r: f"{r['cpu_of_processes']:,.0f}")
    row("wall", lambda r: f"{r['wall_s'] / 60:.1f} min")
    row("xdist workers", lambda r: str(r["workers"] or "none (one process)"))
    row("cores; load at the end", lambda r: f"{r['machine'].get('cores', '?')}; {r['machine'].get('load_at_end', '?')}")

    out += ["", "## Where the CPU goes", "",
            "Each test's CPU by what it was spent on: inside the emulator's frame loop (games played, boots,",
            "loads), tape builds, plots drawn, the tests' own Python, and children by the kind of process the",
            "test started.", "", f"| CPU-s | {cols} |", line]
    kinds: list[str] = []
    for n in names:
        kinds += [k for k in records[n]["by_kind"] if k not in kinds]
    kinds.sort(key=lambda k: -max(records[n]["by_kind"].get(k, 0) for n in names))
    for kind in kinds:
        if max(records[n]["by_kind"].get(kind, 0) for n in names) < 1.0:
            continue
        row(kind, lambda r, k=kind: f"{r['by_kind'].get(k, 0):,.1f}")
    out += ["", "Counts (games played, builds, processes started by kind):", ""]
    for n in names:
        counts = records[n]["counts"]
        out.append(f"- {records[n]['label']}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))

    out += ["", "## The costliest test files", "", f"| file | {cols} |", line]
    files: list[str] = []
    for n in names:
        files += [f for f in list(records[n]["by_file"])[:TOP_FILES] if f not in files]
    files.sort(key=lambda f: -records[names[-1]]["by_file"].get(f, 0))
    for f in files:
        row(f"`{f}`", lambda r, f=f: f"{r['by_file'][f]:,.1f}" if f in r["by_file"] else "-")
    out += ["", "## Tests merged or made smaller (issue 37)", "",
            "The same reach: each check below is still made, on less work; no test was dropped.", ""]
    out += [f"- {line}" for line in CHANGED_TESTS]
    last = records[names[-1]]
    out += ["", f"## The costliest tests ({last['label']})", "", "| CPU-s | test | mostly |", "| --- | --- | --- |"]
    for nodeid, cpu, kind in last["costliest"]:
        out.append(f"| {cpu:,.1f} | `{nodeid}` | {kind} |")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="step", required=True)
    rec = sub.add_parser("record", help="keep a run's figures as docs/suite/<as>.json")
    rec.add_argument("run", type=Path, help="the JSON pytest --cpu-json wrote")
    rec.add_argument("--as", dest="name", required=True, help="the record's name (baseline, current...)")
    rec.add_argument("--label", help="the column's title (default: the name)")
    rec.add_argument("--note", default="", help="one sentence on how the run was made (machine, load, commit)")
    rec.add_argument("--log", type=Path, help="pytest's output of the run, for a JSON without the wall time")
    sub.add_parser("write", help="write docs/SUITE.md from docs/suite/*.json")
    args = parser.parse_args(argv)
    try:
        if args.step == "record":
            run = json.loads(args.run.read_text(encoding="utf-8"))
            log = args.log.read_text(encoding="utf-8", errors="replace") if args.log else None
            summary = record(run, args.label or args.name, args.note, log)
            RECORDS.mkdir(parents=True, exist_ok=True)
            from harness.runtime.atomic import write_text
            write_text(RECORDS / f"{args.name}.json", json.dumps(summary, indent=1, sort_keys=True) + "\n")
            print(f"docs/suite/{args.name}.json")
        else:
            from harness.runtime.atomic import write_text
            write_text(PAGE, render())
            print("docs/SUITE.md")
    except (OSError, ValueError, KeyError, FiguresError) as exc:
        print(f"suite_figures: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
