"""tap2sna, as the player's guide says, snapshots the English tape, which goes on to the first question."""
from __future__ import annotations

import checkout
import sys


from harness.spectrum.charset import koi7_char
from harness.spectrum.screen import read_screen

ROOT = checkout.ROOT
sys.path.insert(0, str(ROOT))


def test_tap2sna_as_the_guide_says_snapshots_the_english_tape_that_goes_on_to_the_first_question(tmp_path, build_of):
    from harness.spectrum import z80snap
    from helpers import run_tool, tool
    tape, snap = tmp_path / "cribbage-en.tap", tmp_path / "cribbage-en.z80"
    tape.write_bytes(build_of("en").tap)
    run_tool(tool("tap2sna.py"), tape, snap)
    m = z80snap.load(snap, fast=True)
    assert 9900 <= m.peek("PPC") <= 9950                              # setting up the UDGs
    assert any("PLEASE WAIT" in r for r in read_screen(m.mem, font_text=koi7_char).rows)
    stop = m.run(5000, until_wait=True, what="the first question")
    assert (stop.kind, stop.wait.line) == ("wait", 7060)
    assert any("NEED INSTRUCTIONS? (Y/N):" in r for r in read_screen(m.mem, font_text=koi7_char).rows)
