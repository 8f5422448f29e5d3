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


@pytest.mark.parametrize("key,value,what", [
    ("name", 1, "expected a string, found a whole number 1"),
    ("size", "1", 'expected a whole number, found a string "1"'),
    ("crc32", None, "expected a string, found null null"),
    ("md5", 2.5, "expected a string, found a number 2.5"),
    ("sha1", [1], "expected a string, found a list [...]"),
    ("sha256", 7, "expected a string, found a whole number 7"),
])
def test_each_field_of_an_entry_of_the_wrong_kind_is_named_with_its_entry(tmp_path, key, value, what):
    folder = tmp_path / "pack"
    path = _manifest(folder, {"files": [_entry("a"), {**_entry("b"), key: value}]})
    assert pack.verify(folder) == [f"{path}: files[1].{key}: {what} (not a pack manifest)"]


def test_a_long_name_that_is_not_a_file_of_the_folder_is_shown_to_forty_characters(tmp_path):
    folder = tmp_path / "pack"
    path = _manifest(folder, {"files": [_entry("sub/" + "x" * 60)]})
    assert pack.verify(folder) == [f"{path}: names 'sub/{'x' * 36}', not a file of the folder"]
