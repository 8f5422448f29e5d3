"""The suite's CPU measure (issues 23 and 37): which tests cost the most CPU time, and on what.

`pytest --cpu-durations=N`: the N tests that cost the most CPU time (0: all).
`pytest --cpu-table`: where the run's CPU went, grouped by what it was spent on (below).
`pytest --cpu-json=PATH`: every test's figures and the run's totals as JSON (tools/suite_figures.py
writes docs/SUITE.md from it).

Every run ends with one line of its cost: its tests' CPU-s, wall seconds, and **core-seconds**, the CPU-s scaled
to a reference core of 500 M T-states per CPU second (`REFERENCE_CORE`). The bare core is timed on the BASIC
benchmark (harness.bench.machine.bench_core, a fifth of a CPU second) at the start and the end of the run and of
every xdist worker, and the median of those timings is the run's core speed: the host's speed moved by a
quarter and more between runs of the same tree (issue 44), and within one run (one timing at 354 M, the next
at 595 M), so one or two timings are not enough. `--cpu-json` keeps both speeds and every test's core-seconds.

pytest's --durations is wall time, which follows the neighbours on a shared machine; this is the
process's user+system time plus that of its children waited for (Fuse, Xvfb, `play`, subprocess
commands), for each test's set-up, call and teardown together. A session fixture's cost lands on the
first test that asks for it.

What the CPU is spent on. In this process: time inside the emulator's frame loop (`Spectrum48.run_frame`
and `take_interrupt`, the only two ways into the CPU: games played, boots, loads; the statement hooks that observe a game run inside it),
inside `harness.program.model.build.build` (a tape built, the ROM's acceptance check included) and inside
matplotlib's `savefig` (plots drawn); the rest is "python" (the tests' own code, judging, pages). A
child's CPU is put under the kinds of process the test started (`subprocess.Popen`: fuse, chromium,
Xvfb, a `cribbage-zx` command, mypy, pip...; a multiprocessing pool; a Dask LocalCluster), several kinds
joined by "+". The counts (games played, builds, processes started) are kept beside the seconds.

Under pytest-xdist each worker measures its own tests and writes them to a file beside the controller's
(`--cpu-json`, or a temporary folder when only the tables are asked for); the controller reads them all
and prints the tables for the whole run, with each worker process's total (start-up and collection
included) and its own.
"""
from __future__ import annotations

import functools
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

import pytest

_spent: dict[str, float] = {}
_records: dict[str, dict] = {}

# --------------------------------------------------------------------------- the meters


def cpu_seconds() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _own_and_children() -> tuple[float, float]:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


class _Meter:
    """CPU seconds inside the wrapped functions, by kind; a call inside another measured call counts once,
    for the outermost (a build's acceptance check runs the emulator: that is the build's)."""

    def __init__(self) -> None:
        self.seconds: Counter[str] = Counter()
        self.calls: Counter[str] = Counter()
        self.children: Counter[str] = Counter()     # processes (or pools, clusters) started, by kind
        self._depth = 0

    def wrap(self, kind: str, fn, count: str | None = None):
        meter = self

        @functools.wraps(fn)
        def measured(*args, **kwargs):
            if count:
                meter.calls[count] += 1
            if meter._depth:
                return fn(*args, **kwargs)
            meter._depth += 1
            start = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                meter.seconds[kind] += time.process_time() - start
                meter._depth -= 1
        measured.__cpu_meter__ = True
        return measured

    def take(self) -> tuple[Counter, Counter, Counter]:
        taken = self.seconds, self.calls, self.children
        self.seconds, self.calls, self.children = Counter(), Counter(), Counter()
        return taken


_meter = _Meter()

# argv[0]'s name -> the kind of process it is
_PROCESS_KINDS = (("fuse", "fuse"), ("chromium", "chromium"), ("chrome", "chromium"), ("node", "chromium"),
                  ("playwright", "chromium"), ("xvfb", "xvfb"), ("cribbage-zx", "command"), ("mypy", "mypy"),
                  ("pip", "pip/wheel"), ("git", "git"), ("xdotool", "xdotool"), ("xwd", "xwd"),
                  ("python", "python"))
_EXACT_KINDS = {"dot": "graphviz"}          # by its whole name: "dot" is in "xdotool" too (issue 37's "903 dot starts")


