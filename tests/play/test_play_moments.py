"""Each verdict on the referee's panel when its score is pegged, not one key later: the show before
«ВСКРЫВАЮ КРИБ?», the crib (and a muggins D3) at «СЛЕДУЮЩИЙ ХОД?», the computer's card at the player's next
choice. The comparator's own close (`Comparator.settled`) makes it; the stored judgements stay regress's, and
each is on the panel once. The near miss: without settling, the same waits show no verdict yet."""
from __future__ import annotations

import os

import pytest

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
pygame = pytest.importorskip("pygame", reason="pygame-ce is not installed (the play extra)")

from harness.program.model import program as P
from harness.program.judge.compare import Comparator
from harness.program.records.events import Play, Show, Who
from harness.play.cards import card_name
from harness.play.session import PlaySession
from harness.play.settings import PlaySettings
from helpers import play_through, texts

SEED = 99


pytestmark = pytest.mark.usefixtures("dummy_video")      # tests/conftest.py


def verdict_lines(lines: list[str], label: str) -> list[str]:
    """The judgement lines of actions labelled *label* ("show player", "computer 5H"...)."""
    return [t for t in lines if t.startswith(f"  {label}: engine")]


def late_verdicts(s: PlaySession, w) -> list[str]:
    """What should be on the panel at this wait and is not: the last show's verdict at the show's pause and
    the next-deal key, the computer's last card's at the player's turn."""
    events, lines = s.referee.events, texts(s.referee)
    missing = []
    shows = [e for e in events if isinstance(e, Show)]
    if w.line in (P.SHOW_PAUSE, P.NEXT_DEAL_WAIT) and shows:
        hand = shows[-1].hand.value
        if len(verdict_lines(lines, f"show {hand}")) < sum(e.hand.value == hand for e in shows):
            missing.append(f"show {hand} at line {w.line}")
    if w.line in P.SELECTOR_WAITS and s.caller() == P.SELECT_PLAY:
        last = next((e for e in reversed(events) if isinstance(e, Play)), None)
        if last is not None and last.who == Who.COMPUTER:
            label = f"computer {card_name(last.card)}"
            plays = sum(isinstance(e, Play) and e.who == Who.COMPUTER and card_name(e.card) == card_name(last.card)
                        for e in events)
            if len(verdict_lines(lines, label)) < plays:
                missing.append(f"{label} at the player's turn")
    return missing


def play_and_look(tape, until_deal: int = 3) -> tuple[PlaySession, list[str], dict[int, int]]:
    s = PlaySession(PlaySettings(tape=tape, referee="open", seed=SEED, scale=1))
    missing: list[str] = []
    looked: dict[int, int] = {}

    def on_wait(s, w):
        if w.line in (P.SHOW_PAUSE, P.NEXT_DEAL_WAIT) or (w.line in P.SELECTOR_WAITS and s.caller() == P.SELECT_PLAY):
            looked[w.line] = looked.get(w.line, 0) + 1
        missing.extend(late_verdicts(s, w))
    play_through(s, until_deal=until_deal, muggins="Y", on_wait=on_wait)
    return s, missing, looked


def test_each_verdict_is_shown_at_the_wait_after_its_score_is_pegged(tape_path):
    s, missing, looked = play_and_look(tape_path())
    assert looked.get(P.SHOW_PAUSE, 0) >= 2 and looked.get(P.NEXT_DEAL_WAIT, 0) >= 2, looked
    assert missing == []
    s.referee.finish()
    lines = texts(s.referee)
    # once each: the closing judgement took the place of the one shown ahead
    for hand in ("player", "computer", "crib"):
        judged = [j for j in s.referee.judgements if j.judged.value == "show" and j.action.hand.value == hand]
        assert len(verdict_lines(lines, f"show {hand}")) == len(judged) >= 2
    # and a muggins D3 among them (claims of 10 and 4 in turn: some are wrong), flagged by its id at once
    assert any(t.lstrip().startswith("! D3") for t in lines)


def test_without_settling_the_verdicts_come_one_key_late(tape_path, monkeypatch):
    """The near miss: the comparator's closes alone (the next action's arrival) leave each wait without it."""
    monkeypatch.setattr(Comparator, "settled", lambda self: [])
    _, missing, _ = play_and_look(tape_path(), until_deal=2)
    assert any(m.startswith("show ") for m in missing)
    assert any(m.startswith("computer ") for m in missing)


def test_settling_leaves_the_comparator_as_it_was(tape_path):
    """settled() judges a copy: the open action is still open and closes with the next event, as regress's."""
    s = PlaySession(PlaySettings(tape=tape_path(), referee="open", seed=SEED, scale=1))
    stops = []

    def on_wait(s, w):
        if w.line == P.SHOW_PAUSE and not stops:
            c = s.referee.comparator
            before = (len(c.result.judgements), c._window is not None or c._show is not None)
            first = c.settled()
            again = c.settled()
            stops.append((before, first, again, (len(c.result.judgements), c._window is not None or c._show is not None)))
    play_through(s, until_deal=2, muggins="N", on_wait=on_wait)
    (before, first, again, after), = stops
    assert before == after and before[1] is True
    assert first == again and [j.judged.value for j in first] == ["show"]
