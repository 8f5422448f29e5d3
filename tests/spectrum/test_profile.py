"""The BASIC profiler: the statement table read from tokenised lines, and the counts a real run gives.

Expected counts are worked out by hand from the little program below, not by the profiler."""
from harness.spectrum.basic import tokenise_program
from harness.spectrum.loading import load_tape
from harness.spectrum.machine import Spectrum48
from harness.spectrum.profile import TOKEN_IF, Profile, Profiler, profile_of_counts, statement_table
from harness.spectrum.tape import program_header, write_tap

PROGRAM = """\
10 LET N=0
20 FOR I=1 TO 5
30 IF I>3 THEN LET N=N+1: REM a colon: not a statement
40 NEXT I
50 PRINT "A:B";N: IF N=2 THEN STOP
60 PAUSE 0
70 LET X=58: LET Y=203
"""


def program_bytes() -> bytes:
    return tokenise_program(PROGRAM)


def test_the_statement_table_splits_at_colons_and_then_only_outside_strings_rems_and_numbers():
    table = statement_table(program_bytes())
    assert sorted(table) == [(10, 1), (20, 1), (30, 1), (30, 2), (30, 3), (40, 1), (50, 1), (50, 2), (50, 3),
                             (60, 1), (70, 1), (70, 2)]     # 58 is 0x3A (':') and 203 is THEN in the hidden bytes
    assert table[(30, 1)] == TOKEN_IF and table[(50, 2)] == TOKEN_IF
    assert table[(30, 3)] == 0xEA                           # REM


def test_a_run_is_counted_statement_by_statement_and_each_if_both_ways():
    from harness.spectrum.tape import TapeBlock, FLAG_DATA
    body = program_bytes()
    tape = write_tap([program_header("P", len(body), autostart_line=10), TapeBlock(FLAG_DATA, body)])
    m = Spectrum48(fast=True)
    m.boot()
    profiler = Profiler.for_program(body)
    profiler.start(m)
    stop = load_tape(m, tape)
    profile = profiler.stop()
    assert stop.kind == "report" and str(stop.report).startswith("9 STOP statement, 50:3")
    assert dict(profile.counts) == {(10, 1): 1, (20, 1): 1, (30, 1): 5, (30, 2): 2, (30, 3): 2, (40, 1): 5,
                                    (50, 1): 1, (50, 2): 1, (50, 3): 1}
    assert dict(profile.if_true) == {(30, 1): 2, (50, 2): 1}
    assert dict(profile.if_false) == {(30, 1): 3}
    assert profiler.ifs == {(30, 1), (50, 2)}
    assert Profiler.program_of_tape(__import__("harness.spectrum.tape", fromlist=["read_tap"]).read_tap(tape)) == body


def test_outcomes_are_derived_from_the_statement_after_then():
    counts = {(5, 1): 10, (5, 2): 4, (6, 1): 3}
    p = profile_of_counts(counts, {(5, 1), (6, 1)})
    assert (p.if_true[(5, 1)], p.if_false[(5, 1)]) == (4, 6)
    assert (p.if_true.get((6, 1), 0), p.if_false[(6, 1)]) == (0, 3)


def test_profiles_add_up_and_round_trip_through_json():
    a = profile_of_counts({(5, 1): 2, (5, 2): 1}, {(5, 1)})
    b = profile_of_counts({(5, 1): 1, (7, 1): 1}, {(5, 1)})
    total = a + b
    assert total.counts[(5, 1)] == 3 and total.if_true[(5, 1)] == 1 and total.if_false[(5, 1)] == 2
    assert Profile.from_json(total.as_json()) == total


def test_counting_costs_no_hook_and_stops_cleanly():
    m = Spectrum48(fast=True)
    m.boot()
    counts = m.count_statements(100)
    m.stop_counting_statements()
    assert len(counts) == 101 * 256 and m._statement_counts is None
