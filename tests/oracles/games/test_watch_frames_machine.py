"""The watch page's clock against the machine (issue 51): game-NNN.frames.json, from which the page and its
test both work out when each judgement shows, checked against the recorded game itself. Every picture taken
at a wait is the machine's state once the RZX has played its frame, so there the embedded player's PPC is the
picture's line (from the transcript). A frames file consistently one frame late, two early, or ten late, which
the page and its test would agree on, is caught; the file as regress wrote it passes. What the machine cannot
tell: one frame early. The program already sits in its wait loop in the frame before the observer calls it a
wait (measured: no wait picture of the game differs there; two early, 17 of 77 do; three, 65).

Plays the whole recorded regress game (tests/rzx_game.py's run) on RzxPlayer, once per case: an oracle-tier
test (~5 CPU-s a case)."""
from __future__ import annotations

import pytest

from harness.program.records.events import Picture, read_jsonl
from harness.program.records.frames import frames_name, read_frames
from harness.web.compare import picture_frame_differences
from rzx_game import recorded_run

pytestmark = pytest.mark.slow       # a whole game replayed


@pytest.fixture(scope="module")
def game():
    run = recorded_run()
    with open(run / "game-000.jsonl", encoding="utf-8") as f:
        _, events = read_jsonl(f)
    return events, read_frames(run / frames_name(0), len(events)), (run / "game-000.rzx").read_bytes()


def test_every_wait_picture_is_the_machines_state_at_its_frame(game):
    events, frames, rzx = game
    waits = [i for i, e in enumerate(events) if isinstance(e, Picture) and e.moment.split()[0] in
             ("input", "inkey", "pause", "select") and frames[i] >= 0]
    assert len(waits) > 60                                  # the whole game's waits, not a handful
    assert picture_frame_differences(events, frames, rzx, "game-000.rzx") == []


@pytest.mark.parametrize("shift,least", [(1, 40), (-2, 10), (10, 50)])   # measured: 45, 17, 53 of 77
def test_a_frames_file_consistently_off_is_caught(game, shift, least):
    """Every event's frame moved alike (the page and its test would still agree): many wait pictures are then
    at another line of the machine (one frame on, the program has taken the key or the PAUSE has ended; two
    before, it is still drawing at some)."""
    events, frames, rzx = game
    moved = [f + shift if f >= 0 else f for f in frames]
    found = picture_frame_differences(events, moved, rzx, "game-000.rzx")
    assert len(found) >= least, found
    assert all(line.startswith("event ") and "the machine is at line" in line for line in found[:5])


def test_one_picture_one_frame_late_is_named(game):
    events, frames, rzx = game
    i = next(i for i, e in enumerate(events) if isinstance(e, Picture) and e.moment == "pause 4661")
    moved = list(frames)
    moved[i] += 1
    assert picture_frame_differences(events, moved, rzx) == [
        f"event {i} (pause 4661): at frame {frames[i] + 1} the machine is at line 4665, the picture at 4661"]
