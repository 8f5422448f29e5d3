"""play.html as a player's front door, in Debian's chromium: a phone by taps alone, links to a moment, the
keyboard the game's, the screen in English (issue 47).

The browser is tests/oracles/browser/conftest.py's. The embedded machine (PlaySession) is the reference throughout: the page's taps reach the waits it reaches
with the same keys, and a link's frame and hash are the ones `play --hash` computes for the same record.
"""
from __future__ import annotations

import base64
import json
import zlib
from pathlib import Path

import pytest

from harness.play.record import KeyRecord, moment_hash, tape_digest
from harness.play.session import PlaySession
from harness.play.settings import PlaySettings
from harness.program.model import program as P
from harness.spectrum.variables import BasicVariables
from harness.web import build as wasm_build
from harness.web import page as web_page
from harness.web.bench import record_game
from harness.web.link import decode_keys, link_fragment, read_fragment
from helpers import watch_console

pytestmark = pytest.mark.slow
SEED = 4242
PHONE = {"width": 390, "height": 844}
QUESTION = ["Y", "N", "DELETE", "ENTER"]
SELECTOR = ["SPACE", "ENTER"]
ANY = ["ANY KEY"]
#: the touch row each wait of a deal must show (written here, not read from waits.py)
ROWS = {P.ASK_INSTRUCTIONS: QUESTION, P.ASK_MUGGINS: QUESTION, P.CUT_WAIT: ANY, P.SHOW_PAUSE: ANY,
        P.NEXT_DEAL_WAIT: ANY, **{line: SELECTOR for line in P.SELECTOR_WAITS}}
#: what the touch keys press on the embedded machine (ANY KEY: any key will do; ENTER is the one tapped)
SPECTRUM = {"Y": "Y", "N": "N", "ENTER": "ENTER", "SPACE": "SPACE", "ANY KEY": "ENTER"}


@pytest.fixture(scope="module")
def play_page(tmp_path_factory, build_of):
    try:
        module = wasm_build.module_bytes()
    except wasm_build.BuildProblem as exc:
        pytest.skip(f"the WebAssembly core cannot be built here: {exc}")
    path = tmp_path_factory.mktemp("web-phone") / "play.html"
    path.write_text(web_page.render_play_page(module, {lang: build_of(lang).tap for lang, _ in web_page.TAPES}),
                    encoding="utf-8")
    return path


def _open(browser, url: str, problems: list[str], touch: bool = False, viewport: dict | None = None):
    context = browser.new_context(viewport=viewport or {"width": 1280, "height": 800}, has_touch=touch,
                                  is_mobile=touch)
    page = context.new_page()
    watch_console(page, problems)
    page.goto(url)
    page.wait_for_function("window.zxPage && zxPage.titleAt !== null", timeout=60_000)
    return page


def _group(line: int) -> list[int]:
    return list(P.SELECTOR_WAITS) if line in P.SELECTOR_WAITS else [line]


def _deal_taps(line: int, caller: int | None, visits: int) -> list[str]:
    """The labels a thumb taps at a wait: N ENTER at a question, any key where any key does; at the card selector
    ENTER for the first discard and a go, SPACE ENTER for the second, and SPACE k times (k = visits mod 4: the
    pointer starts at slot 1 each time) then ENTER for a card to play, so a refused card leads to the next."""
    if line in (P.ASK_INSTRUCTIONS, P.ASK_MUGGINS):
        return ["N", "ENTER"]
    if line in P.SELECTOR_WAITS:
        if caller == P.SELECT_PLAY:
            return ["SPACE"] * (visits % 4) + ["ENTER"]
        return ["ENTER"] if caller in (P.SELECT_FIRST_DISCARD, P.SELECT_GO_CONFIRM) else ["SPACE", "ENTER"]
    return ["ANY KEY"]


def _x(s: PlaySession):
    x = BasicVariables(s.machine).get("X")
    return getattr(x, "value", x)


