"""Shared fixtures: a booted 48K is the starting point of most emulator tests."""
from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest

import stored
from game_store import Store, configure, sha256
from harness.spectrum.machine import Spectrum48

pytest_plugins = ["cpu_durations",      # pytest --cpu-durations=N: the costliest tests by CPU time
                  "tiers",              # pytest --tier quick|oracles|all: the tier is the folder (tests/tiers.py)
                  "schedule"]           # under xdist, the dearest files first (tests/schedule.py)

# pytest keeps each test module's assert-rewritten bytecode beside it, unless bytecode is not written at all
# (PYTHONDONTWRITEBYTECODE, set on our machines): then each worker rewrote ~170 test modules on every run, about
# 2.5 CPU-s a process. As the Makefile compiles every module once for the same reason, the suite's processes
# write theirs (only pytest's own: what the tests start keeps the setting it was given).
sys.dont_write_bytecode = False

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
def editions(build_of) -> dict:
    """The run's one build of each edition, Russian and English (build_of); the build command is tested in
    tests/commands/test_english.py."""
    return {lang: build_of(lang) for lang in ("ru", "en")}


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
def dummy_video(monkeypatch):
    """SDL's dummy video and audio drivers: pygame without a display or a sound card. pygame is left
    initialised after the test: the session's shared game (open_game_to_deal_2, read by test_play_referee
    and test_play_honest) keeps its rendered screens and panel surfaces and its fonts from test to test."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")


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


@pytest.fixture(scope="module")
def good_tape(tape_path) -> Path:
    """The session's one built tape, for the commands' runs."""
    return tape_path()


@pytest.fixture(scope="module")
def real_record(played_record):
    """A deep copy of the session's one real regress game (played_record), checked clean: a stand-in's shape."""
    import copy
    from harness.program.runs import regress
    record = copy.deepcopy(played_record)
    assert record.failure is None and not record.basic_errors
    assert not regress.counts_of_judgements(record.judgements, "game-000.judgements.jsonl").unexplained
    return record


@pytest.fixture
def stand_in_games(monkeypatch, real_record):
    """regress plays stand-in games (tests/helpers.py stand_in_game: copies of one real game's record; game 1
    raises, game 2 prints, game 3 runs out of its budget) and writes no report page (its tests are its own)."""
    from harness.edition import report as html_report
    from harness.program.runs import regress
    from helpers import STAND_IN_TEMPLATE, stand_in_game
    STAND_IN_TEMPLATE[:] = [real_record]
    monkeypatch.setattr(regress, "play_one", stand_in_game)
    monkeypatch.setattr(regress, "init_worker", lambda tape, *options: None)
    monkeypatch.setattr(html_report, "write_report_html", lambda out: None)


RZX_SEED = 4321     # the recorded window game's seed


@pytest.fixture(scope="session")
def window_rzx_game(tape_path, tmp_path_factory):
    """The play window's game recorded as keys and as RZX, from the first question to «ВСКРЫВАЮ КРИБ?» (the
    recording: tests/commands/test_play_rzx.py; Fuse plays it: tests/oracles/emulators/test_play_rzx_fuse.py)."""
    from harness.play.session import PlaySession
    from harness.play.settings import PlaySettings
    from helpers import play_a_while
    folder = tmp_path_factory.mktemp("rzx")
    rzx, keys_file = folder / "game.rzx", folder / "game.keys.json"
    s = PlaySession(PlaySettings(tape=tape_path(), seed=RZX_SEED, scale=1, record=keys_file, record_rzx=rzx))
    screens = play_a_while(s)
    s.close()
    return {"rzx": rzx, "keys": keys_file, "frames": s.frames, "rzx_frames": s.rzx_frames,
            "end": bytes(s.machine.mem[0x4000:0x5B00]), "screens": screens, "tape": tape_path()}


EDITION_COVERAGE = """{"coverage": {"statements_run": 3, "statements_total": 1041, "ifs_both": 0, "ifs_total": 1,
 "counts": {"10:1": 1, "4400:1": 40, "4405:1": 40000}, "never_run": ["4405:1", "9:1"],
 "ifs": {"4430:1": [0, 12]}, "explained_by": {"9:1": "C2"}, "unexplained": ["4405:1"]}}"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The listing's edition written once a test module, from a small coverage record (EDITION_COVERAGE); per
    module, not per session: a quick test's edition is drawn without Graphviz, an oracle's with it."""
    import time

    from harness.edition.site import load_edition, write_site
    out = tmp_path_factory.mktemp("edition") / "html"
    cov = out.parent / "report.json"
    cov.write_text(EDITION_COVERAGE)
    started = time.perf_counter()
    write_site(load_edition(cov), out)
    print(f"\nedition written in {time.perf_counter() - started:.2f} s")
    return out
