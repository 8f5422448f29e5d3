"""docs/SUITE.md, the test suite's figures, written from the runs' own measurements (issues 37 and 44).

Each tier's latest run, no history (git keeps that): `make test` (the quick tier) and `make test-all` (both).

    pytest --tier quick --cpu-json=q1.json ...    (three times: the page shows the median run by wall)
    python -m tools.suite_figures record q1.json q2.json q3.json --as quick --note "..."
    pytest --tier all --cpu-json=all.json ...
    python -m tools.suite_figures record all.json --as all --note "..."
    python -m tools.suite_figures costs q1.json all.json  # tests/data/test-costs.json: each test's core-seconds
    python -m tools.suite_figures write           # docs/SUITE.md from docs/data/suite/*.json

`record` keeps a run's summary (totals in CPU-s and core-seconds, the core's speed, CPU by kind, each folder of
tests/ with its tests, CPU-s, core-seconds and wall, the costliest tests) as docs/data/suite/<as>.json; given several
runs of one tier it keeps the median by wall and each run's headline figures. `costs` writes what
tests/project/test_tiers.py holds the quick tier to. tests/project/test_suite_figures.py checks the page is what
`write` makes of the records and that each record is well-formed.
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ROOT / "docs" / "data" / "suite"
PAGE = ROOT / "docs" / "SUITE.md"
COSTS = ROOT / "tests" / "data" / "test-costs.json"
ORDER = ("quick", "all")                    # the tiers, quick first
REQUIRED = {"tests": int, "cpu_in_tests": (int, float), "cpu_of_processes": (int, float), "by_kind": dict,
            "by_folder": dict, "counts": dict, "wall_s": (int, float), "workers": int, "costliest": list,
            "label": str, "note": str, "machine": dict, "outcomes": dict, "core_t_per_cpu_s": list,
            "core_s_in_tests": (int, float), "core_s_of_processes": (int, float), "runs": list}
TOP_TESTS = 10


class FiguresError(Exception):
    pass


def wall_from_log(text: str) -> float:
    found = re.findall(r" in ([\d.]+)s(?: \([\d:]+\))?(?: =+)?\s*$", text, re.M)
    if not found:
        raise FiguresError("no 'in N s' line of pytest's in the log")
    return float(found[-1])


def folder_of(nodeid: str) -> str:
    """The folder of tests/ a test's file is in ('tests/program/judge/test_x.py::t' -> 'program/judge')."""
    parts = nodeid.split("::")[0].split("/")
    return "/".join(parts[1:-1]) or "."


def by_folder(tests: dict[str, dict]) -> dict[str, dict]:
    """Each folder's tests, CPU-s, core-seconds and wall seconds (its tests' own, set-up to teardown)."""
    out: dict[str, dict] = {}
    for nodeid, r in tests.items():
        f = out.setdefault(folder_of(nodeid), {"tests": 0, "cpu": 0.0, "core_s": 0.0, "wall": 0.0})
        f["tests"] += 1
        f["cpu"] += r["cpu"]
        f["core_s"] += r.get("core_s", r["cpu"])
        f["wall"] += r["wall"]
    return {k: {"tests": v["tests"], "cpu": round(v["cpu"], 1), "core_s": round(v["core_s"], 1),
                "wall": round(v["wall"], 1)} for k, v in sorted(out.items())}


