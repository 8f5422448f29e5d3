"""A folder written whole (harness/atomic.py's replacing_folder): the new one or the old one, never half of either.

The file counterpart (replacing, write_bytes, write_json) is tested in test_build_refusals.py and test_probes.py.
"""
from __future__ import annotations

import errno
import os

import pytest

from harness.errors import OutputError
from harness.runtime import atomic


def _tree(folder):
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def test_a_folder_is_replaced_whole_and_nothing_is_left_beside_it(tmp_path):
    target = tmp_path / "listing"
    target.mkdir()
    (target / "old.html").write_text("old")
    with atomic.replacing_folder(target) as fresh:
        assert fresh.parent == tmp_path and fresh != target
        assert (target / "old.html").exists()           # untouched while the new one is built
        (fresh / "index.html").write_text("new")
    assert _tree(target) == ["index.html"]
    assert _tree(tmp_path) == ["listing", "listing/index.html"]


def test_a_folder_that_did_not_exist_is_made(tmp_path):
    target = tmp_path / "sub" / "listing"
    with atomic.replacing_folder(target) as fresh:
        (fresh / "a").write_text("a")
    assert (target / "a").read_text() == "a"
    assert _tree(tmp_path / "sub") == ["listing", "listing/a"]


def test_a_build_that_fails_leaves_the_old_folder_and_no_sibling(tmp_path):
    target = tmp_path / "listing"
    target.mkdir()
    (target / "old.html").write_text("old")
    with pytest.raises(RuntimeError, match="template broke"):
        with atomic.replacing_folder(target) as fresh:
            (fresh / "half.html").write_text("half")
            raise RuntimeError("template broke")
    assert _tree(tmp_path) == ["listing", "listing/old.html"]


def test_a_swap_that_fails_puts_the_old_folder_back_and_names_the_folder(tmp_path, monkeypatch):
    target = tmp_path / "listing"
    target.mkdir()
    (target / "old.html").write_text("old")
    real = os.replace
    calls = []

    def second_fails(src, dst):
        calls.append((src, dst))
        if len(calls) == 2:                              # old moved aside; now the new one refuses to move in
            raise OSError(errno.EACCES, "Permission denied")
        return real(src, dst)
    monkeypatch.setattr(os, "replace", second_fails)
    with pytest.raises(OutputError, match=f"^{target}: cannot write it: Permission denied$"):
        with atomic.replacing_folder(target) as fresh:
            (fresh / "index.html").write_text("new")
    monkeypatch.undo()
    assert _tree(tmp_path) == ["listing", "listing/old.html"]


def test_a_file_in_the_way_is_refused_by_name(tmp_path):
    target = tmp_path / "listing"
    target.write_text("not a folder")
    with pytest.raises(OutputError, match=f"^{target}: is a file, not a folder$"):
        with atomic.replacing_folder(target):
            pass
    assert target.read_text() == "not a folder"
    assert _tree(tmp_path) == ["listing"]


# ------------------------------------------------------------------ JSON Lines: the one form of every .jsonl
def test_json_lines_are_one_record_a_line_keys_sorted_non_ascii_kept():
    assert atomic.json_lines([{"who": "компьютер", "kind": "go"}, {"b": [1, 2], "a": None}]) == (
        '{"kind": "go", "who": "компьютер"}\n{"a": null, "b": [1, 2]}\n')
    assert atomic.json_lines([]) == ""
    assert atomic.json_lines([{"z": {"y": 1, "x": 2}}]) == '{"z": {"x": 2, "y": 1}}\n'      # sorted all the way down


def test_a_json_lines_file_is_written_whole_as_utf8(tmp_path, monkeypatch):
    path = tmp_path / "game-000.jsonl"
    atomic.write_json_lines(path, [{"kind": "header", "schema": 1}, {"text": "ВАШ ХОД"}])
    assert path.read_bytes() == '{"kind": "header", "schema": 1}\n{"text": "ВАШ ХОД"}\n'.encode("utf-8")

    def disk_full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(OutputError, match=f"^{path}: cannot write it: No space left on device$"):
        atomic.write_json_lines(path, [{"kind": "other"}])
    monkeypatch.undo()
    assert path.read_text(encoding="utf-8").endswith('{"text": "ВАШ ХОД"}\n')
    assert [p.name for p in tmp_path.iterdir()] == ["game-000.jsonl"]


def test_a_folder_written_whole_is_readable_by_others_as_mkdir_makes_one(tmp_path):
    """mkdtemp makes its folder 0700; the swapped-in folder gets what mkdir would have given it (the run's
    listing/ must open for anyone who can read the run folder around it)."""
    beside = tmp_path / "made-by-mkdir"
    beside.mkdir()
    target = tmp_path / "listing"
    with atomic.replacing_folder(target) as fresh:
        assert os.stat(fresh).st_mode & 0o777 == 0o700     # private while it is built
        (fresh / "index.html").write_text("new")
    assert os.stat(target).st_mode & 0o777 == os.stat(beside).st_mode & 0o777
    if os.stat(beside).st_mode & 0o005:                    # a umask that lets others read (022, 002)
        assert os.stat(target).st_mode & 0o005 == 0o005
