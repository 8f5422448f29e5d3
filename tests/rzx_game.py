"""One regress game recorded with --rzx, shared by the RZX, Fuse and pack tests (played once per session).

`regress --games 1 --rzx` writes game-000.rzx (the recording) and
game-000-end.z80 (our machine where the recording ends); the same game is
also played without --rzx, whose transcript must be the same byte for byte.
"""
from __future__ import annotations

import functools
import json
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from game_store import store
from harness.program.runs import regress
from harness.spectrum import z80snap
from harness.spectrum.rom import load_rom

ROM = load_rom(None)


@dataclass(frozen=True)
class RecordedGame:
    rzx: bytes
    end: z80snap.Z80Snapshot           # our machine at the end of the recording
    transcript: bytes                  # game-000.jsonl of the --rzx run
    plain_transcript: bytes            # ... and of the same game without --rzx
    report: dict

    @property
    def memory(self) -> bytes:
        return self.end.memory(ROM)


@functools.cache
def recorded_game() -> RecordedGame:
    """Played once for the whole test run, all xdist workers (tests/game_store.py), keyed by the default
    tape's sources (regress.run without --tape builds or reuses build/cribbage.tap from them)."""
    from harness.program.model.build import fingerprint
    return store().value("regress --rzx game", {"sources": fingerprint("ru"), "run": [1, 1, 1]}, _play)


def recorded_run() -> Path:
    """The --rzx run's folder (`run` in the store's entry: game-000.rzx, .frames.json, .jsonl, .judgements.jsonl,
    report.json), played once for the whole test run; read it in place, copy it to change it."""
    from harness.program.model.build import fingerprint
    return store().folder("regress --rzx run", {"sources": fingerprint("ru"), "run": [1, 1, 1]}, _play_run) / "run"


def _play_run(folder: Path) -> None:
    regress.run(1, 1, 1, folder / "run", regress.RegressOptions(progress=False, rzx=True))


def _play() -> RecordedGame:
    folder = Path(tempfile.mkdtemp(prefix="cribbage-rzx-"))
    run = recorded_run()
    try:
        report = json.loads((run / "report.json").read_text(encoding="utf-8"))
        regress.run(1, 1, 1, folder / "plain", regress.RegressOptions(progress=False))
        return RecordedGame(rzx=(run / "game-000.rzx").read_bytes(),
                            end=z80snap.read_z80(run / "game-000-end.z80"),
                            transcript=(run / "game-000.jsonl").read_bytes(),
                            plain_transcript=(folder / "plain" / "game-000.jsonl").read_bytes(),
                            report=report)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