def record(run: dict, label: str, note: str, log: str | None, others: list[dict] = ()) -> dict:
    """A run's JSON (--cpu-json) reduced to what the page shows; *others*, more runs of the same tier, give
    their headline figures beside it (the run kept in full is the median by wall)."""
    runs = sorted([run, *others], key=lambda r: r["summary"].get("wall_s", 0.0))
    run = runs[(len(runs) - 1) // 2]
    summary = dict(run["summary"])
    if "wall_s" not in summary:
        if log is None:
            raise FiguresError("the run's JSON has no wall time: give --log (pytest's output of that run)")
        summary["wall_s"] = wall_from_log(log)
    if "core_t_per_cpu_s" not in summary:
        raise FiguresError("the run's JSON has no core speed: record a run of tests/cpu_durations.py's issue-44 kind")
    summary.setdefault("workers", max(0, len(summary.get("processes", {})) - 1))
    summary.setdefault("machine", {})
    if "outcomes" not in summary and log is not None:
        last = [line for line in log.splitlines() if re.search(r" in [\d.]+s", line)][-1:]
        summary["outcomes"] = {k: int(n) for n, k in re.findall(r"(\d+) (passed|failed|skipped|error|xfailed)",
                                                                 last[0] if last else "")}
    summary.setdefault("outcomes", {})
    ranked = sorted(run["tests"].items(), key=lambda kv: kv[1].get("core_s", kv[1]["cpu"]), reverse=True)
    summary["costliest"] = [[nodeid, r.get("core_s", r["cpu"]), r["cpu"], r["wall"],
                             max(r["by_kind"], key=r["by_kind"].get)] for nodeid, r in ranked[:TOP_TESTS]]
    summary["by_folder"] = by_folder(run["tests"])
    summary["runs"] = [{"wall_s": r["summary"]["wall_s"], "cpu_of_processes": r["summary"]["cpu_of_processes"],
                        "core_s_of_processes": r["summary"]["core_s_of_processes"],
                        "core_t_per_cpu_s": r["summary"]["core_t_per_cpu_s"]} for r in runs
                       if "wall_s" in r["summary"] and "core_s_of_processes" in r["summary"]] or \
        [{"wall_s": summary["wall_s"], "cpu_of_processes": summary["cpu_of_processes"],
          "core_s_of_processes": summary["core_s_of_processes"], "core_t_per_cpu_s": summary["core_t_per_cpu_s"]}]
    summary["label"], summary["note"] = label, note
    for gone in ("processes", "by_file"):
        summary.pop(gone, None)
    check(summary, label)
    return summary


def costs(*runs: dict) -> dict:
    """tests/data/test-costs.json: every test's core-seconds, from the first of *runs* that ran it (a run of the
    quick tier first, as `make test` runs it; then a run of both tiers for the oracles)."""
    found: dict[str, float] = {}
    walls: dict[str, float] = {}
    speeds = []
    for run in runs:
        speed = run["summary"].get("core_t_per_cpu_s")
        if not speed:
            raise FiguresError("the run's JSON has no core speed: it was not measured by tests/cpu_durations.py")
        speeds.append(speed)
        for nodeid, r in run["tests"].items():
            found.setdefault(nodeid, r["core_s"])
            walls.setdefault(nodeid, round(r["wall"], 3))
    return {"about": "every test's cost in core-seconds (a CPU second of a core at 500 M T-states per CPU-s): the "
                     "quick tier's from a run of make test, the oracles' from a run of both tiers; written by "
                     "tools/suite_figures.py costs; read by tests/project/test_tiers.py. \"wall\": each test's wall "
                     "seconds in the same run (tests/schedule.py ranks a file that waits by them)",
            "core_t_per_cpu_s": speeds, "tests": dict(sorted(found.items())), "wall": dict(sorted(walls.items()))}


def check(rec: dict, name: str) -> None:
    """A record the page can be written from: every field, of its type, and totals that add up."""
    for key, kind in REQUIRED.items():
        if key not in rec:
            raise FiguresError(f"docs/data/suite/{name}.json: no {key!r}")
        if not isinstance(rec[key], kind):
            raise FiguresError(f"docs/data/suite/{name}.json: {key!r} is a {type(rec[key]).__name__}")
    if abs(sum(rec["by_kind"].values()) - rec["cpu_in_tests"]) > 0.5 + 0.001 * rec["cpu_in_tests"]:
        raise FiguresError(f"docs/data/suite/{name}.json: the kinds add up to {sum(rec['by_kind'].values()):.1f}, "
                           f"not the tests' {rec['cpu_in_tests']}")
    folders = sum(f["cpu"] for f in rec["by_folder"].values())
    if abs(folders - rec["cpu_in_tests"]) > 0.5 + 0.001 * rec["cpu_in_tests"]:
        raise FiguresError(f"docs/data/suite/{name}.json: the folders add up to {folders:.1f}, not the tests' "
                           f"{rec['cpu_in_tests']}")
    if sum(f["tests"] for f in rec["by_folder"].values()) != rec["tests"]:
        raise FiguresError(f"docs/data/suite/{name}.json: the folders hold another count of tests than {rec['tests']}")


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


def render(records: dict[str, dict] | None = None) -> str:
    records = records if records is not None else load_records()
    out = ["# The test suite's figures", "",
           "Written by `tools/suite_figures.py` from the runs' own measurements (tests/cpu_durations.py, every",
           "run); do not edit by hand. Each tier's latest run; the history is in git. CPU-s are user+system",
           "seconds of pytest's processes and every child they waited for; a **core-second** is a CPU-s scaled to",
           "a core of 500 M T-states per CPU second, the bare core timed at the start and end of the run and of each",
           "worker (the median of those timings). The host's speed moves between runs and within one; how well the",
           "core-second follows it is shown by the runs below. Wall time follows the neighbours on a shared machine.", "",
           "## How the suite runs", "",
           "- **Two tiers; the tier is the folder** (tests/tiers.py). `make test` runs every folder of tests/ but",
           "  tests/oracles/: the quick loop, on a machine with nothing beyond python3-venv and make (its tests see",
           "  no Debian tool; one that starts a program not Python, or skips, fails). `make test-all` installs",
           "  the Debian tools and runs both; CI runs it. One folder: `.venv/bin/pytest tests/program/judge`.",
           "- tests/ mirrors harness/: spectrum, cribbage, program/{records,model,observe,judge,runs}, edition, play,",
           "  bench, web, runtime, commands, project (the house: layers, docs, errors, names, tiers) and oracles",
           "  (emulators, cores, window, browser, dask, tools, games).",
           "- The quick tier is chosen by measurement: tests/data/test-costs.json holds every test's core-seconds",
           "  (`tools/suite_figures.py costs`); a quick-tier test above 2 core-seconds fails",
           "  tests/project/test_tiers.py unless it is named there with its reason.",
           "- Both cores (pytest-xdist, `--dist loadfile`); tapes and games several files read are made once per",
           "  run for every worker (tests/game_store.py).", ""]
    for name in records:
        r = records[name]
        out += [f"## {r['label']}", "", r["note"], "",
                "| tests | passed / failed / skipped | CPU-s (in the tests) | core-seconds (in the tests) | wall | "
                "core, M T-states per CPU-s (median; range of its timings) | workers; load at the end |",
                "| ---: | --- | ---: | ---: | ---: | --- | --- |",
                f"| {r['tests']:,} | " + " / ".join(str(r["outcomes"].get(k, 0)) for k in ("passed", "failed", "skipped"))
                + f" | {r['cpu_of_processes']:,.1f} ({r['cpu_in_tests']:,.1f}) | {r['core_s_of_processes']:,.1f} "
                f"({r['core_s_in_tests']:,.1f}) | {r['wall_s']:,.0f} s | "
                + f"{statistics.median(r['core_t_per_cpu_s']) / 1e6:.0f} ({min(r['core_t_per_cpu_s']) / 1e6:.0f}-"
                f"{max(r['core_t_per_cpu_s']) / 1e6:.0f}, {len(r['core_t_per_cpu_s'])} timings)"
                + f" | {r['workers']}; {r['machine'].get('load_at_end', '?')} |", ""]
        if len(r["runs"]) > 1:
            walls = [x["wall_s"] for x in r["runs"]]
            cores = [x["core_s_of_processes"] for x in r["runs"]]
            out += [f"{len(r['runs'])} runs: wall " + ", ".join(f"{w:.0f}" for w in walls)
                    + f" s (median {statistics.median(walls):.0f} s); core-seconds "
                    + ", ".join(f"{c:.1f}" for c in cores) + f" (median {statistics.median(cores):.1f}); "
                    "the figures above are the median run's.", ""]
        out += ["| folder | tests | CPU-s | core-seconds | wall s (its tests') |", "| --- | ---: | ---: | ---: | ---: |"]
        for folder, f in r["by_folder"].items():
            out.append(f"| {folder} | {f['tests']:,} | {f['cpu']:,.1f} | {f['core_s']:,.1f} | {f['wall']:,.1f} |")
        out += ["", "Where the CPU went: " + ", ".join(f"{k} {v:,.1f}" for k, v in r["by_kind"].items() if v >= 1.0)
                + ".", "",
                f"The {len(r['costliest'])} costliest tests:", "",
                "| core-s | CPU-s | wall s | test | mostly |", "| ---: | ---: | ---: | --- | --- |"]
        for nodeid, core_s, cpu, wall, kind in r["costliest"]:
            out.append(f"| {core_s:,.2f} | {cpu:,.2f} | {wall:,.1f} | `{nodeid}` | {kind} |")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="step", required=True)
    rec = sub.add_parser("record", help="keep a run's figures as docs/data/suite/<as>.json")
    rec.add_argument("run", type=Path, nargs="+", help="the JSON pytest --cpu-json wrote (several runs of one tier)")
    rec.add_argument("--as", dest="name", required=True, choices=ORDER, help="the tier")
    rec.add_argument("--label", help="the column's title (default: the name)")
    rec.add_argument("--note", default="", help="one sentence on how the run was made (machine, load, commit)")
    rec.add_argument("--log", type=Path, help="pytest's output of the run, for a JSON without the wall time")
    sub.add_parser("write", help="write docs/SUITE.md from docs/data/suite/*.json")
    cost = sub.add_parser("costs", help="write tests/data/test-costs.json from a run of both tiers")
    cost.add_argument("run", type=Path, nargs="+", help="the JSON pytest --cpu-json wrote: a quick run, then one of both tiers")
    args = parser.parse_args(argv)
    try:
        if args.step == "record":
            run, *others = [json.loads(path.read_text(encoding="utf-8")) for path in args.run]
            log = args.log.read_text(encoding="utf-8", errors="replace") if args.log else None
            summary = record(run, args.label or args.name, args.note, log, others)
            RECORDS.mkdir(parents=True, exist_ok=True)
            from harness.runtime.atomic import write_text
            write_text(RECORDS / f"{args.name}.json", json.dumps(summary, indent=1, sort_keys=True) + "\n")
            print(f"docs/data/suite/{args.name}.json")
        elif args.step == "costs":
            from harness.runtime.atomic import write_text
            runs = [json.loads(path.read_text(encoding="utf-8")) for path in args.run]
            write_text(COSTS, json.dumps(costs(*runs), indent=1) + "\n")
            print("tests/data/test-costs.json")
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