def process_kind(argv) -> str:
    """The kind of a process from its argv (a list or a string): `python -m harness` is a command too."""
    words = [str(w) for w in ([argv] if isinstance(argv, (str, bytes, os.PathLike)) else list(argv))]
    if not words:
        return "other"
    name = os.path.basename(words[0].split()[0] if isinstance(argv, str) else words[0]).lower()
    if name.startswith("python") and len(words) > 2 and words[1] == "-m":
        module = words[2]
        return {"harness": "command", "harness.cli": "command", "pytest": "pytest", "mypy": "mypy",
                "pip": "pip/wheel", "build": "pip/wheel"}.get(module, "python")
    if name in _EXACT_KINDS:
        return _EXACT_KINDS[name]
    for part, kind in _PROCESS_KINDS:
        if part in name:
            return kind
    return "other"


def _install_meters() -> None:
    """Wrap the few places CPU is spent on (once per process; a function already wrapped is left)."""
    import subprocess

    def wrap_attr(owner, name, kind, count=None):
        fn = getattr(owner, name, None)
        if fn is not None and not getattr(fn, "__cpu_meter__", False):
            setattr(owner, name, _meter.wrap(kind, fn, count))

    try:                                     # the project's own, imported now: before any test module names them
        from harness.spectrum.machine import Spectrum48
        from harness.program.model import build
        from harness.program.observe import driver
    except ImportError:                      # the plugin used outside this project
        pass
    else:
        wrap_attr(Spectrum48, "run_frame", "emulator")
        wrap_attr(Spectrum48, "take_interrupt", "emulator")
        wrap_attr(build, "build", "build", count="builds")
        wrap_attr(driver.GameDriver, "play", "emulator", count="games played")
    _install_lazy_meters()

    popen_init = subprocess.Popen.__init__
    if not getattr(popen_init, "__cpu_meter__", False):
        @functools.wraps(popen_init)
        def counted_popen(self, args, *rest, **kwargs):
            _meter.children[process_kind(args)] += 1
            return popen_init(self, args, *rest, **kwargs)
        counted_popen.__cpu_meter__ = True
        subprocess.Popen.__init__ = counted_popen

    import concurrent.futures
    import multiprocessing.pool
    _count_starts(multiprocessing.pool.Pool, "process pool")
    _count_starts(concurrent.futures.ProcessPoolExecutor, "process pool")


def _count_starts(cls, kind: str) -> None:
    """Count each *cls* made (a pool, a cluster) as a child of *kind* started by the running test."""
    init = cls.__init__
    if getattr(init, "__cpu_meter__", False):
        return

    @functools.wraps(init)
    def counted(self, *args, **kwargs):
        _meter.children[kind] += 1
        return init(self, *args, **kwargs)
    counted.__cpu_meter__ = True
    cls.__init__ = counted


def _install_lazy_meters() -> None:
    """matplotlib's savefig and Dask's clusters, wrapped once a test has imported them (at every test's start:
    importing them here would cost a run that never uses them seconds)."""
    figure = sys.modules.get("matplotlib.figure")
    if figure is not None and not getattr(figure.Figure.savefig, "__cpu_meter__", False):
        figure.Figure.savefig = _meter.wrap("plots", figure.Figure.savefig, count="plots")
    spec = sys.modules.get("distributed.deploy.spec")
    if spec is not None:
        _count_starts(spec.SpecCluster, "dask cluster")


# --------------------------------------------------------------------------- pytest's hooks


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--cpu-durations", type=int, default=None, metavar="N",
                     help="show the N tests with the most CPU time (this process and its children; 0: all)")
    parser.addoption("--cpu-table", action="store_true", default=False,
                     help="show where the run's CPU time went: emulator, builds, plots, subprocesses by kind")
    parser.addoption("--cpu-json", default=None, metavar="PATH",
                     help="write every test's CPU time (by kind) and the run's totals to PATH as JSON")


def _asked(config: pytest.Config) -> bool:
    """Every run measures its tests (the closing line of every run says what it cost); the options only choose
    what is printed or kept."""
    return True


#: the reference core: a core-second is a CPU second of a core running 500 M T-states per CPU second
REFERENCE_CORE = 500e6
_core: dict[str, float] = {}


def time_the_core() -> float:
    """The bare core's speed now, in T-states per CPU second (the BASIC benchmark, about 0.3 CPU-s)."""
    from harness.bench.machine import bench_core
    return bench_core(frames=200, repeat=3)


