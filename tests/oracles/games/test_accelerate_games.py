"""Games with the accelerator are as recorded before the fast paths (tests/data/recorded-games.json), plain and accelerated; a sweep chunk is the same with it."""
from __future__ import annotations

import checkout
import hashlib
import io
import json

import numpy as np
import pytest
from PIL import Image

from harness.program.runs import loaded, regress
from harness.program.model.build import tape_bytes

DATA = checkout.DATA / "recorded-games.json"


def _pixels_sha(data: bytes) -> list[str]:
    """The sha256 of each frame's RGB pixels of a PNG or GIF (not of its bytes: encoders differ)."""
    img, out = Image.open(io.BytesIO(data)), []
    for i in range(getattr(img, "n_frames", 1)):
        img.seek(i)
        out.append(hashlib.sha256(np.asarray(img.convert("RGB")).tobytes()).hexdigest())
    return out


def game_digest(game: regress.GameResult) -> dict:
    """What must not change in a game: its transcript, frames, actions, profile and screens."""
    def sha(obj: object) -> str:
        return hashlib.sha256(json.dumps(obj, sort_keys=True, ensure_ascii=False).encode()).hexdigest()

    assert game.screens is not None
    return {"transcript": sha(game.transcript), "emulated_s": game.emulated_s, "actions": game.actions,
            "deals": game.deals, "profile": sha(game.profile),
            "pngs": [[name, _pixels_sha(data)[0]] for name, data in game.screens.pngs],
            "gif": _pixels_sha(game.screens.gif) if game.screens.gif else None}


GAMES = {"0": regress.GameJob(0, regress.spread_seed(1), "random", True),
         "2": regress.GameJob(2, regress.spread_seed(3), "adversarial", False)}


@pytest.fixture(scope="module")
def tape(built_tape) -> bytes:
    return built_tape.tap


if __name__ == "__main__":   # `python tests/test_accelerate.py --record`: after a change that is meant to alter games
    import sys
    if sys.argv[1:] != ["--record"]:
        sys.exit("usage: python tests/test_accelerate.py --record   (rewrites tests/data/recorded-games.json)")
    loaded.init_worker(tape_bytes(None))
    DATA.write_text(json.dumps({k: game_digest(regress.play_one(job)) for k, job in GAMES.items()},
                               indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {DATA}")


@pytest.mark.parametrize("accelerate", [False, True], ids=["plain", "accelerated"])
def test_games_are_as_recorded_before_the_fast_paths(tape, accelerate):
    """The games recorded (tests/data/recorded-games.json) before the waits were detected by traps and the
    keyboard answered from a table, byte-identical in transcript, frames, profile and pixels."""
    recorded = json.loads(DATA.read_text(encoding="utf-8"))
    loaded.init_worker(tape, accelerate=accelerate)
    try:
        for key, job in GAMES.items():
            assert game_digest(regress.play_one(job)) == recorded[key], job
    finally:
        loaded.init_worker(tape)


def test_a_sweep_chunk_is_the_same_with_the_accelerator(tape):
    from harness.program.runs import sweep_chunks
    from harness.program.runs.play_cases import PlayChoice
    items = sweep_chunks.sweep_items("play", PlayChoice(max_suffix=3))[0][:40]
    results = [sweep_chunks.run_chunk_on(sweep_chunks.load_worker("play", tape, accelerate),
                                         sweep_chunks.ChunkJob(0, items))
               for accelerate in (False, True)]
    assert results[0] == results[1]
    assert results[0].cases == 40
