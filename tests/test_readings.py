"""The other readings of the scan (basic/readings.toml) and what each changes (`cribbage-zx readings`):
the data is current with the OCR and the listing, a variant tape the ROM stores as ours is refused, a
line no game ran is never "identical", a consequence written against the wrong entry is caught, the
deviations' table flags a deviation that vanishes, and a sample of three entries runs end to end."""
import copy
import json
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tools import ocr_diff as od  # noqa: E402
from tools import write_readings as wr  # noqa: E402

from harness.edition.notes import judgement_entries  # noqa: E402
from harness.game import readings as R  # noqa: E402

TOML = ROOT / "basic" / "readings.toml"
RECORD = ROOT / "docs" / "readings.json"


@pytest.fixture(scope="module")
def data():
    return tomllib.loads(TOML.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def bas():
    return od.read_bas(od.DEFAULT_BAS)


# ------------------------------------------------------------------------------------------ the data
def test_the_readings_are_current_with_the_ocr_the_listing_and_the_table():
    assert TOML.read_text(encoding="utf-8") == wr.current_text(TOML), "run python tools/write_readings.py"


def test_every_entry_has_readings_each_differing_from_the_chosen(data, bas):
    log, problems = judgement_entries(od.DEFAULT_LOG)
    assert problems == []
    every = data["reading"] + data["evidence"]
    assert set(log) <= {r["line"] for r in every}
    assert all(r["text"] != bas[r["line"]] for r in every)
    assert all(r["id"] == R.reading_id(r["line"], r["text"]) for r in every)
    assert len({r["id"] for r in every}) == len(every)
    # each reading changes one choice: the same line number, and only the lines the OCR has
    assert {r["line"] for r in data["reading"]} <= set(bas)


def test_the_confusion_readings_are_what_the_table_gives(data, bas):
    """1310's OCR `FL-4 ... CR-1 ... FL-O`: `-` is `=` by the table, so the other readings of each `-` are
    the OCR's `-` itself and `:` (the table's separator reading of `-`, code only); `O` is `0` (0/O) or
    `<>` (the round glyph); written out by hand here, not by the tool."""
    got = {r["text"] for r in data["reading"] if r["line"] == 1310 and r["source"] == "confusion"}
    rem = ": REM ФЛЕШЬ В КРИБЕ МОЖЕТ   ИМЕТЬ НЕ МЕНЕЕ 5 КАРТ"
    want = {f"IF FL{a}4 AND CR=1 THEN LET FL=0{rem}" for a in "-:"} \
        | {f"IF FL=4 AND CR{a}1 THEN LET FL=0{rem}" for a in "-:"} \
        | {f"IF FL=4 AND CR=1 THEN LET FL{a}0{rem}" for a in "-:"} \
        | {f"IF FL=4 AND CR=1 THEN LET FL={b}{rem}" for b in ("O", "<>")}
    assert got == want
    # a line whose differences are all confusions has no fragment reading; an entry's lost text has one
    assert not [r for r in data["reading"] if r["line"] == 1300 and r["source"] == "fragment"]
    assert {r["text"] for r in data["reading"] if r["line"] == 575 and r["source"] == "fragment"} \
        == {"LET Y=1: LET SUM=0: LET F5"}


def test_a_changed_confusion_table_makes_the_data_stale(monkeypatch):
    monkeypatch.setattr(od, "CONFUSIONS", [c for c in od.CONFUSIONS if c[:2] != ("-", ":")])
    assert wr.current_text(TOML) != TOML.read_text(encoding="utf-8")


# ----------------------------------------------------------------------------------------- the tapes
@pytest.fixture(scope="module")
def variants():
    from harness.game.build import build
    return R.Variants(build().tap)


def test_a_variant_the_rom_stores_as_ours_is_refused_not_played(variants, bas):
    """Planted: a reading that differs from ours only by a space outside a string (the ROM keeps none) is
    the same program: "stores-alike", never a tape to play and call identical."""
    silent = R.Reading(3310, "x", "evidence", "planted", bas[3310].replace("T>=SAFE", "T >= SAFE"), True)
    v = variants.build(silent)
    assert v.verdict == "stores-alike" and v.tape is None
    near = R.Reading(3310, "y", "evidence", "near miss", bas[3310].replace("T>=SAFE", "T>SAFE"), True)
    w = variants.build(near)
    assert w.verdict == "tape" and w.tape != variants.base_tape


def test_the_rom_judges_the_line(variants, bas):
    rejected = variants.build(R.Reading(1310, "x", "confusion", "", bas[1310].replace("LET FL=0", "LET FL-0"), True))
    assert rejected.verdict == "rom-rejects" and "LET FL?-0" in rejected.detail
    odd = variants.build(R.Reading(2, "x", "ocr", "", "CLEAR 64599. LOAD \"chr\"CODE 64600 ■", True))
    assert odd.verdict in ("not-tokenised", "rom-rejects") and odd.detail


# ------------------------------------------------------------------------------------- the verdicts
def _game(line_run=True, **changes):
    g = {"index": 0, "seed": 1, "strategy": "random", "scores": {"computer": 121, "player": 90}, "winner": "computer",
         "basic_errors": [], "failure": None, "documented": {"D1": 2}, "unexplained": 0,
         "transcript": [{"kind": "header"}, {"kind": "picture", "moment": "input 7060", "slots": {}, "pegs": {},
                                              "rows": {"message": "ВАМ"}, "board": False, "flag": False},
                        {"kind": "score", "who": "computer", "points": 2}],
         "screens": [("000-deal.png", "aa")], "lines_run": [1310] if line_run else [], "cpu_s": 1.0}
    g.update(changes)
    return g


def test_identical_only_where_the_line_ran():
    base = _game()
    assert R.compare_game(1310, base, _game())[0] == "identical"
    assert R.compare_game(1310, base, _game(line_run=False))[0] == "untested"
    reading = R.Reading(1310, "1310.x", "confusion", "", "", True)
    assert R.verdict(reading, [(base, _game(line_run=False))]).kind == "untested"
    planted = R.Consequence("1310.x", 1310, "confusion", "", "", True, "identical")
    with pytest.raises(R.RefusedVerdict):
        R.check(planted, [(base, _game(line_run=False))])
    R.check(planted, [(base, _game())])                      # near miss: the line ran


def test_each_kind_of_consequence_is_told_apart():
    base = _game()
    t = copy.deepcopy(base["transcript"])
    t[1]["rows"] = {"message": "ВАМ НУЖНА"}
    kind, _, moments = R.compare_game(1310, base, _game(transcript=t))
    assert kind == "picture" and moments[0].startswith("input 7060")
    assert R.compare_game(1310, base, _game(screens=[("000-deal.png", "bb")]))[0] == "picture"
    kind, detail, _ = R.compare_game(1310, base, _game(scores={"computer": 121, "player": 88}))
    assert kind == "play" and "88" in detail
    t = copy.deepcopy(base["transcript"])
    t[2]["points"] = 4
    assert R.compare_game(1310, base, _game(transcript=t))[0] == "play"
    kind, detail, _ = R.compare_game(1310, base, _game(basic_errors=["2 Variable not found, 575:1"]))
    assert kind == "stops" and "Variable not found" in detail
    c = R.verdict(R.Reading(1310, "1310.x", "confusion", "", "", True),
                  [(base, _game(documented={"D5": 1}))])
    assert c.kind == "play" and c.vanish == ["D1"] and c.appear == ["D5"] and c.kept == []


def test_a_deviation_that_vanishes_is_flagged():
    lines = list(od.read_bas(od.DEFAULT_BAS))
    d1 = R.deviations_lines(lines)["D1"]
    record = {"readings": [
        {"id": f"{d1[0]}.a", "line": d1[0], "kind": "play", "kept": [], "vanish": ["D1"], "appear": []},
        {"id": f"{d1[0]}.b", "line": d1[0], "kind": "identical", "kept": ["D1"], "vanish": [], "appear": []},
        {"id": f"{d1[0]}.c", "line": d1[0], "kind": "rom-rejects", "kept": [], "vanish": [], "appear": []}]}
    row = next(r for r in R.deviation_table(record, lines) if r["deviation"] == "D1")
    assert row["vanish"] == [f"{d1[0]}.a"] and row["keep"] == [f"{d1[0]}.b"] and row["refused"] == 1
    other = next(k for k, ls in R.deviations_lines(lines).items() if d1[0] not in ls)
    near = next(r for r in R.deviation_table(record, lines) if r["deviation"] == other)
    assert near["vanish"] == [] and near["readings"] == 0        # near miss: another deviation's lines


# ------------------------------------------------------------------------------- the generated parts
def _record():
    return json.loads(RECORD.read_text(encoding="utf-8"))


@pytest.mark.skipif(not RECORD.exists(), reason="docs/readings.json not written yet (cribbage-zx readings)")
def test_every_entrys_consequence_is_the_measured_one():
    text = od.DEFAULT_LOG.read_text(encoding="utf-8")
    assert R.stale_consequences(text, _record()) == []


@pytest.mark.skipif(not RECORD.exists(), reason="docs/readings.json not written yet (cribbage-zx readings)")
def test_a_consequence_written_against_the_wrong_entry_is_caught():
    text = od.DEFAULT_LOG.read_text(encoding="utf-8")
    record = _record()
    a, b = R.entry_consequence(record, 1310), R.entry_consequence(record, 575)
    assert a in text and b in text
    swapped = text.replace(a, "\0").replace(b, a).replace("\0", b)
    problems = R.stale_consequences(swapped, record)
    assert problems == ["entry 575: its consequence is not the measured one of line 575",
                        "entry 1310: its consequence is not the measured one of line 1310"]
    dropped = text.replace(a + "\n", "")
    assert R.stale_consequences(dropped, record) == ["entry 1310: no consequence"]


@pytest.mark.skipif(not RECORD.exists(), reason="docs/readings.json not written yet (cribbage-zx readings)")
def test_the_page_is_the_records():
    record = _record()
    bas = od.read_bas(od.DEFAULT_BAS)
    entries = R._entries_of(od.DEFAULT_LOG.read_text(encoding="utf-8"))
    page = (ROOT / "docs" / "READINGS.md").read_text(encoding="utf-8")
    assert page == R.markdown(record, list(bas), entries, record["command"])
    assert {c["id"] for c in record["readings"]} <= {r.id for r in R.load()}


# ------------------------------------------------------------------------------------------ a sample
def test_a_sample_of_three_entries_runs(tmp_path):
    """2130 (a REM's padding), 3310 (the evidence's space in SAFE: stored alike) and 7055 (a REM's leading
    space): one game each."""
    from harness.commands import readings as cmd
    out = tmp_path / "readings.json"
    assert cmd.main(["--entries", "2130,3310,7055", "--games", "1", "--no-thorough", "--workers", "1",
                     "--quiet", "--out", str(out)]) == 0
    record = json.loads(out.read_text(encoding="utf-8"))
    kinds = {c["id"]: c["kind"] for c in record["readings"]}
    assert {c["line"] for c in record["readings"]} == {2130, 3310, 7055}
    assert kinds[R.reading_id(3310, od.read_bas(od.DEFAULT_BAS)[3310].replace("T>=SAFE", "T>=S AFE"))] == "stores-alike"
    for c in record["readings"]:
        if c["kind"] == "identical":
            assert c["games"], c
        assert c["kind"] in R.KINDS
    assert record["ended"] == "complete" and record["cpu_s"]["total"] > 0


# --------------------------------------------------------------------------------------- the edition
def test_the_listing_shows_each_lines_readings_beside_it():
    from harness.edition.notes import READING_VERDICTS
    from harness.edition.site import line_views, load_edition, template_env
    ed = load_edition()
    ed.readings = {1310: [{"id": "1310.x", "line": 1310, "kind": "play", "verdict": READING_VERDICTS["play"],
                           "text": "IF FL-4 AND CR=1 THEN LET FL=0", "what": "the OCR's `-` kept", "games": ["1/random"],
                           "detail": "scores 121 -> 119", "moments": [], "vanish": ["D1"], "appear": []}],
                   4440: [{"id": "4440.y", "line": 4440, "kind": "rom-rejects", "verdict": READING_VERDICTS["rom-rejects"],
                           "text": "LET X-1", "what": "w", "games": [], "detail": "the ROM's syntax check stops",
                           "moments": [], "vanish": [], "appear": []}]}
    row = template_env().get_template("macros.html").module.line_row
    judged, = line_views(ed, [1310])
    html = str(row(judged, None))
    assert "IF FL-4 AND CR=1 THEN LET FL=0" in html and "the play differs" in html and "vanishes: D1" in html
    assert "scores 121 -&gt; 119" in html
    plain, = line_views(ed, [1300])                  # near miss: a line without readings shows none
    assert "other readings" not in str(row(plain, None)) and "readings-head" not in str(row(plain, None))
