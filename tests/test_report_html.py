"""report.html of a regress run, and both sites loaded in a real browser (Debian's chromium, headless)."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from harness.edition.linkcheck import broken_links
from harness.edition.report import ReportError, write_report_html
from harness.game import regress


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    """One whole game played and checked by regress (about ten seconds), then reported."""
    out = tmp_path_factory.mktemp("regress")
    regress.main(["--games", "1", "--workers", "1", "--seed", "1", "--out", str(out), "--quiet"])
    write_report_html(out)
    return out


def test_report_and_game_pages_are_written_with_every_link_resolving(run_dir):
    for name in ("report.html", "game-000.html", "listing/listing.html", "listing/style.css"):
        assert (run_dir / name).exists(), name
    assert broken_links(run_dir) == []
    report = (run_dir / "report.html").read_text()
    assert 'href="game-000.html"' in report and 'src="game-000.gif"' in report
    deals = json.loads((run_dir / "report.json").read_text())["per_game"][0]["deals"]
    assert re.search(r'game-000</a></td>(?:<td>[^<]*</td>\s*){3}<td>%d</td>' % deals, report)


def test_game_page_shows_the_deals_with_pegs_beside_the_engines_reasons(run_dir):
    html = (run_dir / "game-000.html").read_text()
    transcript = [json.loads(line) for line in (run_dir / "game-000.jsonl").read_text().splitlines()]
    deals = [e for e in transcript if e.get("kind") == "deal"]
    assert all(f'id="deal-{d["n"]}"' in html for d in deals)
    assert " for pair (" in html or " for fifteen (" in html           # an itemised engine reason
    # cards drawn with R$ and S$ glyphs keep readable text: the ten of hearts is ⑩♥ (UDGs R and H)
    assert '<i class="g" style="--c:161">⑩</i>' in html or "T" not in "".join(
        c for d in (e for e in transcript if e.get("kind") == "deal") for c in d["computer"] + d["player"])
    assert "\ufffd" not in html
    assert "-show-computer.png" in html                                 # a show screenshot beside its breakdown
    # the run's only differences are the documented D1 pegs; none is shown as unexplained
    assert "UNEXPLAINED" not in html
    if any(e.get("context") == "reset" for e in transcript if e.get("kind") == "score"):
        assert 'href="listing/deviations.html#D1"' in html and 'href="listing/listing.html#L4400"' in html


def test_a_planted_wrong_peg_is_highlighted_and_linked_to_the_play_scorer(run_dir, tmp_path):
    planted = tmp_path / "planted"
    shutil.copytree(run_dir, planted)
    path = planted / "game-000.jsonl"
    lines = path.read_text().splitlines()
    for i, line in enumerate(lines):
        event = json.loads(line)
        if event.get("kind") == "score" and event.get("context") == "play":
            event["points"] += 1
            lines[i] = json.dumps(event, ensure_ascii=False, sort_keys=True)
            break
    else:
        pytest.fail("the game pegged nothing in the play")
    path.write_text("\n".join(lines) + "\n")
    write_report_html(planted)
    html = (planted / "game-000.html").read_text()
    assert "UNEXPLAINED" in html and '<tr class="diff"' in html
    assert 'href="listing/listing.html#L2000"' in html                 # the play scorer's lines
    assert broken_links(planted) == []


def test_a_folder_without_a_report_is_named(tmp_path):
    with pytest.raises(ReportError, match="report.json"):
        write_report_html(tmp_path)


def test_a_sweep_folder_gets_its_summary(tmp_path):
    (tmp_path / "report.json").write_text(json.dumps({"kind": "show", "cases": 12, "disagreements": 0,
                                                      "by_hand": {"crib": 3}, "coverage": {"series": 9}}))
    html = write_report_html(tmp_path).read_text()
    assert "cases" in html and "by hand" in html and broken_links(tmp_path) == []


# ----------------------------------------------------------------------------- in a real browser
def _browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip: the test extra)")
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.skip("Debian's chromium is not installed (tools/install-system-deps.sh)")
    return sync_api, chromium


def _load(page, url: str) -> list[str]:
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url}"))
    page.on("response", lambda r: problems.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None)
    page.goto(url, wait_until="load", timeout=60_000)
    return problems


def _not_blank(path: Path) -> bool:
    from PIL import Image
    with Image.open(path) as img:
        return len(img.convert("L").getcolors(maxcolors=256) or range(256)) > 8


@pytest.mark.parametrize("page_name, anchor, expected", [
    ("listing/listing.html", "#L4400", ["4400", "СЛЕДУЮЩИЙ РАУНД", "GO SUB", "from 4080"]),
    ("game-000.html", "#deal-1", ["Deal 1", "the engine: itemised", "the program pegged"]),
    ("listing/routines.html", "", ["Routines and calls", "Reset the count"]),
])
@pytest.mark.slow
def test_pages_load_in_chromium_without_errors_and_show_their_text(run_dir, tmp_path, page_name, anchor, expected):
    sync_api, chromium = _browser()
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            problems = _load(page, (run_dir / page_name).as_uri() + anchor)
            shot = tmp_path / (Path(page_name).stem + ".png")
            page.screenshot(path=str(shot))
            text = page.inner_text("body")
            images_ok = page.evaluate("Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)")
        finally:
            browser.close()
    assert problems == []
    for words in expected:
        assert words in text, words
    assert images_ok
    assert _not_blank(shot)


@pytest.mark.slow
def test_chromium_check_catches_a_planted_missing_file(run_dir, tmp_path):
    sync_api, chromium = _browser()
    site = tmp_path / "listing"
    shutil.copytree(run_dir / "listing", site)
    (site / "glyphs.png").unlink()
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            problems = _load(browser.new_page(), (site / "listing.html").as_uri())
        finally:
            browser.close()
    assert any("glyphs.png" in p for p in problems), problems


def test_html_command_reports_an_existing_run_folder(run_dir, tmp_path, capsys):
    from harness.edition.command import EditionError, main
    copy = tmp_path / "run"
    shutil.copytree(run_dir, copy)
    (copy / "report.html").unlink()
    assert main(["--report", str(copy)]) == 0
    assert (copy / "report.html").exists() and "report: " in capsys.readouterr().out
    with pytest.raises(EditionError, match="no report.json there"):
        main(["--report", str(tmp_path / "nowhere")])


def test_a_report_with_statement_coverage_draws_the_heat_strip(run_dir, tmp_path):
    copy = tmp_path / "run"
    shutil.copytree(run_dir, copy)
    report = json.loads((copy / "report.json").read_text())
    report["coverage"] = {"statements_run": 2, "statements_total": 1041, "ifs_both": 0, "ifs_total": 1,
                          "counts": {"4400:1": 9, "4405:1": 900}, "never_run": ["4985:1", "9:1"], "ifs": {"4430:1": [0, 9]},
                          "explained_by": {"4985:1": "DEAD-4985", "3260:3": "C4"}, "unexplained": ["9:1"]}
    (copy / "report.json").write_text(json.dumps(report))
    html = write_report_html(copy).read_text()
    assert "2 of 1041 statements run" in html and 'href="listing/coverage.html"' in html
    listing = (copy / "listing" / "listing.html").read_text()
    assert 'title="4405:1: 900 runs"' in listing and 'title="4985:1: 0 runs"' in listing
    coverage = (copy / "listing" / "coverage.html").read_text()
    assert "4430:1" in coverage                                               # an IF seen one way only
    assert "<b>C4</b> unreachable: A REM after THEN" in coverage                # a note's own words
    assert "DEAD-4985" in coverage and 'href="listing.html#S9-1">9:1</a></td><td class="missing">' in coverage
    assert broken_links(copy) == []


def test_screen_words_follow_the_edition_the_transcript_shows():
    from harness.edition.report import screen_words
    from harness.game import program as P
    from harness.game.events import Screen

    def count(text):
        return Screen(what=P.ScreenCheck.COUNT, rows=((6, text),), variables={"sum": 6})
    assert screen_words([count("ВСЕГО 6 2")]) is P.RUSSIAN
    assert screen_words([]) is P.RUSSIAN
    english = screen_words([count(P.english_words().total + " 6 2")])
    assert english == P.english_words() and english.total != P.RUSSIAN.total
