"""readings' verdict and --resume by hand (issue 51): the games and records written out here, readings.run
replaced (no emulator). Planted, each beside its near miss:

- a reading's verdict: the worst of its games, of two as bad the first one's detail; every field of the reading
  carried; untested (no detail) where its line ran in none; a deviation flagged for a second look only where a
  game that plays on lost it;
- the moments a picture-only difference names: a row that changed (both values), a row only one picture has,
  each of the slots, pegs, board and flag that changed and only those; a screen check whose rows one game
  lacks; a transcript one event longer or shorter than the reconstruction's (the play, and where);
- a resumed record: the run is asked for the readings left, on the tape, plan and note given; what it played
  replaces them, the readings still left by the budget are the record's `undone`, the reconstruction games it
  played for the first time are added (those already there once), the plan is the record's with `thorough`
  if either run was, the shared tapes add up; a record measured with another frame budget, or whose plan names
  no games, is refused naming it; a record with nothing left says so and plays nothing;
- the record's name and tape in --resume: the merged record names the tape played now (the path given, or
  none), not the one it was measured on; a record naming no tape is noted by its name, a record of another
  tape or another command refused by its name; the near misses: no path given, a record naming this tape.
"""
from __future__ import annotations

import copy
import dataclasses
import hashlib

import pytest

from harness.errors import InputError
from harness.program.runs import readings as R
from harness.program.runs.readings_games import FRAMES_FACTOR, FRAMES_MARGIN, GamePlayed
from harness.program.runs.readings_record import (BUDGET, BaseGame, Consequence, CpuSeconds, ReadingsRecord, Reading,
                                                  RecordPlan, Resumed, TapeRecord, readings_record)

PICTURE = {"kind": "picture", "moment": "input 7060", "slots": {"1": "5D"}, "pegs": {"computer": 3},
           "rows": {"message": "ВАМ", "score": "12"}, "board": True, "flag": False}


def _game(transcript=None, **changes) -> GamePlayed:
    g = {"key": "base", "index": 0, "seed": 1, "strategy": "random", "scores": {"computer": 121, "player": 90},
         "winner": "computer", "basic_errors": [], "failure": None, "documented": {"D1": 2}, "unexplained": 0,
         "transcript": transcript if transcript is not None else [{"kind": "header"}, copy.deepcopy(PICTURE)],
         "screens": [], "lines_run": [1310]}
    return GamePlayed(**{**g, **changes})


def _picture(**changes) -> GamePlayed:
    return _game([{"kind": "header"}, dict(copy.deepcopy(PICTURE), **changes)])


# ---------------------------------------------------------------- the moments of a picture-only difference
def test_a_changed_row_is_named_with_both_values():
    kind, detail, moments = R.compare_game(1310, _game(), _picture(rows={"message": "ВАМ НУЖНА", "score": "12"}))
    assert (kind, moments) == ("picture", ["input 7060: message 'ВАМ' -> 'ВАМ НУЖНА'"])
    assert detail == "the picture differs at 1 moment(s) or more"


def test_a_row_only_one_picture_has_is_named_both_ways():
    _, _, moments = R.compare_game(1310, _game(), _picture(rows={"message": "ВАМ", "score": "12", "go": "ХОД!"}))
    assert moments == ["input 7060: go None -> 'ХОД!'"]
    _, _, moments = R.compare_game(1310, _game(), _picture(rows={"score": "12"}))
    assert moments == ["input 7060: message 'ВАМ' -> None"]


@pytest.mark.parametrize("key, value", [("slots", {"1": "6D"}), ("pegs", {"computer": 4}), ("board", False),
                                        ("flag", True)])
def test_each_drawn_part_that_changed_is_named_and_only_it(key, value):
    kind, _, moments = R.compare_game(1310, _game(), _picture(**{key: value}))
    assert (kind, moments) == ("picture", [f"input 7060: {key}"])


def test_every_drawn_part_changed_is_named_in_order():
    _, _, moments = R.compare_game(1310, _game(), _picture(slots={}, pegs={}, board=False, flag=True,
                                                           rows={"message": "ВАМ", "score": "13"}))
    assert moments == ["input 7060: score '12' -> '13', slots, pegs, board, flag"]


