"""The embedded 48K: boot, timing, ROM protection, reports, wait states, fast mode, snapshots, on each CPU core.

Every test runs once per core (tests/conftest.py's cpu_core: the z80 package's, and SkoolKit's simulator,
marked slow): the machine's behaviour is the machine's, whichever CPU runs it."""
import pytest

from harness.spectrum.machine import FRAME_T, RunTimeout, Spectrum48
from harness.spectrum.charset import rom_char
from harness.spectrum.screen import read_screen
from harness.spectrum.typist import Typist

# Hand-assembled token bytes (ROM token table): PRINT F5, GO TO EC, POKE F4, PEEK BE, PAUSE F2,
# INPUT EE, IF FA, INKEY$ A6, THEN CB, BEEP D7, RUN F7, LET F1, DIM E9, FOR EB, TO CC, NEXT F3.
PRINT, GOTO, POKE, PEEK, PAUSE, INPUT, IF, INKEY, THEN, BEEP, RUN = (
    0xF5, 0xEC, 0xF4, 0xBE, 0xF2, 0xEE, 0xFA, 0xA6, 0xCB, 0xD7, 0xF7)


@pytest.fixture
def machine(core_machine):
    """This module's machine: a booted one on each core in turn (conftest's is the z80 package's only)."""
    return core_machine


@pytest.fixture
def fast_machine(core_fast_machine):
    return core_fast_machine


def type_program(m, *lines: bytes) -> Typist:
    t = Typist(m)
    for line in lines:
        t.enter_line(line)
    return t


def test_boot_screen_reads_the_copyright_line(machine):
    screen = read_screen(machine.mem, font_text=rom_char)
    assert screen.rows[23].rstrip() == "© 1982 Sinclair Research Ltd"
    assert not screen.unknown


def test_frames_counts_every_frame_while_basic_runs(machine):
    t = type_program(machine, b"10" + bytes([GOTO]) + b"10")
    t.type_codes(bytes([RUN, 0x0D]))
    machine.run_frames(5)
    before = machine.peek("FRAMES")
    machine.run_frames(1766)
    assert machine.peek("FRAMES") - before == 1766
    assert machine.ppc == 10


def test_frame_length_carries_the_overshoot(machine):
    machine.run_frames(37)
    assert 0 <= machine.s.t < 24          # at most one instruction's overshoot carried
    assert FRAME_T == 69888


def test_rom_is_write_protected(machine):
    t = type_program(machine, b"10" + bytes([POKE]) + b"0,1:" + bytes([PRINT, PEEK]) + b"0")
    t.type_codes(bytes([RUN, 0x0D]))
    machine.run_until_report(200)
    assert machine.mem[0] == 0xF3
    assert read_screen(machine.mem, font_text=rom_char).rows[0].rstrip() == "243"


def test_division_by_zero_is_report_6_with_its_line_and_statement(machine):
    t = type_program(machine, b"10" + bytes([PRINT]) + b"1:" + bytes([PRINT]) + b"1/0")
    t.type_codes(bytes([RUN, 0x0D]))
    stop = machine.run_until_report(200)
    assert stop.kind == "report"
    rep = machine.last_report
    assert (rep.code, rep.message, rep.line, rep.statement) == ("6", "Number too big", 10, 2)
    assert "6 Number too big, 10:2" in read_screen(machine.mem, font_text=rom_char).text


def test_wait_states_pause_input_inkey(machine):
    snap = machine.snapshot()
    cases = [
        (b"10" + bytes([PAUSE]) + b"0", "pause", 10),
        (b"20" + bytes([INPUT]) + b"a$", "input", 20),
        (b"30" + bytes([IF, INKEY]) + b'=""' + bytes([THEN, GOTO]) + b"30", "inkey", 30),
    ]
    for line, kind, number in cases:
        machine.restore(snap)
        t = type_program(machine, line)
        t.type_codes(bytes([RUN, 0x0D]))
        stop = machine.run_until_wait(300)
        assert stop.kind == "wait", line
        assert (stop.wait.kind, stop.wait.line) == (kind, number)


def test_run_until_line_stops_at_the_statement(machine):
    t = type_program(machine, b"10" + bytes([PAUSE]) + b"25", b"20" + bytes([PRINT]) + b"2:" + bytes([PRINT]) + b"3")
    t.type_codes(bytes([RUN, 0x0D]))
    stop = machine.run_until_line(20, 2, max_frames=100)
    assert stop.kind == "line" and (machine.ppc, machine.subppc) == (20, 2)


def test_timeout_raises_with_a_screenshot(machine, tmp_path):
    machine.screenshot_dir = tmp_path
    t = type_program(machine, b"10" + bytes([GOTO]) + b"10")
    t.type_codes(bytes([RUN, 0x0D]))
    with pytest.raises(RunTimeout, match="line 99") as info:
        machine.run_until_line(99, max_frames=30)
    assert info.value.screenshot is not None and info.value.screenshot.exists()


def test_fast_mode_skips_beep_and_pause_but_counts_the_frames(fast_machine):
    m = fast_machine
    t = type_program(m, b"10" + bytes([BEEP]) + b"1,0:" + bytes([PAUSE]) + b"100:" + bytes([PRINT]) + b"7")
    before = m.peek("FRAMES")
    t.type_codes(bytes([RUN, 0x0D]))
    m.run_until_report(60)                 # a real BEEP 1 alone would take 50 frames
    assert m.last_report.code == "0"
    kinds = [e.kind for e in m.events]
    assert "beep" in kinds and ("pause", (100,)) in [(e.kind, e.detail) for e in m.events]
    assert m.peek("FRAMES") - before >= 100
    assert read_screen(m.mem, font_text=rom_char).rows[0].rstrip() == "7"


def test_snapshot_restore_is_exact(machine):
    snap = machine.snapshot()
    machine.run_frames(10)
    after_a = bytes(machine.mem), machine.frames
    machine.restore(snap)
    machine.run_frames(10)
    assert (bytes(machine.mem), machine.frames) == after_a


def test_two_runs_with_the_same_inputs_leave_identical_memory(cpu_core):
    results = []
    for _ in range(2):
        m = Spectrum48(core=cpu_core)
        m.boot()
        t = type_program(m, b"10" + bytes([PRINT]) + b"1+1")
        t.type_codes(bytes([RUN, 0x0D]))
        m.run_until_report(100)
        results.append((bytes(m.mem), m.frames, m.cpu.save_state()))
    assert results[0] == results[1]
