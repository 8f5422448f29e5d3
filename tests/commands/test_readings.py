"""The other readings of the scan (basic/readings.toml) and what each changes (`cribbage-zx readings`):
the data is current with the OCR and the listing, a variant tape the ROM stores as ours is refused, a
line no game ran is never "identical", a consequence written against the wrong entry is caught, the
deviations' table flags a deviation that vanishes, and a sample of three entries runs end to end."""
import checkout
import copy
import dataclasses
import json
import sys
import tomllib

import pytest

ROOT = checkout.ROOT
sys.path.insert(0, str(ROOT))
from tools import ocr_diff as od
from tools import write_readings as wr

from harness.edition import readings_doc
from harness.edition.notes import judgement_entries
from harness.errors import InputError
from harness.program.runs import readings as R
from harness.program.runs.readings_games import FRAMES_FACTOR, FRAMES_MARGIN, GamePlayed, variant_frames
from harness.program.runs.readings_record import (BUDGET, NO_GAME, BaseGame, Consequence, CpuSeconds, DeviationRow,
                                                  ReadingsRecord, Reading, RecordPlan, Resumed, read_readings)
from harness.program.runs.readings_tapes import Variant, Variants, load, reading_id

TOML = ROOT / "basic" / "readings.toml"
RECORD = ROOT / "docs" / "data" / "readings.json"


