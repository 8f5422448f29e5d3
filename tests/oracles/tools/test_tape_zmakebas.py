"""zmakebas makes the same TAP as our tape writer."""
import shutil
import subprocess

import pytest

from harness.spectrum.basic import tokenise_program
from harness.spectrum.tape import (FLAG_DATA, TapeBlock, program_header,
                                   write_tap)

# A program header for 10 PRINT "HI" (10 bytes), autostart 10, built by hand:
PROGRAM_HEADER = bytes.fromhex(
    "13 00"                             # block length 19 = flag + 17 + checksum
    " 00"                               # flag: header
    " 00"                               # type 0: program
    " 4e 41 4d 45 20 20 20 20 20 20"    # name "NAME" padded with spaces to 10
    " 0a 00"                            # data length 10
    " 0a 00"                            # param1: autostart line 10
    " 0a 00"                            # param2: program length without variables, 10
    " 0d"                               # checksum: 00^00^'N'^'A'^'M'^'E'^0A^0A^0A = 0D
)

DATA_BLOCK = bytes.fromhex(
    "0c 00"                             # block length 12 = flag + 10 + checksum
    " ff"                               # flag: data
    " 00 0a 06 00 f5 22 48 49 22 0d"    # 10 PRINT "HI"
    " 0a"                               # checksum: FF^00^0A^06^00^F5^22^48^49^22^0D = 0A
)


zmakebas = shutil.which("zmakebas")


@pytest.mark.skipif(zmakebas is None, reason="zmakebas not installed (tools/install-system-deps.sh)")
def test_same_tap_as_zmakebas(tmp_path):
    bas = tmp_path / "hi.bas"
    bas.write_text('10 PRINT "HI"\n')
    tap = tmp_path / "hi.tap"
    subprocess.run([zmakebas, "-o", str(tap), "-a", "10", "-n", "NAME", str(bas)], check=True)
    theirs = tap.read_bytes()
    assert theirs == PROGRAM_HEADER + DATA_BLOCK  # zmakebas agrees with the hand-built bytes
    prog = tokenise_program(bas.read_text())
    ours = write_tap([program_header("NAME", len(prog), autostart_line=10),
                      TapeBlock(FLAG_DATA, prog)])
    assert ours == theirs