def test_a_screen_check_one_game_shows_no_rows_of_is_named_by_its_rows():
    base = _game([{"kind": "header"}, {"kind": "screen", "what": "hand", "rows": [], "variables": {"n": 1}}])
    shown = _game([{"kind": "header"}, {"kind": "screen", "what": "hand", "rows": [[16, "5   7"]],
                                        "variables": {"n": 1}}])
    assert R.compare_game(1310, base, shown) == ("picture", "the picture differs at 1 moment(s) or more",
                                                 ["hand: 16 None -> '5   7'"])
    assert R.compare_game(1310, shown, base)[2] == ["hand: 16 '5   7' -> None"]


def test_a_transcript_an_event_longer_or_shorter_is_play_at_that_event():
    longer = _game([{"kind": "header"}, copy.deepcopy(PICTURE), copy.deepcopy(PICTURE)])
    kind, detail, moments = R.compare_game(1310, _game(), longer)
    assert (kind, detail) == ("play", "the game goes otherwise")
    assert len(moments) == 1 and moments[0].startswith("event 2 (input 7060): nothing -> picture {")
    kind, _, moments = R.compare_game(1310, longer, _game())
    assert kind == "play" and moments[0].startswith("event 2 (input 7060): picture {") and \
        moments[0].endswith(" -> nothing")
    # near miss: the same two pictures in both
    assert R.compare_game(1310, longer, copy.deepcopy(longer))[0] == "identical"


def test_after_a_picture_only_moment_a_later_difference_of_the_play_is_still_play():
    t = [{"kind": "header"}, copy.deepcopy(PICTURE), {"kind": "score", "who": "computer", "points": 2}]
    later = copy.deepcopy(t)
    later[1]["flag"], later[2]["points"] = True, 4
    kind, detail, moments = R.compare_game(1310, _game(t), _game(later))
    assert (kind, detail) == ("play", "the game goes otherwise")
    assert moments == ["input 7060: flag", "event 2 (score): score {'who': 'computer', 'points': 2} -> "
                                           "score {'who': 'computer', 'points': 4}"]
    # near miss: the score alike, the flag alone: picture
    later[2]["points"] = 2
    assert R.compare_game(1310, _game(t), _game(later))[:2] == ("picture", "the picture differs at 1 moment(s) or more")


def test_at_most_five_picture_moments_are_named():
    t = [{"kind": "header"}] + [dict(copy.deepcopy(PICTURE), moment=f"input {n}") for n in range(7)]
    flags = [dict(e, flag=True) if e["kind"] == "picture" else e for e in copy.deepcopy(t)]
    kind, detail, moments = R.compare_game(1310, _game(t), _game(flags))
    assert (kind, detail) == ("picture", "the picture differs at 5 moment(s) or more")
    assert moments == [f"input {n}: flag" for n in range(5)]


def test_screenshots_that_differ_are_named_at_most_five():
    shots = [(f"00{n}-deal.png", "aa") for n in range(7)]
    other = [(name, "bb") for name, _ in shots]
    assert R.compare_game(1310, _game(screens=shots), _game(screens=other)) == (
        "picture", "the screenshots differ in their pixels", [f"00{n}-deal.png" for n in range(5)])
    one = shots[:3] + [("003-deal.png", "bb")] + shots[4:]
    assert R.compare_game(1310, _game(screens=shots), _game(screens=one))[2] == ["003-deal.png"]
    assert R.compare_game(1310, _game(screens=shots), _game(screens=list(shots))) == ("identical", "", [])


def test_scores_and_judgements_that_differ_are_both_told():
    kind, detail, _ = R.compare_game(1310, _game(unexplained=5, screen_unexplained=2),
                                     _game(scores={"computer": 121, "player": 88}, unexplained=6, screen_unexplained=2))
    assert kind == "play"
    assert detail == ("scores {'computer': 121, 'player': 90} -> {'computer': 121, 'player': 88}; judgements: "
                      "documented {'D1': 2} -> {'D1': 2}, unexplained 3 -> 4")


def test_unexplained_screen_differences_alike_on_both_sides_are_no_difference_of_the_play():
    base = _game(unexplained=3, screen_unexplained=3)
    assert R.compare_game(1310, base, _game(unexplained=3, screen_unexplained=3)) == ("identical", "", [])
    # near miss: one more unexplained difference of the play in the variant
    kind, detail, _ = R.compare_game(1310, base, _game(unexplained=4, screen_unexplained=3))
    assert (kind, detail) == ("play", "judgements: documented {'D1': 2} -> {'D1': 2}, unexplained 0 -> 1")


