"""What a recording names as its own, by hand (issue 45's names, issue 51's mutated set): the RZX creator data
(rzx_tag, game_of_tag), the frames file's schema 2 fields (frames_record, read_frames_record) and
check_recording, which sets both against the game they lie beside. Each refusal planted (another game, seed,
tape, recording; a name of the wrong type) beside its near miss (the right one, or a side that does not say);
the expected texts and SHA-256s are written out here or computed with hashlib, not by the module. No machine,
no report: the report's own tests (tests/edition/test_watch_records.py) take the pages."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from harness.errors import InputError
from harness.program.records.frames import (FramesRecord, GameId, check_recording, frames_record, game_of_tag,
                                            read_frames, read_frames_record, rzx_tag)

TAPE, OTHER_TAPE = "ab" * 32, "cd" * 32
RZX_DATA = b"RZX!recording"
RZX_SHA = hashlib.sha256(RZX_DATA).hexdigest()
RUN = Path("/runs/r1")
RZX, FRAMES, TRANSCRIPT = RUN / "game-003.rzx", RUN / "game-003.frames.json", RUN / "game-003.jsonl"
GAME = GameId(3, 7, TAPE)


# ---------------------------------------------------------------- the RZX's creator data
def test_a_game_is_named_with_its_seed_when_known():
    assert (str(GameId(3, 7)), str(GameId(3)), str(GameId(0, 0))) == ("game 3 (seed 7)", "game 3", "game 0 (seed 0)")


def test_the_tag_is_compact_ascii_json_and_is_read_back():
    tag = rzx_tag(GameId(3, 7, TAPE))
    assert tag == b'{"game":3,"seed":7,"tape_sha256":"' + TAPE.encode() + b'"}'
    assert game_of_tag(tag, "x.rzx") == GameId(3, 7, TAPE)
    assert game_of_tag(b'{"game":3,"seed":null,"tape_sha256":null}', "x.rzx") == GameId(3)   # near miss: nulls
    assert game_of_tag(b"", "x.rzx") is None                                               # names none


def test_a_session_played_by_hand_is_named_by_its_seed_and_tape_alone():
    """play --record-rzx's recording: no game of a run ("game": null), its seed and the tape's SHA-256."""
    tag = rzx_tag(GameId(None, 7, TAPE))
    assert tag == b'{"game":null,"seed":7,"tape_sha256":"' + TAPE.encode() + b'"}'
    assert game_of_tag(tag, "x.rzx") == GameId(None, 7, TAPE)
    assert (str(GameId(None, 7)), str(GameId(None))) == ("a session played by hand (seed 7)", "a session played by hand")


@pytest.mark.parametrize("custom", [b"not json", b'{"seed":7,"tape_sha256":null}', b'{"game":null,"seed":true}', b'{"game":3}\xff', b'[3]', b'{"seed":7}', b'{"game":true}',
                                    b'{"game":"3"}', b'{"game":3,"seed":"7"}', b'{"game":3,"tape_sha256":5}'])
def test_creator_data_that_names_no_game_is_refused_naming_the_file(custom):
    with pytest.raises(InputError) as refused:
        game_of_tag(custom, "/runs/r1/game-003.rzx")
    assert str(refused.value) == ('/runs/r1/game-003.rzx: its creator block\'s data does not name a game (not this '
                                  'tool\'s {"game", "seed", "tape_sha256"})')


# ---------------------------------------------------------------- the frames file's names
def test_the_record_names_the_game_seed_tape_and_the_recordings_sha256():
    assert frames_record(3, [100, 105, 130], 105, seed=7, tape_sha256=TAPE, rzx=RZX_DATA) == {
        "schema": 2, "game": 3, "seed": 7, "tape_sha256": TAPE, "rzx_sha256": RZX_SHA, "events": 3,
        "frames": [-5, 0, 25]}
    assert frames_record(3, [100], 100) == {"schema": 2, "game": 3, "seed": None, "tape_sha256": None,
                                            "rzx_sha256": None, "events": 1, "frames": [0]}


def _write(tmp_path: Path, **data) -> Path:
    path = tmp_path / "game-003.frames.json"
    path.write_text(json.dumps({"schema": 2, "game": 3, "frames": [0, 4]} | data), encoding="utf-8")
    return path


def test_schema_1_and_2_are_read_with_what_they_name(tmp_path):
    path = _write(tmp_path, seed=7, tape_sha256=TAPE, rzx_sha256=RZX_SHA)
    assert read_frames_record(path, 2) == FramesRecord([0, 4], 2, 3, 7, TAPE, RZX_SHA)
    assert read_frames(path, 2) == [0, 4]
    assert read_frames_record(_write(tmp_path, schema=1), 2) == FramesRecord([0, 4], 1, 3)
    with pytest.raises(InputError, match=r"game-003\.frames\.json: not a frames file of schema 1 or 2$"):
        read_frames_record(_write(tmp_path, schema=3), 2)


@pytest.mark.parametrize("key, value, kind", [("game", "3", "whole number"), ("game", True, "whole number"),
                                              ("seed", 7.0, "whole number"), ("seed", False, "whole number"),
                                              ("tape_sha256", 5, "string"), ("rzx_sha256", ["x"], "string")])
def test_a_name_of_the_wrong_type_is_refused(tmp_path, key, value, kind):
    with pytest.raises(InputError) as refused:
        read_frames_record(_write(tmp_path, **{key: value}), 2)
    assert str(refused.value) == f"{tmp_path / 'game-003.frames.json'}: '{key}' is not a {kind}"
    # near miss: the same key null (a name the file does not give)
    assert read_frames_record(_write(tmp_path, **{key: None}), 2).frames == [0, 4]


# ---------------------------------------------------------------- check_recording
def _check(custom: bytes = rzx_tag(GAME), record: FramesRecord | None = None, game: GameId = GAME,
           rzx_data: bytes = RZX_DATA) -> list[str]:
    record = record if record is not None else FramesRecord([0], 2, 3, 7, TAPE, RZX_SHA)
    return check_recording(RZX, rzx_data, custom, FRAMES, record, TRANSCRIPT, game)


def test_the_games_own_files_pass_with_nothing_to_say():
    assert _check() == []
    assert _check(record=FramesRecord([0], 2, 3, 7, TAPE, None)) == []     # schema 2 without the RZX's: no note


@pytest.mark.parametrize("named, message", [
    (GameId(4, 7, TAPE), "a recording of game 4 (seed 7), not of game-003.jsonl's game 3 (seed 7)"),
    (GameId(3, 8, TAPE), "a recording of game 3 (seed 8), not of game-003.jsonl's game 3 (seed 7)"),
    (GameId(4, None, TAPE), "a recording of game 4, not of game-003.jsonl's game 3 (seed 7)"),
    (GameId(3, 7, OTHER_TAPE), "a recording on the tape of SHA-256 cdcdcdcdcdcd…, not on the run's "
                               "(abababababab…, report.json)")])
def test_a_recording_of_another_game_seed_or_tape_is_refused(named, message):
    with pytest.raises(InputError) as refused:
        _check(rzx_tag(named))
    assert str(refused.value) == f"{RZX}: {message}"


@pytest.mark.parametrize("named, game", [(GameId(3, None, None), GAME), (GameId(3, 8, OTHER_TAPE), GameId(3)),
                                         (GameId(3, 7, None), GAME), (GameId(3, 7, TAPE), GameId(3, 7, None))])
def test_near_miss_a_side_that_does_not_say_is_not_a_difference(named, game):
    assert _check(rzx_tag(named), game=game) == []


@pytest.mark.parametrize("seed, tape", [(7, TAPE), (8, OTHER_TAPE), (None, None)])
def test_a_session_played_by_hand_beside_a_games_judgements_is_refused(seed, tape):
    """The same seed and tape are no near miss: a session played by hand is no game of the run."""
    with pytest.raises(InputError) as refused:
        _check(rzx_tag(GameId(None, seed, tape)))
    said = "a session played by hand" + (f" (seed {seed})" if seed is not None else "")
    assert str(refused.value) == f"{RZX}: a recording of {said}, not of game-003.jsonl's game 3 (seed 7)"


def test_a_recording_that_names_no_game_is_said_so_not_refused():
    assert _check(b"") == ["game-003.rzx names no game (recorded before recordings named theirs): it is not checked "
                           "against game-003.jsonl."]


@pytest.mark.parametrize("record, message", [
    (FramesRecord([0], 2, 4, 7, TAPE, RZX_SHA), "the frames of game 4 (seed 7), not of game-003.jsonl's game 3 (seed 7)"),
    (FramesRecord([0], 2, 3, 8, TAPE, RZX_SHA), "the frames of game 3 (seed 8), not of game-003.jsonl's game 3 (seed 7)"),
    (FramesRecord([0], 2, None, 8, TAPE, RZX_SHA), "the frames of game 3 (seed 8), not of game-003.jsonl's game 3 "
                                                   "(seed 7)"),
    (FramesRecord([0], 2, 3, 7, OTHER_TAPE, RZX_SHA), "the frames of a game on the tape of SHA-256 cdcdcdcdcdcd…, not "
                                                      "on the run's (abababababab…, report.json)"),
    (FramesRecord([0], 2, 3, 7, TAPE, "ef" * 32), f"the frames of another recording (RZX SHA-256 efefefefefef…), not "
                                                  f"of game-003.rzx ({RZX_SHA[:12]}…)")])
def test_frames_of_another_game_seed_tape_or_recording_are_refused(record, message):
    with pytest.raises(InputError) as refused:
        _check(record=record)
    assert str(refused.value) == f"{FRAMES}: {message}"


@pytest.mark.parametrize("record, game", [(FramesRecord([0], 2, None, None, None, RZX_SHA), GAME),
                                          (FramesRecord([0], 2, 3, 8, OTHER_TAPE, RZX_SHA), GameId(3, None, None)),
                                          (FramesRecord([0], 2, 3, None, TAPE, RZX_SHA), GAME)])
def test_near_miss_frames_whose_side_does_not_say_pass(record, game):
    assert _check(rzx_tag(GameId(3)), record=record, game=game) == []


def test_frames_of_schema_1_are_said_to_name_only_the_game():
    assert _check(record=FramesRecord([0], 1, 3)) == [
        "game-003.frames.json names no seed, tape or recording (written before frames files named them): only its "
        "game number is checked."]
    with pytest.raises(InputError, match="the frames of game 4"):          # its game number is still checked
        _check(record=FramesRecord([0], 1, 4))


def test_a_recording_whose_creator_data_is_not_a_games_name_is_refused_naming_the_rzx():
    """check_recording passes the RZX's own path to the tag's reader: the refusal names that file."""
    with pytest.raises(InputError) as refused:
        _check(b'{"seed":7}')
    assert str(refused.value) == (f'{RZX}: its creator block\'s data does not name a game (not this tool\'s '
                                  '{"game", "seed", "tape_sha256"})')
