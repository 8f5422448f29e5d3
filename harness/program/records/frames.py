"""game-NNN.frames.json: the frame each event of a recorded game's transcript was noted in (the watch mode's clock),
and what a recording names as its own: the game, its seed and the tape it was played on.

`regress --rzx` writes it beside game-NNN.rzx: ``{"schema": 2, "game": N, "seed": S, "tape_sha256": T,
"rzx_sha256": R, "events": E, "frames": [...]}``, one whole number per event of game-NNN.jsonl, in its order: the
RZX frame the event was noted in, counted from the recording's first frame (0); an event noted before the
recording started (the options, the first answers) has a negative number. A player of the RZX has reached event
i once it has played ``frames[i] + 1`` frames. The transcript's own bytes are not changed (a run without --rzx
writes the same transcript). Schema 1 (before issue 45) named the game only; it is still read.

The RZX names its game too, in its creator block's own data (spectrum/rzx.py's ``custom``): the JSON
``{"game": N, "seed": S, "tape_sha256": T}`` (`rzx_tag`); a session played by hand (`play --record-rzx`) is no
game of a run and names itself ``{"game": null, "seed": S, "tape_sha256": T}``. `check_recording` sets both against the game's
transcript (its header's game and seed) and the run's tape (report.json's SHA-256): another game's RZX or
frames beside a game's judgements is refused in one line naming the file; a file older than these names is
said to name nothing rather than refused.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from ...errors import InputError
from ...runtime import atomic
from ...runtime.validate import read_json

SCHEMA = 2
SCHEMAS = (1, 2)            # read: 1 named the game only


def frames_name(game: int) -> str:
    return f"game-{game:03d}.frames.json"


@dataclass(frozen=True)
class GameId:
    """What a recording belongs to: the game's number and seed (its transcript's header) and the tape's
    SHA-256 (None where the record does not say); *game* None is a session played by hand (`play
    --record-rzx`), named by its seed and tape alone."""
    game: int | None
    seed: int | None = None
    tape_sha256: str | None = None

    def __str__(self) -> str:
        what = f"game {self.game}" if self.game is not None else "a session played by hand"
        return what + (f" (seed {self.seed})" if self.seed is not None else "")


def rzx_tag(gid: GameId) -> bytes:
    """The RZX creator block's own data naming the game recorded."""
    return json.dumps({"game": gid.game, "seed": gid.seed, "tape_sha256": gid.tape_sha256},
                      separators=(",", ":")).encode("ascii")


