"""game-NNN.frames.json read through the one checked reader: a file nested 100,000 deep (which made
`html --report` print a 38-line RecursionError) is one line naming the file; a good one reads."""
from __future__ import annotations

import pytest

from harness.errors import InputError
from harness.program.records.frames import read_frames


def test_a_deeply_nested_frames_file_is_one_line_naming_it(tmp_path):
    path = tmp_path / "game-000.frames.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(InputError) as refused:
        read_frames(path, 3)
    assert str(refused.value) == f"{path}: not JSON this tool reads: nested more than 100 deep"


def test_a_frames_file_of_another_encoding_names_its_line(tmp_path):
    path = tmp_path / "game-000.frames.json"
    path.write_bytes(b'{"schema": 1,\n"frames": [\xff]}')
    with pytest.raises(InputError, match=r"game-000.frames.json:2: not UTF-8 text"):
        read_frames(path, 1)


def test_a_good_frames_file_reads(tmp_path):
    path = tmp_path / "game-000.frames.json"
    path.write_text('{"schema": 1, "game": 0, "events": 3, "frames": [-2, 0, 5]}')
    assert read_frames(path, 3) == [-2, 0, 5]
