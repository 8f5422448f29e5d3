"""Watch mode in Chromium: the page's replay of a game's RZX gives the embedded replay's RAM and screen, an RZX one fetch off is told apart, every judgement appears when the replay reaches its action, and a narrow window fits (the page's Python side: tests/web/test_web_watch.py)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from harness.edition.report import write_report_html
from harness.program.judge.judgements import read_judgements
from harness.spectrum import z80snap
from harness.spectrum.rzx import RzxFrame, read_rzx, write_rzx
from harness.web.compare import checkpoint_frames, differences, rzx_checkpoints, watch_differences
from harness.web.watch import watch_block

from helpers import copy_run, plant_recording

GAME = "game-000"


@pytest.fixture(scope="module")
def embedded(rzx):
    """The embedded machine's replay of the recording at a dozen frames spread over it."""
    return rzx_checkpoints(rzx, checkpoint_frames(len(read_rzx(rzx).frames)))


def _open(browser, path: Path, problems: list[str], width: int = 1280, height: int = 800):
    page = browser.new_page(viewport={"width": width, "height": height})
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url}"))
    page.goto(path.as_uri())
    page.wait_for_function("window.zxWatch && zxWatch.frames > 0", timeout=60_000)
    return page


def _page_checkpoints(page, frames: list[int]) -> list[dict]:
    out = []
    for f in frames:
        assert page.evaluate("(f) => zxWatch.playTo(f)", f) == f
        out.append({"frame": f, "ram": page.evaluate("zxWatch.ramBase64()"), "canvas": page.evaluate("zxWatch.canvasRGBA()"),
                    "highlighted": page.evaluate("zxWatch.ppc()")})
    return out


def _expected_frames(run: Path) -> dict[int, int]:
    """Each judgement (numbered from 1 in its file) -> the RZX frames played once its action has happened:
    read here from the records, the transcript and the frames file, not from the page's payload."""
    _, judgements = read_judgements(run / f"{GAME}.judgements.jsonl")
    frames = json.loads((run / f"{GAME}.frames.json").read_text())["frames"]
    last = len(frames) - 1
    return {n: max(frames[last if j.action_at is None else j.action_at], 0) + 1 for n, j in enumerate(judgements, 1)}


# ----------------------------------------------------------------------------- in chromium
def test_the_pages_replay_of_the_rzx_gives_the_embedded_replays_ram_and_screen(browser, run, embedded):
    frames = [c.frame for c in embedded]
    problems: list[str] = []
    page = _open(browser, run / f"{GAME}.html", problems)
    shown = _page_checkpoints(page, frames)
    assert page.evaluate("zxWatch.problems") == []
    assert differences(embedded, shown) == []
    assert problems == []
    # and the reference itself: at the recording's end, the recorded machine's 48K (game-000-end.z80), but for
    # the return address the interrupt after the last frame pushed
    end = z80snap.read_z80(run / f"{GAME}-end.z80")
    sp = end.regs["sp"]
    assert embedded[-1].frame == len(read_rzx((run / f"{GAME}.rzx").read_bytes()).frames)
    assert [hex(0x4000 + i) for i in range(0xC000) if embedded[-1].ram[i] != end.ram[i]] == [hex(sp - 2), hex(sp - 1)]


def test_an_rzx_with_one_frames_fetch_count_changed_is_told_apart(browser, run, rzx, embedded, module, tmp_path,
                                                                  no_edition):
    """Planted: frame K runs one fetch more. The checkpoints before K agree (the near miss); from K on the
    page's replay is not the embedded machine's replay of the true recording: it stops at the first frame
    that does not replay as recorded, at K or a few frames after (issue 48), short of the next checkpoint."""
    recording = read_rzx(rzx)
    frames = [c.frame for c in embedded[:4]]
    planted_at = frames[1] + 7
    f = recording.frames[planted_at]
    recording.frames[planted_at] = RzxFrame(f.fetches + 1, f.inputs)
    planted = copy_run(run, tmp_path / "planted")
    plant_recording(planted, GAME, write_rzx(recording))
    write_report_html(planted, player=lambda w: watch_block(w, module))
    problems: list[str] = []
    page = _open(browser, planted / f"{GAME}.html", problems)
    assert differences(embedded[:2], _page_checkpoints(page, frames[:2])) == []
    stopped = page.evaluate("(f) => zxWatch.playTo(f)", frames[2])
    desync = page.evaluate("zxWatch.desync")
    assert desync is not None and planted_at <= desync["frame"] < frames[2] and stopped == desync["frame"] + 1
    assert problems == []


def test_every_judgement_appears_when_the_replay_reaches_its_action(browser, run):
    expected = _expected_frames(run)
    _, judgements = read_judgements(run / f"{GAME}.judgements.jsonl")
    problems: list[str] = []
    page = _open(browser, run / f"{GAME}.html", problems)
    page.evaluate("zxWatch.ready")
    end = page.evaluate("zxWatch.frames")
    page.evaluate("(f) => zxWatch.playTo(f)", end)
    assert watch_differences(expected, page.evaluate("zxWatch.shownAt")) == []
    # beside the screen, at its frame: a judgement with a documented difference, under the verdict's rules
    n, j = next((n, j) for n, j in enumerate(judgements, 1) if j.rules == "standard" and j.differences)
    page.evaluate("(f) => zxWatch.playTo(f)", expected[n] - 1)
    assert n not in page.evaluate("zxWatch.nowShown()")
    page.evaluate("(f) => zxWatch.playTo(f)", expected[n])
    assert n in page.evaluate("zxWatch.nowShown()")
    text = page.inner_text(f"#watch-now li[data-n='{n}']")
    assert j.differences[0].deviation in text and j.judged.value in text
    # the keyboard alone: Tab to "To the next judgement", Enter shows the next one due
    page.evaluate("(f) => zxWatch.playTo(f)", 1)
    page.focus("#watch-play")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "watch-next"
    page.keyboard.press("Enter")
    first = min(f for k, f in expected.items() if judgements[k - 1].rules == "standard" and f > 1)
    assert page.evaluate("zxWatch.frame") == first
    assert problems == []


def test_the_watch_page_in_a_narrow_window_has_no_sideways_scroll_and_every_image_its_alt(browser, run):
    problems: list[str] = []
    page = _open(browser, run / f"{GAME}.html", problems, width=480, height=800)
    page.evaluate("zxWatch.ready")
    page.evaluate("(f) => zxWatch.playTo(f)", 3000)
    assert page.evaluate("document.documentElement.scrollWidth") <= 480
    assert page.is_visible("#watch-next") and page.is_visible("#watch-now")
    assert page.evaluate("Array.from(document.images).filter(i => !i.alt).length") == 0
    page.screenshot(path=str(run.parent / "narrow.png"))
    assert problems == []
    page.close()
