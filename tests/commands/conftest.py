"""The commands' tests: a window under SDL's dummy driver, quit after each test."""
from __future__ import annotations

import pytest


@pytest.fixture
def dummy_window(dummy_video):
    """dummy_video for a test that opens a window (play.window): pygame is quit after it, so each test's
    window, display and mixer start afresh."""
    yield
    import pygame
    pygame.quit()
