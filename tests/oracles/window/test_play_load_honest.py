"""Issue 48: a save loads honestly (in tests/oracles/: it plays a deal and a half at real timing, ~15 CPU-s).

Saved mid-deal (the computer's hand face down, cards laid), played on to the next deal (deal 1's hand revealed, deal 2's lines), then loaded in the same window: the referee's panel is the
one of the save's moment, the veils as they were, nothing of what came after, and the note that the referee
starts again. A sidecar whose "panel" is not [text, tone] pairs is named (planted); one without a panel (an older
save) loads with an empty panel, nothing of the state left behind kept (the near miss)."""
from __future__ import annotations

import json
import os

import pytest

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
pytest.importorskip("pygame", reason="pygame-ce is not installed (the play extra)")

from harness.errors import InputError
from harness.play.cards import cards_text
from harness.play.session import PlaySession
from harness.play.settings import PlaySettings
from harness.program.records.events import Deal, Play
from helpers import play_through, texts

pytestmark = pytest.mark.usefixtures("dummy_video")      # tests/conftest.py


@pytest.fixture(scope="module")
def saved(tape_path, tmp_path_factory):
    """A session saved during deal 1's play and played on until deal 2 is dealt."""
    slot = tmp_path_factory.mktemp("slots") / "slot1.z80"
    s = PlaySession(PlaySettings(tape=tape_path("ru"), referee="honest", seed=99, scale=1))
    at_save: list[str] = []

    def save_mid_deal(s, w):
        if not at_save and sum(isinstance(e, Play) for e in s.referee.events) >= 2:
            s.save(slot)
            at_save.extend(texts(s.referee))
    play_through(s, until_deal=2, muggins="N", on_wait=save_mid_deal)
    assert at_save, "the play of deal 1 was never reached"
    return s, slot, at_save


def test_loading_a_slot_shows_the_panel_of_the_saves_moment(saved):
    s, slot, at_save = saved
    deal1 = next(e for e in s.referee.events if isinstance(e, Deal))
    hand = f"  computer: {cards_text(deal1.computer)}"
    before = texts(s.referee)
    assert hand in before and any(t.startswith("Deal 2: ") for t in before)   # what the load must not keep
    assert hand not in at_save and "  computer: six cards, face down" in at_save
    s.load(slot)
    after = texts(s.referee)
    assert after[:-1] == at_save
    assert after[-1].startswith(f"loaded {slot.name}: this deal is not judged") and "(deal 2)" in after[-1]
    assert hand not in after and not any(t.startswith("Deal 2: ") for t in after)


def test_a_sidecar_panel_that_is_not_text_and_tone_pairs_is_named(saved, tmp_path):
    s, slot, _ = saved
    bad = tmp_path / "bad.z80"
    bad.write_bytes(slot.read_bytes())
    side = json.loads(slot.with_name(slot.name + ".json").read_text())
    side["panel"] = [["a line", 3]]
    bad.with_name("bad.z80.json").write_text(json.dumps(side))
    with pytest.raises(InputError, match=r"bad\.z80\.json: \"panel\" is not a list of \[text, tone\] pairs"):
        s.load(bad)


def test_a_save_without_a_panel_loads_with_nothing_of_the_state_left_behind(saved, tmp_path):
    s, slot, _ = saved
    old = tmp_path / "old.z80"
    old.write_bytes(slot.read_bytes())
    side = json.loads(slot.with_name(slot.name + ".json").read_text())
    del side["panel"]
    old.with_name("old.z80.json").write_text(json.dumps(side))
    s.load(old)
    after = texts(s.referee)
    assert not any(t.startswith("Deal ") for t in after)
    assert after[-1].startswith("loaded old.z80: this deal is not judged")
