"""The suite's two tiers (issue 44): the tier is the folder.

* **The quick tier** is every folder of tests/ but tests/oracles/: the house's own code on the house's own
  machine, run by `make test` (`pytest --tier quick`) on a machine with nothing beyond python3-venv and make.
* **The oracles** are tests/oracles/: every test that starts an outside program (Fuse, MAME, Chromium, Xvfb,
  Graphviz, Debian's tape tools, git, pip, mypy), another core (z80-python, SkoolKit, zx) or a Dask cluster, and
  the whole games that cost more than the quick tier's budget. `make test-all` runs both tiers.

What keeps the quick tier honest, for each test outside tests/oracles/ (whatever tier was asked for):
* its PATH holds only the virtual environment's programs, as on a machine with no Debian tool, so the code under
  test finds no Graphviz, no clang, no browser, and takes the path such a machine takes;
* starting a program that is not Python (a Popen of anything but this interpreter or a script run by it) fails the
  test with one line naming the program (one the narrowed PATH does not find fails as it would on a bare machine);
* a skip fails it too: a quick-tier test has everything it needs, and one that would skip for a missing tool
  belongs in tests/oracles/.
A test over every CPU core (conftest's `cpu_core`) runs on SkoolKit's core only where the oracles are selected.
"""
from __future__ import annotations

import functools
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
ORACLES = TESTS / "oracles"
TIERS = ("quick", "oracles", "all")


def is_oracle_path(path: Path | str) -> bool:
    """Whether *path* lies in tests/oracles/."""
    return Path(path).resolve().is_relative_to(ORACLES)


def quick_path() -> str:
    """The PATH of a quick-tier test: this interpreter's folder (the venv's programs) and nothing else."""
    return str(Path(sys.executable).parent)


def is_python_program(argv0: str, path: str | None = None) -> bool:
    """Whether *argv0* (as a Popen would find it on *path*) is this Python, another Python, or a script whose
    first line runs Python (the venv's `cribbage-zx`, `pip`)."""
    import shutil
    found = argv0 if os.sep in argv0 else shutil.which(argv0, path=path)
    if not found:
        return False
    real = os.path.realpath(found)
    if os.path.basename(real).startswith("python") or real == os.path.realpath(sys.executable):
        return True
    try:
        with open(real, "rb") as f:
            first = f.readline(200)
    except OSError:
        return False
    return first.startswith(b"#!") and b"python" in first


def is_there(program: str, path: str | None) -> bool:
    """Whether *program* can be started at all: a path to a file, or a name found on *path*. One that cannot
    is left to fail as it fails on a machine without it (FileNotFoundError: fontconfig's fc-list, which pygame
    asks for the system's fonts and does without)."""
    import shutil
    return os.path.isfile(program) if os.sep in program else shutil.which(program, path=path) is not None


def program_of(args, kwargs) -> str:
    """The program a Popen(args, **kwargs) starts: `executable`, or the first word of args."""
    if kwargs.get("executable"):
        return str(kwargs["executable"])
    if kwargs.get("shell"):
        return "/bin/sh"
    if isinstance(args, (str, bytes, os.PathLike)):
        words = shlex.split(os.fsdecode(args)) if isinstance(args, (str, bytes)) else [os.fspath(args)]
    else:
        words = [os.fsdecode(a) if isinstance(a, (bytes, os.PathLike)) else str(a) for a in args]
    return words[0] if words else ""


class TierBreach(RuntimeError):
    """A quick-tier test started a program that is not Python."""


_current: dict[str, str | None] = {"item": None}
_breaches: dict[str, list[str]] = {}


def _guard_popen() -> None:
    init = subprocess.Popen.__init__
    if getattr(init, "__tier_guard__", False):
        return

    @functools.wraps(init)
    def guarded(self, args, *rest, **kwargs):
        item = _current["item"]
        if item is not None:
            program = program_of(args, kwargs)
            path = (kwargs.get("env") or os.environ).get("PATH")
            if is_there(program, path) and not is_python_program(program, path):
                line = (f"{item} started {os.path.basename(program)!r} ({program}), not a Python program: "
                        f"a quick-tier test starts none (move it to tests/oracles/)")
                _breaches.setdefault(item, []).append(line)
                raise TierBreach(line)
        return init(self, args, *rest, **kwargs)
    guarded.__tier_guard__ = True
    subprocess.Popen.__init__ = guarded


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--tier", choices=TIERS, default="all",
                     help="quick: every folder of tests/ but tests/oracles/ (make test); oracles: tests/oracles/ "
                          "only; all: both (make test-all)")


def tier(config: pytest.Config) -> str:
    return config.getoption("--tier")


def pytest_configure(config: pytest.Config) -> None:
    _guard_popen()


def pytest_ignore_collect(collection_path: Path, config: pytest.Config):
    chosen = tier(config)
    if chosen == "quick" and is_oracle_path(collection_path):
        return True
    if (chosen == "oracles" and collection_path.suffix == ".py" and collection_path.name.startswith("test_")
            and not is_oracle_path(collection_path)):
        return True
    return None


def oracles_selected(config: pytest.Config) -> bool:
    """Whether this run takes the oracles (the SkoolKit core's half of a test over every core)."""
    return tier(config) != "quick"


_last_tier: dict[str, bool | None] = {"quick": None}


def forget_what_was_found(quick: bool) -> None:
    """What a library found on PATH and keeps for the process is found again when the tier changes: pygame's
    system fonts (read once through fontconfig's fc-list; without it, its own font), so that a window test among
    the oracles draws with the fonts its own window, started with the whole PATH, draws with."""
    if _last_tier["quick"] is not None and _last_tier["quick"] != quick:
        sysfont = sys.modules.get("pygame.sysfont")
        if sysfont is not None:
            sysfont.Sysfonts.clear()
            sysfont.Sysalias.clear()
            sysfont.is_init = False
    _last_tier["quick"] = quick


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem):
    quick = not is_oracle_path(item.path)
    saved = os.environ.get("PATH")
    forget_what_was_found(quick)
    if quick:
        os.environ["PATH"] = quick_path()
        _current["item"] = item.nodeid
    try:
        yield
    finally:
        _current["item"] = None
        if saved is None:
            os.environ.pop("PATH", None)
        else:
            os.environ["PATH"] = saved


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call):
    outcome = yield
    report = outcome.get_result()
    if is_oracle_path(item.path):
        return
    breaches = _breaches.pop(item.nodeid, None)
    if breaches:
        report.outcome, report.longrepr = "failed", breaches[0]
    elif report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = (f"{item.nodeid} skipped in the quick tier ({reason}): a quick-tier test does not skip; "
                           f"one that needs an outside program belongs in tests/oracles/")
