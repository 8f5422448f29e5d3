"""The window's tests need Xvfb, xdotool and xwd (Debian's xvfb, xdotool, x11-apps): every test here skips,
saying so, where they are missing."""
from __future__ import annotations

import pytest

from helpers import tools_or_skip


@pytest.fixture(scope="module", autouse=True)
def x_tools():
    tools_or_skip(("Xvfb", "xdotool", "xwd"), "xvfb xdotool x11-apps")
