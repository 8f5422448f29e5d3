"""play.html's status line says why ENTER on an empty slot under a count of 22 did nothing, as the play window's
does: the window's key record of that moment replayed in the page, the status lines compared at checkpoints
(harness/web/compare.py's differences: the same check as test_web's replay, with its planted fault there)."""
from __future__ import annotations

import json

import pytest

from harness.play.session import PlaySession

from harness.play.settings import PlaySettings
from harness.web import build as wasm_build
from harness.web import page as web_page
from harness.web.compare import differences, embedded_checkpoints
from helpers import to_an_empty_slot_under_22
from play_keys import keys

pytestmark = pytest.mark.slow   # an oracle: Chromium

SAID = "ENTER on an empty slot was ignored: the count is {}, and this program takes a go only from 22 (line 2742)"


@pytest.fixture(scope="module")
def play_page(tmp_path_factory, build_of):
    try:
        module = wasm_build.module_bytes()
    except wasm_build.BuildProblem as exc:
        pytest.skip(f"the WebAssembly core cannot be built here: {exc}")
    path = tmp_path_factory.mktemp("web") / "play.html"
    path.write_text(web_page.render_play_page(module, {lang: build_of(lang).tap for lang, _ in web_page.TAPES}),
                    encoding="utf-8")
    return path


def test_the_page_says_why_the_enter_was_ignored_as_the_window_does(browser, play_page, tape_path, tmp_path):
    record = tmp_path / "keys.json"
    s = PlaySession(PlaySettings(tape=tape_path(), seed=99, record=record, scale=1))
    slots, count = to_an_empty_slot_under_22(s)
    before = s.frames
    keys(s, *["SPACE"] * slots.index(0), "ENTER")
    ignored = s.frames
    keys(s, "SPACE")
    s.step(50)
    s.close()
    frames = [before, ignored, s.frames]
    embedded = embedded_checkpoints(tape_path(), record, frames)
    assert [SAID.format(count) in c.status for c in embedded] == [False, True, False]   # said, then gone
    problems: list[str] = []
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.goto(play_page.as_uri())
    page.wait_for_function("window.zxPage && zxPage.session && zxPage.session.frames > 0", timeout=60_000)
    result = page.evaluate("([r, c]) => zxPage.replay(r, c)", [json.loads(record.read_text()), frames])
    assert differences(embedded, result) == []
    # another game started after it (at its title, 7060): one line of the listing is marked, the new game's
    page.evaluate("zxPage.start('ru', 5)")
    assert page.evaluate("Array.from(document.querySelectorAll('#listing li.now')).map(li => li.id)") == ["L7060"]
    # the moment before the ENTER and after the next key are the near misses: nothing said there
    assert [SAID.format(count) in r["status"] for r in result] == [False, True, False]
    assert problems == []
    page.close()
