"""The ROM-routine accelerator (harness/spectrum/accelerate.py) and the machine's fast paths change nothing.

* Whole machine states, byte for byte, with the accelerator,
  against the plain ROM, over a BASIC program that does little but GO TO, GO SUB, RETURN and NEXT;
  and a planted wrong answer is caught by the same comparison.
* Whole games, against their record made before the machine's fast paths existed
  (tests/data/recorded-games.json): transcripts, frame counts, statement profiles and every
  screen's pixels, with and without --accelerate.
* A sweep chunk: the same outputs and profile with and without it.

A change meant to alter games (a new event in the transcript) records them again:
``python tests/test_accelerate.py --record``.
"""
from __future__ import annotations

import checkout
import hashlib
import io
import json

import numpy as np
from PIL import Image

from harness.bench.machine import basic_machine
from harness.program.runs import loaded, regress
from harness.program.model.build import tape_bytes
from harness.spectrum.accelerate import Accelerator
from harness.spectrum.machine import Spectrum48

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


def _states(a: Spectrum48, b: Spectrum48) -> tuple:
    return (a.cpu.save_state(), vars(a.s)), (b.cpu.save_state(), vars(b.s))


def _plain_and_accelerated() -> tuple[Spectrum48, Spectrum48, Accelerator]:
    """Two machines from one snapshot of the BASIC benchmark, the second with the accelerator."""
    snap = basic_machine().snapshot()
    plain, fast = Spectrum48(fast=True), Spectrum48(fast=True)
    plain.restore(snap)
    fast.restore(snap)
    acc = fast.accelerator = Accelerator(fast)
    return plain, fast, acc


def test_acceleration_leaves_the_whole_machine_state_identical():
    plain, fast, acc = _plain_and_accelerated()
    for _ in range(6):
        plain.run_frames(40)
        fast.run_frames(40)
        a, b = _states(plain, fast)
        assert a == b
    assert acc.stats.answered > 200 and acc.stats.ticks_saved > 100_000


def test_a_wrong_answer_is_seen_by_the_same_comparison():
    """Plant a cached answer one byte wrong (HL, the address of the line found): the states differ."""
    plain, fast, acc = _plain_and_accelerated()
    fast.run_frames(20)
    plain.run_frames(20)
    assert _states(plain, fast)[0] == _states(plain, fast)[1]       # the near miss: untouched, identical
    for table in acc.cache.values():
        for answer in table.values():
            if answer is not None and answer.end is not None:
                regs = answer.end.regs
                answer.end = answer.end._replace(regs=regs[:4] + bytes([regs[4] ^ 1]) + regs[5:])
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
    acc = fast.accelerator = Accelerator(fast)
    for x in (plain, fast):
        x.run_frames(20)
    prog = fast.peek("PROG")
    second = prog + 4 + fast.peek(prog + 2, 2)                       # line 20 becomes line 21
    for x in (plain, fast):
        x.poke(second + 1, 21)
    assert acc.stats.invalidated == 1 and acc._table is None         # the poke dropped the table
    recorded = acc.stats.recorded
    for x in (plain, fast):
        x.run_frames(20)
    assert acc.stats.recorded > recorded
    assert _states(plain, fast)[0] == _states(plain, fast)[1]


# ------------------------------------------------------------------ the machine's fast paths
def test_the_port_table_answers_every_port_as_the_keyboard_does(machine):
    for keys in ([], ["ENTER"], ["CAPS SHIFT", "SPACE"], ["Q", "P", "SYMBOL SHIFT"]):
        machine.release()
        if keys:
            machine.press(keys)
        for ear in (0, 1):
            machine.s.ear_out = ear
            table = machine._port_tables[ear]
            assert [table[p] for p in range(0x10000)] == [machine._port_read(p) for p in range(0x10000)], keys
    machine.s.ear_out = 0
    machine.release()
    machine.keyboard.rows[2] = 0x1E                 # a key written behind the machine's back: the table is stale
    assert machine._port_tables[0][0xFBFE] != machine._port_read(0xFBFE)


def test_waits_are_never_missed_where_wait_state_would_see_one(machine):
    """At every frame end of a program that waits in every way (PAUSE 0, INPUT, an INKEY$ loop) and of
    the editor, _maybe_waiting is true wherever wait_state finds a wait."""
    from harness.spectrum.basic import tokenise_line
    from harness.spectrum.romcheck import enter_line
    from harness.spectrum.typist import Typist, typed_form
    frame_end = machine.run_frame
    missed = []

    def checked_frame() -> bool:             # every frame end, the editor's and the Typist's included
        done = frame_end()
        w = machine.wait_state()
        if done and w is not None and not machine._maybe_waiting():
            missed.append((machine.frames, w))
        return done
    machine.run_frame = checked_frame
    typist = Typist(machine)
    for n, text in enumerate(["10 PAUSE 0", "20 INPUT A", "30 IF INKEY$<>\"\" THEN GO TO 30",
                              "35 IF INKEY$=\"\" THEN GO TO 35",
                              "40 FOR I=1 TO 200: NEXT I: GO TO 10"], 1):
        enter_line(machine, typed_form(tokenise_line(text, line_no_in_file=n)[1]))   # as build's ROM check does
    typist.type_codes(bytes([0xF7, 0x0D]))          # RUN
    seen, answers, holding = [], [], 0
    for frame in range(1500):
        if holding:
            holding -= 1
            if not holding:
                machine.release()
        elif answers:
            machine.press(answers.pop(0))
            holding = 3
        machine.run_frame()
        w = machine.wait_state()
        if w is not None:
            if not holding and not answers and (not seen or seen[-1] != (w.kind, frame - 1)):
                answers = {"pause": ["ENTER"], "input": ["1", "ENTER"], "inkey": ["SPACE"]}.get(w.kind, [])
            seen.append((w.kind, frame))
    seen = {kind for kind, _ in seen}
    assert missed == []
    assert {"pause", "input", "inkey"} <= seen


if __name__ == "__main__":   # `python tests/test_accelerate.py --record`: after a change that is meant to alter games
    import sys
    if sys.argv[1:] != ["--record"]:
        sys.exit("usage: python tests/test_accelerate.py --record   (rewrites tests/data/recorded-games.json)")
    loaded.init_worker(tape_bytes(None))
    DATA.write_text(json.dumps({k: game_digest(regress.play_one(job)) for k, job in GAMES.items()},
                               indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {DATA}")
