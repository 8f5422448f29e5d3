"""What the oracles' tests of watch mode share: the WebAssembly core (built with clang), and a copy of the
recorded --rzx run (tests/rzx_game.py) with its report written, its game page with the player."""
from __future__ import annotations

import shutil

import pytest

from harness.edition import report as report_module
from harness.edition.report import write_report_html
from harness.web import build as wasm_build
from harness.web.watch import watch_block
from helpers import copy_run
from rzx_game import recorded_run

GAME = "game-000"


@pytest.fixture
def no_edition(monkeypatch):
    """The report's pages without the listing edition beside them (its 5 CPU-s are not what these test)."""
    monkeypatch.setattr(report_module, "write_site", lambda *args, **kwargs: None)


@pytest.fixture(scope="module")
def module():
    try:
        return wasm_build.module_bytes()
    except wasm_build.BuildProblem as exc:
        pytest.skip(f"the WebAssembly core cannot be built here: {exc}")


@pytest.fixture(scope="module")
def run(tmp_path_factory, module):
    """A copy of the --rzx run with its report written, the game page with its player."""
    folder = copy_run(recorded_run(), tmp_path_factory.mktemp("watch") / "run")
    write_report_html(folder, player=lambda w: watch_block(w, module))
    return folder


@pytest.fixture(scope="module")
def rzx(run) -> bytes:
    return (run / f"{GAME}.rzx").read_bytes()


@pytest.fixture(scope="session")
def strength_tape(tape_path):
    return tape_path()              # the session's one built tape (tests/conftest.py)


@pytest.fixture(scope="session")
def strength_local_run(strength_tape, tmp_path_factory):
    """A strength run on the local pool (1 game a pairing, seed 7, 2 workers), its page written: the figures
    and transcripts the Dask run and the --from run must give again."""
    from harness.edition.strength import write_strength_page
    from harness.program.runs import strength
    from helpers import STRENGTH_ENGINE_GAMES, STRENGTH_OPPONENTS
    out = tmp_path_factory.mktemp("strength") / "local"
    report = strength.run(1, 7, 2, out, strength.StrengthOptions(
        opponents=STRENGTH_OPPONENTS, engine_games=STRENGTH_ENGINE_GAMES, tap=strength_tape, progress=False),
        page=write_strength_page)
    return out, report.as_json()              # the StrengthReport as its file holds it


@pytest.fixture(scope="module")
def browser():
    """Debian's chromium, headless, for one test module (the browser's tests and the watch page's player)."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip: the test extra)")
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.skip("Debian's chromium is not installed (tools/install-system-deps.sh)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture(scope="session")
def pack_dir(tmp_path_factory):
    """`build --pack` once a worker: the archive's folder, read by the pack's tests and its tools' tests."""
    from harness.cli import main as cli_main
    folder = tmp_path_factory.mktemp("pack")
    assert cli_main(["build", "-o", str(folder / "tape.tap"), "--pack", str(folder / "pack")]) == 0
    return folder / "pack"
