"""Golden games played with the ROM accelerator (LINE-ADDR answered, and LOOK-VARS's walk over the variables)
in lockstep with the plain ROM (issue 46).

Each game of both tapes (the Russian and the English edition), every player (random, greedy, adversarial)
and the 8 games `--thorough` adds (explorer, stopper), and the test store's own game (seed 1, random), is
played once plain and once accelerated with a plain twin beside the accelerated machine
(tests/accel_lockstep.py): the two machines are compared whole (the core's registers, flags, MEMPTR, R,
T-state counters and 64K; the machine's frame counter, T-states, events, reports) at every frame end and
wherever the game's driver stopped them (the statements it waits for). No exception is allowed: they must
be identical. The plain game's and the accelerated game's records (transcript, judgements, frames,
profile, screens) must be equal too. The planted faults (an answer one T-state short, a table kept after a
POKE into the program area; a LOOK-VARS pass one T-state short, a walk not cut back after a string moved, a
walk landing past the variable sought) are caught by the same comparison: here in a whole game for the
one-T-state answers, in tests/bench/test_accelerate_exact.py and tests/spectrum/test_accelerate_lookvars.py
at every statement start for all.
"""
from __future__ import annotations

import os

import pytest

from harness.bench.machine import what_it_did
from harness.program.runs import loaded, regress
from harness.spectrum import accelerate as acc
from harness.spectrum.accelerate import Accelerator

from accel_lockstep import Shadow

JOBS = regress.plan_games(3, 1, thorough=True) + [regress.GameJob(11, 1, "random")]
#: every golden game costs about 47 CPU-s in lockstep: `make test-all` plays one game of each player, the three
#: spread over both tapes; CRIBBAGE_ZX_LOCKSTEP=all plays all 24 (both tapes, every player, the --thorough set)
PAIRS = [(lang, job) for lang in ("ru", "en") for job in JOBS]
if os.environ.get("CRIBBAGE_ZX_LOCKSTEP") != "all":
    PAIRS = [("ru", JOBS[0]), ("en", JOBS[1]), ("ru", JOBS[2])]


def _play_in_lockstep(tape: bytes, job: regress.GameJob) -> tuple[regress.GameResult, list[Shadow]]:
    shadows: list[Shadow] = []
    real = loaded.LoadedTape.machine

    def machine(self: loaded.LoadedTape, recording: bool = False):
        m = real(self, recording)
        shadows.append(Shadow(m))
        return m
    loaded.init_worker(tape, accelerate=True)
    setattr(loaded.LoadedTape, "machine", machine)
    try:
        return regress.play_one(job), shadows
    finally:
        setattr(loaded.LoadedTape, "machine", real)
        loaded.init_worker(tape)


@pytest.mark.parametrize(("lang", "job"), PAIRS, ids=[f"{job.strategy}-{job.seed}-{lang}" for lang, job in PAIRS])
def test_a_golden_game_is_the_plain_roms_at_every_frame_end(build_of, lang, job):
    tape = build_of(lang).tap
    loaded.init_worker(tape)
    plain = regress.play_one(job)
    fast, shadows = _play_in_lockstep(tape, job)
    assert shadows and all(s.difference is None for s in shadows), [s.difference for s in shadows]
    assert sum(s.frame_ends for s in shadows) >= plain.emulated_s * 50 * 0.5     # fast mode skips PAUSE's frames
    # it answered (a stopper's game may end at its first question: nothing to answer)
    assert sum(s.fast.accelerator.stats.answered for s in shadows) >= int(plain.emulated_s)
    assert sum(s.fast.accelerator.stats.vars_answered for s in shadows) >= int(plain.emulated_s)
    assert what_it_did(fast) == what_it_did(plain)


def test_an_answer_one_t_state_short_is_caught_in_a_game_with_its_frame_and_line(built_tape, monkeypatch):
    real = Accelerator.record_line

    def short(self, hl):
        answer = real(self, hl)
        if answer is not None and answer.end is not None:
            answer.end = answer.end._replace(ticks=answer.end.ticks - 1)
        return answer
    monkeypatch.setattr(Accelerator, "record_line", short)
    _, shadows = _play_in_lockstep(built_tape.tap, regress.GameJob(0, 1, "random"))
    difference = shadows[0].difference
    assert difference is not None and difference.startswith("frame ") and ", line " in difference, difference


def test_a_lookvars_pass_one_t_state_short_is_caught_in_a_game_with_its_frame_and_line(built_tape, monkeypatch):
    real = acc.skip_cost

    def short(mem, a):
        step = real(mem, a)
        return None if step is None else (step[0] - 1,) + step[1:]
    monkeypatch.setattr(acc, "skip_cost", short)
    _, shadows = _play_in_lockstep(built_tape.tap, regress.GameJob(0, 1, "random"))
    difference = shadows[0].difference
    assert difference is not None and difference.startswith("frame ") and ", line " in difference, difference
