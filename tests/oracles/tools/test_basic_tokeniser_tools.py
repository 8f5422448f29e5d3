"""The tokeniser against Debian's own: listbasic lists our tape as the listing reads, zmakebas makes the same bytes (but for the DEF FN slot it leaves empty)."""
import shutil
import subprocess

import pytest

from harness.spectrum.basic import detokenise, split_program, tokenise_program
from harness.spectrum.tape import read_tap


zmakebas = shutil.which("zmakebas")
listbasic = shutil.which("listbasic")

# Integer-only, no DEF FN: zmakebas must store exactly what we do.
CROSS_CHECK = """\
10 REM CRIBBAGE TEST
20 LET TOTAL=0: LET SAFE=31
30 FOR I=1 TO 10 STEP 2: LET TOTAL=TOTAL+I: NEXT I
40 IF TOTAL<>25 THEN PRINT "BAD": STOP
50 PRINT AT 10,5;"TOTAL=";TOTAL;TAB 20;INKEY$
60 DIM A(52): LET A(1)=64600: POKE 23606,88: POKE 23607,251
70 GO SUB 100: GO TO 10
100 LET X1=CODE INKEY$: IF X1>=48 AND X1<=57 THEN RETURN
110 PRINT \\a\\b\\.';STR$ X1: LOAD "chr" CODE 64600
120 RANDOMIZE USR 0: BORDER 0: PAPER 7: INK 0: CLS
130 LET B=BIN 1011+PI*INT (RND*6)-NOT SGN ABS -1: OPEN #4,"K": CLOSE #4
140 LET A=2.5+1E3+65536+100000: INPUT LINE A$: PRINT "\\{16}\\{2}HI"
"""


def _zmakebas(tmp_path, src):
    bas = tmp_path / "in.bas"
    bas.write_text(src)
    tap = tmp_path / "out.tap"
    subprocess.run([zmakebas, "-o", str(tap), "-a", "10", "-n", "NAME", str(bas)], check=True)
    return tap


@pytest.mark.skipif(zmakebas is None, reason="zmakebas not installed (tools/install-system-deps.sh)")
def test_same_bytes_as_zmakebas(tmp_path):
    header, data = read_tap(_zmakebas(tmp_path, CROSS_CHECK))
    ours = tokenise_program(CROSS_CHECK)
    for (n1, b1), (n2, b2) in zip(split_program(ours), split_program(data.data)):
        assert (n1, b1.hex(" ")) == (n2, b2.hex(" "))
    assert ours == data.data


@pytest.mark.skipif(zmakebas is None, reason="zmakebas not installed (tools/install-system-deps.sh)")
def test_zmakebas_differs_only_by_the_def_fn_slot(tmp_path):
    src = "60 DEF FN T(X)=(X>9)*10+(X<10)*X\n"
    header, data = read_tap(_zmakebas(tmp_path, src))
    ours = tokenise_program(src)
    slot = bytes.fromhex("0e 3d 28 58 3e 58")  # ROM's slot after the parameter X
    assert ours.replace(slot, b"")[4:] == data.data[4:]
    assert len(ours) == len(data.data) + 6


@pytest.mark.skipif(zmakebas is None or listbasic is None,
                    reason="zmakebas/listbasic not installed (tools/install-system-deps.sh)")
def test_listing_matches_listbasic(tmp_path):
    # listbasic (fuse-emulator-utils) lists like the ROM: same text but for the
    # right-aligned line numbers, the trailing space after a final keyword,
    # and the control codes it does not show.
    src = CROSS_CHECK.replace("\\{16}\\{2}", "")
    tap = _zmakebas(tmp_path, src)
    theirs = subprocess.run([listbasic, str(tap)], check=True, capture_output=True,
                            text=True).stdout.splitlines()
    ours = detokenise(tokenise_program(src)).splitlines()
    assert [line.strip() for line in theirs] == ours