def test_a_variant_stops_only_where_the_reconstruction_did_not():
    errors = ["2 Variable not found, 575:1", "9 STOP statement, 8330:2"]
    assert R.compare_game(1310, _game(), _game(basic_errors=errors)) == (
        "stops", "the program stops: 2 Variable not found, 575:1; 9 STOP statement, 8330:2", [])
    # near miss: the reconstruction's game stops alike (its reports, no harness failure)
    assert R.compare_game(1310, _game(basic_errors=errors), _game(basic_errors=errors))[0] == "identical"


@pytest.mark.parametrize("budget, frames, past", [(1000, 998, True), (1000, 997, False), (1000, None, False),
                                                  (3, None, False)])      # no frames told: none ran
def test_a_harness_failure_is_told_past_the_budget_only_within_two_frames_of_it(budget, frames, past):
    variant = _game(failure="no key wait within 5000 frames", budget=budget, **({} if frames is None else
                                                                                 {"frames": frames}))
    kind, detail, _ = R.compare_game(1310, _game(), variant)
    said = "no key wait within 5000 frames"
    assert (kind, detail) == ("stops", f"the program stops: the harness gave it up past its budget of {budget} frames "
                              f"({FRAMES_FACTOR} times the reconstruction's game and {FRAMES_MARGIN}): {said}"
                              if past else f"the program stops: {said}")


def test_identical_refused_names_the_reading_and_its_line():
    planted = Consequence("1310.x", 1310, "confusion", "", "", True, "identical")
    with pytest.raises(R.RefusedVerdict, match=r"^1310\.x: 'identical' although line 1310 ran in none of its games$"):
        R.check(planted, [(_game(), _game(lines_run=[]))])


# ---------------------------------------------------------------- a reading's verdict over its games
READING = Reading(1310, "1310.x", "confusion", "a 5 read as S", "LET A=1", True)


def test_the_verdict_is_the_worst_game_and_of_two_alike_the_first_one_s():
    scores_88 = _game(scores={"computer": 121, "player": 88}, seed=2)
    scores_87 = _game(scores={"computer": 121, "player": 87}, seed=3)
    c = R.verdict(READING, [(_game(seed=1), _game(seed=1)), (_game(seed=2), scores_88), (_game(seed=3), scores_87)])
    assert dataclasses.asdict(c) == {
        "id": "1310.x", "line": 1310, "source": "confusion", "what": "a 5 read as S", "text": "LET A=1", "entry": True,
        "kind": "play", "detail": "scores {'computer': 121, 'player': 90} -> {'computer': 121, 'player': 88}",
        "games": ["1/random", "2/random", "3/random"], "moments": [], "appear": [], "vanish": [], "kept": ["D1"],
        "vanish_playing": []}


def test_the_verdict_carries_the_moments_of_its_worst_game():
    shown = _picture(rows={"message": "ВАМ НУЖНА", "score": "12"})
    c = R.verdict(READING, [(_game(), _game()), (_game(), shown)])
    assert (c.kind, c.moments) == ("picture", ["input 7060: message 'ВАМ' -> 'ВАМ НУЖНА'"])


def test_a_verdict_whose_line_ran_in_no_game_is_untested_with_no_detail():
    c = R.verdict(READING, [(_game(), _game(lines_run=[])), (_game(seed=2), _game(seed=2, lines_run=[7000]))])
    assert (c.kind, c.detail, c.moments) == ("untested", "", [])
    # near miss: the line ran in the second game
    assert R.verdict(READING, [(_game(), _game(lines_run=[])), (_game(seed=2), _game(seed=2))]).kind == "identical"


