"""LOAD "" as a person does it: tape in the deck, J, two quotes, ENTER; the traps do the rest."""
from __future__ import annotations

from pathlib import Path

from .machine import Spectrum48, StopReason
from .tape import TapeBlock, read_tap
from .typist import Typist


def load_tape(machine: Spectrum48, tape: str | Path | bytes | list[TapeBlock],
              max_frames: int = 3000) -> StopReason:
    """Insert *tape*, type ``LOAD ""`` in the editor, and run until the loaded program waits for a key,
    reports, or *max_frames* pass (RunTimeout)."""
    blocks = tape if isinstance(tape, list) else read_tap(tape)
    machine.insert_tape(blocks)
    Typist(machine).type_codes(bytes([0xEF]) + b'""\r')   # LOAD ""
    return machine.run(max_frames, until_wait=True, what='the loaded program waiting for a key')
