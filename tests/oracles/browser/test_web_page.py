"""play.html in Chromium: the page reaches the title on both tapes, replays a key record to the embedded machine's RAM and screen, takes keys typed alone, fits a narrow window, and loads its .z80 and a saved slot (the page's Python side: tests/web/test_web.py)."""
from __future__ import annotations

import base64
import json
from pathlib import Path

import numpy as np
import pytest

from harness.program.model import program as P
from harness.program.model.program import UDG_TEXT
from harness.play.session import PlaySession
from harness.play.settings import PlaySettings
from harness.spectrum.charset import koi7_char
from harness.spectrum.screen import read_screen
from harness.web import build as wasm_build
from harness.web import page as web_page
from harness.web.bench import record_game
from harness.web.compare import (canvas_display, canvas_rgb, checkpoint_frames, differences,
                                 embedded_checkpoints)

from play_keys import keys

SEED = 4242


@pytest.fixture(scope="module")
def play_page(tmp_path_factory, build_of):
    try:
        module = wasm_build.module_bytes()
    except wasm_build.BuildProblem as exc:
        pytest.skip(f"the WebAssembly core cannot be built here: {exc}")
    folder = tmp_path_factory.mktemp("web")
    path = folder / "play.html"
    path.write_text(web_page.render_play_page(module, {lang: build_of(lang).tap for lang, _ in web_page.TAPES}),
                    encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def key_record(tape_path, tmp_path_factory):
    """A game's keys as `play --record` writes them: no instructions, no muggins, the cut, two discards, a card."""
    return record_game(tape_path(), tmp_path_factory.mktemp("record") / "keys.json", SEED)


def _open(browser, path: Path, problems: list[str], width: int = 1280, height: int = 800):
    page = browser.new_page(viewport={"width": width, "height": height})
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url}"))
    page.on("response", lambda r: problems.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None)
    page.goto(path.as_uri())
    page.wait_for_function("window.zxPage && zxPage.session && zxPage.session.frames > 0", timeout=60_000)
    return page


def _screen_rows(page, reference_mem: bytes) -> list[str]:
    """The canvas read back by the project's screen reader (the font and UDGs from the embedded machine)."""
    mem = bytearray(reference_mem)
    mem[0x4000:0x5B00] = canvas_display(canvas_rgb(page.evaluate("zxPage.canvasRGBA()")))
    return read_screen(mem, udg_text=UDG_TEXT, font_text=koi7_char).rows


def _tab_to_the_screen(page) -> None:
    for _ in range(12):
        if page.evaluate("document.activeElement && document.activeElement.id") == "screen":
            return
        page.keyboard.press("Tab")
    raise AssertionError("Tab never reached the screen")


def _same_wait(line: int) -> list[int]:
    """The lines a wait at *line* may be seen at: the card selector's INKEY$ loop spans three."""
    return list(P.SELECTOR_WAITS) if line in P.SELECTOR_WAITS else [line]


# ----------------------------------------------------------------------------- in chromium
@pytest.mark.slow
@pytest.mark.parametrize("lang, title", [("ru", "ДОБРО ПОЖАЛОВАТЬ"), ("en", "WELCOME")])
def test_the_page_reaches_the_title_on_both_tapes(browser, play_page, tape_path, lang, title):
    problems: list[str] = []
    page = _open(browser, play_page, problems)
    page.evaluate(f"zxPage.start('{lang}', {SEED})")
    page.wait_for_function(f"zxPage.machine.wait() === 'input' && zxPage.machine.ppc === {P.ASK_INSTRUCTIONS}")
    page.wait_for_function("document.getElementById('status').textContent.startsWith('instructions?')")
    page.evaluate("zxPage.paused = true; zxPage.draw(true)")
    reference = PlaySession(PlaySettings(tape=tape_path(lang), scale=1, seed=SEED)).machine
    rows = _screen_rows(page, reference.read(0, 0x10000))
    assert any(title in r for r in rows), rows
    assert page.evaluate("zxPage.highlighted") == P.ASK_INSTRUCTIONS
    assert page.evaluate("document.querySelector('#listing li.now').id") == f"L{P.ASK_INSTRUCTIONS}"
    assert problems == []
    page.close()


@pytest.mark.slow
def test_a_key_record_replayed_in_the_page_gives_the_embedded_machines_ram_and_screen(browser, play_page,
                                                                                      tape_path, key_record):
    record = json.loads(key_record.read_text())
    frames = checkpoint_frames(record["frames"])
    embedded = embedded_checkpoints(tape_path(), key_record, frames)
    problems: list[str] = []
    page = _open(browser, play_page, problems)
    replay = "([r, c]) => zxPage.replay(r, c)"
    result = page.evaluate(replay, [record, frames])
    assert differences(embedded, result) == []
    assert len({c.ppc for c in embedded}) > 5                        # the highlight moved through the game
    assert len({c.status for c in embedded}) >= 2 and {c.real_time for c in embedded} >= {None, "pause", "message"}
    # the variables panel at the last checkpoint: the embedded machine's BasicVariables, name by name
    end = PlaySession(PlaySettings(tape=tape_path(), replay=key_record, scale=1))
    end.step(frames[-1])
    from harness.spectrum.variables import BasicVariables
    theirs = BasicVariables(end.machine)
    ours = dict(page.evaluate("ZX.readVariables(zxPage.machine.mem)"))
    assert list(ours) == theirs.names()
    for name, value in ours.items():
        want = theirs.get(name)
        want = getattr(want, "value", want)                         # a FOR variable: its value
        if name.endswith("$()"):
            assert value["values"] == "".join(str(x) for x in np.ravel(want)), name
        elif name.endswith("()"):
            assert value["values"] == [x for x in np.ravel(want)], name
        elif not name.endswith("$"):
            assert value == want, name
    rows = page.evaluate("Array.from(document.querySelectorAll('#variables tbody th')).map(t => t.textContent)")
    assert rows == theirs.names()                                   # one row each: the last replay's rows gone
    assert "The dealer" in page.inner_text("#variables")
    # near miss: each change's keys listed in another order, the same keys at the same frames
    reordered = dict(record, keys=[[f, list(reversed(k))] for f, k in record["keys"]])
    assert differences(embedded, page.evaluate(replay, [reordered, frames])) == []
    # planted: every key one frame later
    shifted = dict(record, keys=[[f + 1, k] for f, k in record["keys"]])
    found = differences(embedded, page.evaluate(replay, [shifted, frames]))
    assert any("RAM differs" in d for d in found), found
    assert problems == []
    page.close()