def test_a_deviation_a_playing_game_never_showed_is_not_flagged_though_a_stopping_game_lost_it():
    """Of two games, the one that stops loses D5 (the reconstruction showed it once); the one that plays on
    lists D5 with a count of 0 in both: D5 vanishes, but from no game that plays on, so it is not flagged."""
    stops = (_game(documented={"D1": 2, "D5": 1}), _game(documented={"D1": 2}, basic_errors=["2 Variable not found"]))
    plays = (_game(seed=2, documented={"D1": 2, "D5": 0}), _game(seed=2, documented={"D1": 2, "D5": 0}))
    c = R.verdict(READING, [stops, plays])
    assert (c.kind, c.vanish, c.vanish_playing, c.kept) == ("stops", ["D5"], [], ["D1"])
    # near miss: the game that plays on showed D5 once, and loses it
    plays = (_game(seed=2, documented={"D1": 2, "D5": 1}), _game(seed=2, documented={"D1": 2, "D5": 0}))
    c = R.verdict(READING, [stops, plays])
    assert (c.kind, c.vanish, c.vanish_playing) == ("stops", ["D5"], ["D5"])


# ---------------------------------------------------------------- --resume
def _consequence(rid: str, kind: str, detail: str = "") -> Consequence:
    return Consequence(rid, int(rid.split(".")[0]), "ocr", "", "", True, kind, detail)


GAME = BaseGame(0, 11, "random", {"computer": 121, "player": 99}, {"D1": 3}, 500)
NEW_GAME = BaseGame(1, 12, "greedy", {"computer": 121, "player": 80}, {"D1": 1}, 480)
BUDGET_PLAN = RecordPlan(games=1, seed=1, frames_budget=[FRAMES_FACTOR, FRAMES_MARGIN])


def _record(**plan) -> ReadingsRecord:
    return ReadingsRecord(
        schema=1, ended="stopped",
        readings=[_consequence("1310.a", "identical"), _consequence("9010.b", "untested", BUDGET),
                  _consequence("2130.d", "untested", BUDGET)],
        counts={"identical": 1, "untested": 2}, plan=dataclasses.replace(BUDGET_PLAN, **plan),
        base_games=[GAME], variant_games=1, shared_tapes=1, cpu_s=CpuSeconds(total=10.0, rom_checks=1.0, games=9.0))


def _part(readings: list, ended: str = "complete", thorough: bool = False, base_games=(GAME, NEW_GAME),
          variant_games: int = 2, shared_tapes: int = 2) -> ReadingsRecord:
    """A record as readings.run returns it for the readings a resume asks for."""
    return ReadingsRecord(schema=1, ended=ended, plan=dataclasses.replace(BUDGET_PLAN, thorough=thorough),
                          base_games=list(base_games), readings=readings, counts={}, variant_games=variant_games,
                          shared_tapes=shared_tapes, cpu_s=CpuSeconds(total=2.0, rom_checks=0.5, games=1.5))


READINGS = [Reading(int(i.split(".")[0]), i, "ocr", "", "", True) for i in ("1310.a", "9010.b", "2130.d")]
TAPE, PLAN = R.BaseTape(b"the tape"), R.Plan()


def _resume(monkeypatch, record: ReadingsRecord, thorough: bool = False,
            still_left: bool = False) -> tuple[ReadingsRecord, list]:
    asked = []

    def note(text: str) -> None:
        pass

    def fake_run(todo, tape, plan, note_):
        asked.append((sorted(r.id for r in todo), tape, plan, note_ is note))
        return _part([_consequence("9010.b", "picture"),
                      _consequence("2130.d", "untested", BUDGET) if still_left else
                      _consequence("2130.d", "identical")], "stopped" if still_left else "complete", thorough)
    monkeypatch.setattr(R, "run", fake_run)
    return R.resume(record, READINGS, TAPE, PLAN, note), asked


def test_the_run_is_asked_for_the_readings_left_on_the_tape_plan_and_note_given(monkeypatch):
    merged, asked = _resume(monkeypatch, _record(thorough=False))
    assert asked == [(["2130.d", "9010.b"], R.BaseTape(TAPE.data), PLAN, True)]
    assert [c.kind for c in merged.readings] == ["identical", "picture", "identical"]
    assert merged.undone == []


def test_a_reading_the_resumed_run_left_too_stays_undone(monkeypatch):
    merged, _ = _resume(monkeypatch, _record(thorough=False), still_left=True)
    assert merged.undone == ["2130.d"] and merged.ended == "stopped"


def test_the_games_played_for_the_first_time_are_added_once_and_the_shared_tapes_add_up(monkeypatch):
    merged, _ = _resume(monkeypatch, _record(thorough=False))
    assert merged.base_games == [GAME, NEW_GAME]
    assert merged.shared_tapes == 3 and merged.variant_games == 3


