"""`make mutation`: the mutation score of every module that decides or counts, with mutmut.

The modules (MODULES below): the comparison (compare.py), the deviation rules (deviations.py), the
judgements of the pictures (screen_judgements.py) and the screen reader that feeds them (picture.py),
the record every view reads (judgements.py), the strength figures (study.py and strength.py's figures),
the fairness checks (fairness.py), the coverage and the reach check of `regress --thorough`
(coverage.py, commands/regress.py's reach_lost and exit_status), the sweep's detection (sweep.py:
running a case against the engine, grouping the disagreements; commands/sweep.py: the exit status); and
(issue 51) the checks of the round after: the watch mode's frames file (frames.py) and the page against the
machine (web/compare.py), the RZX player's refusals (recording.py), a reading's verdict and --resume
(readings.py), the lockstep's and the conformance oracle's comparison, zx's refusal passed on (emulators.py)
and build --check-pack (pack.py). A module with a function that returns differences, verdicts or refusals
and is in none of them is in NOT_MUTATED with its reason (tests/project/test_mutation_set.py holds that).
Their mutants are run against the tests named in pyproject.toml [tool.mutmut] (no emulator but the quick
oracle tests of the lockstep and zx, which start z80-python and zx on a few thousand instructions).

`--module NAME` (repeatable) runs one module's mutants, the default all of them; `--children N` runs N
mutants at once (both cores: `--children 2`). Prints each module's score and its surviving mutants
(`mutmut show NAME` shows a diff) and exits 1 when a module is below the goal (95 %), 2 if mutmut fails
or overruns its budget. A surviving mutant argued equivalent in tools/mutation_equivalents.toml (its
mutated line and the reason it cannot change behaviour) counts as argued, not as killed; an argument
whose line no longer matches the mutant is stale and does not count. Each module's figures are kept in
docs/data/mutation.json and docs/MUTATION.md is written from them. Each module runs in its own copy
of the checkout, build/mutation/NAME/ (rebuilt each run; `mutmut show` works there).
"""
from __future__ import annotations

import argparse
import ast
import fnmatch
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from harness.runtime.atomic import write_text  # the checkout's own atomic writer

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Module:
    file: str                       # under harness/
    patterns: tuple[str, ...]       # mutmut's names of the mutants in the score
    what: str


def _all(dotted: str) -> tuple[str, ...]:
    return (f"{dotted}.*",)


def _functions(dotted: str, *names: str) -> tuple[str, ...]:
    return tuple(f"{dotted}.x_{n}__mutmut_*" for n in names)


