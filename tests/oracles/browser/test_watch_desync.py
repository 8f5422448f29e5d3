"""Issue 48: the watch page stops on a desync, says so over the screen in words, and shows no judgement after it.

In Debian's chromium, the report's game page of one `regress --rzx` game (tests/rzx_game.py's run). Planted: one
frame of the RZX carries one reading more than its instructions make (frame K's readings are not used up, the
check of the WebAssembly player's rzx_frame): the replay stops at K, the words are over the screen, the play
controls are off, and no judgement due after K is shown. The near miss: the recording as written plays to its
last frame with no desync and the words hidden.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path


from harness.edition import report as report_module
from harness.edition.report import write_report_html
from harness.spectrum.rzx import RzxFrame, read_rzx, write_rzx
from harness.web.watch import watch_block
from helpers import plant_recording
from rzx_game import recorded_run

GAME = "game-000"
FIGURES = Path(__file__).resolve().parents[3] / "docs" / "figures"


def _page_of(run: Path, to: Path, module: bytes, rzx: bytes | None = None) -> Path:
    folder = shutil.copytree(run, to, ignore=shutil.ignore_patterns("*.html", "plots"))
    if rzx is not None:
        plant_recording(folder, GAME, rzx)
    saved = report_module.write_site
    report_module.write_site = lambda *args, **kwargs: None          # the listing edition is not what is tested
    try:
        write_report_html(folder, player=lambda w: watch_block(w, module))
    finally:
        report_module.write_site = saved
    return folder / f"{GAME}.html"


def _open(browser, path: Path, problems: list[str], width: int = 1280, height: int = 900):
    page = browser.new_page(viewport={"width": width, "height": height})
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}")
            if m.type in ("error", "warning") and "ERR_FILE_NOT_FOUND" not in m.text else None)   # the edition left out
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.goto(path.as_uri())
    page.wait_for_function("window.zxWatch && zxWatch.frames > 0", timeout=60_000)
    page.evaluate("zxWatch.ready")
    return page


def _action_frames(run: Path) -> list[int]:
    """Every event's RZX frame, from the frames file (not from the page's payload)."""
    return json.loads((run / f"{GAME}.frames.json").read_text())["frames"]


def test_the_page_stops_at_a_frame_that_does_not_replay_and_says_so(browser, module, tmp_path):
    run = recorded_run()
    recording = read_rzx((run / f"{GAME}.rzx").read_bytes())
    events = [f for f in _action_frames(run) if f > 0]
    planted_at = events[len(events) // 3]                       # a third of the way through the game's actions
    f = recording.frames[planted_at]
    recording.frames[planted_at] = RzxFrame(f.fetches, f.inputs + b"\xbf")
    problems: list[str] = []
    page = _open(browser, _page_of(run, tmp_path / "planted", module, write_rzx(recording)), problems)
    assert page.evaluate("zxWatch.desync") is None and page.is_hidden("#watch-desync")
    end = page.evaluate("zxWatch.frames")
    assert page.evaluate("(f) => zxWatch.playTo(f)", end) == planted_at + 1        # stopped, not at the end
    assert page.evaluate("zxWatch.desync") == {"frame": planted_at, "what": "readings left unread"}
    words = page.inner_text("#watch-desync")
    assert page.is_visible("#watch-desync")
    assert f"RZX frame {planted_at}" in words and "did not replay as recorded" in words and "no judgement" in words
    assert page.inner_text("#watch-now").strip() == ""                              # nothing beside the screen
    shown = page.evaluate("zxWatch.shownAt")
    assert shown and max(shown.values()) <= planted_at
    assert page.is_disabled("#watch-play") and page.is_disabled("#watch-next")
    page.evaluate("zxWatch.nextJudgement()")                                        # no way past it
    assert page.evaluate("zxWatch.frame") == planted_at + 1
    page.locator(".watch-box").screenshot(path=str(FIGURES / "watch-desync.png"))
    # From the start again: the words go, and the replay plays up to the frame again
    page.click("#watch-restart")
    page.wait_for_function("zxWatch.frame === 0 && zxWatch.desync === null")
    assert page.is_hidden("#watch-desync") and not page.is_disabled("#watch-play")
    assert problems == []


def test_the_recording_as_written_plays_to_its_end_with_no_desync(browser, module, tmp_path):
    """The near miss of the above: the same page, the RZX unchanged."""
    problems: list[str] = []
    page = _open(browser, _page_of(recorded_run(), tmp_path / "good", module), problems)
    end = page.evaluate("zxWatch.frames")
    assert page.evaluate("(f) => zxWatch.playTo(f)", end) == end
    assert page.evaluate("zxWatch.desync") is None and page.is_hidden("#watch-desync")
    assert problems == []
