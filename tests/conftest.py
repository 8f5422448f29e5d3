"""Shared fixtures: a booted 48K is the starting point of most emulator tests."""
from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

import stored
from game_store import Store, configure, sha256
from harness.spectrum.machine import Spectrum48

pytest_plugins = ["cpu_durations",      # pytest --cpu-durations=N: the costliest tests by CPU time
                  "tiers"]              # pytest --tier quick|oracles|all: the tier is the folder (tests/tiers.py)

# A script's `make test &` starts pytest with SIGINT ignored, and every child would inherit it: the tests that
# stop a command with Ctrl-C (and the commands' own handlers) need SIGINT and SIGTERM at their defaults.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
if signal.getsignal(signal.SIGTERM) == signal.SIG_IGN:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _store_root(tmp_path_factory) -> Path:
    """The run's store folder: in the run's pytest temporary folder, which under pytest-xdist is the parent
    of the workers' own (pytest-N/popen-gwK), so every worker of the run shares it."""
    base = tmp_path_factory.getbasetemp()
    return (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "game-store"


@pytest.fixture(scope="session", autouse=True)
def game_store(tmp_path_factory):
    """tests/game_store.py's store for this run: tapes built and games played once, shared by every test
    and every xdist worker of the run (made under a lock file; a worker that waits says so)."""
    return configure(_store_root(tmp_path_factory), os.environ.get("PYTEST_XDIST_WORKER", "main"))


@pytest.fixture(scope="session", autouse=True)
def rom_accepts_a_program_once(game_store):
    """The ROM's acceptance check (harness.spectrum.acceptance.check_program: every line typed into the
    editor, the whole LOADed; about 3 of a build's 5 CPU-s) run once per program for the whole test run:
    a program the ROM accepted is accepted again without typing it in again. Only acceptances are kept
    (keyed by the program's SHA-256); a program refused is checked afresh each time, so every refusal a
    test plants is still made by the ROM, and the check of the game's own listing still runs once a run
    (test_cribbage_program types every line into the ROM itself). The commands' builds (build, html, pack,
    play --lang en...) go through it, as harness.program.model.build looks check_program up when it builds."""
    from harness.program.model import build as build_module
    real = build_module.check_program

    def check_program(program: bytes, where: str = "<program>", file_lines=None) -> None:
        def accepted() -> bool:
            real(program, where, file_lines)            # raises InputError for a refusal: nothing is kept
            return True
        game_store.value("ROM acceptance", {"program": sha256(bytes(program))}, accepted)

    build_module.check_program = check_program
    yield
    build_module.check_program = real


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    """How often a worker waited for an entry another was making (tests/game_store.py)."""
    if hasattr(config, "workerinput") or not config.getoption("--cpu-table"):
        return
    root = _store_root(config._tmp_path_factory) if hasattr(config, "_tmp_path_factory") else None
    if root is not None and root.exists():
        made = sorted(p.name for p in root.iterdir() if (p / ".done").exists())
        waits = Store(root).waits()
        terminalreporter.write_line(f"game store: {len(made)} entries made once for the run, "
                                    f"{len(waits)} waits by a worker for another's")


@pytest.fixture(scope="session")
def build_of(game_store):
    """build(lang=...) once per edition for the whole test run (all workers): the ROM's acceptance check makes
    a build about 3 CPU-s, and a dozen modules need the same tape only as their starting point (the build
    itself is tested where it is the subject: test_build_refusals, test_tape, test_english, test_edition).
    Keyed by the sources' fingerprint (harness.program.model.build.fingerprint: listing, font, tables, tape code)."""
    made: dict[str, object] = {}

    def get(lang: str = "ru"):
        if lang not in made:
            made[lang] = stored.build(lang)         # tests/stored.py: the same entry for helpers outside fixtures
        return made[lang]
    return get


@pytest.fixture(scope="session")
def built_tape(build_of):
    """The game's tape, built once for the whole test run (harness.program.model.build.build(): a Build)."""
    return build_of()


@pytest.fixture(scope="module")
def tape(tape_path):
    """The path of the session's one built tape (the Russian edition); a module may define its own `tape`."""
    return tape_path()


@pytest.fixture(scope="session")
def tape_path(build_of, tmp_path_factory):
    """tape_path(lang="ru"): the built tape written once per edition, for commands and sessions that read a file."""
    folder = tmp_path_factory.mktemp("tapes")

    def get(lang: str = "ru"):
        path = folder / ("cribbage.tap" if lang == "ru" else f"cribbage-{lang}.tap")    # as `build` names them
        if not path.exists():
            path.write_bytes(build_of(lang).tap)
        return path
    return get


@pytest.fixture(scope="session")
def mypy_cache(tmp_path_factory) -> Path:
    """One mypy cache for a worker's mypy runs with the same options (test_mypy, test_core_protocol): a later
    run reads the standard library's analysis from it instead of doing it again (mypy's incremental mode,
    the same errors); a worker's own, so no two processes write it at once."""
    return tmp_path_factory.mktemp("mypy") / "cache"


@pytest.fixture(scope="session")
def booted_snapshot():
    m = Spectrum48()
    m.boot()
    return m.snapshot()


@pytest.fixture
def machine(booted_snapshot):
    """A freshly booted machine (restored from one boot per session)."""
    m = Spectrum48()
    m.restore(booted_snapshot)
    return m


@pytest.fixture
def fast_machine(booted_snapshot):
    m = Spectrum48(fast=True)
    m.restore(booted_snapshot)
    return m


def pytest_generate_tests(metafunc) -> None:
    """A test asking for `cpu_core` runs on each core: the z80 package's, and SkoolKit's simulator (another
    core: an oracle) wherever the oracles are selected (`make test-all`; tests/tiers.py)."""
    if "cpu_core" in metafunc.fixturenames:
        from tiers import oracles_selected
        cores = ["z80", "skoolkit"] if oracles_selected(metafunc.config) else ["z80"]
        metafunc.parametrize("cpu_core", cores, indirect=True, scope="session")


@pytest.fixture(scope="session")
def cpu_core(request):
    """Each CPU core the machine runs on (harness/program/runs/loaded.py CORES): the z80 package's, then
    SkoolKit's simulator (several times slower; needs the 'oracle' extra). A test asking for it, or for
    core_machine, runs once on each: one suite over two CPUs."""
    from harness.program.runs.loaded import CORES, core_class
    assert request.param in CORES
    if request.param == "skoolkit":
        pytest.importorskip("skoolkit.simulator", reason="SkoolKit (the 'oracle' extra) is not installed")
    return core_class(request.param)


@pytest.fixture(scope="session")
def booted_on_core(cpu_core):
    """One boot per core per session (a snapshot is the core's own: it restores on that core only)."""
    m = Spectrum48(core=cpu_core)
    m.boot()
    return m.snapshot()


@pytest.fixture
def core_machine(cpu_core, booted_on_core):
    """A freshly booted machine on each core in turn."""
    m = Spectrum48(core=cpu_core)
    m.restore(booted_on_core)
    return m


@pytest.fixture
def core_fast_machine(cpu_core, booted_on_core):
    m = Spectrum48(fast=True, core=cpu_core)
    m.restore(booted_on_core)
    return m


@pytest.fixture
def dummy_video(monkeypatch):
    """SDL's dummy video and audio drivers: pygame without a display or a sound card. pygame is left
    initialised after the test: the session's shared game (open_game_to_deal_2, read by test_play_referee
    and test_play_honest) keeps its rendered screens and panel surfaces and its fonts from test to test."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")


@pytest.fixture
def dummy_window(dummy_video):
    """dummy_video for a test that opens a window (play.window): pygame is quit after it, so each test's
    window, display and mixer start afresh."""
    yield
    import pygame
    pygame.quit()


@pytest.fixture(scope="session")
def open_game_to_deal_2(tape_path):
    """Seed 99 with the open referee and no muggins, answered by the careless player (tests/helpers.py autoplay) until
    deal 2 is dealt: one game for the tests of test_play_referee and test_play_honest that only read it
    (test_play_honest's play_through answers exactly as autoplay does)."""
    pytest.importorskip("pygame", reason="pygame-ce is not installed (the play extra)")
    from harness.play.session import PlaySession
    from helpers import autoplay
    s = PlaySession(tape=tape_path(), referee="open", seed=99, scale=1)     # no window: nothing of SDL's is needed
    autoplay(s, until_deal=2)
    return s


@pytest.fixture(scope="session")
def played_record(tape_path, game_store):
    """regress.play_one(GameJob(0, 1, "random")) on the built tape, played once: the real record (a GameResult)
    that test_regress_runs and test_regress_judgements re-index as stand-in games (each module gets a deep copy)."""
    from harness.program.runs import regress
    from harness.program.runs.loaded import init_worker
    tape = tape_path().read_bytes()

    def play():
        init_worker(tape)
        return regress.play_one(regress.GameJob(0, 1, "random"))
    return game_store.value("regress game", {"tape": sha256(tape), "job": [0, 1, "random", False],
                                             "record": "GameResult"}, play)


@pytest.fixture(scope="session")
def loaded_tape(tape_path):
    """The built tape loaded once (harness/program/runs/loaded.py): its snapshot at the program's first question,
    statement table and comparison set-up; `.machine()` is a fresh machine there."""
    from harness.program.runs.loaded import load
    return load(tape_path().read_bytes())