@pytest.mark.parametrize("before, now, merged_thorough", [(False, True, True), (True, False, True),
                                                         (False, False, False), (None, False, False),
                                                         (None, True, True)])
def test_the_plan_is_the_records_thorough_if_either_run_was(monkeypatch, before, now, merged_thorough):
    merged, _ = _resume(monkeypatch, _record(thorough=before), thorough=now)   # None: a record before the field
    assert merged.plan == RecordPlan(games=1, seed=1, frames_budget=[FRAMES_FACTOR, FRAMES_MARGIN],
                                     thorough=merged_thorough)


def test_a_record_written_before_the_shared_tapes_the_cpu_parts_or_with_an_earlier_resume(monkeypatch):
    old = dataclasses.replace(_record(thorough=False), shared_tapes=None,
                              cpu_s=CpuSeconds(total=10.04, games=9.0),             # no rom_checks yet
                              resumed=[Resumed(5, 1.0, "stopped")])
    merged, _ = _resume(monkeypatch, old)
    assert merged.shared_tapes == 2
    assert merged.cpu_s == CpuSeconds(total=12.0, rom_checks=0.5, games=10.5)
    assert merged.resumed == [Resumed(5, 1.0, "stopped"), Resumed(2, 2.0, "complete")]


def test_the_cpu_seconds_are_summed_to_a_tenth(monkeypatch):
    old = dataclasses.replace(_record(thorough=False), cpu_s=CpuSeconds(total=10.04, rom_checks=1.26, games=8.78))
    merged, _ = _resume(monkeypatch, old)
    assert merged.cpu_s == CpuSeconds(total=12.0, rom_checks=1.8, games=10.3)     # 12.04, 1.76, 10.28


def test_a_record_of_another_frame_budget_or_no_games_is_refused_naming_it(monkeypatch):
    other = _record(thorough=False, frames_budget=[FRAMES_FACTOR + 1, FRAMES_MARGIN])
    with pytest.raises(InputError, match=rf"frame budget \[{FRAMES_FACTOR + 1}, {FRAMES_MARGIN}\]: a resumed"):
        _resume(monkeypatch, other)
    none = dataclasses.replace(_record(), plan=RecordPlan())
    with pytest.raises(InputError, match=r"^the record: measured with None game\(s\) a reading from seed None and "
                                         r"frame budget None: a resumed run plays the same \(1 from seed 1 asked\)$"):
        _resume(monkeypatch, none)


def test_a_record_with_nothing_left_says_so_and_plays_nothing(monkeypatch):
    done = dataclasses.replace(_record(thorough=False), readings=[_consequence("1310.a", "identical")],
                               tape=TapeRecord(None, hashlib.sha256(TAPE.data).hexdigest(), None))   # this tape
    said = []
    monkeypatch.setattr(R, "run", lambda *a: pytest.fail("nothing is left to play"))
    assert R.resume(done, READINGS, TAPE, PLAN, said.append) is done
    assert said == ["the record: no reading left untested by its budget: nothing to play"]


# ---------------------------------------------------------------- --resume: the record's name and its tape
TAPE_SHA = "8e62adffad5b844787e2c25c6e3a1655ed845df420ed66f9efc7cbe2a9807cd0"      # sha256(b"the tape"), by hand


def test_the_tape_is_the_one_given_now_with_its_path(monkeypatch, tmp_path):
    # planted: the merged record keeps the tape it was measured on (its old path), names none, or forgets the
    # path given now; near miss: with no path given the tape is named by its SHA-256 alone
    old = dataclasses.replace(_record(thorough=False), tape=TapeRecord("build/old/cribbage.tap", TAPE_SHA, "f00d"))
    where = tmp_path / "gone.tap"                                  # not on disk: named from the bytes played
    monkeypatch.setattr(R, "run", lambda todo, tape, plan, note: _part(
        [_consequence("9010.b", "identical"), _consequence("2130.d", "identical")], base_games=[GAME],
        variant_games=0, shared_tapes=0))
    merged = R.resume(old, READINGS, R.BaseTape(TAPE.data, where), PLAN)
    assert merged.tape == TapeRecord(str(where), TAPE_SHA, None)
    near = R.resume(old, READINGS, TAPE, PLAN)
    assert near.tape == TapeRecord(None, TAPE_SHA, None)


