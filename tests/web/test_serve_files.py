"""`html --serve` serves the regular files inside its folder and nothing else: no dot file, nothing a symlink
reaches outside, no folder listing (the command's refusals: tests/commands/test_html_serve_options.py)."""
from __future__ import annotations

import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from harness.web.serve import server, servable


@pytest.fixture
def site(tmp_path) -> Path:
    root = tmp_path / "edition"
    root.mkdir()
    (root / "index.html").write_text("index")
    (root / "play.html").write_text("play")
    (root / ".cribbage-zx-run").write_text("{}")
    (root / ".secret").write_text("secret")
    (root / "pages").mkdir()
    (root / "pages" / "a.html").write_text("a")
    (root / ".hidden").mkdir()
    (root / ".hidden" / "x.html").write_text("x")
    (tmp_path / "private.txt").write_text("private")
    (root / "out.txt").symlink_to(tmp_path / "private.txt")      # a link out of the folder
    (root / "in.html").symlink_to(root / "play.html")            # the near miss: a link inside it
    (root / "away").symlink_to(tmp_path)                         # a folder link out
    return root


GOOD = {"/play.html": "play", "/index.html": "index", "/": "index", "/pages/a.html": "a", "/in.html": "play",
        "/play.html?x=1": "play"}
BAD = ["/.cribbage-zx-run", "/.secret", "/.hidden/x.html", "/pages/", "/out.txt", "/away/private.txt",
       "/../private.txt", "/%2e%2e/private.txt", "/pages/../../private.txt", "/nothing.html"]


def test_only_regular_files_inside_the_folder_are_servable(site):
    for url in GOOD:
        assert servable(site, url.split("?")[0]) is not None, url
    for url in BAD:
        assert servable(site, url.replace("%2e", ".")) is None, url


def test_the_server_answers_404_for_what_it_does_not_serve(site):
    httpd = server(site, 0)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}"
    try:
        for url, body in GOOD.items():
            with urllib.request.urlopen(base + url, timeout=10) as answer:
                assert answer.read().decode() == body, url
        for url in BAD:
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(base + url, timeout=10)
            assert refused.value.code == 404, url
    finally:
        httpd.shutdown()
        httpd.server_close()
