"""What the Chromium tests share: the browser, Debian's chromium driven by Playwright (the watch on a page's console is
tests/helpers.py's watch_console)."""
from __future__ import annotations

import shutil

import pytest


@pytest.fixture(scope="module")
def browser():
    """Debian's chromium, headless, for one test module."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip: the test extra)")
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.skip("Debian's chromium is not installed (tools/install-system-deps.sh)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        yield b
        b.close()
