"""What a play session is built from: one frozen, checked value instead of a dozen keyword arguments.

`PlaySettings` holds what the person chose before the game (the tape or a saved game, the seed, the
referee, a key record to write or to replay, an RZX to write, the picture's scale, the sound); the
session (session.py) reads it and never changes it. Its checks speak of the settings themselves, in
the library's terms: the command (harness/commands/play.py) checks its options first and words what
a session refuses with them. New choices are new fields with a default, given by keyword.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ..cribbage.rules import STANDARD, Rules
from ..errors import UsageError

RefereeMode = Literal["honest", "open"]
REFEREE_MODES: tuple[RefereeMode, ...] = ("honest", "open")
#: how far a replay runs ahead unpaced: to the record's last key, or until that deal (from 1) is dealt
Ahead = Literal["end"] | int

PathLike = str | os.PathLike[str]


@dataclass(frozen=True, kw_only=True)
class PlaySettings:
    """One session's choices. *tape* or *load* is where it starts (a TAP, or a .z80 / saved session);
    *seed* is SEED after RANDOMIZE (None: the machine's own, or the replayed record's); *referee* is the
    referee's mode (None: no referee); *record* and *record_rzx* are files written at close, *replay* a
    key record played from the tape, *ahead* how far it runs unpaced."""

    tape: PathLike | None = None
    load: PathLike | None = None
    seed: int | None = None
    referee: RefereeMode | None = None
    rules: Rules = STANDARD
    scale: int = 2
    sound: bool = False
    record: PathLike | None = None
    replay: PathLike | None = None
    ahead: Ahead | None = None
    record_rzx: PathLike | None = None

    def __post_init__(self) -> None:
        if self.scale < 1:
            raise UsageError(f"scale {self.scale}: the scale is a whole number from 1")
        if self.referee is not None and self.referee not in REFEREE_MODES:
            raise UsageError(f"referee {self.referee}: one of {', '.join(REFEREE_MODES)}")
        if self.load is not None and (self.record or self.replay or self.record_rzx):
            what = "a key record" if self.record else "a replay" if self.replay else "an RZX recording"
            raise UsageError(f"{what} starts from the tape, not from a loaded game")
        if self.ahead is not None and self.replay is None:
            raise UsageError("running ahead needs a key record to replay")
        if isinstance(self.ahead, int) and self.ahead < 1:
            raise UsageError(f"running ahead to deal {self.ahead}: a deal is numbered from 1")

    def record_path(self) -> Path | None:
        """Where the game's keys are written at close, or None."""
        return Path(self.record) if self.record else None

    def rzx_path(self) -> Path | None:
        """Where the game's RZX is written at close, or None."""
        return Path(self.record_rzx) if self.record_rzx else None
