"""Issue 48: watch mode you can navigate, in Debian's chromium.

The report (with the listing edition) of one `regress --rzx` game (tests/rzx_game.py's run). Each control
lands on the frame of its judgement: next and previous judgement, next and previous difference, a frame
step each way, the seek bar; a row of the timeline, a link game-000.html#eN and an entry of the log jump to
their action's frame; changing Rules keeps the frame. The frames expected are worked out here from the
records (game-000.judgements.jsonl, game-000.frames.json), not from the page's payload. A seek backward
(from a checkpoint) gives the RAM of a replay played straight from the start. Screenshots in docs/figures/: mid-game,
after a jump, at a phone's width.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from harness.edition.report import write_report_html
from harness.program.judge.judgements import read_judgements
from harness.web import build as wasm_build
from harness.web.watch import watch_block
from rzx_game import recorded_run

GAME = "game-000"
FIGURES = Path(__file__).resolve().parents[3] / "docs" / "figures"
VERDICT = "standard"


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    try:
        module = wasm_build.module_bytes()
    except wasm_build.BuildProblem as exc:
        pytest.skip(f"the WebAssembly core cannot be built here: {exc}")
    folder = shutil.copytree(recorded_run(), tmp_path_factory.mktemp("nav") / "run",
                             ignore=shutil.ignore_patterns("*.html", "plots"))
    write_report_html(folder, player=lambda w: watch_block(w, module))
    return folder


@pytest.fixture(scope="module")
def records(run):
    """Each judgement n (from 1): (its rules, whether it has a difference, its event, the frame it is shown at);
    and each event's frame from the frames file."""
    _, judgements = read_judgements(run / f"{GAME}.judgements.jsonl")
    frames = json.loads((run / f"{GAME}.frames.json").read_text())["frames"]
    last = len(frames) - 1
    out = {}
    for n, j in enumerate(judgements, 1):
        at = last if j.action_at is None else j.action_at
        out[n] = (j.rules, bool(j.differences), at, max(frames[at], 0) + 1)
    return out, frames


def _open(browser, url: str, problems: list[str], width: int = 1280, height: int = 900):
    page = browser.new_page(viewport={"width": width, "height": height})
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.goto(url)
    page.wait_for_function("window.zxWatch && zxWatch.frames > 0", timeout=60_000)
    page.evaluate("zxWatch.ready")
    return page


def _at(records, frame: int, rules: str = VERDICT) -> list[int]:
    return sorted(n for n, (r, _, _, f) in records.items() if r == rules and f == frame)


