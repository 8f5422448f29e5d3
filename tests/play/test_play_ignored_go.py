"""ENTER on an empty slot with the count under 22: the original goes back to the selector without a word
(2742 IF SUM<22 THEN GO TO 2720); the window's status line says why, until the next key goes down."""
from __future__ import annotations

import os

import pytest

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
pytest.importorskip("pygame", reason="pygame-ce is not installed (the play extra)")

from harness.play.session import PlaySession

from harness.play.settings import PlaySettings
from harness.play.waits import status_text
from harness.program.model import program as P
from harness.spectrum.variables import BasicVariables
from helpers import to_an_empty_slot_under_22
from play_keys import keys

pytestmark = pytest.mark.usefixtures("dummy_video")      # tests/conftest.py

SAID = "ENTER on an empty slot was ignored: the count is {}, and this program takes a go only from 22 (line 2742)"


def test_the_status_line_says_why_enter_on_an_empty_slot_did_nothing(tape_path):
    s = PlaySession(PlaySettings(tape=tape_path(), seed=99, scale=1))
    slots, count = to_an_empty_slot_under_22(s)
    before = s.status_line()
    assert "ignored" not in before and before.startswith("your card to play")        # near miss: not yet
    keys(s, *["SPACE"] * slots.index(0), "ENTER")
    assert (s.waiting().line in P.SELECTOR_WAITS and s.caller() == P.SELECT_PLAY), "the program did not go back"
    assert [int(b) for b in BasicVariables(s.machine).get("B()")][:4] == slots       # nothing was laid
    assert s.status_line() == f"{SAID.format(count)} | {before}"
    keys(s, "SPACE")                                                                 # the next key: old news
    assert "ignored" not in s.status_line()


def test_status_text_puts_the_reason_first_only_when_there_is_one():
    plain = status_text(P.SELECTOR_WAITS[0], P.SELECT_PLAY)
    assert plain.startswith("your card to play: SPACE moves, ENTER plays")
    assert status_text(P.SELECTOR_WAITS[0], P.SELECT_PLAY, 13) == f"{SAID.format(13)} | {plain}"
    assert status_text(P.SELECTOR_WAITS[0], P.SELECT_PLAY, None) == plain
