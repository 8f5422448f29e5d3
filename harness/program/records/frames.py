"""game-NNN.frames.json: the frame each event of a recorded game's transcript was noted in (the watch mode's clock).

`regress --rzx` writes it beside game-NNN.rzx: ``{"schema": 1, "game": N, "events": E, "frames": [...]}``, one
whole number per event of game-NNN.jsonl, in its order: the RZX frame the event was noted in, counted from the
recording's first frame (0); an event noted before the recording started (the options, the first answers)
has a negative number. A player of the RZX has reached event i once it has played ``frames[i] + 1`` frames.
The transcript's own bytes are not changed (a run without --rzx writes the same transcript).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Sequence

from ...errors import InputError
from ...runtime import atomic
from ...runtime.validate import read_json

SCHEMA = 1


def frames_name(game: int) -> str:
    return f"game-{game:03d}.frames.json"


def frames_record(game: int, event_frames: Sequence[int], start_frame: int) -> dict[str, Any]:
    """The file's object: each event's machine frame (m.frames when it was noted) made relative to the
    frame the recording started in."""
    return {"schema": SCHEMA, "game": game, "events": len(event_frames),
            "frames": [f - start_frame for f in event_frames]}


def write_frames(path: Path, record: dict[str, Any]) -> None:
    atomic.write_text(path, json.dumps(record, separators=(",", ":")) + "\n")


def read_frames(path: Path, events: int) -> list[int]:
    """The frames of a game's *events* events, or an InputError naming the file: unreadable, another schema,
    not one whole number per event, or going back in time."""
    data = read_json(path, InputError)      # size and depth caps, UTF-8, FILE:LINE (runtime/validate.py)
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise InputError(f"{path}: not a frames file of schema {SCHEMA}")
    frames = data.get("frames")
    if not isinstance(frames, list) or not all(isinstance(f, int) and not isinstance(f, bool) for f in frames):
        raise InputError(f"{path}: 'frames' is not a list of whole numbers")
    if len(frames) != events:
        raise InputError(f"{path}: {len(frames)} frames for a transcript of {events} events")
    back = next((i for i in range(1, len(frames)) if frames[i] < frames[i - 1]), None)
    if back is not None:
        raise InputError(f"{path}: event {back} is at frame {frames[back]}, before event {back - 1}'s {frames[back - 1]}")
    return frames
