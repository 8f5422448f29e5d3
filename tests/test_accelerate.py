"""The ROM-routine accelerator (harness/spectrum/accelerate.py) and the machine's fast paths change nothing.

* Whole machine states, byte for byte, with the accelerator in its strict mode (cross_frames=False),
  against the plain ROM, over a BASIC program that does little but GO TO, GO SUB, RETURN and NEXT;
  and a planted wrong answer is caught by the same comparison.
* Whole games, against their record made before the machine's fast paths existed
  (tests/data/recorded-games.json): transcripts, frame counts, statement profiles and every
  screen's pixels, with and without --accelerate.
* A sweep chunk: the same outputs and profile with and without it.
"""
from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from harness.bench import basic_machine
from harness.game import regress
from harness.spectrum.accelerate import Accelerator
from harness.spectrum.machine import Spectrum48

DATA = Path(__file__).resolve().parent / "data" / "recorded-games.json"


def _pixels_sha(data: bytes) -> list[str]:
    """The sha256 of each frame's RGB pixels of a PNG or GIF (not of its bytes: encoders differ)."""
    img, out = Image.open(io.BytesIO(data)), []
    for i in range(getattr(img, "n_frames", 1)):
        img.seek(i)
        out.append(hashlib.sha256(np.asarray(img.convert("RGB")).tobytes()).hexdigest())
    return out


def game_digest(game: dict) -> dict:
    """What must not change in a game: its transcript, frames, actions, profile and screens."""
    sha = lambda obj: hashlib.sha256(json.dumps(obj, sort_keys=True, ensure_ascii=False).encode()).hexdigest()  # noqa: E731
    return {"transcript": sha(game["transcript"]), "emulated_s": game["emulated_s"], "actions": game["actions"],
            "deals": game["deals"], "profile": sha(game["profile"]),
            "pngs": [[name, _pixels_sha(data)[0]] for name, data in game["screens"]["pngs"]],
            "gif": _pixels_sha(game["screens"]["gif"]) if game["screens"]["gif"] else None}


GAMES = {"0": (0, regress.spread_seed(1), "random", True), "2": (2, regress.spread_seed(3), "adversarial", False)}


@pytest.fixture(scope="module")
def tape(built_tape) -> bytes:
    return built_tape.tap


def _states(a: Spectrum48, b: Spectrum48) -> tuple:
    return (a.cpu.save_state(), vars(a.s)), (b.cpu.save_state(), vars(b.s))


def test_strict_acceleration_leaves_the_whole_machine_state_identical():
    m = basic_machine()
    snap = m.snapshot()
    plain, fast = Spectrum48(fast=True), Spectrum48(fast=True)
    plain.restore(snap)
    fast.restore(snap)
    acc = fast.accelerator = Accelerator(fast, cross_frames=False)
    for _ in range(6):
        plain.run_frames(40)
        fast.run_frames(40)
        a, b = _states(plain, fast)
        assert a == b
    assert acc.stats.answered > 200 and acc.stats.ticks_saved > 100_000


def test_a_wrong_answer_is_seen_by_the_same_comparison():
    """Plant a cached answer one byte wrong (HL, the address of the line found): the states differ."""
    m = basic_machine()
    snap = m.snapshot()
    plain, fast = Spectrum48(fast=True), Spectrum48(fast=True)
    plain.restore(snap)
    fast.restore(snap)
    acc = fast.accelerator = Accelerator(fast, cross_frames=False)
    fast.run_frames(20)
    plain.run_frames(20)
    assert _states(plain, fast)[0] == _states(plain, fast)[1]       # the near miss: untouched, identical
    for answer in acc.cache.values():
        if answer is not None:
            answer.regs = answer.regs[:4] + bytes([answer.regs[4] ^ 1]) + answer.regs[5:]
    fast.run_frames(20)
    plain.run_frames(20)
    assert _states(plain, fast)[0] != _states(plain, fast)[1]


def test_a_changed_program_is_walked_again():
    """After a line header changes (a line renumbered in memory), cached walks past it are not used."""
    m = basic_machine()
    snap = m.snapshot()
    plain, fast = Spectrum48(fast=True), Spectrum48(fast=True)
    for x in (plain, fast):
        x.restore(snap)
    acc = fast.accelerator = Accelerator(fast, cross_frames=False)
    for x in (plain, fast):
        x.run_frames(20)
    prog = fast.peek("PROG")
    second = prog + 4 + fast.peek(prog + 2, 2)                       # line 20 becomes line 21
    for x in (plain, fast):
        x.poke(second + 1, 21)
    declined = acc.stats.declined
    for x in (plain, fast):
        x.run_frames(20)
    assert acc.stats.declined > declined
    assert _states(plain, fast)[0] == _states(plain, fast)[1]


@pytest.mark.parametrize("accelerate", [False, True], ids=["plain", "accelerated"])
def test_games_are_as_recorded_before_the_fast_paths(tape, accelerate):
    """The games recorded (tests/data/recorded-games.json) before the waits were detected by traps and the
    keyboard answered from a table, byte-identical in transcript, frames, profile and pixels."""
    recorded = json.loads(DATA.read_text(encoding="utf-8"))
    regress._init_worker(tape, accelerate=accelerate)
    try:
        for key, job in GAMES.items():
            assert game_digest(regress.play_one(job)) == recorded[key], job
    finally:
        regress._init_worker(tape)


def test_a_sweep_chunk_is_the_same_with_the_accelerator(tape):
    from harness.game import sweep
    items = sweep._items("play", max_suffix=3)[0][:40]
    results = []
    for accelerate in (False, True):
        sweep._init("play", tape, accelerate)
        results.append(sweep._run_chunk((0, items)))
    sweep._init("play", tape)
    assert results[0] == results[1]
    assert results[0]["cases"] == 40
