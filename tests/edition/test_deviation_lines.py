"""Every line a documented deviation cites reads as the OCR of the magazine shows it, up to character-level
OCR fixes (tools/ocr_diff.py's confusion table); the only cited lines that needed a judgement of
basic/RECONSTRUCTION.md are those docs/DEVIATIONS.md names as revisited, and none touches the logic."""
import checkout
import sys

ROOT = checkout.ROOT
sys.path.insert(0, str(ROOT))
from tools import ocr_diff as od

from harness.edition.notes import deviation_lines, judgement_entries
from harness.program.judge.deviations import DEVIATIONS

REVISITED = {2745, 2755, 4440, 4790, 4795, 7365, 7880}      # named in the header of docs/DEVIATIONS.md


def test_every_cited_line_reads_as_the_ocr_shows_it():
    bas = od.read_bas(od.DEFAULT_BAS)
    log, problems = judgement_entries(od.DEFAULT_LOG)
    assert problems == []
    report = od.compare(od.read_ocr(od.DEFAULT_OCR), bas, log)
    cited = {n for d in DEVIATIONS.values() for n in deviation_lines(d.lines, list(bas))}
    # a cited line differs from the OCR only by the confusion table, or by a judgement logged for it
    assert not [n for n in cited if od.fragments(report.per_line[n]) and n not in log]
    assert {n for n in cited if n in log} == REVISITED
    assert report.unexplained == [] and report.stale == []
    header = (ROOT / "docs" / "DEVIATIONS.md").read_text(encoding="utf-8").split("| id |")[0]
    assert all(str(n) in header for n in REVISITED)


def test_the_lines_of_d7_and_d9_are_complete():
    """D7: both players' 31 on the last card (4130, 4230) and the reset that follows (4300-4450, D1's second
    peg at 4450). D9: the resets after a 31 (4130, 4230) and after a go (4170, 4270), and the lines that make
    the extra card's player PLAYER (2850, 3630)."""
    bas = od.read_bas(od.DEFAULT_BAS)
    d7 = set(deviation_lines(DEVIATIONS["D7"].lines, list(bas)))
    d9 = set(deviation_lines(DEVIATIONS["D9"].lines, list(bas)))
    assert {4130, 4230, 4300, 4430, 4450} <= d7
    assert {4130, 4170, 4230, 4270, 4450, 2850, 3630, 6060, 8260} <= d9
    # and those lines say what the entries say of them
    assert bas[4130] == "IF SUM=31 THEN GO SUB 4300: GO TO 4200" and bas[4230] == "IF SUM=31 THEN GO SUB 4300: GO TO 4100"
    assert bas[4170] == bas[4270] == "GO SUB 4300"
    assert bas[4430] == "IF NH=4 AND NC=4 THEN LET DONE=1" and bas[4450] == "GO SUB 2900: RETURN"
    assert bas[2850] == "LET PLAYER=MAN" and bas[3630] == "LET PLAYER=ZX"