MODULES: dict[str, Module] = {
    "compare": Module("program/judge/compare.py", _all("harness.program.judge.compare"), "the comparison of program and engine"),
    "screen_checks": Module("program/judge/screen_checks.py", _all("harness.program.judge.screen_checks"),
                            "the text screens' checks (compare.py's until issue 50)"),
    "deviations": Module("program/judge/deviations.py", _all("harness.program.judge.deviations"), "the deviation rules"),
    "screen_judgements": Module("program/judge/screen_judgements.py", _all("harness.program.judge.screen_judgements"),
                                "the judgements of the pictures"),
    "picture": Module("program/observe/picture.py", _all("harness.program.observe.picture"), "the screen reader"),
    "judgements": Module("program/judge/judgements.py", _all("harness.program.judge.judgements"), "the record every view reads"),
    "study": Module("program/runs/study.py", _all("harness.program.runs.study"), "the strength figures of a match"),
    # strength.py's figures (the rest drives the machine and writes the page)
    "strength": Module("program/runs/strength.py", _functions("harness.program.runs.strength", "engine_figures", "band_overlap",
                                                       "first_dealer_check", "ladder", "_placed", "verdict",
                                                       "crib_validation"), "the strength figures"),
    # fairness.py's counting and testing (the rest plays or reads the games)
    "fairness": Module("program/runs/fairness.py", ("harness.program.runs.fairness.xǁSamplesǁ*",
                                            *_functions("harness.program.runs.fairness", "games_of", "collect", "chi_square",
                                                        "analyse", "classify_flags")), "the fairness checks"),
    "coverage": Module("program/runs/coverage.py", _all("harness.program.runs.coverage"), "the coverage of a run"),
    "reach": Module("commands/regress.py", _functions("harness.commands.regress", "reach_lost", "exit_status"),
                    "the reach check of --thorough"),
    # sweep.py: the summary that groups the disagreements and reports them
    "sweep": Module("program/runs/sweep.py", _functions("harness.program.runs.sweep", "summarise", "_basic_coverage"),
                    "the sweep's detection: its summary"),
    # sweep_chunks.py (split from sweep.py in issue 50): a case run against the engine, a chunk read back, its causes
    "sweep chunks": Module("program/runs/sweep_chunks.py", _functions("harness.program.runs.sweep_chunks", "items_sha",
                                                                     "_run_show", "_run_play", "read_chunk",
                                                                     "_good_disagreement", "causes_of", "weight_of"),
                           "the sweep's detection: each case, each chunk"),
    "sweep command": Module("commands/sweep.py", _functions("harness.commands.sweep", "execute"),
                            "the sweep's exit status"),
    # issue 51: the checks added in the round before (the watch page, the RZX player, readings, the oracles, the pack)
    "frames": Module("program/records/frames.py", _all("harness.program.records.frames"),
                     "the watch mode's clock: each event's frame, read and refused"),
    "watch compare": Module("web/compare.py", _functions("harness.web.compare", "checkpoint_frames", "watch_differences",
                                                         "differences", "page_checkpoints"),
                            "the watch page against the machine"),
    "rzx player": Module("spectrum/recording.py", ("harness.spectrum.recording.xǁRzxPlayerǁ*",),
                         "the RZX player: a recording refused where it is not this machine's"),
    # compare_game's and resume's parts split out in issue 50 (_stops ... _moments, _check_resumable ... _merged)
    "readings": Module("program/runs/readings.py", _functions("harness.program.runs.readings", "_drawn_only", "compare_game",
                                                              "_stops", "_play_differences", "_moments", "_rows",
                                                              "_picture_change", "verdict", "check", "left_by_budget",
                                                              "resume", "_check_resumable", "_check_same_games",
                                                              "_merged"), "a reading's verdict and --resume"),
    "lockstep": Module("oracle/lockstep.py", ("harness.oracle.lockstep.xǁLockstepCoreǁ_compare__mutmut_*",
                                              "harness.oracle.lockstep.xǁLockstepCoreǁ_known_f__mutmut_*",
                                              *_functions("harness.oracle.lockstep", "opcode_name")),
                       "the lockstep's comparison after each instruction"),
    "conformance": Module("oracle/conformance.py", ("harness.oracle.conformance.xǁKnownǁexplains__mutmut_*",
                                                    *_functions("harness.oracle.conformance", "judge")),
                          "the conformance oracle's verdict"),
    "emulators": Module("oracle/emulators.py", _functions("harness.oracle.emulators", "zx_play_rzx", "_zx"),
                        "zx's recording played, its refusal passed on"),
    "pack check": Module("program/runs/pack.py", _functions("harness.program.runs.pack", "verify", "_entries",
                                                            "_an_earlier_pack"), "build --check-pack"),
}
#: modules with a function that returns differences, verdicts or refusals (deciding_modules finds them) kept out
#: of the mutated set, each with the reason; tests/project/test_mutation_set.py holds the two lists to the tree
NOT_MUTATED: dict[str, str] = {
    "cribbage/rules.py": "Rules.differences names the fields two presets differ in, for the pages' words; "
                         "the engine's scoring is proven by tests/test_cribbage_*.py against the article",
    "edition/notes.py": "the parser of basic/RECONSTRUCTION.md's entries: its problems are form, each a test "
                        "of tests/test_ocr_diff.py; it judges no game",
    "edition/game_page.py": "renders stored judgements (difference_view, _by_action): a view, deciding nothing",
    "edition/run_records.py": "GameRecords.under picks a game's stored judgements of one rule set: read, "
                               "not decided",
    "edition/site.py": "meaning_problems: the edition's variable descriptions against the listing "
                       "(tests/test_variables_map.py); no game",
    "play/referee.py": "the play window's words for a judgement made by compare.py (mutated): a view",
    "program/model/findings.py": "finding_for looks a report up in the FINDINGS table; the table is the decision",
    "program/observe/observer.py": "_on_refused records the program's own refusal as an event: what the program "
                                   "did, judged by compare.py (mutated)",
    "program/runs/regress.py": "sums the stored judgements into report.json (counts_of_judgements): counted, "
                               "not decided; the reach check of --thorough is commands/regress.py (mutated)",
    "program/runs/regress_report.py": "report.json's record; counts_of_judgements sums the stored judgements: "
                                      "counted, not decided",
    "runtime/outdir.py": "refuses run folders that are not its own (tests/test_harden_*.py, test_pack_folder.py "
                         "plant each refusal); not yet mutated: its tests write folders and run commands",
    "spectrum/romcheck.py": "the ROM's own syntax check of each line: the ROM decides, this module types",
}
#: what deciding_modules looks for: a function named for differences, a verdict or a refusal, or returning one
DECIDING_NAME = r"(^|_)(differences?|verdicts?|verify|refus\w*|judge\w*|compare\w*|diverg\w*|mismatch\w*|problems|unexplained)(_|$)"
DECIDING_RETURN = r"\b(\w*Finding|\w*Difference|Divergence|\w*Verdict|Consequence|Judgement)\b"


