"""Tapes written by the project load with LOAD "" through the ROM's own LOAD command (LD-BYTES trapped)."""
import pytest

from harness.errors import MachineError
from harness.spectrum.basic import tokenise_program
from harness.spectrum.loading import load_tape
from harness.spectrum.charset import koi7_char
from harness.spectrum.screen import read_screen
from harness.spectrum.tape import FLAG_DATA, TapeBlock, code_header, program_header, read_tap, write_tap
from harness.spectrum.variables import BasicVariables

PROGRAM = '10 LET A=6*7: LET B$="LOADED"\n20 PRINT B$;" ";A\n30 LOAD "" CODE\n40 PRINT PEEK 40000\n'


def tape_for(source: str, autostart: int = 10) -> bytes:
    prog = tokenise_program(source)
    return write_tap([program_header("TEST", len(prog), autostart), TapeBlock(FLAG_DATA, prog),
                      code_header("data", 40000, 3), TapeBlock(FLAG_DATA, bytes([123, 1, 2]))])


def test_a_tape_written_by_the_project_loads_and_its_program_runs(fast_machine, tmp_path):
    path = tmp_path / "test.tap"
    path.write_bytes(tape_for(PROGRAM))
    stop = load_tape(fast_machine, path)
    assert stop.kind == "report" and stop.report.code == "0" and stop.report.line == 40
    rows = [r.rstrip() for r in read_screen(fast_machine.mem, font_text=koi7_char).rows]
    assert "LOADED 42" in rows and "123" in rows
    assert BasicVariables(fast_machine).get("A") == 42
    assert fast_machine.tape_blocks_left == 0
    assert [e.detail[3] for e in fast_machine.events if e.kind == "tape"] == ["ok"] * 4


def test_load_with_no_block_left_is_an_error_not_a_hang(fast_machine):
    blocks = read_tap(tape_for(PROGRAM))[:2]          # the CODE block is missing
    with pytest.raises(MachineError, match="line 30"):
        load_tape(fast_machine, blocks)


def test_a_block_of_the_wrong_kind_gives_report_r(fast_machine):
    blocks = read_tap(tape_for(PROGRAM))
    blocks[3] = TapeBlock(0x00, blocks[3].data)       # data block with a header's flag
    stop = load_tape(fast_machine, blocks)
    assert stop.report.code == "R" and stop.report.line == 30
