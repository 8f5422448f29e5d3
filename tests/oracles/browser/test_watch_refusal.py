"""Issue 45: the watch page refuses a recording of another game in one line. In Debian's chromium, the player of
the recorded run's game (tests/rzx_game.py) built by hand around an RZX whose creator data names another game,
seed or tape (what the report's Python side refuses before any page, tests/edition/test_watch_records.py; here
the page's own check), or a session played by hand (play --record-rzx): nothing is played, the line is over the screen and in the status, the controls stay
off. The near miss: the game's own recording plays."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.edition.report import Watch
from harness.program.records.frames import GameId, frames_name, rzx_tag
from harness.spectrum.rzx import read_rzx, write_rzx
from harness.web.watch import watch_block

GAME = "game-000"


def _page(run: Path, rzx: bytes, module: bytes, to: Path, names: GameId | None) -> tuple[Path, GameId]:
    """A page holding only the player of *rzx* with its creator data naming *names* (None: as recorded)."""
    head = json.loads((run / f"{GAME}.jsonl").read_text(encoding="utf-8").splitlines()[0])
    tape = json.loads((run / "report.json").read_text(encoding="utf-8"))["tape"]["sha256"]
    own = GameId(head["game"], head["seed"], tape)
    recording = read_rzx(rzx)
    assert recording.custom == rzx_tag(own)                  # the run's RZX names its own game
    if names is not None:
        recording.custom = rzx_tag(names)
    to.mkdir()
    path = to / f"{GAME}.rzx"
    path.write_bytes(write_rzx(recording))
    frames = json.loads((run / frames_name(0)).read_text(encoding="utf-8"))["frames"]
    watch = Watch(GAME, path, [], ["standard"], frames, [], {"game": own.game, "seed": own.seed, "tape_sha256": tape})
    page = to / f"{GAME}.html"
    page.write_text("<!doctype html><html><head><meta charset='utf-8'><title>watch</title></head><body>"
                    + watch_block(watch, module) + "</body></html>", encoding="utf-8")
    return page, own


def _open(browser, page_path: Path, problems: list[str]):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.goto(page_path.as_uri())
    page.wait_for_function("window.zxWatch && zxWatch.ready", timeout=60_000)
    return page


def test_the_games_own_recording_plays(browser, run, rzx, module, tmp_path):
    path, _ = _page(run, rzx, module, tmp_path / "own", None)
    problems: list[str] = []
    page = _open(browser, path, problems)
    assert page.evaluate("zxWatch.ready") is True and page.evaluate("zxWatch.refused") is None
    assert page.evaluate("zxWatch.frames") == len(read_rzx(rzx).frames)
    assert problems == []


@pytest.mark.parametrize("other", ["game", "seed", "tape", "session"])
def test_a_recording_of_another_game_is_refused_in_one_line(browser, run, rzx, module, tmp_path, other):
    head = json.loads((run / f"{GAME}.jsonl").read_text(encoding="utf-8").splitlines()[0])
    tape = json.loads((run / "report.json").read_text(encoding="utf-8"))["tape"]["sha256"]
    names = {"game": GameId(head["game"] + 5, head["seed"], tape), "seed": GameId(head["game"], head["seed"] + 1, tape),
             "tape": GameId(head["game"], head["seed"], "0" * 64),
             "session": GameId(None, head["seed"], tape)}[other]           # play --record-rzx's, the same seed
    path, own = _page(run, rzx, module, tmp_path / other, names)
    problems: list[str] = []
    page = _open(browser, path, problems)
    said = {"game": f"{GAME}.rzx: a recording of {names}, not of this page's {own}",
            "seed": f"{GAME}.rzx: a recording of {names}, not of this page's {own}",
            "session": f"{GAME}.rzx: a recording of a session played by hand (seed {head['seed']}), not of this "
                       f"page's {own}",
            "tape": f"{GAME}.rzx: a recording on the tape of SHA-256 000000000000…, not on this page's run's "
                    f"({tape[:12]}…)"}[other]
    assert page.evaluate("zxWatch.ready") is False
    assert page.evaluate("zxWatch.refused") == said and "\n" not in said
    assert page.inner_text("#watch-desync") == said and page.is_visible("#watch-desync")
    assert page.inner_text("#watch-status") == "not played: " + said
    assert page.is_disabled("#watch-play") and page.evaluate("zxWatch.frames") == 0
    assert problems == []