def deciding_modules(package: Path) -> dict[str, list[str]]:
    """Each module of *package* (path relative to it) with the functions that return differences, verdicts or
    refusals: named so (DECIDING_NAME), or annotated to return one (DECIDING_RETURN)."""
    import ast
    import re
    name, returns = re.compile(DECIDING_NAME), re.compile(DECIDING_RETURN)
    out: dict[str, list[str]] = {}
    for path in sorted(package.rglob("*.py")):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        except (OSError, SyntaxError, UnicodeDecodeError) as exc:
            raise SystemExit(f"mutation: {path}: {exc}") from None
        hits = [node.name for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                and (name.search(node.name) or (node.returns is not None and returns.search(ast.unparse(node.returns))))]
        if hits:
            out[path.relative_to(package).as_posix()] = hits
    return out


def unaccounted(package: Path, mutated: set[str], reasons: dict[str, str]) -> dict[str, list[str]]:
    """The deciding modules in neither the mutated set nor *reasons* (with a reason that says something)."""
    return {f: fns for f, fns in deciding_modules(package).items()
            if f not in mutated and len(reasons.get(f, "").split()) < 3}


def stale_patterns(package: Path, modules: dict[str, Module]) -> list[str]:
    """The mutant patterns of *modules* naming a function, class or method their file does not define (a
    function moved by a split leaves its row scoring nothing)."""
    stale = []
    for name, m in modules.items():
        path = package / m.file
        tree = ast.parse(path.read_text(encoding="utf-8")) if path.is_file() else ast.Module(body=[], type_ignores=[])
        defined = {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
        for pattern in m.patterns:
            tail = pattern.rsplit(".", 1)[-1]
            method = re.fullmatch(r"xǁ(\w+)ǁ(?:(\w+?)__mutmut_)?\*", tail)      # xǁClassǁ* or xǁClassǁname__mutmut_*
            function = re.fullmatch(r"x_(\w+?)__mutmut_\*", tail)
            whole = () if tail == "*" else (tail,)                                      # a module's every mutant
            wanted = [w for w in (method.groups() if method else function.groups() if function else whole) if w]
            if not path.is_file() or any(w not in defined for w in wanted):
                stale.append(f"{name}: {pattern}")
    return stale


KILLED = {1, 3, 24, -24, 152, 255, 36}     # a failing test; a timeout (the mutant hangs the tests)
NOT_COUNTED = {34, 37}                    # skipped; caught by a type checker (not used here)
GOAL = 95.0
#: scores recorded before this tool ran the module (issue 36), shown until it has been run here
EARLIER = {"compare": "89.6 % (the old set, before issue 36)", "deviations": "97.6 % (the old set)",
           "sweep": "91.8 % (the old set, sweep and its command together)",
           "screen_judgements": "72.6 % (one partial run, the old set)"}
EQUIVALENTS = ROOT / "tools" / "mutation_equivalents.toml"
OVERRUN: set[str] = set()                 # modules whose run was stopped at its budget (a partial score)
RESULTS = ROOT / "docs" / "data" / "mutation.json"
PAGE = ROOT / "docs" / "MUTATION.md"


def mutmut_path() -> Path:
    return Path(sys.executable).with_name("mutmut")


WORK = ROOT / "build" / "mutation"
COPIED = ("harness", "tests", "basic", "roms", "tools", "docs", "pyproject.toml", "setup.py")


def workdir(name: str) -> Path:
    return WORK / name.replace(" ", "_")


def prepare(name: str) -> Path:
    """A copy of the checkout for one module's run, its pyproject's only_mutate set to that module alone
    (mutmut reads its settings from pyproject.toml only; generating every module's mutants for each run
    would cost minutes)."""
    work = workdir(name)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache")
    for item in COPIED:
        src = ROOT / item
        if src.is_dir():
            shutil.copytree(src, work / item, ignore=ignore)
        else:
            shutil.copy2(src, work / item)
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    start = text.index("only_mutate = [")
    end = text.index("]", start) + 1
    (work / "pyproject.toml").write_text(text[:start] + f'only_mutate = ["harness/{MODULES[name].file}"]' + text[end:],
                                         encoding="utf-8")
    return work


def run_mutmut(name: str, children: int, budget_s: float, only: list[str] | None = None, fresh: bool = True) -> Path:
    work = prepare(name) if fresh else workdir(name)
    log = work / ("run.log" if fresh else "run-more.log")
    cmd = [str(mutmut_path()), "run", "--max-children", str(children), *(only or MODULES[name].patterns)]
    with open(log, "w", encoding="utf-8") as out:
        proc = subprocess.Popen(cmd, cwd=work, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            code = proc.wait(timeout=budget_s)
        except (subprocess.TimeoutExpired, KeyboardInterrupt) as exc:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait()
            if isinstance(exc, KeyboardInterrupt):
                raise
            print(f"mutation: {name}: mutmut ran past its budget of {budget_s:.0f} s and was stopped (log: {log}); "
                  "the mutants it did not reach count as not killed ('not run')", file=sys.stderr)
            OVERRUN.add(name)
            return log
    if code != 0:
        raise SystemExit(f"mutation: {name}: mutmut exited with status {code} (log: {log})")
    return log


def results(name: str) -> dict[str, int | None]:
    """Exit code of every mutant of *name* in the score (after --again, the run's merged with the one before)."""
    module = MODULES[name]
    merged = workdir(name) / "codes.json"
    if merged.is_file():
        return json.loads(merged.read_text(encoding="utf-8"))
    meta = workdir(name) / "mutants" / "harness" / f"{module.file}.meta"
    try:
        codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
    except (OSError, ValueError, KeyError) as exc:
        raise SystemExit(f"mutation: {meta}: no results ({exc}); run it first") from None
    return {k: v for k, v in codes.items() if any(fnmatch.fnmatch(k, p) for p in module.patterns)}


def load_equivalents(path: Path = EQUIVALENTS) -> dict[str, dict[str, str]]:
    """mutant name -> {"line": its mutated line, "reason": why it cannot change behaviour}."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise SystemExit(f"mutation: {path}: {exc}") from None
    out = {}
    for i, entry in enumerate(data.get("equivalent", [])):
        missing = [k for k in ("mutant", "line", "reason") if not str(entry.get(k, "")).strip()]
        if missing:
            raise SystemExit(f"mutation: {path}: equivalent #{i + 1} lacks {', '.join(missing)}")
        out[entry["mutant"]] = {"line": entry["line"], "reason": entry["reason"]}
    return out


def mutated_lines(module: str, name: str) -> list[str]:
    """The lines mutmut's diff of mutant *name* adds (stripped)."""
    diff = subprocess.run([str(mutmut_path()), "show", name], cwd=workdir(module), capture_output=True, text=True, timeout=120)
    return [ln[1:].strip() for ln in diff.stdout.splitlines() if ln.startswith("+") and not ln.startswith("+++")]


def score_module(module: str, codes: dict[str, int | None], argued: dict[str, dict[str, str]]) -> dict:
    counted = {k: v for k, v in codes.items() if v not in NOT_COUNTED}
    killed = sorted(k for k, v in counted.items() if v in KILLED)
    left = sorted(k for k, v in counted.items() if v not in KILLED and v is not None)    # None: not run
    equivalent, stale, survived = [], [], []
    for k in left:
        claim = argued.get(k)
        if claim is not None and counted[k] == 0:
            if claim["line"].strip() in mutated_lines(module, k):
                equivalent.append(k)
            else:
                stale.append(k)
                survived.append(k)
        else:
            survived.append(k)
    statuses = Counter("killed" if v in KILLED else "survived" if v == 0 else "no tests" if v in (5, 33)
                       else "not run" if v is None else f"exit {v}" for v in counted.values())
    n = len(counted)
    ran = sum(1 for v in counted.values() if v is not None)
    return {"mutants": n, "ran": ran, "killed": len(killed), "equivalent": len(equivalent), "survived": len(survived),
            "score": round(100 * (len(killed) + len(equivalent)) / max(1, n), 1),
            "statuses": dict(sorted(statuses.items())), "surviving": survived, "stale_arguments": stale,
            "equivalents": equivalent}


def print_module(name: str, s: dict) -> None:
    print(f"{name:18s} {s['killed']:4d} killed + {s['equivalent']:3d} argued / {s['mutants']:4d}  "
          f"({s['score']:.1f} %)  {s['statuses']}")
    for k in s["surviving"]:
        print(f"    not killed: {k}" + ("   (stale argument: its line changed)" if k in s["stale_arguments"] else ""))


def load_results() -> dict:
    try:
        return json.loads(RESULTS.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise SystemExit(f"mutation: {RESULTS}: {exc}") from None


def commit() -> str:
    r = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    return r.stdout.strip() or "unknown"


def page(results: dict, argued: dict[str, dict[str, str]]) -> str:
    lines = ["# Mutation score of the detectors", "",
             "Written by `python tools/mutation.py` (`make mutation`) from docs/data/mutation.json: each module's last",
             "run. A mutant is *killed* when a test of the fast set fails against it, *argued* when",
             "tools/mutation_equivalents.toml shows that it cannot change behaviour (the reason is below).",
             f"The goal is {GOAL:.0f} % a module, killed and argued together. *run (s)* is the wall time of",
             "mutmut on a shared two-core machine; `+ N (M again)` a later `--again` run of the M not killed.", "",
             "| module | what | mutants | killed | survived | argued | score | run (s) | children | commit |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for name, module in MODULES.items():
        r = results.get(name)
        if r is None:
            earlier = f"; earlier {EARLIER[name]}" if name in EARLIER else ""
            lines.append(f"| {name} | {module.what} | not run{earlier} | | | | | | | |")
            continue
        run = f"{r['seconds']:.0f}" + (" (stopped at its budget: partial)" if r.get("partial") else "")
        if r.get("again"):
            run += f" + {r['again']['seconds']:.0f} ({r['again']['rerun']} again)"
        score = f"{r['score']:.1f} %"
        if r.get("ran", r["mutants"]) < r["mutants"]:
            of_run = 100 * (r["killed"] + r["equivalent"]) / max(1, r["ran"])
            score += f" ({of_run:.1f} % of the {r['ran']} run; {r['mutants'] - r['ran']} not run)"
        lines.append(f"| {name} | {module.what} | {r['mutants']} | {r['killed']} | {r['survived']} | "
                     f"{r['equivalent']} | {score} | {run} | {r['children']} | {r['commit']} |")
    surviving = [(name, k) for name, r in results.items() for k in r.get("surviving", [])]
    if surviving:
        lines += ["", "## Not killed", "", "`mutmut show NAME` shows each diff.", ""]
        lines += [f"- {name}: `{k}`" for name, k in surviving]
    eq = [(name, k) for name, r in results.items() for k in r.get("equivalents", [])]
    if eq:
        lines += ["", "## Equivalent mutants, argued", ""]
        for name, k in eq:
            claim = argued.get(k, {})
            lines.append(f"- {name}: `{k}`: `{claim.get('line', '?')}`: {claim.get('reason', '?')}")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.mutation", description=__doc__.splitlines()[0])
    ap.add_argument("--module", action="append", choices=sorted(MODULES), metavar="NAME",
                    help=f"a module to mutate (repeatable; default all): {', '.join(MODULES)}")
    ap.add_argument("--children", "--max-children", type=int, default=os.cpu_count() or 2,
                    help="mutants run at once (default: one a core)")
    ap.add_argument("--budget", type=float, default=3600, help="seconds mutmut may take before it is stopped")
    ap.add_argument("--goal", type=float, default=GOAL, help="the score (per cent) a module must reach")
    ap.add_argument("--report-only", action="store_true", help="score the last run of each module again (build/mutation/NAME), not run")
    ap.add_argument("--again", action="store_true",
                    help="run again only the mutants the last run of each module did not kill (after tests were added; "
                         "the killed stay killed) and merge the results")
    args = ap.parse_args(argv)
    if args.children < 1:
        ap.error("--children must be at least 1")
    names = args.module or list(MODULES)
    argued = load_equivalents()
    kept = load_results()
    low = []
    for name in names:
        seconds = None
        again = None
        if args.again:
            before = results(name)
            left = sorted(k for k, v in before.items() if v not in KILLED and v not in NOT_COUNTED)
            started = time.monotonic()
            codes = dict(before)
            if left:
                run_mutmut(name, args.children, args.budget, only=left)
                fresh = results(name)
                if not set(before) <= set(fresh):
                    raise SystemExit(f"mutation: {name}: mutants of the last run are gone (the module was edited): "
                                     "run it whole, without --again")
                new = sorted(set(fresh) - set(before))     # lines the added tests reach for the first time
                if new and name in OVERRUN:                # the budget is spent: they stay out of this score
                    print(f"{name}: {len(new)} mutants of lines the added tests reach not run (the budget is spent)")
                    new = []
                if new:
                    print(f"{name}: {len(new)} mutants of lines the added tests reach run too")
                    run_mutmut(name, args.children, args.budget, only=new, fresh=False)
                    fresh = results(name)
                    left += new
                codes |= {k: fresh[k] for k in left}
            write_text(workdir(name) / "codes.json", json.dumps(codes, indent=0) + "\n")
            again = {"rerun": len(left), "seconds": round(time.monotonic() - started, 1)}
            print(f"{name}: {len(left)} mutants not killed before run again in {again['seconds']:.0f} s")
        elif not args.report_only:
            started = time.monotonic()
            log = run_mutmut(name, args.children, args.budget)
            seconds = time.monotonic() - started
            print(f"{name}: mutmut {seconds:.0f} s with {args.children} children (log: {log.relative_to(ROOT)})")
        if args.report_only and not (workdir(name) / "mutants").is_dir():
            print(f"{name}: not run (no build/mutation/{workdir(name).name}/mutants)")
            continue
        s = score_module(name, results(name), argued)
        print_module(name, s)
        if s["score"] < args.goal:
            low.append(name)
        previous = kept.get(name, {})
        if name in OVERRUN or (seconds is None and again is None and previous.get("partial")):
            s["partial"] = True
        if again is not None:
            s["again"] = again
        elif seconds is None and "again" in previous:
            s["again"] = previous["again"]
        kept[name] = s | {"seconds": round(seconds if seconds is not None else previous.get("seconds", 0), 1),
                          "children": args.children if seconds is not None else previous.get("children", 0),
                          "commit": commit() if seconds is not None else previous.get("commit", commit())}
        write_text(RESULTS, json.dumps({k: kept[k] for k in MODULES if k in kept}, indent=1, ensure_ascii=False)
                   + "\n")
        write_text(PAGE, page(kept, argued))
    if low:
        print(f"\nmutation: below {args.goal:.0f} %: {', '.join(low)}")
    if OVERRUN:
        print(f"mutation: stopped at the budget (a partial score): {', '.join(sorted(OVERRUN))}")
        return 2
    return 1 if low else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
