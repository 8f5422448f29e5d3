"""tools/ocr_diff.py: the OCR extractor, the confusion classifier and the
judgement log, on the real files and on doctored copies; the OCR listing kept in
the project (basic/ocr/listing.txt) and its provenance header."""
from __future__ import annotations

import hashlib
import re
import shutil

import pytest

from harness.edition.notes import judgement_entries
from tools import ocr_diff as od

SEED = od.DEFAULT_OCR          # basic/ocr/listing.txt: the listing rows of the scan
BAS = od.DEFAULT_BAS
LOG = od.DEFAULT_LOG


@pytest.fixture(scope="module")
def extraction():
    return od.extract(od.read_ocr(SEED))


def test_extractor_finds_all_611_lines(extraction):
    numbers = sorted(extraction.lines)
    assert len(numbers) == 611
    assert numbers[0] == 1 and numbers[-1] == 9950
    assert numbers == sorted(od.read_bas(BAS))
    assert not extraction.unplaced


@pytest.mark.parametrize("number,split", [
    (2400, "24 00"), (9045, "904 s"), (4220, "4 220"), (3320, "3 320"),
    (5350, "5 350"), (6420, "64 20"), (7730, "77 30"), (2742, "274 2"),
    (4330, "4 330"), (7040, "704 0"), (5400, "5 400"), (4765, "4 765"),
])
def test_split_line_numbers_are_joined(extraction, number, split):
    line = extraction.lines[number]
    assert line.split_number == split
    assert line.rows[0].startswith(split)


def test_rows_that_look_like_lines_are_continuations(extraction):
    # "8 POKE 23606,88: POKE 23607,2" / "51 RETURN" is one line, 8
    assert 51 not in extraction.lines
    assert "23607,2" + od.ROW_BREAK + "51 RETURN" in extraction.lines[8].body
    assert 15 not in extraction.lines and 31 not in extraction.lines
    assert any("51 RETURN" in n for n in extraction.continuation_notes)
    # a number row such as "64600" continues line 2
    assert extraction.lines[2].rows == ['2 CLEAR 64599. LOAD "chr"CODE', "64600"]


def test_out_of_order_rows_are_reported_not_dropped():
    text = ("Статья.\n1 GO ТО 10\n2 PRINT 1\n9999 REM X\n3 PRINT 2\n"
            "4 PRINT 3\nКОММЕНТАРИЙ.\nтекст\n")
    ex = od.extract(text)
    assert sorted(ex.lines) == [1, 2, 3, 4]
    assert ex.lines[2].rows == ["2 PRINT 1", "9999 REM X"]
    assert any("9999 REM X" in n for n in ex.continuation_notes)


def _example(pair):
    """A context-appropriate (ocr, bas) body pair exercising one confusion."""
    ocr, bas, cls, where = pair
    if where == "text":
        return "REM AB" + ocr + "CD", "REM AB" + bas + "CD"
    if cls == "lost-separator":
        return "PRINT X" + ocr + "PRINT Y", "PRINT X" + bas + "PRINT Y"
    return "LET Q=Q" + ocr + "W", "LET Q=Q" + bas + "W"


@pytest.mark.parametrize("pair", od.CONFUSIONS, ids=lambda p: "%s>%s" % (p[0], p[1]))
def test_every_confusion_pair_is_accepted(pair):
    ocr, bas = _example(pair)
    items = od.align(ocr, bas)
    assert not [it for it in items if it.cls in od.NEEDS_JUDGEMENT], items
    assert any(it.cls == pair[2] for it in items) or ocr == bas


@pytest.mark.parametrize("ocr,bas", [
    ("LET S=S+P", "LET S=S-P"),            # invented operator
    ("GO TO 2100", "GO TO 2110"),          # invented digit
    ('PRINT "АБ ВГ"', 'PRINT "АБ  ВГ"'),   # a space inside a string
    ('PRINT "A"', 'PRINT "\\a"'),          # a UDG reading
    ("LET X=1", "LET X=1: STOP"),          # invented statement
])
def test_invented_differences_are_rejected(ocr, bas):
    items = od.align(ocr, bas)
    assert [it for it in items if it.cls in od.NEEDS_JUDGEMENT]


def test_case_lookalikes_and_code_spaces_are_neutral():
    items = od.align("let м$-\"тест\" : go sub 5500", 'LET M$="ТЕСТ": GO SUB 5500')
    assert {it.cls for it in items} <= od.NEUTRAL | {"-/="}


