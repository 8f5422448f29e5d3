"""The edition's index links to play.html (issue 30): written by `cribbage-zx html`, the link is there when the
page is, absent when it could not be built, and it works in chromium from file:// and from `html --serve`."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from harness.commands import html as html_command
from harness.web import build as wasm_build
from helpers import watch_console
from web_serving import serving

LINK = re.compile(r'<a href="([^"]+)" id="play-link">')


@pytest.fixture(scope="module")
def edition(tmp_path_factory) -> Path:
    try:
        wasm_build.module_bytes()
    except wasm_build.BuildProblem as exc:
        pytest.skip(f"the WebAssembly core cannot be built here: {exc}")
    out = tmp_path_factory.mktemp("edition") / "html"
    assert html_command.main(["--out", str(out)]) == 0
    return out


def test_the_index_links_to_the_play_page_beside_it(edition):
    index = (edition / "index.html").read_text(encoding="utf-8")
    assert LINK.findall(index) == ["play.html"]
    assert (edition / "play.html").is_file()
    listing = (edition / "listing.html").read_text(encoding="utf-8")
    assert "play-link" not in listing                      # the index's link only


def test_without_the_play_page_the_index_has_no_link_to_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(wasm_build.shutil, "which", lambda name: None)
    monkeypatch.setattr(wasm_build, "MODULE", tmp_path / "no-module" / "spectrum.wasm")
    out = tmp_path / "site"
    assert html_command.main(["--out", str(out)]) == 0
    assert "play.html not written" in capsys.readouterr().out
    index = (out / "index.html").read_text(encoding="utf-8")
    assert LINK.findall(index) == [] and "play.html" not in index     # no link to a page that is not there


def _follow_the_link(browser, url: str) -> list[str]:
    problems: list[str] = []
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    watch_console(page, problems)                                 # console errors, failed requests, HTTP errors
    page.goto(url)
    page.focus("#play-link")                               # by keyboard: the link focused, then Enter
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r".*/play\.html$"), timeout=30_000)
    page.wait_for_function("window.zxPage && zxPage.session && zxPage.session.frames > 0", timeout=60_000)
    problems.append(f"at {page.url}")
    page.close()
    return problems


@pytest.mark.slow
def test_the_link_opens_the_running_page_from_file_and_from_serve(browser, edition):
    assert _follow_the_link(browser, (edition / "index.html").as_uri()) == [f"at {(edition / 'play.html').as_uri()}"]
    with serving(edition) as play:
        index = play.rsplit("/", 1)[0] + "/index.html"
        assert _follow_the_link(browser, index) == [f"at {play}"]
