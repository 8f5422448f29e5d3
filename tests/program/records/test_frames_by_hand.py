"""game-NNN.frames.json by hand (issue 51): the record made relative to the recording's first frame, written
and read back, and every refusal of a file that does not fit its transcript planted beside its near miss: one
frame more and one fewer than the events, a frame going back (and the near miss: the same frame twice), a
bool where a whole number belongs, another schema, a name of another type, not JSON, no file. Expected values written out here."""
from __future__ import annotations

import json

import pytest

from harness.errors import InputError
from harness.program.records import frames as F


def test_the_name_and_the_record_count_from_the_recordings_first_frame():
    assert F.frames_name(7) == "game-007.frames.json" and F.frames_name(123) == "game-123.frames.json"
    # machine frames 95, 100, 100, 180 with the recording started at machine frame 100
    assert F.frames_record(7, [95, 100, 100, 180], 100) == {"schema": 2, "game": 7, "seed": None,
                                                            "tape_sha256": None, "rzx_sha256": None, "events": 4,
                                                            "frames": [-5, 0, 0, 80]}
    # with what it names: the seed, the tape's SHA-256 and the RZX's (of its bytes)
    named = F.frames_record(7, [100], 100, 12345, "ab" * 32, b"RZX!")
    assert (named["seed"], named["tape_sha256"], named["rzx_sha256"]) == (
        12345, "ab" * 32, "e5a65f501f411e0a0ee0bf2c2efc7dc13dc47ca49c0817a371cd7ee87e12e9e9")


def _file(tmp_path, data) -> object:
    path = tmp_path / "game-000.frames.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def test_a_record_written_is_read_back(tmp_path):
    path = tmp_path / "game-000.frames.json"
    F.write_frames(path, F.frames_record(0, [95, 100, 100, 180], 100, 1, "ab" * 32))
    assert path.read_text(encoding="utf-8") == ('{"schema":2,"game":0,"seed":1,"tape_sha256":"' + "ab" * 32 +
                                                '","rzx_sha256":null,"events":4,"frames":[-5,0,0,80]}\n')
    assert F.read_frames(path, 4) == [-5, 0, 0, 80]          # near miss of each refusal below: negative, equal


@pytest.mark.parametrize("events,message", [(3, "4 frames for a transcript of 3 events"),
                                            (5, "4 frames for a transcript of 5 events")])
def test_one_frame_more_or_fewer_than_the_events_is_refused(tmp_path, events, message):
    path = _file(tmp_path, {"schema": 1, "frames": [-5, 0, 0, 80]})
    with pytest.raises(InputError) as refused:
        F.read_frames(path, events)
    assert str(refused.value) == f"{path}: {message}"


@pytest.mark.parametrize("frames,message", [
    ([0, 10, 9, 20], "event 2 is at frame 9, before event 1's 10"),
    ([5, 4], "event 1 is at frame 4, before event 0's 5"),
    ([0, 1, 2, 1], "event 3 is at frame 1, before event 2's 2"),
])
def test_a_frame_going_back_is_refused_naming_the_event(tmp_path, frames, message):
    path = _file(tmp_path, {"schema": 1, "frames": frames})
    with pytest.raises(InputError) as refused:
        F.read_frames(path, len(frames))
    assert str(refused.value) == f"{path}: {message}"
    # near miss: the same frames with the backward step made a tie
    tied = sorted(frames)
    assert F.read_frames(_file(tmp_path, {"schema": 1, "frames": tied}), len(tied)) == tied


@pytest.mark.parametrize("data,message", [
    ({"schema": 1, "frames": [0, True, 2]}, "'frames' is not a list of whole numbers"),
    ({"schema": 1, "frames": [0, 1.5, 2]}, "'frames' is not a list of whole numbers"),
    ({"schema": 1, "frames": {"0": 0}}, "'frames' is not a list of whole numbers"),
    ({"schema": 1}, "'frames' is not a list of whole numbers"),
    ({"schema": 3, "frames": [0, 1, 2]}, "not a frames file of schema 1 or 2"),
    ({"frames": [0, 1, 2]}, "not a frames file of schema 1 or 2"),
    ([0, 1, 2], "not a frames file of schema 1 or 2"),
    ({"schema": 2, "seed": "1", "frames": [0, 1, 2]}, "'seed' is not a whole number"),
    ({"schema": 2, "rzx_sha256": 5, "frames": [0, 1, 2]}, "'rzx_sha256' is not a string"),
])
def test_a_file_of_another_form_is_refused(tmp_path, data, message):
    path = _file(tmp_path, data)
    with pytest.raises(InputError) as refused:
        F.read_frames(path, 3)
    assert str(refused.value) == f"{path}: {message}"
    assert F.read_frames(_file(tmp_path, {"schema": 1, "frames": [0, 1, 2]}), 3) == [0, 1, 2]     # near miss


def test_not_json_and_no_file_are_refused_naming_the_file(tmp_path):
    path = _file(tmp_path, '{"schema": 1, "frames": [0,')
    with pytest.raises(InputError) as refused:
        F.read_frames(path, 3)
    assert str(refused.value).startswith(str(path)) and "not JSON" in str(refused.value)
    path.write_bytes(b"\xff\xfe")
    with pytest.raises(InputError) as refused:
        F.read_frames(path, 3)
    assert str(refused.value).startswith(str(path))
    missing = tmp_path / "none.frames.json"
    with pytest.raises(InputError) as refused:
        F.read_frames(missing, 3)
    assert str(refused.value).startswith(str(missing)) and "\n" not in str(refused.value)
