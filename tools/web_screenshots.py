"""Take docs/BROWSER.md's screenshots of play.html (headless Chromium, a 1280x800 window).

    .venv/bin/python -m tools.web_screenshots [--watch | --phone]

writes docs/figures/web-title.png (the Russian tape at «ДОБРО ПОЖАЛОВАТЬ», line 7060 highlighted),
docs/figures/web-game.png (the benchmark's key record replayed to its end: the card selector waits for a card to
play, its line highlighted, the variables live) and docs/figures/web-ignored-go.png (the English tape just after
ENTER on an empty slot under 22: the status line says why it was ignored), as 256-colour PNGs to keep them small; with --watch,
docs/figures/web-watch.png instead: a game page of report.html in watch mode (one `regress --rzx` game, seed 1, its
replay stopped at the first judgement with a documented difference, shown beside the screen); with --phone,
docs/figures/web-phone.png (390x844, touch: a link to the benchmark's game opened, the touch keys of the card
selector under the screen) and docs/figures/web-desk.png (1280x800: the same link, the English of the screen beside it).
"""
from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def watch_shot(chromium: str) -> int:
    from PIL import Image
    from playwright.sync_api import sync_playwright
    from harness.edition.report import write_report_html
    from harness.program.judge.judgements import read_judgements
    from harness.program.runs import regress
    from harness.web.watch import report_player
    player, why = report_player()
    if player is None:
        print(why)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        run = Path(tmp) / "run"
        regress.run(1, 1, 1, run, regress.RegressOptions(progress=False, rzx=True))
        write_report_html(run, player=player)
        _, judgements = read_judgements(run / "game-000.judgements.jsonl")
        n = next(n for n, j in enumerate(judgements, 1) if j.rules == "standard" and j.differences and j.observed)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto((run / "game-000.html").as_uri())
            page.wait_for_function("window.zxWatch && zxWatch.frames > 0")
            page.evaluate("zxWatch.ready")
            page.evaluate("(n) => { while (!(n in zxWatch.shownAt)) zxWatch.nextJudgement(); }", n)
            page.locator("#watch-title").scroll_into_view_if_needed()
            page.evaluate("window.scrollBy(0, document.getElementById('watch-title').getBoundingClientRect().top - 48)")
            page.focus("#watch-next")
            page.screenshot(path=str(Path(tmp) / "web-watch.png"))
            browser.close()
        Image.open(Path(tmp) / "web-watch.png").convert("RGB").quantize(256).save(ROOT / "docs" / "figures" / "web-watch.png",
                                                                                 optimize=True)
        print(ROOT / "docs" / "figures" / "web-watch.png")
    return 0


def phone_shots(chromium: str) -> int:
    from PIL import Image
    from playwright.sync_api import sync_playwright
    from harness.play.record import KeyRecord
    from harness.web.bench import record_game
    from harness.web.link import link_fragment
    from harness.web.page import tape_bytes, write_play_page
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        written = write_play_page(folder)
        if written.path is None:
            print(written.problem)
            return 2
        tape = folder / "cribbage.tap"
        tape.write_bytes(tape_bytes("ru"))
        record = KeyRecord.read(record_game(tape, folder / "keys.json"))
        url = written.path.as_uri() + "#" + link_fragment("ru", record.seed, record)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            for name, viewport, touch in (("web-phone.png", {"width": 390, "height": 844}, True),
                                          ("web-desk.png", {"width": 1280, "height": 800}, False)):
                context = browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch)
                page = context.new_page()
                page.goto(url)
                page.wait_for_function("window.zxPage && zxPage.moment !== null && zxPage.machine.wait() === 'inkey'",
                                       timeout=60_000)
                page.wait_for_timeout(600)
                if touch:
                    page.evaluate("window.scrollTo(0, document.getElementById('screenbox').offsetTop - 8)")
                page.screenshot(path=str(folder / name))
                context.close()
            browser.close()
        for name in ("web-phone.png", "web-desk.png"):
            Image.open(folder / name).convert("RGB").quantize(256).save(ROOT / "docs" / "figures" / name, optimize=True)
            print(ROOT / "docs" / "figures" / name)
    return 0


def main() -> int:
    from PIL import Image
    from playwright.sync_api import sync_playwright
    from harness.web.bench import record_game
    from harness.web.page import tape_bytes, write_play_page
    chromium = shutil.which("chromium")
    if chromium is None:
        print("chromium is not installed (tools/install-system-deps.sh)")
        return 2
    if "--watch" in sys.argv[1:]:
        return watch_shot(chromium)
    if "--phone" in sys.argv[1:]:
        return phone_shots(chromium)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        written = write_play_page(folder)
        if written.path is None:
            print(written.problem)
            return 2
        tape = folder / "cribbage.tap"
        tape.write_bytes(tape_bytes("ru"))
        record = json.loads(record_game(tape, folder / "keys.json").read_text())
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(written.path.as_uri())
            page.wait_for_function("window.zxPage && zxPage.titleAt !== null")
            page.evaluate("zxPage.start('ru', 4242)")
            page.wait_for_function("document.getElementById('status').textContent.startsWith('instructions?')")
            page.focus("#screen")
            shots = [("web-title.png", None)]
            page.screenshot(path=str(folder / "web-title.png"))
            page.evaluate("(r) => zxPage.replay(r, [r.frames])", record)
            page.evaluate("zxPage.paused = false")
            page.wait_for_timeout(300)
            page.evaluate("zxPage.paused = true")
            page.screenshot(path=str(folder / "web-game.png"))
            shots.append(("web-game.png", None))
            from tools.play_shots import to_ignored_go
            en = folder / "cribbage-en.tap"
            en.write_bytes(tape_bytes("en"))
            s = to_ignored_go(en, record=folder / "ignored.json")
            ignored = s.frames
            s.step(5)
            s.close()
            page.evaluate("([r, c]) => zxPage.replay(r, c, 'en')",
                          [json.loads((folder / "ignored.json").read_text()), [ignored]])
            page.evaluate("zxPage.paused = false; zxPage.draw(true)")
            page.screenshot(path=str(folder / "web-ignored-go.png"))
            shots.append(("web-ignored-go.png", None))
            browser.close()
        for name, _ in shots:
            Image.open(folder / name).convert("RGB").quantize(256).save(ROOT / "docs" / "figures" / name, optimize=True)
            print(ROOT / "docs" / "figures" / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
