"""Every page of report.html and the edition in Chromium: no console error, every image loaded with its alt text, no sideways scroll; the check itself catches a planted missing file and a wide page."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from helpers import watch_console

from harness.commands import regress as regress_command


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    """Two whole games played and checked by regress, which writes report.html itself."""
    out = tmp_path_factory.mktemp("regress")
    regress_command.main(["--games", "2", "--workers", "1", "--seed", "1", "--out", str(out), "--quiet"])
    return out


# ----------------------------------------------------------------------------- in a real browser
def _browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip: the test extra)")
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.skip("Debian's chromium is not installed (tools/install-system-deps.sh)")
    return sync_api, chromium


IMAGES_OK = """Array.from(document.images).filter(i => !(i.complete && i.naturalWidth > 0) || !i.alt.trim())
               .map(i => i.getAttribute('src') + (i.alt.trim() ? ' (not loaded)' : ' (no alt text)'))"""


def _russian_with_english() -> list[tuple[str, str]]:
    """Every Russian string and REM of the tape and its English (basic/translation.tsv), as one line of words
    (the English with the 32-column layout undone as harness/edition/text.py does, tested in test_playing_guide)."""
    from harness.program.model.build import build
    from harness.edition.site import readable_spelling
    from harness.edition.text import as_words
    from harness.program.model.english import literals, needs_translation, read_table
    table = {(t.line, t.russian): t.english for t in read_table()}
    out = []
    for lit in literals(build().program):
        if needs_translation(lit):
            english = table[(lit.line, lit.text)]
            # the Russian drawn as laid out (glyph by glyph), the English beside it as one line of words
            out.append((" ".join(readable_spelling(lit.text).split()), as_words(readable_spelling(english), lit.kind)))
    assert len(out) == len(table)
    return out


@pytest.mark.slow
def test_every_page_of_the_report_and_the_edition_in_chromium(run_dir):
    """No console error, no failed request, no page wider than a 1280 px window, every image loaded with alt
    text; on the listing, every Russian string and REM with its English."""
    sync_api, chromium = _browser()
    pages = ["report.html", "game-000.html", "game-001.html"] + \
        sorted(f"listing/{p.name}" for p in (run_dir / "listing").glob("*.html"))
    assert len(pages) > 45
    failures: dict[str, list[str]] = {}
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            problems: list[str] = []
            watch_console(page, problems)
            for name in pages:
                problems.clear()
                # the listing's pages load what they show before "load" (images, a stylesheet: a missing one
                # fails before it, as the planted test below shows); the report and the game pages fetch
                # their recordings from script after it, so those wait for the network to go quiet
                wait = "load" if name.startswith("listing/") else "networkidle"
                page.goto((run_dir / name).as_uri(), wait_until=wait, timeout=60_000)
                found = list(problems)
                width = page.evaluate("document.documentElement.scrollWidth")
                if width > 1280:
                    found.append(f"{width} px wide")
                found += page.evaluate(IMAGES_OK)
                if name == "listing/listing.html":
                    text = re.sub(r"\s+", " ", page.inner_text("main"))
                    for russian, english in _russian_with_english():
                        if russian not in text or english not in text:
                            found.append(f"not both on the page: {russian!r} / {english!r}")
                if found:
                    failures[name] = found
        finally:
            browser.close()
    assert failures == {}


@pytest.mark.slow
def test_chromium_check_catches_a_planted_missing_file_and_a_wide_page(run_dir, tmp_path):
    sync_api, chromium = _browser()
    site = tmp_path / "listing"
    shutil.copytree(run_dir / "listing", site)
    (site / "glyphs.png").unlink()
    wide = site / "wide.html"
    wide.write_text('<!DOCTYPE html><html><body><div style="width:1400px">x</div><img src="style.css"></body></html>')
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            problems: list[str] = []
            watch_console(page, problems)
            page.goto((site / "listing.html").as_uri(), wait_until="load")      # the wait the check above uses
            assert any("glyphs.png" in p for p in problems), problems
            page.goto(wide.as_uri(), wait_until="load")
            assert page.evaluate("document.documentElement.scrollWidth") > 1280
            assert page.evaluate(IMAGES_OK) == ["style.css (no alt text)"]
        finally:
            browser.close()
