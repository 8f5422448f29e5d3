"""A session saved by play.html (harness/play/saved.py): read back, refused in one line when damaged, and
opened by PlaySession's load (play --load) as its .z80 and seed."""
from __future__ import annotations

import base64
import json

import pytest

from harness.errors import InputError
from harness.play.saved import FORMAT, is_saved_session, read_saved_session

Z80 = bytes(30 + 0xC000)


def _session(**changes) -> dict:
    base = {"format": FORMAT, "version": 1, "tape_sha256": "ab" * 32, "lang": "ru", "seed": 99, "frames": 120,
            "keys": [[0, ["N"]], [3, []]], "z80": base64.b64encode(Z80).decode()}
    return {**base, **changes}


def test_a_saved_session_reads_back(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps(_session()))
    saved = read_saved_session(path)
    assert saved.z80 == Z80 and saved.lang == "ru"
    assert (saved.record.seed, saved.record.frames, saved.record.changes) == (99, 120, [(0, ("N",)), (3, ())])
    assert is_saved_session(path.read_bytes()[:400])
    assert not is_saved_session(b'{"format": "cribbage-zx play keys"}')         # near miss: a key record
    assert not is_saved_session(Z80[:400])


@pytest.mark.parametrize("changes, said", [
    ({"format": "cribbage-zx play keys"}, "not a session saved by play.html"),
    ({"version": 2}, "version 2, this program reads 1"),
    ({"z80": "not base64!"}, "a malformed field"),
    ({"z80": base64.b64encode(Z80[:-1]).decode()}, "its .z80 is 49181 bytes"),
    ({"keys": [[0]]}, "a malformed field"),
])
def test_a_damaged_session_is_one_line_naming_the_file(tmp_path, changes, said):
    path = tmp_path / "s.json"
    data = _session(**changes)
    path.write_text(json.dumps(data))
    with pytest.raises(InputError, match=said) as caught:
        read_saved_session(path)
    assert str(caught.value).startswith(str(path)) and "\n" not in str(caught.value)
    missing = _session()
    del missing["seed"]
    path.write_text(json.dumps(missing))
    with pytest.raises(InputError, match="no 'seed' field"):
        read_saved_session(path)