def core_seconds(cpu_s: float, speeds: list[float]) -> float:
    """*cpu_s* CPU seconds in core-seconds, for a core timed at *speeds* (their median) during the run."""
    import statistics
    return cpu_s * statistics.median(speeds) / REFERENCE_CORE


def _worker_id(config: pytest.Config) -> str | None:
    return getattr(config, "workerinput", {}).get("workerid")


def _share_folder(config: pytest.Config) -> Path:
    """Where the workers leave their figures for the controller (one folder per run)."""
    if hasattr(config, "workerinput"):
        return Path(config.workerinput["cpu_durations_share"])
    return Path(config._cpu_durations_share)


_started = {"wall": time.monotonic()}


def pytest_sessionstart(session: pytest.Session) -> None:
    _started["wall"] = time.monotonic()
    _core["start"] = time_the_core()


def pytest_configure(config: pytest.Config) -> None:
    if not _asked(config):
        return
    _install_meters()
    if not hasattr(config, "workerinput"):
        config._cpu_durations_share = tempfile.mkdtemp(prefix="cpu-durations-")


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node) -> None:
    """xdist's controller: tell each worker where to leave its figures."""
    if _asked(node.config):
        node.workerinput["cpu_durations_share"] = node.config._cpu_durations_share


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem):
    if not _asked(item.config):
        start = cpu_seconds()
        yield
        _spent[item.nodeid] = cpu_seconds() - start
        return
    _install_lazy_meters()
    _meter.take()
    own0, children0 = _own_and_children()
    wall0 = time.monotonic()
    yield
    own1, children1 = _own_and_children()
    seconds, calls, started = _meter.take()
    own, children = own1 - own0, children1 - children0
    _spent[item.nodeid] = own + children
    by_kind: dict[str, float] = {k: round(v, 3) for k, v in seconds.items() if v > 0}
    by_kind["python"] = round(max(0.0, own - sum(seconds.values())), 3)
    if children > 0.0005:
        label = "+".join(sorted(started)) if started else "children (started earlier)"
        by_kind["subprocess: " + label] = round(children, 3)
    _records[item.nodeid] = {"cpu": round(own + children, 3), "own": round(own, 3),
                             "children": round(children, 3), "wall": round(time.monotonic() - wall0, 3),
                             "by_kind": by_kind, "counts": dict(calls + started),
                             "worker": _worker_id(item.config) or "main"}


def pytest_sessionfinish(session: pytest.Session, exitstatus) -> None:
    config = session.config
    if not _asked(config) or not hasattr(config, "workerinput"):
        return
    core = [_core["start"], time_the_core()] if "start" in _core else []
    own, children = _own_and_children()
    path = _share_folder(config) / f"{_worker_id(config)}.json"
    path.write_text(json.dumps({"tests": _records, "process": {"own": own, "children": children}, "core": core}))


def _gather(config: pytest.Config) -> tuple[dict[str, dict], dict[str, dict]]:
    """Every test's record and every process's totals (the workers' from their files, then this one's)."""
    tests, processes = dict(_records), {}
    for path in sorted(_share_folder(config).glob("*.json")):
        data = json.loads(path.read_text())
        tests.update(data["tests"])
        processes[path.stem] = data["process"]
        _core.setdefault("workers", []).extend(data.get("core", []))
    own, children = _own_and_children()
    processes["main"] = {"own": own, "children": children}
    return tests, processes


def summarise(tests: dict[str, dict], processes: dict[str, dict]) -> dict:
    """The run's totals and its CPU by kind and by test file (what docs/SUITE.md shows)."""
    kinds: dict[str, float] = defaultdict(float)
    counts: Counter[str] = Counter()
    files: dict[str, float] = defaultdict(float)
    for nodeid, record in tests.items():
        for kind, seconds in record["by_kind"].items():
            kinds[kind] += seconds
        counts.update(record["counts"])
        files[nodeid.split("::")[0]] += record["cpu"]
    total_tests = sum(r["cpu"] for r in tests.values())
    main = processes.get("main", {"own": 0.0, "children": 0.0})
    workers = sum(p["own"] + p["children"] for name, p in processes.items() if name != "main")
    # the controller's children are its workers once they are reaped; until then their own files count
    total_processes = main["own"] + max(main["children"], workers)
    return {"tests": len(tests), "cpu_in_tests": round(total_tests, 1),
            "cpu_of_processes": round(total_processes, 1),
            "by_kind": {k: round(v, 1) for k, v in sorted(kinds.items(), key=lambda kv: -kv[1])},
            "counts": dict(counts.most_common()),
            "by_file": {k: round(v, 1) for k, v in sorted(files.items(), key=lambda kv: -kv[1])},
            "processes": {k: {"own": round(v["own"], 1), "children": round(v["children"], 1)}
                          for k, v in processes.items()}}