def test_each_control_lands_on_the_frame_of_its_judgement(browser, run, records):
    judged, _ = records
    std = sorted({f for r, _, _, f in judged.values() if r == VERDICT})
    diff = sorted({f for r, d, _, f in judged.values() if r == VERDICT and d})
    problems: list[str] = []
    page = _open(browser, (run / f"{GAME}.html").as_uri(), problems)
    start = std[len(std) // 2] + 5                                   # mid-game, between two judgements
    assert page.evaluate("(f) => zxWatch.playTo(f)", start) == start
    page.click("#watch-next")
    landed = min(f for f in std if f > start)
    assert page.evaluate("zxWatch.frame") == landed
    assert sorted(page.evaluate("zxWatch.nowShown()")) == _at(judged, landed)
    page.locator("#watch").screenshot(path=str(FIGURES / "watch-mid-game.png"))
    page.click("#watch-next-diff")
    landed = min(f for f in diff if f > landed)
    assert page.evaluate("zxWatch.frame") == landed
    assert set(page.evaluate("zxWatch.nowShown()")) & {n for n, (r, d, _, f) in judged.items() if d and f == landed}
    page.click("#watch-prev")
    landed = max(f for f in std if f < landed)
    assert page.evaluate("zxWatch.frame") == landed
    assert sorted(page.evaluate("zxWatch.nowShown()")) == _at(judged, landed)
    page.click("#watch-prev-diff")
    landed = max(f for f in diff if f < landed)
    assert page.evaluate("zxWatch.frame") == landed
    page.click("#watch-step")
    assert page.evaluate("zxWatch.frame") == landed + 1
    page.click("#watch-back")
    page.click("#watch-back")
    assert page.evaluate("zxWatch.frame") == landed - 1
    page.click("#watch-restart")
    assert page.evaluate("zxWatch.frame") == 0 and page.evaluate("zxWatch.nowShown()") == []
    page.click("#watch-prev")                                       # nothing that way: it stays
    assert page.evaluate("zxWatch.frame") == 0
    assert problems == []


def test_a_seek_backward_gives_the_ram_of_a_replay_played_straight(browser, run):
    problems: list[str] = []
    page = _open(browser, (run / f"{GAME}.html").as_uri(), problems)
    straight = page.evaluate("(f) => zxWatch.playTo(f).then(() => zxWatch.ramBase64())", 7777)
    page.evaluate("(f) => zxWatch.playTo(f)", 15000)
    page.eval_on_selector("#watch-seek", "(bar) => { bar.value = '7777'; bar.dispatchEvent(new Event('change')); }")
    assert page.evaluate("zxWatch.frame") == 7777
    assert page.evaluate("zxWatch.ramBase64()") == straight
    assert page.evaluate("zxWatch.checkpoints()")[-1] <= 7777                 # it came from a checkpoint
    assert problems == []


def test_timeline_rows_eN_links_and_log_entries_jump_to_their_action(browser, run, records):
    judged, frames = records
    n, (_, _, at, frame) = next((n, v) for n, v in judged.items() if v[0] == VERDICT and v[1] and v[3] > 3000)
    problems: list[str] = []
    page = _open(browser, (run / f"{GAME}.html").as_uri() + f"#e{at}", problems)
    assert page.evaluate("zxWatch.frame") == frame and n in page.evaluate("zxWatch.nowShown()")
    page.locator("#watch").screenshot(path=str(FIGURES / "watch-after-jump.png"))
    # a row of the timeline with no judgement of its own: the frame after its event
    free = next(i for i in range(len(frames)) if frames[i] > 100 and all(v[2] != i for v in judged.values()))
    page.click(f"tr#e{free} a[href='#e{free}']")
    page.wait_for_function(f"zxWatch.frame === {max(frames[free], 0) + 1}")
    # a judged row, clicked in the timeline
    page.click(f"tr#e{at} a[href='#e{at}']")
    page.wait_for_function(f"zxWatch.frame === {frame}")
    # an entry of the log, earlier than the frame: back to it
    page.evaluate("(f) => zxWatch.playTo(f)", frame + 2000)
    page.click("details:has(#watch-log) summary")                           # the log, unfolded
    first = page.locator("#watch-log li a.jump").last                     # the log's earliest entry
    target = judged[int(page.locator("#watch-log li").last.get_attribute("data-n"))][3]
    first.click()
    assert page.evaluate("zxWatch.frame") == target
    assert problems == []


def test_changing_rules_keeps_the_position(browser, run, records):
    judged, _ = records
    rule_sets = sorted({r for r, *_ in judged.values()})
    other = next(r for r in rule_sets if r != VERDICT)
    problems: list[str] = []
    page = _open(browser, (run / f"{GAME}.html").as_uri(), problems)
    frame = sorted({f for r, _, _, f in judged.values() if r == other})[40]
    page.evaluate("(f) => zxWatch.playTo(f)", frame)
    page.select_option("#watch-rules", other)
    assert page.evaluate("zxWatch.frame") == frame
    assert sorted(page.evaluate("zxWatch.nowShown()")) == _at(judged, frame, other)
    assert len(page.evaluate("zxWatch.logShown()")) == sum(1 for r, _, _, f in judged.values() if r == other and f <= frame)
    assert problems == []


def test_at_a_phones_width_nothing_scrolls_sideways(browser, run):
    problems: list[str] = []
    page = _open(browser, (run / f"{GAME}.html").as_uri(), problems, width=390, height=844)
    page.evaluate("(f) => zxWatch.playTo(f)", 9000)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.is_visible("#watch-next") and page.is_visible("#watch-seek")
    page.locator("#watch").screenshot(path=str(FIGURES / "watch-phone.png"))
    assert problems == []


def test_the_reports_games_table_marks_the_games_that_can_be_watched(run, tmp_path):
    """The recorded game's row links to its player; the same run with the recording taken away (the planted
    absence) has no watch column and no link."""
    html = (run / "report.html").read_text(encoding="utf-8")
    assert f'<a href="{GAME}.html#watch" class="watch-link">' in html and "can be watched" in html
    bare = shutil.copytree(run, tmp_path / "bare", ignore=shutil.ignore_patterns("*.html", "plots", "*.rzx"))
    write_report_html(bare, player=lambda w: "<section id='watch'></section>")
    html = (bare / "report.html").read_text(encoding="utf-8")
    assert "watch-link" not in html and "can be watched" not in html
