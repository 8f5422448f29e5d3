"""A sample of three readings runs: games played to each."""
import checkout
import sys

import pytest

ROOT = checkout.ROOT
sys.path.insert(0, str(ROOT))
from tools import ocr_diff as od

from harness.program.runs.readings_record import KINDS, read_readings
from harness.program.runs.readings_tapes import reading_id


@pytest.fixture(scope="module")
def bas():
    return od.read_bas(od.DEFAULT_BAS)


# ------------------------------------------------------------------------------------------ a sample
def test_a_sample_of_three_entries_runs(tmp_path):
    """2 (the CLEAR line: every reading refused by the ROM), 3310 (the evidence's space in SAFE: stored alike)
    and 4440 (`LET CGC=0`: the program stops at once, and D1 vanishes because it stops, not flagged): one
    reconstruction game and one short variant game."""
    from harness.commands import readings as cmd
    out = tmp_path / "readings.json"
    assert cmd.main(["--entries", "2,3310,4440", "--games", "1", "--no-thorough", "--workers", "1",
                     "--quiet", "--out", str(out)]) == 0
    record = read_readings(out)
    kinds = {c.id: c.kind for c in record.readings}
    bas = od.read_bas(od.DEFAULT_BAS)
    assert {c.line for c in record.readings} == {2, 3310, 4440}
    assert kinds[reading_id(3310, bas[3310].replace("T>=SAFE", "T>=S AFE"))] == "stores-alike"
    assert {k for i, k in kinds.items() if i.startswith("2.")} == {"rom-rejects"}
    cgc = next(c for c in record.readings if c.text == bas[4440].replace("CGO", "CGC"))
    assert cgc.kind == "stops" and "Variable not found" in cgc.detail and cgc.games
    assert "D1" in cgc.vanish and cgc.vanish_playing == []
    d1 = next(r for r in record.deviations or [] if r.deviation == "D1")
    assert cgc.id in d1.vanish_stops and d1.vanish_playing == []
    for c in record.readings:
        assert c.kind in KINDS
    assert record.ended == "complete" and record.cpu_s.total > 0 and record.variant_games == 1