def pytest_terminal_summary(terminalreporter, exitstatus, config: pytest.Config) -> None:
    if hasattr(config, "workerinput"):
        return
    n = config.getoption("--cpu-durations")
    if _asked(config):
        tests, processes = _gather(config)
        spent = {k: r["cpu"] for k, r in tests.items()}
    else:
        tests, processes, spent = {}, {}, _spent
    if n is not None and spent:
        ranked = sorted(spent.items(), key=lambda kv: kv[1], reverse=True)
        terminalreporter.write_sep("=", f"{'all' if n == 0 else n} costliest tests by CPU time "
                                        f"(of {sum(spent.values()):.1f} CPU-s in {len(spent)} tests)")
        for nodeid, seconds in ranked[:n or None]:
            terminalreporter.write_line(f"{seconds:8.2f}s cpu  {nodeid}")
    if not tests:
        return
    summary = summarise(tests, processes)
    summary["wall_s"] = round(time.monotonic() - _started["wall"], 1)
    speeds = [_core["start"], *_core.get("workers", []), time_the_core()] if "start" in _core else [REFERENCE_CORE]
    summary["core_t_per_cpu_s"] = [round(v) for v in speeds]
    summary["core_s_in_tests"] = round(core_seconds(summary["cpu_in_tests"], speeds), 1)
    summary["core_s_of_processes"] = round(core_seconds(summary["cpu_of_processes"], speeds), 1)
    for record in tests.values():
        record["core_s"] = round(core_seconds(record["cpu"], speeds), 3)
    terminalreporter.write_line(
        f"cost: {summary['tests']} tests, {summary['cpu_of_processes']:.1f} CPU-s = {summary['core_s_of_processes']:.1f} "
        f"core-seconds ({summary['core_s_in_tests']:.1f} in the tests), {summary['wall_s']:.0f} s wall; the core at "
        f"{statistics.median(speeds) / 1e6:.0f} M T-states per CPU-s, the median of {len(speeds)} timings from "
        f"{min(speeds) / 1e6:.0f} to {max(speeds) / 1e6:.0f} (a core-second: a CPU-s at {REFERENCE_CORE / 1e6:.0f} M)")
    summary["workers"] = len(processes) - 1
    summary["outcomes"] = {k: len(v) for k, v in terminalreporter.stats.items()
                           if k in ("passed", "failed", "skipped", "error", "xfailed", "xpassed")}
    summary["machine"] = {"cores": os.cpu_count(), "load_at_end": round(os.getloadavg()[0], 2)}
    if config.getoption("--cpu-table"):
        write = terminalreporter.write_line
        terminalreporter.write_sep("=", f"where the CPU went ({summary['cpu_in_tests']:.1f} CPU-s in "
                                        f"{summary['tests']} tests; {summary['cpu_of_processes']:.1f} CPU-s "
                                        f"of pytest's processes and their children)")
        for kind, seconds in summary["by_kind"].items():
            share = 100 * seconds / summary["cpu_in_tests"] if summary["cpu_in_tests"] else 0.0
            write(f"{seconds:8.1f}s cpu {share:5.1f} %  {kind}")
        write("counts: " + ", ".join(f"{k} {v}" for k, v in summary["counts"].items()))
        write(f"wall {summary['wall_s']:.0f} s with {summary['workers'] or 'no'} xdist workers; "
              f"load {summary['machine']['load_at_end']} on {summary['machine']['cores']} cores at the end")
        write("processes: " + ", ".join(f"{k} {v['own']:.1f}+{v['children']:.1f}"
                                        for k, v in summary["processes"].items()))
        terminalreporter.write_sep("-", "CPU by test file (the 25 costliest)")
        for name, seconds in list(summary["by_file"].items())[:25]:
            write(f"{seconds:8.1f}s cpu  {name}")
    out = config.getoption("--cpu-json")
    if out:
        from harness.runtime.atomic import write_text
        write_text(Path(out), json.dumps({"summary": summary, "tests": tests}, indent=1,
                                                sort_keys=True) + "\n")
        terminalreporter.write_line(f"CPU figures written to {out}")