def test_a_record_naming_no_tape_is_noted_by_its_name(monkeypatch):
    # planted: the note left unsaid, said empty, or said without the record's name; near miss: a record naming
    # this tape gets no note of it
    done = dataclasses.replace(_record(thorough=False), readings=[_consequence("1310.a", "identical")])
    monkeypatch.setattr(R, "run", lambda *a: pytest.fail("nothing is left to play"))
    said = []
    R.resume(done, READINGS, TAPE, PLAN, said.append, name="old.json")
    assert said == ["old.json: the record names no tape (written before readings kept the tape's SHA-256): its "
                    "reconstruction's games, played again, are the check that the tape is the same",
                    "old.json: no reading left untested by its budget: nothing to play"]
    said.clear()
    R.resume(dataclasses.replace(done, tape=TapeRecord(None, TAPE_SHA, None)), READINGS, TAPE, PLAN, said.append,
             name="old.json")
    assert said == ["old.json: no reading left untested by its budget: nothing to play"]


def test_a_record_of_another_tape_or_command_is_refused_by_its_name(monkeypatch):
    # planted: the refusal names no file (None); near miss: the same record on its own tape is taken
    monkeypatch.setattr(R, "run", lambda *a: pytest.fail("a refused record plays nothing"))
    other = dataclasses.replace(_record(thorough=False), readings=[_consequence("1310.a", "identical")],
                                tape=TapeRecord("elsewhere.tap", "ab" * 32, None))
    with pytest.raises(InputError, match=r"^old\.json: a record of another tape \(SHA-256 abababababab…, "
                                         r"elsewhere\.tap\), not of this one \(8e62adffad5b…\)"):
        R.resume(other, READINGS, TAPE, PLAN, name="old.json")
    with pytest.raises(InputError, match=r"^old\.json: not a readings record \(a regress or fairness report: it "
                                         r"has per_game\)$"):
        readings_record({"per_game": [], "schema": 1}, "old.json")
    mine = dataclasses.replace(other, tape=TapeRecord("elsewhere.tap", TAPE_SHA, None))
    assert R.resume(mine, READINGS, TAPE, PLAN, name="old.json") is mine


@pytest.mark.parametrize("now, told", [
    (dataclasses.replace(GAME, scores={"computer": 121, "player": 98}),
     "{'computer': 121, 'player': 98} now, {'computer': 121, 'player': 99} in the record"),
    (dataclasses.replace(GAME, documented={"D1": 2}),
     "{'computer': 121, 'player': 99} with {'D1': 2} documented deviation(s) now, {'D1': 3} in the record"),
])
def test_a_reconstruction_game_that_ends_otherwise_now_refuses_the_record_by_its_name(monkeypatch, now, told):
    monkeypatch.setattr(R, "run", lambda todo, tape, plan, note: _part(
        [_consequence("9010.b", "picture"), _consequence("2130.d", "identical")], base_games=(now, NEW_GAME)))
    with pytest.raises(InputError) as refused:
        R.resume(_record(thorough=False), READINGS, TAPE, PLAN, name="old/readings.json")
    assert str(refused.value) == (f"old/readings.json: the reconstruction's game 0 (seed 11) ends {told}: the "
                                  f"tape changed; measure afresh")


@pytest.mark.parametrize("ended, shared, told", [(None, 0, "complete"), ("stopped", None, "stopped"),
                                                 ("complete", 3, "complete")])
def test_a_resume_tells_how_its_run_ended_and_adds_only_the_tapes_it_shared(monkeypatch, ended, shared, told):
    readings = [_consequence("9010.b", "picture"), _consequence("2130.d", "identical")]
    monkeypatch.setattr(R, "run", lambda todo, tape, plan, note: dataclasses.replace(
        _part(readings), ended=ended, shared_tapes=shared))
    merged = R.resume(_record(thorough=False), READINGS, TAPE, PLAN)
    assert merged.resumed == [Resumed(2, 2.0, told)]
    assert merged.shared_tapes == 1 + (shared or 0)                     # the record's 1 and the run's


def test_a_picture_whose_rows_are_neither_named_nor_listed_has_none():
    _, _, moments = R.compare_game(1310, _game(), _picture(rows=7))
    assert moments == ["input 7060: message 'ВАМ' -> None, score '12' -> None"]
