"""`build --check-pack`'s verify by hand (issue 51): a manifest of the wrong form named with its path and the
place in it, and each name that is not a file of the folder ("sub/x", "", ".", "..") refused, beside the near
miss of a name with a dot in it. Expected lines written out here; no emulator."""
from __future__ import annotations

import json

import pytest

from harness.program.runs import pack


def _manifest(folder, manifest) -> str:
    folder.mkdir(exist_ok=True)
    (folder / pack.MANIFEST).write_text(json.dumps(manifest))
    return str(folder / pack.MANIFEST)


@pytest.mark.parametrize("manifest,where,what", [
    ([], "", "expected an object, found a list []"),
    ({"files": {}}, ".files", "expected a list, found an object {}"),
    ({"files": [[1]]}, ": files[0]", "expected an object, found a list [...]"),
])
def test_a_manifest_of_the_wrong_form_is_named_with_its_place(tmp_path, manifest, where, what):
    path = _manifest(tmp_path / "pack", manifest)
    assert pack.verify(tmp_path / "pack") == [f"{path}{where}: {what} (not a pack manifest)"]


def _entry(name: str, data: bytes = b"x") -> dict:
    return vars(pack.PackFile.of(name, data))


@pytest.mark.parametrize("name", ["sub/x", "", ".", ".."])
def test_a_name_that_is_not_a_file_of_the_folder_is_refused(tmp_path, name):
    folder = tmp_path / "pack"
    path = _manifest(folder, {"files": [_entry(name)]})
    assert pack.verify(folder) == [f"{path}: names {name!r}, not a file of the folder"]


@pytest.mark.parametrize("name", ["a.b", ".x", "x..y"])
def test_near_miss_a_name_with_dots_is_a_file_of_the_folder(tmp_path, name):
    folder = tmp_path / "pack"
    _manifest(folder, {"files": [_entry(name)]})
    (folder / name).write_bytes(b"x")
    assert pack.verify(folder) == []
