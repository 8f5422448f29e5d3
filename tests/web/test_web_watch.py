"""Watch mode's check of where each judgement is shown (harness/web/compare.py's watch_differences): a judgement
shown at another frame than its action's, one never shown, and one that does not exist are each named, and
nothing else. The watch page itself, built and replayed: tests/oracles/browser/test_web_watch_page.py and
tests/oracles/tools/test_web_watch_records.py."""
from __future__ import annotations

from harness.web.compare import watch_differences


def test_watch_differences_name_a_judgement_shown_at_another_frame_and_nothing_else():
    expected = {1: 10, 2: 10, 3: 40}
    assert watch_differences(expected, {"1": 10, "2": 10, "3": 40}) == []
    assert watch_differences(expected, {"1": 10, "2": 11, "3": 40, "4": 5}) == [
        "judgement 2: shown at frame 11, its action is at frame 10",
        "judgement 4: shown at frame 5, and there is no such judgement"]
    assert watch_differences(expected, {"1": 10, "2": 10}) == ["judgement 3: never shown (due at frame 40)"]

