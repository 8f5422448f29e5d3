"""The play window's tests: one game, answered by the careless player until deal 2 is dealt, read by several."""
from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def open_game_to_deal_2(tape_path):
    """Seed 99 with the open referee and no muggins, answered by the careless player (tests/helpers.py autoplay) until
    deal 2 is dealt: one game for the tests of test_play_referee and test_play_honest that only read it
    (test_play_honest's play_through answers exactly as autoplay does)."""
    pytest.importorskip("pygame", reason="pygame-ce is not installed (the play extra)")
    from harness.play.session import PlaySession
    from harness.play.settings import PlaySettings
    from helpers import autoplay
    s = PlaySession(PlaySettings(tape=tape_path(), referee="open", seed=99, scale=1))     # no window: nothing of SDL's is needed
    autoplay(s, until_deal=2)
    return s
