"""Debian's listbasic reads the game's tape as the listing reads."""

import pytest

from harness.program.model.build import build
from harness.spectrum.basic import split_program
from harness.spectrum.romcheck import RomNumberEncoder


@pytest.fixture(scope="module")
def built():
    return build(encoder=RomNumberEncoder())


@pytest.mark.skipif(__import__("shutil").which("listbasic") is None,
                    reason="listbasic (Debian fuse-emulator-utils) not installed: tools/install-system-deps.sh")
def test_listbasic_reads_the_tape(built, tmp_path):
    """An independent reader (Fuse's listbasic) lists the program on the tape: all 611 lines,
    with the line numbers of the listing, and the same numbers our tokeniser wrote."""
    import re
    import subprocess
    tap = tmp_path / "cribbage.tap"
    tap.write_bytes(built.tap)
    out = subprocess.run(["listbasic", str(tap)], capture_output=True, text=True, errors="replace",
                         check=True, timeout=60).stdout
    numbers = [int(m.group(1)) for m in re.finditer(r"^\s*(\d+) ", out, re.M)]
    assert numbers == [n for n, _ in split_program(built.program)]
    assert re.search(r"^\s*2 CLEAR 64599: LOAD \"chr\"CODE 64600$", out, re.M)
    assert re.search(r"^\s*60 DEF FN T\(X\)=\(X>9\)\*10\+\(X<10\)\*X$", out, re.M)