def game_of_tag(custom: bytes, name: str) -> GameId | None:
    """The game (or the session played by hand) an RZX's creator data names, None for a recording that names
    none (older, or another tool's); an InputError naming *name* for data that is not a game's name."""
    if not custom:
        return None
    try:
        data = json.loads(custom.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        data = None
    if not (isinstance(data, dict) and "game" in data and isinstance(data["game"], (int, type(None)))
            and not isinstance(data["game"], bool) and isinstance(data.get("seed"), (int, type(None)))
            and not isinstance(data.get("seed"), bool) and isinstance(data.get("tape_sha256"), (str, type(None)))):
        raise InputError(f"{name}: its creator block's data does not name a game (not this tool's "
                         f"{{\"game\", \"seed\", \"tape_sha256\"}})")
    return GameId(data["game"], data["seed"], data["tape_sha256"])


def frames_record(game: int, event_frames: Sequence[int], start_frame: int, seed: int | None = None,
                  tape_sha256: str | None = None, rzx: bytes | None = None) -> dict[str, object]:
    """The file's object: each event's machine frame (m.frames when it was noted) made relative to the
    frame the recording started in, with the game's seed, the tape's SHA-256 and the RZX's (*rzx*: its bytes)."""
    return {"schema": SCHEMA, "game": game, "seed": seed, "tape_sha256": tape_sha256,
            "rzx_sha256": hashlib.sha256(rzx).hexdigest() if rzx is not None else None,
            "events": len(event_frames), "frames": [f - start_frame for f in event_frames]}


def write_frames(path: Path, record: Mapping[str, object]) -> None:
    atomic.write_text(path, json.dumps(record, separators=(",", ":")) + "\n")


@dataclass(frozen=True)
class FramesRecord:
    """A frames file read: its frames and what it names (schema 1 names the game only)."""
    frames: list[int]
    schema: int
    game: int | None
    seed: int | None = None
    tape_sha256: str | None = None
    rzx_sha256: str | None = None


def read_frames_record(path: Path, events: int) -> FramesRecord:
    """The frames file of a game of *events* events, or an InputError naming the file: unreadable, another
    schema, not one whole number per event, going back in time, or naming its game in another form."""
    data = read_json(path, InputError)      # size and depth caps, UTF-8, FILE:LINE (runtime/validate.py)
    if not isinstance(data, dict) or data.get("schema") not in SCHEMAS:
        raise InputError(f"{path}: not a frames file of schema {' or '.join(map(str, SCHEMAS))}")
    frames = data.get("frames")
    if not isinstance(frames, list) or not all(isinstance(f, int) and not isinstance(f, bool) for f in frames):
        raise InputError(f"{path}: 'frames' is not a list of whole numbers")
    if len(frames) != events:
        raise InputError(f"{path}: {len(frames)} frames for a transcript of {events} events")
    back = next((i for i in range(1, len(frames)) if frames[i] < frames[i - 1]), None)
    if back is not None:
        raise InputError(f"{path}: event {back} is at frame {frames[back]}, before event {back - 1}'s {frames[back - 1]}")
    kinds = {"game": int, "seed": int, "tape_sha256": str, "rzx_sha256": str}
    for key, kind in kinds.items():
        value = data.get(key)
        if value is not None and (not isinstance(value, kind) or isinstance(value, bool)):
            raise InputError(f"{path}: '{key}' is not a {'whole number' if kind is int else 'string'}")
    return FramesRecord(frames, data["schema"], data.get("game"), data.get("seed"), data.get("tape_sha256"),
                        data.get("rzx_sha256"))


def read_frames(path: Path, events: int) -> list[int]:
    """The frames of a game's *events* events (`read_frames_record`)."""
    return read_frames_record(path, events).frames


def _short(sha: str) -> str:
    return f"{sha[:12]}…"


def check_recording(rzx: Path, rzx_data: bytes, custom: bytes, frames: Path, record: FramesRecord,
                    transcript: Path, game: GameId) -> list[str]:
    """A recorded game's RZX (*rzx*: its bytes and its creator data) and frames file (*record*, read from
    *frames*) set against the game they lie beside: *game*, the transcript's game and seed and the run's
    tape (report.json's SHA-256, None if it names none). A file of another game, seed, tape or recording is an
    InputError in one line naming it; what a file older than these names cannot say is returned, a
    sentence each, for the game's page."""
    notes = []
    named = game_of_tag(custom, str(rzx))
    if named is None:
        notes.append(f"{rzx.name} names no game (recorded before recordings named theirs): it is not checked "
                     f"against {transcript.name}.")
    else:
        if named.game != game.game or named.seed is not None and game.seed is not None and named.seed != game.seed:
            raise InputError(f"{rzx}: a recording of {named}, not of {transcript.name}'s {game}")
        if named.tape_sha256 and game.tape_sha256 and named.tape_sha256 != game.tape_sha256:
            raise InputError(f"{rzx}: a recording on the tape of SHA-256 {_short(named.tape_sha256)}, not on the "
                             f"run's ({_short(game.tape_sha256)}, report.json)")
    if record.game is not None and record.game != game.game or \
            record.seed is not None and game.seed is not None and record.seed != game.seed:
        theirs = GameId(record.game if record.game is not None else game.game, record.seed)
        raise InputError(f"{frames}: the frames of {theirs}, not of {transcript.name}'s {game}")
    if record.tape_sha256 and game.tape_sha256 and record.tape_sha256 != game.tape_sha256:
        raise InputError(f"{frames}: the frames of a game on the tape of SHA-256 {_short(record.tape_sha256)}, "
                         f"not on the run's ({_short(game.tape_sha256)}, report.json)")
    if record.rzx_sha256 is not None:
        here = hashlib.sha256(rzx_data).hexdigest()
        if record.rzx_sha256 != here:
            raise InputError(f"{frames}: the frames of another recording (RZX SHA-256 {_short(record.rzx_sha256)}), "
                             f"not of {rzx.name} ({_short(here)})")
    elif record.schema == 1:
        notes.append(f"{frames.name} names no seed, tape or recording (written before frames files named "
                     f"them): only its game number is checked.")
    return notes