def test_real_files_pass(capsys):
    assert od.main(["--ocr", str(SEED), "--bas", str(BAS), "--log", str(LOG)]) == 0
    out = capsys.readouterr().out
    assert "RESULT: OK" in out
    assert "OCR lines extracted: 611" in out
    assert "unexplained lines: 0" in out


def _copy(tmp_path):
    bas = tmp_path / "cribbage.bas"
    log = tmp_path / "RECONSTRUCTION.md"
    shutil.copy(BAS, bas)
    shutil.copy(LOG, log)
    return bas, log


def test_invented_change_in_a_copy_fails_naming_the_line(tmp_path, capsys):
    bas, log = _copy(tmp_path)
    text = bas.read_text(encoding="utf-8")
    assert "\n2115 LET S=S+P\n" in text
    bas.write_text(text.replace("\n2115 LET S=S+P\n", "\n2115 LET S=S-P\n"), encoding="utf-8")
    assert od.main(["--ocr", str(SEED), "--bas", str(bas), "--log", str(log)]) == 1
    out = capsys.readouterr().out
    assert "UNEXPLAINED: line 2115" in out
    assert "RESULT: FAIL" in out


def test_change_to_a_judged_line_makes_the_judgement_stale(tmp_path, capsys):
    bas, log = _copy(tmp_path)
    text = bas.read_text(encoding="utf-8")
    bas.write_text(text.replace("\n575 LET Y=1: LET SUM=0: LET F5=0\n",
                                "\n575 LET Y=1: LET SUM=0: LET F5=1\n"), encoding="utf-8")
    assert od.main(["--ocr", str(SEED), "--bas", str(bas), "--log", str(log)]) == 1
    out = capsys.readouterr().out
    assert "line 575 (the judgement for this line is stale" in out


def test_missing_judgement_fails(tmp_path, capsys):
    bas, log = _copy(tmp_path)
    text = log.read_text(encoding="utf-8")
    text = re.sub(r"### 2330\n(- .*\n)+", "", text)
    log.write_text(text, encoding="utf-8")
    assert od.main(["--ocr", str(SEED), "--bas", str(bas), "--log", str(log)]) == 1
    assert "UNEXPLAINED: line 2330" in capsys.readouterr().out


def test_judgement_that_explains_nothing_is_stale(tmp_path, capsys):
    bas, log = _copy(tmp_path)
    ex = od.extract(od.read_ocr(SEED))
    entry = ("\n### 10\n- OCR: `%s`\n- Reconstruction: `10 GO SUB 8`\n"
             "- Kind: token\n- Evidence: invented.\n" % ex.lines[10].verbatim)
    log.write_text(log.read_text(encoding="utf-8") + entry, encoding="utf-8")
    assert od.main(["--ocr", str(SEED), "--bas", str(bas), "--log", str(log)]) == 1
    assert "STALE: judgement 10 (token) explains no difference" in capsys.readouterr().out


def test_missing_line_in_bas_fails(tmp_path, capsys):
    bas, log = _copy(tmp_path)
    text = bas.read_text(encoding="utf-8")
    bas.write_text(text.replace("4985 LET E(5)=K: LET E$(5)=K$\n", ""), encoding="utf-8")
    assert od.main(["--ocr", str(SEED), "--bas", str(bas), "--log", str(log)]) == 1
    assert "line 4985 is in the OCR but not in the .bas" in capsys.readouterr().out


def test_a_malformed_log_is_reported_with_every_problem_by_file_and_line(tmp_path, capsys):
    bas, log = _copy(tmp_path)
    text = log.read_text(encoding="utf-8")
    assert "\n### 2330\n- OCR: `" in text
    text = text.replace("\n### 2330\n- OCR: `", "\n### 2330\n- OCR: '", 1)       # no longer a code span
    text = re.sub(r"(### 1300\n(?:- .*\n)*?)- Kind: .*\n", r"\1", text, count=1)
    log.write_text(text, encoding="utf-8")
    k2330 = text.splitlines().index("### 2330") + 1
    k1300 = text.splitlines().index("### 1300") + 1
    assert od.main(["--ocr", str(SEED), "--bas", str(bas), "--log", str(log)]) == 1
    out = capsys.readouterr().out
    assert f"ERROR: {log}:{k2330 + 1}: OCR of line 2330 must be one code span" in out
    assert f"ERROR: {log}:{k1300}: the entry for line 1300 lacks Kind" in out
    assert f"ERROR: {log}:{k2330}: the entry for line 2330 lacks OCR" in out
    assert "RESULT: FAIL" in out