def test_a_whole_deal_by_taps_alone_at_390x844_reaches_the_embedded_machines_waits(browser, play_page, tape_path):
    embedded = PlaySession(PlaySettings(tape=tape_path(), scale=1, seed=SEED, sound=False))
    w = embedded.run_until_wait()
    problems: list[str] = []
    page = _open(browser, play_page.as_uri() + f"#lang=ru&seed={SEED}", problems, touch=True, viewport=PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.evaluate("matchMedia('(pointer: coarse)').matches")
    sizes = page.evaluate("Array.from(document.querySelectorAll('#touchkeys button'), b => "
                          "[b.getBoundingClientRect().width, b.getBoundingClientRect().height])")
    assert sizes and all(wd >= 44 and h >= 44 for wd, h in sizes), sizes        # thumb-sized (WCAG 2.5.5: 44 px)
    page.tap("#noreading")        # no reading time: the PAUSEs and messages unpaced, the machine's frames the same
    assert page.evaluate("zxPage.readingTime") is False
    seen, visits, taps = [], 0, 0
    for _ in range(60):
        caller = embedded.caller() if w.line in P.SELECTOR_WAITS else None
        seen.append((w.kind, w.line, caller))
        page.wait_for_function(f"zxPage.machine.wait() === '{w.kind}' && {_group(w.line)}.includes(zxPage.machine.ppc)"
                               f" && zxPage.session.caller() === {json.dumps(caller) if caller else 'zxPage.session.caller()'}"
                               " && !zxPage.session.keysDown()", timeout=60_000)
        if w.line == P.NEXT_DEAL_WAIT:
            break
        row = page.evaluate("Array.from(document.querySelectorAll('#touchkeys button'), b => b.textContent)")
        assert row == ROWS[w.line], (w.line, caller, row)
        labels = _deal_taps(w.line, caller, visits)
        visits += caller == P.SELECT_PLAY
        for label in labels:
            embedded.tap(SPECTRUM[label])
            w = embedded.run_until_wait()
            x = _x(embedded)
            page.tap(f'#touchkeys button[data-key="{label}"]')
            taps += 1
            page.wait_for_function(
                f"!zxPage.session.keysDown() && zxPage.machine.wait() === '{w.kind}' && "
                f"{_group(w.line)}.includes(zxPage.machine.ppc) && "
                f"Object.fromEntries(ZX.readVariables(zxPage.machine.mem)).X === {x}", timeout=60_000)
    else:
        raise AssertionError(f"no next deal after {len(seen)} waits")
    kinds = {(line, caller) for _, line, caller in seen}
    assert {(P.CUT_WAIT, None), (P.SHOW_PAUSE, None), (P.NEXT_DEAL_WAIT, None)} <= kinds
    assert {c for _, c in kinds} >= {P.SELECT_FIRST_DISCARD, P.SELECT_SECOND_DISCARD, P.SELECT_PLAY}
    assert page.evaluate("zxPage.session.frames") > 0 and taps >= 15
    assert page.evaluate("zxPage.ran.skipped") > 0                               # reading time was run ahead
    assert page.evaluate("document.activeElement.id") == "screen"                 # taps left the keyboard there
    assert problems == []
    page.context.close()


def _embedded_hash(tape: Path, seed: int, record: Path | None) -> tuple[int, str]:
    s = PlaySession(PlaySettings(tape=tape, scale=1, seed=seed, sound=False, replay=record))
    if record is not None:
        s.step(KeyRecord.read(record).frames)
    return s.frames, moment_hash(s.machine.read(0x4000, 0xC000), s.machine.s.border)


@pytest.fixture(scope="module")
def mid_deal(tape_path, tmp_path_factory):
    """A record to the card selector's second discard wait and a card to play (bench's game)."""
    return record_game(tape_path(), tmp_path_factory.mktemp("moment") / "keys.json", SEED)


def test_links_open_the_moment_the_embedded_machine_reaches(browser, play_page, tape_path, mid_deal,
                                                            tmp_path, capsys):
    record = KeyRecord.read(mid_deal)
    en_record = tmp_path / "en.json"
    record_game(tape_path("en"), en_record, 77)
    cases = [("ru", 1234, None), ("en", 1234, None), ("ru", SEED, mid_deal), ("en", 77, en_record)]
    problems: list[str] = []
    page = None
    hashes = set()
    for lang, seed, path in cases:
        want = _embedded_hash(tape_path(lang), seed, path)
        fragment = link_fragment(lang, seed, KeyRecord.read(path) if path else None)
        url = play_page.as_uri() + "#" + fragment
        if page is None:
            page = _open(browser, url, problems)
        else:
            page.evaluate("(f) => { location.hash = f; }", fragment)
        page.wait_for_function(f"zxPage.moment !== null && zxPage.lang === '{lang}' && zxPage.session.seed === {seed}",
                               timeout=60_000)
        got = page.evaluate("zxPage.moment")
        assert (got["frame"], got["hash"]) == want, (lang, seed, path)
        assert f"frame {want[0]} · hash {want[1]}" in page.inner_text("#momentinfo")
        assert not page.evaluate("zxPage.session.replaying")                       # the keys are the player's
        hashes.add(got["hash"])
    assert len(hashes) == len(cases)
    # the command prints what the page shows, for the record mid-deal
    from harness.commands import play
    assert play.main(["--replay", str(mid_deal), "--hash"]) == 0
    frame, digest = _embedded_hash(tape_path(), SEED, mid_deal)
    assert capsys.readouterr().out.strip().endswith(f"frame {frame} hash {digest}")
    assert page.evaluate("document.querySelector('#L510').textContent").count("I THINK") == 1   # en listing last
    # the page's own "link to this moment": decoded here, replayed on the embedded machine, the same hash
    page.evaluate("zxPage.paused = true")
    page.evaluate("zxPage.session.step(37)")
    made = page.evaluate("zxPage.linkHere()")
    fields = read_fragment(made["url"].split("#", 1)[1])
    assert fields["lang"] == "en" and fields["seed"] == "77"
    again = decode_keys(fields["keys"], tape_digest(tape_path("en").read_bytes()), 77)
    assert again.frames == made["moment"]["frame"] >= KeyRecord.read(en_record).frames + 37   # it ran on a little
    again_path = tmp_path / "again.json"
    again.write(again_path)
    assert _embedded_hash(tape_path("en"), 77, again_path) == (made["moment"]["frame"], made["moment"]["hash"])
    # planted: the record with its last key change one frame later gives another hash at the same frame
    late = KeyRecord(record.tape_sha256, record.seed,
                     record.changes[:-1] + [(record.changes[-1][0] + 1, record.changes[-1][1])], record.frames)
    page.evaluate("(f) => { location.hash = f; }", link_fragment("ru", SEED, late))
    page.wait_for_function(f"zxPage.moment !== null && zxPage.lang === 'ru' && zxPage.session.seed === {SEED}",
                           timeout=60_000)
    assert page.evaluate("zxPage.moment")["hash"] != _embedded_hash(tape_path(), SEED, mid_deal)[1]
    # damaged: one line on the page, and a game still runs
    for bad, said in ((f"lang=ru&seed={SEED}&keys=@@@", "is not a deflated key record"),
                      ("lang=xx&seed=1", "lang=xx"),
                      (f"lang=ru&seed={SEED}&keys=" + base64.urlsafe_b64encode(_deflate(b"2;10")).decode().rstrip("="),
                       "version 2")):
        page.evaluate("(f) => { location.hash = f; }", bad)
        page.wait_for_function(f"document.getElementById('linkproblem').textContent.includes({json.dumps(said)})")
        assert "\n" not in page.inner_text("#linkproblem")
    assert problems == []
    page.context.close()


def _deflate(data: bytes) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    return packer.compress(data) + packer.flush()


def _at_the_selector(page) -> None:
    page.wait_for_function("zxPage.machine.wait() === 'inkey' && [3725, 3730, 3750].includes(zxPage.machine.ppc) "
                           "&& !zxPage.session.keysDown()", timeout=60_000)


def test_enter_after_save_and_space_after_pause_reach_the_game(browser, play_page, mid_deal):
    record = KeyRecord.read(mid_deal)
    problems: list[str] = []
    page = _open(browser, play_page.as_uri() + "#" + link_fragment("ru", SEED, record), problems)
    page.wait_for_function("zxPage.moment !== null", timeout=60_000)
    assert page.evaluate("document.activeElement.id") == "screen"              # the screen has it from the start
    _at_the_selector(page)
    x = "Object.fromEntries(ZX.readVariables(zxPage.machine.mem)).X"
    before = page.evaluate(x)
    page.click("#pause")
    assert page.is_visible("#overlay") and "PAUSED" in page.inner_text("#overlay")
    assert page.evaluate("document.activeElement.id") == "screen"
    page.keyboard.press(" ")                                                    # paused: SPACE neither un-pauses
    assert page.evaluate("zxPage.paused") is True and page.evaluate(x) == before  # nor moves the pointer
    page.click("#pause")
    assert page.evaluate("zxPage.paused") is False and page.is_hidden("#overlay")
    page.keyboard.press(" ")
    page.wait_for_function(f"{x} !== {before}", timeout=30_000)                # SPACE moved the card pointer
    _at_the_selector(page)
    page.click("#save")
    assert "saved in slot 1" in page.inner_text("#saved")
    page.evaluate("document.getElementById('saved').textContent = ''")
    slot = page.evaluate("localStorage.getItem('cribbage-zx play.html save 1')")
    page.keyboard.press("Enter")                                                # ENTER plays the card, not Save again
    page.wait_for_function("!(zxPage.machine.wait() === 'inkey' && zxPage.machine.ppc >= 3725 && "
                           "zxPage.machine.ppc <= 3750)", timeout=30_000)
    assert page.inner_text("#saved") == ""
    assert page.evaluate("localStorage.getItem('cribbage-zx play.html save 1')") == slot
    # every button and menu hands the keyboard back to the screen
    buttons = page.evaluate("Array.from(document.querySelectorAll('#controls button, #moment button, "
                            "#replaying button'), b => b.id)")
    assert {"restart", "pause", "save", "load", "download", "savesession", "linkbutton", "nextwait"} <= set(buttons)
    for button in buttons:
        if button == "savesession" and page.evaluate("zxPage.fromSlot"):     # a slot has no keys from the start
            page.click(f"#{button}")
            assert "no keys from its start" in page.inner_text("#linkproblem")
        elif button in ("download", "savesession"):
            with page.expect_download():
                page.click(f"#{button}")
        else:
            page.click(f"#{button}")
        page.wait_for_function("document.activeElement.id === 'screen'", timeout=10_000)
        if page.evaluate("zxPage.userPaused"):
            page.click("#pause")
    for select, value in (("#slot", "2"), ("#replayspeed", "4"), ("#tape", "en")):
        page.select_option(select, value)
        assert page.evaluate("document.activeElement.id") == "screen", select
    # the keyboard elsewhere: the screen says so, and a click there gives it back
    page.focus("#seed")
    assert "Click here to type" in page.inner_text("#overlay")
    page.click("#overlay")
    assert page.evaluate("document.activeElement.id") == "screen" and page.is_hidden("#overlay")
    assert problems == []
    page.context.close()


def test_the_panel_shows_the_english_of_a_planted_message_and_says_each_prompt(browser, play_page, tape_path):
    """«НЕВЕРНО. Я ПОЛУЧАЮ ОЧКИ!» written into the title's screen by the program's own PRINT (the machine's font):
    the panel lists it with the English edition's words, and the live region says them."""
    problems: list[str] = []
    page = _open(browser, play_page.as_uri() + f"#lang=ru&seed={SEED}", problems)
    page.wait_for_function("zxPage.machine.wait() === 'input' && zxPage.translations().length >= 2", timeout=60_000)
    shown = page.evaluate("zxPage.translations()")
    assert "«ДОБРО ПОЖАЛОВАТЬ» WELCOME" in shown
    # at a desk's width the panel is beside the screen, not under it
    machine, side = (page.evaluate(f"document.getElementById('{i}').getBoundingClientRect().toJSON()")
                     for i in ("machine", "side"))
    assert side["left"] >= machine["right"] and side["top"] < machine["top"] + 40
    assert page.inner_text("#legend").startswith("cards: Т = A (ТУЗ), В = J, Д = Q, К = K")
    assert "NEED INSTRUCTIONS" in page.inner_text("#said")
    assert page.get_attribute("#said", "aria-live") == "polite"
    # the planted message: the embedded machine draws it at row 10 of the title (its screen copied in)
    s = PlaySession(PlaySettings(tape=tape_path(), scale=1, seed=SEED, sound=False))
    planted = _printed(s, "12 - НЕВЕРНО. Я ПОЛУЧАЮ ОЧКИ!")
    page.evaluate("(b) => { zxPage.paused = true; zxPage.machine.mem.set(Uint8Array.from(atob(b), c => c.charCodeAt(0)),"
                  " 0x4000); zxPage.draw(true); }", base64.b64encode(planted).decode())
    shown = page.evaluate("zxPage.translations()")
    assert "«- НЕВЕРНО. Я ПОЛУЧАЮ ОЧКИ!» - WRONG! I TAKE THE POINTS" in shown, shown
    assert "«Я» " not in " ".join(shown)                                       # «Я» inside it not said again
    assert page.evaluate("zxPage.said") == "- WRONG! I TAKE THE POINTS"      # only what is new, in English
    # near miss: the English tape's screen has no Russian text, and the panel says it is English
    page.evaluate("zxPage.openLink('#lang=en&seed=5')")
    page.wait_for_function("zxPage.lang === 'en' && zxPage.machine.wait() === 'input'", timeout=60_000)
    page.evaluate("zxPage.draw(true)")
    assert page.evaluate("zxPage.translations()") == []
    assert "English" in page.inner_text("#legend")
    assert problems == []
    page.context.close()


def _printed(s: PlaySession, text: str, row: int = 10) -> bytes:
    """The display file and attributes with *text* drawn at *row*, column 0, in the program's font at CHARS
    (as PRINT draws it: each code's 8 bytes down the cell's 8 pixel lines)."""
    from harness.spectrum.charset import encode
    m = s.machine
    screen = bytearray(m.read(0x4000, 0x1B00))
    chars = m.read(23606, 2)
    chars = chars[0] | chars[1] << 8
    for col, code in enumerate(encode(text)):
        glyph = m.read(chars + 8 * code, 8)
        for line in range(8):
            screen[((row & 0x18) << 8) + (line << 8) + ((row & 7) << 5) + col] = glyph[line]
    return bytes(screen)


def test_a_key_record_opened_from_a_file_replays_and_one_of_another_tape_is_refused(browser, play_page, tape_path,
                                                                                     mid_deal, tmp_path):
    problems: list[str] = []
    page = _open(browser, play_page.as_uri(), problems)
    record = KeyRecord.read(mid_deal)
    # step to the next wait at x1, then as fast as it goes to the record's end: the embedded machine's hash
    page.select_option("#replayspeed", "1")
    page.set_input_files("#open", str(mid_deal))
    page.wait_for_function(f"zxPage.session.seed === {SEED} && zxPage.session.replaying")
    first = page.evaluate("zxPage.toNextWait()")
    assert first["wait"] is not None and 0 < first["frame"] < record.frames
    assert page.evaluate("zxPage.paused") and "PAUSED" in page.inner_text("#overlay")
    second = page.evaluate("zxPage.toNextWait()")
    assert second["frame"] > first["frame"]
    page.select_option("#replayspeed", "max")
    page.click("#pause")
    page.wait_for_function("zxPage.moment !== null", timeout=60_000)
    got = page.evaluate("zxPage.moment")
    assert (got["frame"], got["hash"]) == _embedded_hash(tape_path(), SEED, mid_deal)
    # the game's own variables first: the count, the scores, the dealer, the hands, as the embedded machine has them
    page.click("#pause")
    page.evaluate("zxPage.draw(true)")
    end = PlaySession(PlaySettings(tape=tape_path(), scale=1, replay=mid_deal, sound=False))
    end.step(page.evaluate("zxPage.session.frames"))                 # past the record: no key on either
    theirs = BasicVariables(end.machine)
    order = ["SUM", "S()", "G()", "DIR", "MUG", "A()", "A$()", "C()", "C$()", "E()", "E$()"]
    rows = page.evaluate("Array.from(document.querySelectorAll('#gamevariables tbody tr'), "
                         "r => [r.children[0].textContent, r.children[1].textContent])")
    assert [n for n, _ in rows] == [n for n in order if n in theirs.names()] and len(rows) >= 8
    assert dict(rows)["DIR"] == str(int(theirs.get("DIR"))) and dict(rows)["A$()"] == \
        "(6) " + json.dumps("".join(str(x) for x in theirs.get("A$()")), ensure_ascii=False)
    page.click("#pause")
    # refused in one line: another tape's record, a damaged one, not a record; the game goes on
    data = json.loads(mid_deal.read_text())
    other = tmp_path / "other.json"
    other.write_text(json.dumps(dict(data, tape_sha256=tape_digest(b"another tape"))))
    damaged = tmp_path / "damaged.json"
    damaged.write_text(mid_deal.read_text()[:-40])
    foreign = tmp_path / "foreign.json"
    foreign.write_text(json.dumps({"format": "something else"}))
    late = tmp_path / "late.json"                                                 # near miss: a valid record
    late.write_text(json.dumps(dict(data, keys=data["keys"][:-1])))
    for path, said in ((other, "other.json: a record of another tape (SHA-256 "),
                       (damaged, "damaged.json: damaged, not JSON"),
                       (foreign, "foreign.json: not a key record")):
        page.set_input_files("#open", str(path))
        page.wait_for_function(f"document.getElementById('linkproblem').textContent.startsWith({json.dumps(said)})")
        assert "\n" not in page.inner_text("#linkproblem")
    page.set_input_files("#open", str(late))
    page.wait_for_function("document.getElementById('linkproblem').textContent === '' && zxPage.moment !== null",
                           timeout=60_000)
    assert problems == []
    page.context.close()


def _runs(levels) -> list[int]:
    """The lengths of the runs of one level in a square wave's samples (a BEEP's half-periods)."""
    out, n = [], 1
    for a, b in zip(levels, levels[1:]):
        if (a > 0) == (b > 0):
            n += 1
        else:
            out.append(n)
            n = 1
    return out + [n]


def test_the_pages_beeper_gives_the_embedded_machines_edges_tone_and_length(browser, play_page, tape_path,
                                                                            mid_deal):
    """The record's key clicks and the program's BEEP (frames 217-222 of the benchmark's game): the page's ear
    edges frame by frame are the embedded BeeperSpectrum's, at the same T-states; its samples at 44.1 kHz
    have BeeperTrack's half-periods (the tone) over the same span (the length); Sound ticked by a click (the
    gesture a browser wants) starts the audio and feeds it samples."""
    from harness.play.beeper import BeeperTrack
    record = KeyRecord.read(mid_deal)
    s = PlaySession(PlaySettings(tape=tape_path(), scale=1, replay=mid_deal, sound=False))
    theirs, track, their_samples = {}, BeeperTrack(), []
    for frame in range(record.frames):
        s.step()
        edges, level = s.machine.frame_edges, s.machine.frame_level
        if edges:
            theirs[frame] = [t for t, _ in edges]
        their_samples.append((frame, track.frame(edges, level)))
    problems: list[str] = []
    page = _open(browser, play_page.as_uri(), problems)
    ours = page.evaluate("""async (r) => {
        zxPage.paused = true;
        await zxPage.start('ru', r.seed, r);
        const out = {edges: {}, samples: []};
        let level = zxPage.machine.x.ear();
        const n = Math.round(44100 * ZX.FRAME_T / 3500000);
        for (let f = 0; f < r.frames; f++) {
            zxPage.session.step();
            const x = zxPage.machine.x, c = x.frame_edges(), at = new Uint32Array(x.memory.buffer, x.edges(), c);
            if (c) out.edges[f] = Array.from(at);
            out.samples.push(Array.from(ZX.beeperSamples(at, level, n)));
            level = x.ear();
        }
        return out;
    }""", {"seed": record.seed, "frames": record.frames, "keys": [[f, list(k)] for f, k in record.changes]})
    ours_edges = {int(f): e for f, e in ours["edges"].items()}
    assert sorted(ours_edges) == sorted(theirs) and len(theirs) > 10
    beep = [f for f, e in theirs.items() if len(e) > 10]
    assert beep, "the record has no BEEP"
    for frame, edges in theirs.items():
        assert len(ours_edges[frame]) == len(edges), frame
        assert max(abs(a - b) for a, b in zip(ours_edges[frame], edges)) <= 32, frame   # the interrupt's T-states
    span = range(min(beep) - 1, max(beep) + 2)
    page_wave = [v for f in span for v in ours["samples"][f]]
    their_wave = [int(v) for f, samples in their_samples if f in span for v in samples]
    ours_runs, their_runs = _runs(page_wave)[1:-1], _runs(their_wave)[1:-1]       # whole half-periods only
    assert len(ours_runs) == len(their_runs) > 100                                # the same length, edge for edge
    tone = sorted(their_runs)[len(their_runs) // 2]
    assert abs(sorted(ours_runs)[len(ours_runs) // 2] - tone) <= 1 and 20 <= tone <= 40   # ~830 Hz at 44.1 kHz
    assert abs(sum(ours_runs) - sum(their_runs)) <= 2 * 44100 / 50                 # within two frames' samples
    # planted: the page's edges one frame late, or the BEEP's 40 T-states late, are told apart
    late = {f + 1: e for f, e in ours_edges.items()}
    assert sorted(late) != sorted(theirs)
    shifted = [t + 40 for t in ours_edges[beep[0]]]
    assert max(abs(a - b) for a, b in zip(shifted, theirs[beep[0]])) > 32
    # Sound: ticked by a click, the audio runs (what it is fed is beeperSamples', checked above)
    page.evaluate("zxPage.paused = false")
    assert page.evaluate("zxPage.audioState()") == "none"
    page.click("#sound")
    page.wait_for_function("zxPage.audioState() === 'running'", timeout=30_000)
    assert page.evaluate("document.activeElement.id") == "screen"
    assert problems == []
    page.context.close()


def test_a_session_saved_in_the_page_opens_where_it_was_in_the_page_and_in_play_load(browser, play_page, tape_path,
                                                                                     mid_deal, tmp_path):
    from harness.spectrum import z80snap
    problems: list[str] = []
    page = _open(browser, play_page.as_uri() + "#" + link_fragment("ru", SEED, KeyRecord.read(mid_deal)), problems)
    page.wait_for_function("zxPage.moment !== null", timeout=60_000)
    page.evaluate("zxPage.paused = true")
    page.evaluate("zxPage.session.step(25)")
    text = page.evaluate("zxPage.sessionText()")
    at = page.evaluate("zxPage.showMoment()")
    saved = tmp_path / "session.json"
    saved.write_text(text)
    # play --load's session: the page's machine, register for register and byte for byte
    loaded = PlaySession(PlaySettings(load=saved, scale=1, sound=False))
    ours = z80snap.read_z80(base64.b64decode(json.loads(text)["z80"]))
    theirs = z80snap.from_machine(loaded.machine)
    assert (theirs.regs, theirs.ram, theirs.border) == (ours.regs, ours.ram, ours.border)
    assert loaded.seed == SEED
    assert moment_hash(loaded.machine.read(0x4000, 0xC000), loaded.machine.s.border) == at["hash"]
    # the page: another game, then the file opened again: the same frame and hash, and 200 frames on the same
    # as play --load's 200 frames on
    page.evaluate("zxPage.openLink('#lang=en&seed=3')")
    page.wait_for_function("zxPage.lang === 'en'", timeout=60_000)
    page.set_input_files("#open", str(saved))
    page.wait_for_function(f"zxPage.lang === 'ru' && zxPage.moment !== null && zxPage.moment.frame === {at['frame']}",
                           timeout=60_000)
    assert page.evaluate("zxPage.moment")["hash"] == at["hash"]
    page.evaluate(f"zxPage.paused = true; zxPage.session.step({at['frame']} + 200 - zxPage.session.frames)")
    loaded.step(200)                                     # it ran on a little before the pause: no key, the same
    assert page.evaluate("zxPage.showMoment()")["hash"] == \
        moment_hash(loaded.machine.read(0x4000, 0xC000), loaded.machine.s.border)
    # its keys came with it: the link made now replays on the embedded machine to the page's hash
    made = page.evaluate("zxPage.linkHere()")
    fields = read_fragment(made["url"].split("#", 1)[1])
    again = tmp_path / "again.json"
    decode_keys(fields["keys"], tape_digest(tape_path().read_bytes()), SEED).write(again)
    assert _embedded_hash(tape_path(), SEED, again) == (made["moment"]["frame"], made["moment"]["hash"])
    # refused in one line: another tape's session, a damaged .z80
    data = json.loads(text)
    for name, bad, said in (("other.json", dict(data, tape_sha256="00" * 32), "other.json: a session of another tape"),
                            ("short.json", dict(data, z80=data["z80"][:400]), "short.json: damaged: not a .z80")):
        (tmp_path / name).write_text(json.dumps(bad))
        page.set_input_files("#open", str(tmp_path / name))
        page.wait_for_function(f"document.getElementById('linkproblem').textContent.startsWith({json.dumps(said)})")
    assert problems == []
    page.context.close()


def test_an_rzx_opened_from_a_file_replays_to_the_embedded_machines_screen_and_another_programs_is_refused(
        browser, play_page, tape_path, tmp_path):
    """An RZX of `play --record-rzx` (the benchmark's keys, from the first question): the page replays it with no
    traps, then hands the machine to the player; its screen is the embedded machine's at the recording's end,
    its RAM too but for the two stack bytes of the interrupt offered after the last frame."""
    import dataclasses
    from harness.spectrum import z80snap
    from harness.spectrum.rzx import read_rzx, write_rzx
    from harness.web.bench import GAME_KEYS
    rzx_path = tmp_path / "game.rzx"
    s = PlaySession(PlaySettings(tape=tape_path(), seed=SEED, scale=1, sound=False, record_rzx=rzx_path))
    for keys in GAME_KEYS[:4]:
        for key in keys:
            s.tap(key)
        s.run_until_wait()
    s.close()
    end = bytes(s.machine.read(0x4000, 0xC000))
    problems: list[str] = []
    page = _open(browser, play_page.as_uri(), problems)
    page.set_input_files("#open", str(rzx_path))
    page.wait_for_function("zxPage.moment !== null && zxPage.handedOver !== undefined", timeout=120_000)
    page.evaluate("zxPage.handedOver")
    page.evaluate("zxPage.paused = true")
    assert page.evaluate("zxPage.rzxProblems") == []
    assert page.evaluate("zxPage.moment.frame") == s.rzx_frames
    ram = base64.b64decode(page.evaluate("zxPage.rzxEnd"))[30:]
    assert ram[:0x1B00] == end[:0x1B00]                                          # the screen
    assert sum(a != b for a, b in zip(ram, end)) <= 2
    assert page.evaluate("zxPage.lang") == "ru" and not page.evaluate("zxPage.session.replaying")
    assert page.input_value("#seed") == str(SEED)           # the session its creator data names (near miss below)
    # refused in one line: damaged, a recording of another program (one byte of its listing changed), and one
    # whose creator data names another tape (the program in its snapshot this page's)
    damaged = tmp_path / "damaged.rzx"
    damaged.write_bytes(rzx_path.read_bytes()[:200])
    data = read_rzx(rzx_path.read_bytes())
    snap = z80snap.read_z80(data.snapshot)
    ram2 = bytearray(snap.ram)
    prog = ram2[23635 - 0x4000] | ram2[23636 - 0x4000] << 8
    ram2[prog - 0x4000 + 10] ^= 0x01
    other = tmp_path / "other.rzx"
    other.write_bytes(write_rzx(dataclasses.replace(data, snapshot=z80snap.write_z80(
        dataclasses.replace(snap, ram=bytes(ram2))))))
    other_tape = tmp_path / "other-tape.rzx"
    other_tape.write_bytes(write_rzx(dataclasses.replace(data, custom=data.custom.replace(
        tape_digest(tape_path().read_bytes()).encode(), b"0" * 64))))
    for path, said in ((damaged, "damaged.rzx: damaged: "), (other, "other.rzx: a recording of another program"),
                       (other_tape, "other-tape.rzx: a recording on the tape of SHA-256 000000000000…, not on this "
                                    "page's ru tape")):
        page.set_input_files("#open", str(path))
        page.wait_for_function(f"document.getElementById('linkproblem').textContent.startsWith({json.dumps(said)})")
        assert "\n" not in page.inner_text("#linkproblem")
    assert problems == []
    page.context.close()