@pytest.mark.slow
def test_keys_typed_by_keyboard_alone_reach_the_waits_the_embedded_machine_reaches(browser, play_page, tape_path):
    embedded = PlaySession(PlaySettings(tape=tape_path(), scale=1, seed=SEED))
    typed = (["n", "Enter"], ["n", "Enter"], ["m"], ["Enter"])
    waits = []
    for spectrum_keys in (["N", "ENTER"], ["N", "ENTER"], ["M"], ["ENTER"]):
        w = keys(embedded, *spectrum_keys)
        waits.append((w.kind, _same_wait(w.line), embedded.caller() if w.line in P.SELECTOR_WAITS else None))
    assert [w[2] for w in waits] == [None, None, P.SELECT_FIRST_DISCARD, P.SELECT_SECOND_DISCARD]
    problems: list[str] = []
    page = _open(browser, play_page, problems)
    page.evaluate(f"zxPage.start('ru', {SEED})")
    _tab_to_the_screen(page)
    for host_keys, (kind, lines, caller) in zip(typed, waits):
        for key in host_keys:
            page.keyboard.press(key)
            page.wait_for_function("!zxPage.session.keysDown()")
            page.wait_for_timeout(200)
        page.wait_for_function(f"zxPage.machine.wait() === '{kind}' && {lines}.includes(zxPage.machine.ppc) "
                               "&& !zxPage.session.keysDown()", timeout=60_000)
        if caller is not None:
            assert page.evaluate("zxPage.session.caller()") == caller
    assert "choose 2 cards for the crib (the second" in page.inner_text("#status")
    page.evaluate("zxPage.paused = true; zxPage.draw(true)")
    assert page.evaluate("zxPage.highlighted") == page.evaluate("zxPage.machine.ppc")
    variables = page.inner_text("#variables")
    assert "DIR" in variables and "The dealer" in variables
    assert problems == []
    page.close()


@pytest.mark.slow
def test_a_narrow_window_has_no_sideways_scroll_and_the_help_opens_on_f1(browser, play_page):
    problems: list[str] = []
    page = _open(browser, play_page, problems, width=480, height=800)
    assert page.evaluate("document.documentElement.scrollWidth") <= 480
    _tab_to_the_screen(page)
    assert page.is_hidden("#help")
    page.keyboard.press("F1")
    assert page.is_visible("#help") and "CAPS SHIFT" in page.inner_text("#help")
    assert page.evaluate("Array.from(document.images).filter(i => !i.alt).length") == 0
    assert problems == []
    page.close()


@pytest.mark.slow
def test_the_pages_z80_is_the_embedded_machines_snapshot_and_a_saved_slot_loads_back(browser, play_page, tape_path,
                                                                                    key_record):
    from harness.spectrum import z80snap
    record = json.loads(key_record.read_text())
    problems: list[str] = []
    page = _open(browser, play_page, problems)
    page.evaluate("([r, c]) => zxPage.replay(r, c)", [record, [record["frames"]]])
    ours = z80snap.read_z80(base64.b64decode(page.evaluate("zxPage.z80Base64()")))
    embedded = PlaySession(PlaySettings(tape=tape_path(), replay=key_record, scale=1))
    embedded.step(record["frames"])
    theirs = z80snap.from_machine(embedded.machine)
    assert ours.version == 1 and ours.regs == theirs.regs
    assert (ours.iff1, ours.iff2, ours.int_mode, ours.border) == (theirs.iff1, theirs.iff2, theirs.int_mode, theirs.border)
    assert ours.ram == theirs.ram
    saved = page.evaluate("zxPage.save(3), zxPage.z80Base64()")
    page.evaluate("zxPage.session.step(300)")
    assert page.evaluate("zxPage.z80Base64()") != saved
    assert page.evaluate("zxPage.load(3)") is True
    assert page.evaluate("zxPage.z80Base64()") == saved
    assert "loaded slot 3" in page.inner_text("#saved")
    assert page.evaluate("zxPage.load(4)") is False and "slot 4 is empty" in page.inner_text("#saved")
    with pytest.raises(Exception, match="not a .z80 this page saved"):
        page.evaluate("zxPage.machine.loadZ80(new Uint8Array(100))")
    assert problems == []
    page.close()