@pytest.fixture(scope="module")
def data():
    return tomllib.loads(TOML.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def bas():
    return od.read_bas(od.DEFAULT_BAS)


# ------------------------------------------------------------------------------------------ the data
def test_the_readings_are_current_with_the_ocr_the_listing_and_the_table():
    assert TOML.read_text(encoding="utf-8") == wr.current_text(TOML), "run python -m tools.write_readings"


def test_every_entry_has_readings_each_differing_from_the_chosen(data, bas):
    log, problems = judgement_entries(od.DEFAULT_LOG)
    assert problems == []
    every = data["reading"] + data["evidence"]
    assert set(log) <= {r["line"] for r in every}
    assert all(r["text"] != bas[r["line"]] for r in every)
    assert all(r["id"] == reading_id(r["line"], r["text"]) for r in every)
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
    from harness.program.model.build import build
    return Variants(build().tap)


def test_a_variant_the_rom_stores_as_ours_is_refused_not_played(variants, bas):
    """Planted: a reading that differs from ours only by a space outside a string (the ROM keeps none) is
    the same program: "stores-alike", never a tape to play and call identical."""
    silent = Reading(3310, "x", "evidence", "planted", bas[3310].replace("T>=SAFE", "T >= SAFE"), True)
    v = variants.build(silent)
    assert v.verdict == "stores-alike" and v.tape is None
    near = Reading(3310, "y", "evidence", "near miss", bas[3310].replace("T>=SAFE", "T>SAFE"), True)
    w = variants.build(near)
    assert w.verdict == "tape" and w.tape != variants.base_tape


def test_the_rom_judges_the_line(variants, bas):
    rejected = variants.build(Reading(1310, "x", "confusion", "", bas[1310].replace("LET FL=0", "LET FL-0"), True))
    assert rejected.verdict == "rom-rejects" and "LET FL?-0" in rejected.detail
    odd = variants.build(Reading(2, "x", "ocr", "", "CLEAR 64599. LOAD \"chr\"CODE 64600 ■", True))
    assert odd.verdict in ("not-tokenised", "rom-rejects") and odd.detail


# ------------------------------------------------------------------------------------- the verdicts
def _game(line_run=True, **changes) -> GamePlayed:
    g = {"key": "base", "index": 0, "seed": 1, "strategy": "random", "scores": {"computer": 121, "player": 90},
         "winner": "computer", "basic_errors": [], "failure": None, "documented": {"D1": 2}, "unexplained": 0,
         "transcript": [{"kind": "header"}, {"kind": "picture", "moment": "input 7060", "slots": {}, "pegs": {},
                                              "rows": {"message": "ВАМ"}, "board": False, "flag": False},
                        {"kind": "score", "who": "computer", "points": 2}],
         "screens": [("000-deal.png", "aa")], "lines_run": [1310] if line_run else [], "cpu_s": 1.0}
    return GamePlayed(**{**g, **changes})


def _only(*consequences: Consequence, **fields) -> ReadingsRecord:
    """A record of these consequences alone (what the deviations' table and the page read of it)."""
    return ReadingsRecord(**{"schema": 1, "plan": RecordPlan(games=1, seed=1, thorough=True), "base_games": [],
                             "readings": list(consequences), "counts": {}, "variant_games": 1,
                             "cpu_s": CpuSeconds(total=1, rom_checks=0, games=1), **fields})


def test_identical_only_where_the_line_ran():
    base = _game()
    assert R.compare_game(1310, base, _game())[0] == "identical"
    assert R.compare_game(1310, base, _game(line_run=False))[0] == "untested"
    reading = Reading(1310, "1310.x", "confusion", "", "", True)
    assert R.verdict(reading, [(base, _game(line_run=False))]).kind == "untested"
    planted = Consequence("1310.x", 1310, "confusion", "", "", True, "identical")
    with pytest.raises(R.RefusedVerdict):
        R.check(planted, [(base, _game(line_run=False))])
    R.check(planted, [(base, _game())])                      # near miss: the line ran


def test_each_kind_of_consequence_is_told_apart():
    base = _game()
    t = copy.deepcopy(list(base.transcript))
    t[1]["rows"] = {"message": "ВАМ НУЖНА"}
    kind, _, moments = R.compare_game(1310, base, _game(transcript=t))
    assert kind == "picture" and moments[0].startswith("input 7060")
    assert R.compare_game(1310, base, _game(screens=[("000-deal.png", "bb")]))[0] == "picture"
    kind, detail, _ = R.compare_game(1310, base, _game(scores={"computer": 121, "player": 88}))
    assert kind == "play" and "88" in detail
    t = copy.deepcopy(list(base.transcript))
    t[2]["points"] = 4
    assert R.compare_game(1310, base, _game(transcript=t))[0] == "play"
    kind, detail, _ = R.compare_game(1310, base, _game(basic_errors=["2 Variable not found, 575:1"]))
    assert kind == "stops" and "Variable not found" in detail
    c = R.verdict(Reading(1310, "1310.x", "confusion", "", "", True),
                  [(base, _game(documented={"D5": 1}))])
    assert c.kind == "play" and c.vanish == ["D1"] and c.appear == ["D5"] and c.kept == []


def test_a_deviation_that_vanishes_while_the_program_plays_on_is_flagged_and_one_that_stops_is_not():
    """Planted both ways: D1 vanishing from a reading whose game goes on (the play differs) is flagged for a
    second look; D1 vanishing because the variant's game stops (4440's `LET CGC=0`: «2 Variable not found»)
    is told apart and not flagged."""
    lines = list(od.read_bas(od.DEFAULT_BAS))
    d1 = R.deviations_lines(lines)["D1"]
    base = _game()
    reading = Reading(d1[0], f"{d1[0]}.a", "confusion", "", "", True)
    plays_on = R.verdict(reading, [(base, _game(documented={"D5": 1}, scores={"computer": 121, "player": 88}))])
    stops = R.verdict(Reading(d1[0], f"{d1[0]}.s", "fragment", "", "", True),
                      [(base, _game(documented={}, basic_errors=["2 Variable not found, 4140:1"]))])
    assert (plays_on.kind, plays_on.vanish, plays_on.vanish_playing) == ("play", ["D1"], ["D1"])
    assert (stops.kind, stops.vanish, stops.vanish_playing) == ("stops", ["D1"], [])
    kept = Consequence(f"{d1[0]}.b", d1[0], "ocr", "", "", True, "identical", kept=["D1"], vanish_playing=[])
    refused = Consequence(f"{d1[0]}.c", d1[0], "ocr", "", "", True, "rom-rejects")   # no vanish_playing: schema 1

    def row(*consequences, dev="D1"):
        return next(r for r in R.deviation_table(_only(*consequences), lines) if r.deviation == dev)
    flagged = row(plays_on, kept, refused)
    assert flagged.vanish_playing == [f"{d1[0]}.a"] and flagged.vanish_stops == []
    assert flagged.keep == [f"{d1[0]}.b"] and flagged.refused == 1
    told_apart = row(stops, kept, refused)
    assert told_apart.vanish_stops == [f"{d1[0]}.s"] and told_apart.vanish_playing == []
    page = readings_doc.markdown(_only(stops), lines, [], "planted")
    d1_row = next(r for r in page.splitlines() if r.startswith("| D1 |"))
    assert d1_row.endswith("| no |") and f"{d1[0]}.s" in d1_row
    other = next(k for k, ls in R.deviations_lines(lines).items() if d1[0] not in ls)
    near = row(plays_on, dev=other)
    assert near.vanish_playing == [] and near.readings == 0        # near miss: another deviation's lines


def test_a_picture_only_difference_is_picture_and_a_variable_beside_it_is_play():
    """Planted: the screen checks' rows and the unexplained screen differences they raise (S$ = "HCDS" shows
    letters for the suits) are the picture; the variables a screen check was printed from are the play."""
    base = _game(transcript=[{"kind": "header"},
                             {"kind": "screen", "what": "hand", "rows": [[16, "5   7"], [17, "♦   ♥"]],
                              "variables": {"cards": ["5D", "7H"]}}], unexplained=0, screen_unexplained=0)
    letters = copy.deepcopy(list(base.transcript))
    letters[1]["rows"] = [[16, "5   7"], [17, "D   H"]]
    kind, detail, moments = R.compare_game(1310, base, _game(transcript=letters, unexplained=3, screen_unexplained=3))
    assert kind == "picture" and "0 -> 3" in detail and moments[0].startswith("hand: 17")
    other = copy.deepcopy(letters)
    other[1]["variables"] = {"cards": ["5D", "8H"]}
    assert R.compare_game(1310, base, _game(transcript=other, unexplained=3, screen_unexplained=3))[0] == "play"
    # near miss: an unexplained difference of the play itself (not of the screen) is play
    assert R.compare_game(1310, base, _game(transcript=letters, unexplained=4, screen_unexplained=3))[0] == "play"


def test_a_variant_s_dollar_is_read_by_its_own_suit_codes(variants):
    """7315 read as `S$="HCDS"`: the arrays hold the letters' codes; the observer reads the cards by the
    program's own S$ (it used to stop the game with «0x44 is not one of the suit codes of S$»)."""
    from harness.program.model import program as P
    from harness.program.runs.loaded import load
    from harness.program.observe.observer import Observer
    from harness.spectrum.variables import BasicVariables
    m = load(variants.base_tape).machine()
    observer = Observer(m, lambda e: None)
    observer.picture_variables()
    with pytest.raises(ValueError):
        observer.card(5, "D")                       # ours: the suits are the UDGs \h\c\d\s
    assert str(observer.card(5, chr(P.SUIT_CODES[2]))) == "5D"
    BasicVariables(m).set(P.V_SUITS, "HCDS")
    observer.picture_variables()
    assert [str(observer.card(5, c)) for c in "HCDS"] == ["5H", "5C", "5D", "5S"]
    with pytest.raises(ValueError):
        observer.card(5, chr(P.SUIT_CODES[2]))      # near miss: our code is not this program's suit
    assert P.suit_codes_of("HHDS") == P.SUIT_CODES and P.suit_codes_of(None) == P.SUIT_CODES


def test_a_line_no_game_reaches_is_untested_with_the_reason_and_only_the_thorough_set_may_reach_it():
    plain = GamePlayed("base", 0, 1, "random", lines_run=[1310, 2130])
    thorough = [GamePlayed("base", 1, 2, "explorer", lines_run=[1310, 9010]),
                GamePlayed("base", 2, 3, "explorer", lines_run=[9010, 9020])]
    rs = [Reading(n, f"{n}.x", "ocr", "", "", True) for n in (1310, 9010, 9020, 9600)]
    chosen = R.choose_games(rs, [plain, *thorough], 1)
    assert [g.index for g in chosen["1310.x"]] == [0]          # a plain game first, though a thorough one ran it
    assert [g.index for g in chosen["9010.x"]] == [1]          # the first thorough game that runs it
    assert [g.index for g in chosen["9020.x"]] == [2]
    assert chosen["9600.x"] == []                                 # no game: never played, never "identical"
    tape = Variant(rs[3], "tape", tape=b"planted")
    c = R.consequence(tape, chosen["9600.x"], [], {}, NO_GAME + ": 1 plain game(s) and the thorough set", False)
    assert c.kind == "untested" and c.detail.startswith(NO_GAME) and c.games == []
    stopped = R.consequence(Variant(rs[1], "tape", tape=b"planted"), chosen["9010.x"], [], {}, "", True)
    assert stopped.kind == "untested" and stopped.detail == BUDGET
    played = dataclasses.replace(_game(lines_run=[9010]), index=1, seed=2, strategy="explorer")
    base = {(1, 2, "explorer"): dataclasses.replace(played, key="base")}
    near = R.consequence(Variant(rs[1], "tape", tape=b"planted"), chosen["9010.x"], [played], base, "", False)
    assert near.kind == "identical" and near.games == ["2/explorer"]     # near miss: its line ran: a verdict


def test_a_variant_game_that_runs_on_past_its_budget_stops():
    """A variant's game may take 3 times its reconstruction game's frames and 10 000 more (6015's `IF S-0`
    loops in the demonstration): past that the harness gives it up and the reading "stops", said so."""
    assert variant_frames(_game(frames=26_000)) == 88_000 and variant_frames(_game()) is None
    over = _game(failure="the program waiting for a key not reached within 153 frames", documented={},
                 budget=88_000, frames=88_001)
    kind, detail, _ = R.compare_game(1310, _game(), over)
    assert kind == "stops" and "past its budget of 88000 frames" in detail and "153 frames" in detail
    early = dataclasses.replace(over, frames=40_000)                  # near miss: a timeout well within the budget is its own
    assert "budget" not in R.compare_game(1310, _game(), early)[1]


# ------------------------------------------------------------------------------- the generated parts
def _record() -> ReadingsRecord:
    return read_readings(RECORD)


@pytest.mark.skipif(not RECORD.exists(), reason="docs/data/readings.json not written yet (cribbage-zx readings)")
def test_every_entrys_consequence_is_the_measured_one():
    text = od.DEFAULT_LOG.read_text(encoding="utf-8")
    assert readings_doc.stale_consequences(text, _record()) == []


@pytest.mark.skipif(not RECORD.exists(), reason="docs/data/readings.json not written yet (cribbage-zx readings)")
def test_a_consequence_written_against_the_wrong_entry_is_caught():
    text = od.DEFAULT_LOG.read_text(encoding="utf-8")
    record = _record()
    a, b = readings_doc.entry_consequence(record, 1310), readings_doc.entry_consequence(record, 575)
    assert a in text and b in text
    swapped = text.replace(a, "\0").replace(b, a).replace("\0", b)
    problems = readings_doc.stale_consequences(swapped, record)
    assert problems == ["entry 575: its consequence is not the measured one of line 575",
                        "entry 1310: its consequence is not the measured one of line 1310"]
    dropped = text.replace(a + "\n", "")
    assert readings_doc.stale_consequences(dropped, record) == ["entry 1310: no consequence"]


@pytest.mark.skipif(not RECORD.exists(), reason="docs/data/readings.json not written yet (cribbage-zx readings)")
def test_the_page_is_the_records():
    record = _record()
    bas = od.read_bas(od.DEFAULT_BAS)
    entries = readings_doc.entries_of(od.DEFAULT_LOG.read_text(encoding="utf-8"))
    page = (ROOT / "docs" / "READINGS.md").read_text(encoding="utf-8")
    looked = R.second_looks(od.DEFAULT_LOG.read_text(encoding="utf-8"))
    assert page == readings_doc.markdown(record, list(bas), entries, record.command, looked)
    assert {c.id for c in record.readings} <= {r.id for r in load()}


# --------------------------------------------------------------------------------------- the edition
def test_the_editions_reader_tells_a_deviation_vanishing_as_the_program_stops_from_one_vanishing_as_it_plays(tmp_path):
    from harness.edition.notes import read_readings
    record = json.loads(RECORD.read_text(encoding="utf-8"))
    fields = {"source": "ocr", "what": "w", "text": "t", "entry": True}
    record["readings"] = [
        {"id": "4440.a", "line": 4440, "kind": "stops", "vanish": ["D1"], "vanish_playing": [], **fields},
        {"id": "4790.b", "line": 4790, "kind": "play", "vanish": ["D3", "D4"], "vanish_playing": ["D3"], **fields},
        {"id": "4790.c", "line": 4790, "kind": "play", "vanish": ["D3"], **fields},    # schema 1: no vanish_playing
        {"id": "4440.d", "line": 4440, "kind": "stops", "vanish": ["D1"], **fields}]   # ... stopping: none playing
    path = tmp_path / "readings.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    got = {r.consequence.id: (r.vanish_stops, r.vanish_playing) for rows in read_readings(path).values() for r in rows}
    assert got == {"4440.a": (["D1"], []), "4790.b": (["D4"], ["D3"]), "4790.c": ([], ["D3"]), "4440.d": (["D1"], [])}
    looked = {r.consequence.id: r.looked for rows in read_readings(path, {"4790.b"}).values() for r in rows}
    assert looked == {"4440.a": False, "4790.b": True, "4790.c": False, "4440.d": False}
    # the one reader's checks hold for the edition too: a verdict it does not know, a record of another command
    record["readings"][0]["kind"] = "wobbles"
    path.write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(InputError, match=r"reading 4440\.a: unknown verdict 'wobbles'"):
        read_readings(path)
    path.write_text(json.dumps({"per_game": []}), encoding="utf-8")
    with pytest.raises(InputError, match="not a readings record"):
        read_readings(path)


def test_the_listing_shows_each_lines_readings_beside_it():
    from harness.edition.notes import READING_VERDICTS, ReadingView
    from harness.edition.site import line_views, load_edition, template_env
    ed = load_edition()
    shown = Consequence("1310.x", 1310, "ocr", "the OCR's `-` kept", "IF FL-4 AND CR=1 THEN LET FL=0", True, "play",
                        "scores 121 -> 119", games=["1/random"], vanish=["D1", "D3"], vanish_playing=["D3"])
    rejected = Consequence("4440.y", 4440, "ocr", "w", "LET X-1", True, "rom-rejects", "the ROM's syntax check stops")
    ed.readings = {1310: [ReadingView(shown, READING_VERDICTS["play"], ["D3"], ["D1"], False)],
                   4440: [ReadingView(rejected, READING_VERDICTS["rom-rejects"], [], [], False)]}
    row = template_env().get_template("macros.html").module.line_row
    judged, = line_views(ed, [1310])
    html = str(row(judged, None))
    assert "IF FL-4 AND CR=1 THEN LET FL=0" in html and "the play differs" in html
    assert "vanishes because the program stops: D1;" in html                  # told apart: not flagged ...
    assert "<b>vanishes while the program plays on: D3</b> (a second look" in html   # ... and flagged
    assert "scores 121 -&gt; 119" in html
    ed.readings[1310][0] = dataclasses.replace(ed.readings[1310][0], looked=True)   # looked at again in basic/RECONSTRUCTION.md: not bold
    looked = str(row(line_views(ed, [1310])[0], None))
    assert "; vanishes while the program plays on: D3 (looked at again" in looked and "<b>vanishes" not in looked
    plain, = line_views(ed, [1300])                  # near miss: a line without readings shows none
    assert "other readings" not in str(row(plain, None)) and "readings-head" not in str(row(plain, None))


# ------------------------------------------------------------------------------------- a resumed run
def _consequence(rid: str, line: int, kind: str, detail: str = "") -> Consequence:
    return Consequence(rid, line, "ocr", "", "", True, kind, detail)


GAME = BaseGame(0, 11, "random", {"computer": 121, "player": 99}, {"D1": 3}, 500)


def _stopped_record() -> ReadingsRecord:
    readings = [_consequence("1310.a", 1310, "identical"), _consequence("9010.b", 9010, "untested", BUDGET),
                _consequence("9600.c", 9600, "untested", NO_GAME + ": 1 plain game(s) and the thorough set"),
                _consequence("2130.d", 2130, "untested", BUDGET)]
    return ReadingsRecord(schema=1, ended="stopped", readings=readings, counts={"identical": 1, "untested": 3},
                          plan=RecordPlan(games=1, seed=1, thorough=True, frames_budget=[FRAMES_FACTOR, FRAMES_MARGIN]),
                          base_games=[GAME], variant_games=5, shared_tapes=1,
                          cpu_s=CpuSeconds(total=100.0, rom_checks=2.0, games=90.0))


def _part(readings: list, base: BaseGame = GAME, cpu: CpuSeconds = CpuSeconds(total=30.0, rom_checks=1.0, games=25.0),
          variant_games: int = 2) -> ReadingsRecord:
    """What readings.run returns for the readings a resume plays."""
    return ReadingsRecord(schema=1, ended="complete", plan=RecordPlan(games=1, seed=1, thorough=True),
                          variant_games=variant_games, shared_tapes=0, base_games=[base], readings=readings,
                          counts={}, cpu_s=cpu)


def _readings(*ids: str) -> list:
    return [Reading(int(i.split(".")[0]), i, "ocr", "", "", True) for i in ids]


def test_a_resumed_run_plays_only_what_the_budget_left_and_keeps_the_rest(monkeypatch):
    """The readings left untested by the budget are played; one no game reaches (a near miss: untested
    too, for another reason) and the measured ones are kept as they were; the counts and CPU add up."""
    asked = []

    def fake_run(todo, tape, plan, note):
        asked.append(sorted(r.id for r in todo))
        return _part([_consequence("9010.b", 9010, "picture"), _consequence("2130.d", 2130, "identical")])
    monkeypatch.setattr(R, "run", fake_run)
    old = _stopped_record()
    kept = copy.deepcopy(old)
    merged = R.resume(old, _readings("1310.a", "9010.b", "9600.c", "2130.d", "5100.e"), R.BaseTape(b"tape"), R.Plan())
    assert asked == [["2130.d", "9010.b"]]
    assert [c.kind for c in merged.readings] == ["identical", "picture", "untested", "identical"]
    assert merged.readings[0] == kept.readings[0] and merged.readings[2] == kept.readings[2]
    assert merged.counts == {"identical": 2, "picture": 1, "untested": 1}
    assert merged.ended == "complete" and merged.variant_games == 7
    assert merged.cpu_s == CpuSeconds(total=130.0, rom_checks=3.0, games=115.0)
    assert merged.resumed == [Resumed(2, 30.0, "complete")]
    assert old == kept                                                    # the record read is not changed
    assert R.left_by_budget(merged) == set()


def test_a_resume_refuses_another_plan_a_changed_tape_and_a_lost_reading(monkeypatch):
    def fake_run(todo, tape, plan, note):
        return _part([], dataclasses.replace(GAME, scores={"computer": 121, "player": 98}),
                     CpuSeconds(total=1.0, rom_checks=0.0, games=1.0), variant_games=0)
    monkeypatch.setattr(R, "run", fake_run)
    all_ids = _readings("1310.a", "9010.b", "9600.c", "2130.d")
    tape = R.BaseTape(b"tape")
    with pytest.raises(InputError, match="1 game.* from seed 1 .*2 from seed 1 asked"):
        R.resume(_stopped_record(), all_ids, tape, R.Plan(games=2))
    with pytest.raises(InputError, match="from seed 1 .*1 from seed 4 asked"):
        R.resume(_stopped_record(), all_ids, tape, R.Plan(seed=4))
    with pytest.raises(InputError, match=r"ends \{'computer': 121, 'player': 98\} now, "
                                         r"\{'computer': 121, 'player': 99\} in the record"):
        R.resume(_stopped_record(), all_ids, tape, R.Plan())
    with pytest.raises(InputError, match="1 reading.*no longer among.*first: 2130.d"):
        R.resume(_stopped_record(), _readings("1310.a", "9010.b", "9600.c"), tape, R.Plan())
    done = dataclasses.replace(_stopped_record(), readings=[c for c in _stopped_record().readings
                                                            if c.detail != BUDGET])
    assert R.resume(done, all_ids, tape, R.Plan()) is done           # near miss: nothing left, nothing played


def test_resume_is_not_combined_with_a_selection(capsys):
    from harness.commands import readings as command
    from harness.errors import UsageError
    for extra in (["--all"], ["--entries", "1310"], ["--from-record"]):
        with pytest.raises(UsageError, match="--resume takes the record's own readings"):
            command.main(["--resume", *extra])


def test_a_second_look_named_in_the_log_answers_the_flag_and_one_at_another_reading_does_not():
    text = ("### 4780\n- Evidence: nothing 8260.27956647\n\n### 4790\n- Evidence: x\n"
            "- Second look: 4790.1cc482b9 makes D3 vanish; the article says otherwise.\n\n### 4795\n- Evidence: y\n"
            "\n## Second looks at the deviations' own lines\n\n- Second look: 2710.1ed51ae5 and 8260.1bcf8c3c: no.\n")
    looked = R.second_looks(text)
    assert looked == {"4790.1cc482b9": 4790, "2710.1ed51ae5": 2710, "8260.1bcf8c3c": 8260}
    row = _flagged("4790.1cc482b9")
    assert readings_doc.second_look_of(row, looked) == "looked at: line 4790"
    assert readings_doc.second_look_of(_flagged("8260.1bcf8c3c", "2710.1ed51ae5"), looked) == \
        "looked at: line 2710, line 8260"
    assert readings_doc.second_look_of(row, {}) == "yes"
    # near misses: a second look at another reading leaves the flag; one flagged reading of two unanswered;
    # an id in the evidence is not a second look; a row with nothing to look at is "no"
    assert readings_doc.second_look_of(row, R.second_looks(text.replace("4790.1cc482b9", "4790.0c30469d"))) == "yes"
    assert readings_doc.second_look_of(_flagged("8260.1bcf8c3c", "8260.27956647"), looked) == "yes"
    assert "8260.27956647" not in looked
    assert readings_doc.second_look_of(_flagged(), looked) == "no"


def _flagged(*ids: str) -> DeviationRow:
    """A deviations' table row whose readings *ids* make it vanish while the program plays on."""
    return DeviationRow("D3", 1, len(ids), 0, 0, len(ids), [], list(ids), list(ids), [], [], [])
