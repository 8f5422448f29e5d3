"""The typist enters lines the ROM tokenises itself; variables read back equal what BASIC printed."""
import pytest

from harness.errors import MachineError
from harness.spectrum.charset import rom_char
from harness.spectrum.screen import read_screen
from harness.spectrum.typist import Typist
from harness.spectrum.variables import BasicVariables, ForLoop, VariableError


def program_bytes(m) -> bytes:
    return m.read(m.peek("PROG"), m.peek("VARS") - m.peek("PROG"))


def test_a_typed_line_is_stored_with_the_expected_bytes(machine):
    Typist(machine).enter_line(b'10' + bytes([0xF5]) + b'"Hi",1.5')
    assert program_bytes(machine) == bytes([
        0x00, 0x0A,                     # line 10, big-endian
        0x10, 0x00,                     # 16 bytes follow, little-endian
        0xF5,                           # PRINT
        0x22, 0x48, 0x69, 0x22,         # "Hi"
        0x2C,                           # ,
        0x31, 0x2E, 0x35,               # 1.5 as typed
        0x0E, 0x81, 0x40, 0x00, 0x00, 0x00,  # hidden number: 1.5 = 0.75 * 2^1
        0x0D,                           # ENTER
    ])


def test_keywords_in_every_mode_and_a_udg(machine):
    # 20 IF INKEY$<>"" THEN LET a=INT (RND*3): PAPER 4: PRINT "<UDG A>"
    body = (b"20" + bytes([0xFA, 0xA6, 0xC9]) + b'""' + bytes([0xCB, 0xF1]) + b"a=" + bytes([0xBA])
            + b"(" + bytes([0xA5]) + b"*3):" + bytes([0xDA]) + b"4:" + bytes([0xF5]) + b'"' + bytes([0x90]) + b'"')
    Typist(machine).enter_line(body)
    stored = program_bytes(machine)
    assert stored[4:].replace(bytes([0x0E, 0, 0, 3, 0, 0]), b"").replace(bytes([0x0E, 0, 0, 4, 0, 0]), b"") \
        == body[2:] + b"\r"


def test_a_rejected_line_is_reported(machine):
    with pytest.raises(MachineError, match="rejected"):
        Typist(machine).enter_line(b"10" + bytes([0xF5]) + b"1+")


def test_variables_read_back_equal_what_the_program_printed(machine):
    t = Typist(machine)
    t.enter_line(b"10" + bytes([0xF1]) + b"A=7:" + bytes([0xF1]) + b'B$="CAT":' + bytes([0xE9]) + b"C(3):"
                 + bytes([0xF1]) + b"C(2)=2.5:" + bytes([0xF1]) + b"TOTAL=-1E10")
    t.enter_line(b"20" + bytes([0xE9]) + b"D$(2,3):" + bytes([0xF1]) + b'D$(2)="XY":'
                 + bytes([0xEB]) + b"I=1" + bytes([0xCC]) + b"3:" + bytes([0xF3]) + b"I")
    t.enter_line(b"30" + bytes([0xF5]) + b'A;" ";B$;" ";C(2);" ";I;" ";TOTAL;" ";D$(2)')
    t.type_codes(bytes([0xF7, 0x0D]))
    machine.run_until_report(200)
    printed = read_screen(machine.mem, font_text=rom_char).rows[0].split()
    v = BasicVariables(machine)
    assert printed == ["7", "CAT", "2.5", "4", "-1E+10", "XY"]
    assert v.get("A") == 7 and v.get("B$") == "CAT"
    assert v.get("C()") == [0, 2.5, 0]
    assert v.get("TOTAL") == -1e10
    assert v.get("D$()") == ["   ", "XY "]
    assert v.get("I") == ForLoop(4, 3, 1, 20, 4)
    assert v.numbers("C()") == [0, 2.5, 0]              # a numeric array's elements, flat
    with pytest.raises(VariableError, match=r"D\$\(\) is not an array"):
        v.numbers("D$()")                               # a character array is not numbers


def test_variables_written_by_name_are_seen_by_basic(machine):
    t = Typist(machine)
    t.enter_line(b"10" + bytes([0xF1]) + b'A=1:' + bytes([0xF1]) + b'B$="X":' + bytes([0xE9]) + b"P(3)")
    t.enter_line(b"20" + bytes([0xF5]) + b'A;B$;P(3);N')
    t.type_codes(bytes([0xF7, 0x0D]))
    machine.run_until_report(100)
    assert machine.last_report.code == "2"      # N is not there yet
    v = BasicVariables(machine)
    v.set("A", 42)
    v.set("B$", "LONGER")            # grows: everything above moves, pointers follow
    v.set_element("P()", 3, 0.25)
    v.set("N", 9)                    # created, like LET
    t.type_codes(bytes([0xEC]) + b"20\r")   # GO TO 20 keeps the variables
    machine.run_until_report(100)
    # "1X0" was printed before the report; GO TO 20 goes on printing on the same row
    assert read_screen(machine.mem, font_text=rom_char).rows[0].rstrip() == "1X042LONGER0.259"
    assert machine.last_report.code == "0"
    with pytest.raises(VariableError, match="Q"):
        v.get("Q")
    with pytest.raises(VariableError, match="Subscript"):
        v.set_element("P()", 4, 1)
    with pytest.raises(VariableError, match="A holds a number, not 'TEXT'"):
        v.set("A", "TEXT")                              # a text for a number is refused, not encoded
    with pytest.raises(VariableError, match="P\\(\\) holds a number"):
        v.set_element("P()", 1, [1, 2])
    v.set("A", 7.5)                                     # the near miss: a number is taken
    assert v.get("A") == 7.5