def test_an_unreadable_log_is_one_line_and_exit_2(tmp_path, capsys):
    log = tmp_path / "RECONSTRUCTION.md"
    log.mkdir()                                        # a folder where the log should be
    assert od.main(["--ocr", str(SEED), "--bas", str(BAS), "--log", str(log)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"ocr_diff: {log}: ") and err.count("\n") == 1


def test_log_entries_are_well_formed():
    log, problems = judgement_entries(LOG)
    assert not problems
    assert len(log) >= 70
    kinds = {"spacing", "udg", "token", "text", "lost-text", "logic-preserved", "note"}
    for j in log.values():
        assert set(j.kinds) <= kinds, (j.line, j.kinds)


# --- the OCR listing kept in the project ----------------------------------------------------------
def _header(path):
    head = path.read_text(encoding="utf-8").split("\n" + od.SCAN_MARK + "\n")[0]
    return dict(line.split(": ", 1) for line in head.splitlines() if not line.startswith(";"))


def test_listing_file_names_its_source_and_holds_exactly_its_line_range():
    header = _header(SEED)
    assert header["source"] == "000_c7291b1166181f61.txt"
    assert re.fullmatch(r"[0-9a-f]{64}", header["source-sha256"])
    assert header["lines"] == "230-1119"
    rows = od.read_ocr(SEED).splitlines()
    assert len(rows) == 1119 - 230 + 1
    assert rows[0] == "1 GO ТО 10" and rows[-1] == "9950 return"
    assert hashlib.sha256(od.read_ocr(SEED).encode("utf-8")).hexdigest() == header["body-sha256"]


def test_edited_scan_row_is_refused_naming_the_file(tmp_path, capsys):
    edited = tmp_path / "listing.txt"
    text = SEED.read_text(encoding="utf-8")
    assert "\n2115 " in text
    edited.write_text(text.replace("\n2115 ", "\n2116 ", 1), encoding="utf-8")
    with pytest.raises(ValueError, match="listing.txt: the scan rows do not match their body-sha256"):
        od.read_ocr(edited)
    assert od.main(["--ocr", str(edited), "--bas", str(BAS), "--log", str(LOG)]) == 2
    assert "body-sha256" in capsys.readouterr().err


def test_dropped_scan_row_is_refused_by_the_line_range(tmp_path):
    edited = tmp_path / "listing.txt"
    edited.write_text(SEED.read_text(encoding="utf-8").replace("9950 return\n", ""), encoding="utf-8")
    with pytest.raises(ValueError, match="the header says lines 230-1119 .* holds 889 rows"):
        od.read_ocr(edited)


def test_edited_comment_of_the_header_is_not_a_difference(tmp_path):
    edited = tmp_path / "listing.txt"
    edited.write_text("; a reviewer's note\n" + SEED.read_text(encoding="utf-8"), encoding="utf-8")
    assert od.read_ocr(edited) == od.read_ocr(SEED)


def test_excerpt_from_a_seed_round_trips(tmp_path):
    seed = tmp_path / "seed.txt"
    seed.write_text("Статья.\nтекст\n1 GO ТО 10\n; a row that starts like a comment\n2 PRINT 1\n"
                    "КОММЕНТАРИЙ.\nтекст\n", encoding="utf-8")
    out = tmp_path / "ocr" / "listing.txt"
    assert od.main(["--excerpt-from", str(seed), "--ocr", str(out)]) == 0
    header = _header(out)
    assert header["source"] == "seed.txt" and header["lines"] == "3-5"
    assert header["source-sha256"] == hashlib.sha256(seed.read_bytes()).hexdigest()
    assert od.read_ocr(out) == "1 GO ТО 10\n; a row that starts like a comment\n2 PRINT 1\n"
    assert sorted(od.extract(od.read_ocr(out)).lines) == [1, 2]


def test_a_whole_seed_text_is_still_accepted(tmp_path):
    seed = tmp_path / "seed.txt"
    seed.write_text("Статья.\n" + od.read_ocr(SEED) + "КОММЕНТАРИЙ.\nтекст\n", encoding="utf-8")
    assert od.read_ocr(seed) == seed.read_text(encoding="utf-8")
    assert sorted(od.extract(od.read_ocr(seed)).lines) == sorted(od.read_bas(BAS))
