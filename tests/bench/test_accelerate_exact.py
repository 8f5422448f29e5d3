"""The LINE-ADDR accelerator (harness/spectrum/accelerate.py) leaves the whole machine as the plain ROM does,
at every statement start and every frame end of a program made to stress it: walks over 200 lines that
cross frame ends (answered up to the frame's end, the interrupt taken by the ROM, then answered onwards),
a line sought past the last line, and a POKE that renumbers a line (the table must be dropped).

Planted faults, each caught with its frame and line: an answer charged one T-state short, a table not
dropped after the POKE into the program area. The near miss: the same runs, unplanted, identical.
"""
from __future__ import annotations

from dataclasses import replace as dataclass_replace

import pytest

from harness.spectrum.accelerate import Accelerator, accelerate
from harness.spectrum.basic import tokenise_program
from harness.spectrum.loading import load_tape
from harness.spectrum.machine import Spectrum48
from harness.spectrum.tape import TapeBlock, program_header
from harness.spectrum.variables import BasicVariables

from accel_lockstep import lockstep_statements

FILLER = "\n".join(f"{n} REM filler line {n} to walk past" for n in range(24, 424, 2))
PROGRAM = f"""1 PAUSE 0
10 LET X=0: GO TO 1000
20 LET X=X+100: RETURN
22 LET X=X+1: RETURN
{FILLER}
500 RETURN
1000 FOR I=1 TO 6: GO SUB 500: GO SUB 21: NEXT I
1010 LET P=PEEK 23635+256*PEEK 23636: FOR L=1 TO 2: LET P=P+4+PEEK (P+2)+256*PEEK (P+3): NEXT L: POKE P+1,21
1020 FOR I=1 TO 6: GO SUB 500: GO SUB 21: NEXT I
1030 GO TO 9000
"""
FRAMES = 70          # the program ends (GO TO 9000: past the last line) well within them


@pytest.fixture(scope="module")
def waiting(booted_snapshot) -> tuple:
    """The machine with the program loaded, waiting at its PAUSE 0."""
    program = tokenise_program(PROGRAM)
    m = Spectrum48(fast=True)
    m.restore(booted_snapshot)
    stop = load_tape(m, [program_header("stress", len(program), autostart_line=1), TapeBlock(0xFF, program)])
    assert stop.kind == "wait", stop
    return m.snapshot()


def _pair(snap) -> tuple[Spectrum48, Spectrum48]:
    plain, fast = Spectrum48(fast=True), Spectrum48(fast=True)
    for m in (plain, fast):
        m.restore(snap)
        m.press("ENTER")
    accelerate(fast)
    return fast, plain


def test_every_statement_start_and_frame_end_is_identical(waiting):
    fast, plain = _pair(waiting)
    compared, difference = lockstep_statements(fast, plain, FRAMES)
    assert difference is None
    stats = fast.accelerator.stats
    # the runs did what they are for: whole answers, answers to the frame's end, resumed after the
    # interrupt, a table dropped by the POKE, and the program's end reached
    assert stats.answered > 20 and stats.partial > 0 and stats.resumed > 0, vars(stats)
    assert stats.invalidated >= 1
    assert plain.last_report is not None and plain.last_report.code == "0"
    assert compared > 150
    # X: 6 from line 22 before the POKE, then 6 * 100 from line 20, renumbered 21 by it
    assert BasicVariables(plain).get("X") == BasicVariables(fast).get("X") == 606


def test_an_answer_one_t_state_short_is_caught_with_its_frame_and_line(waiting, monkeypatch):
    real = Accelerator.record_line

    def short(self, hl):
        answer = real(self, hl)
        if answer is not None and answer.end is not None:
            answer.end = answer.end._replace(ticks=answer.end.ticks - 1)
        return answer
    monkeypatch.setattr(Accelerator, "record_line", short)
    fast, plain = _pair(waiting)
    _, difference = lockstep_statements(fast, plain, FRAMES)
    assert difference is not None and difference.startswith("frame ") and ", line " in difference
    assert any(word in difference for word in ("ticks_to_stop", "frame_tick", "machine state t")), difference


def test_a_table_kept_after_a_poke_into_the_program_is_caught(waiting):
    fast, plain = _pair(waiting)
    fast.cpu.on_watched_write = None          # planted: the CPU's writes into line headers go unreported
    _, difference = lockstep_statements(fast, plain, FRAMES)
    # caught where the plain ROM runs line 20 (renumbered 21) and the stale table sent GO SUB 21 to line 22
    assert difference is not None and ", line 21:1" in difference, difference


def test_a_recording_machine_is_the_plain_roms_even_when_the_tape_has_the_accelerator(waiting):
    """RZX recordings count the ROM's own fetches per frame: their machine is never accelerated."""
    from harness.program.runs.loaded import LoadedTape
    from harness.spectrum.profile import Profile
    with_cache = LoadedTape(tape=b"", core="z80", snapshot=waiting, statements={}, startup_profile=Profile(),
                            setup=None, cache={})                              # type: ignore[arg-type]
    assert with_cache.machine().accelerator is not None          # the near miss: a game's machine has it
    assert with_cache.machine(recording=True).accelerator is None
    assert dataclass_replace(with_cache, cache=None).machine().accelerator is None


def test_a_poke_into_a_line_body_keeps_the_table(waiting):
    """Only PROG and the line headers are watched: a write elsewhere in a line (a DEF FN's argument slot,
    a POKE into a REM) does not drop the table; one into a header does."""
    fast, _ = _pair(waiting)
    fast.run_frames(10)
    acc = fast.accelerator
    assert acc._table is not None and acc.stats.invalidated == 0
    line = acc._lines[3]
    fast.poke(line + 5, 0x41)                      # a byte of the REM's text
    assert acc._table is not None and acc.stats.invalidated == 0
    fast.poke(line + 2, fast.peek(line + 2))       # its length, rewritten as it was: still a write into it
    assert acc._table is None and acc.stats.invalidated == 1


def test_the_routine_profile_counts_the_calls_the_accelerator_sees(waiting):
    """bench's profile (harness/bench/routines.py) on the plain twin counts as many LINE-ADDR calls as the
    accelerator is asked on the other, at least the T-states it answered, and NEXT-ONE nearly only inside."""
    from harness.bench.routines import RoutineProfiler
    fast, plain = _pair(waiting)
    profiler = RoutineProfiler(plain)
    fast.run_frames(FRAMES)
    plain.run_frames(FRAMES)
    p, stats = profiler.finish(), fast.accelerator.stats
    assert p.calls["LINE-ADDR"] == stats.answered + stats.partial + stats.declined
    assert stats.ticks_saved <= p.t_states["LINE-ADDR"] < stats.ticks_saved * 1.2
    assert 0.99 * p.t_states["NEXT-ONE"] < p.nested["NEXT-ONE"] <= p.t_states["NEXT-ONE"]   # a few elsewhere
    assert p.t_states["LINE-ADDR"] < p.total_t
