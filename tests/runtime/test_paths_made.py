"""runtime/paths.py: an output's folder is written to before any work, not only asked (os.access says yes to
root where no file can be made: /proc; issue 45's cases found conformance --lockstep losing 126 CPU s there).
The plant: making a file there fails; the near miss: a folder where one can be made passes, nothing left."""
from __future__ import annotations

import errno

import pytest

from harness.runtime import paths
from harness.runtime.paths import PathContract, problem

FILE = PathContract("output file", "readings record")
FOLDER = PathContract("output folder", "run", commands=("regress",))


@pytest.fixture
def no_file_can_be_made(monkeypatch):
    def refuse(*args, **kwargs):
        raise OSError(errno.ENOENT, "No such file or directory")
    monkeypatch.setattr(paths.tempfile, "mkstemp", refuse)


@pytest.mark.parametrize("contract, name, said", [
    (FILE, "r.json", "its folder is not writable (No such file or directory); choose another place"),
    (FOLDER, "run", "its folder is not writable (No such file or directory); choose another place")])
def test_a_folder_where_no_file_can_be_made_is_refused(tmp_path, no_file_can_be_made, contract, name, said):
    assert problem(contract, tmp_path / name) == said


def test_an_existing_output_folder_where_no_file_can_be_made_is_refused(tmp_path, no_file_can_be_made):
    (tmp_path / "run").mkdir()
    assert problem(FOLDER, tmp_path / "run") == "is not writable (No such file or directory)"


@pytest.mark.parametrize("contract, name", [(FILE, "r.json"), (FOLDER, "run")])
def test_near_miss_a_folder_where_a_file_can_be_made_passes_and_keeps_nothing(tmp_path, contract, name):
    (tmp_path / "mine.txt").write_text("notes")
    assert problem(contract, tmp_path / name) is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.txt"]
