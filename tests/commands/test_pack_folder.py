"""The pack folder is claimed like every run folder and written whole or not at all (issue 34, case 1 and 2).

Each refusal is planted and seen as one line naming the folder (exit 2, nothing of the user's touched),
each beside a near miss that must still work. The pack's contents are tests/commands/test_pack.py's; here a small
stand-in dict of files goes through the same `write_pack`, and `build --pack` is run only where it stops
before building anything.
"""
from __future__ import annotations

import errno
import json
import os

import pytest

from harness import cli
from harness.errors import OutputError
from harness.program.runs import pack
from harness.runtime import atomic


def files(version: int = 1) -> dict[str, bytes]:
    """A pack's files as make_pack gives them: the files, then the manifest that lists them."""
    out = {"a.tzx": b"ZXTape!\x1a" + bytes([version]), "b.z80": b"z80" * version, "readme.txt": b"readme"}
    entries = [pack.PackFile.of(n, d) for n, d in sorted(out.items())]
    out[pack.MANIFEST] = json.dumps({"tool": {}, "files": [vars(e) for e in entries]}).encode()
    return out


def contents(folder) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file() and not p.name.startswith(".")}


def users_folder(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "manifest.json").write_text('{"my": "own manifest"}')
    (folder / "notes.txt").write_text("my notes")
    return folder


def run(argv, capsys) -> tuple[int, str]:
    """The command as `cribbage-zx` runs it: its exit status and what it printed on stderr."""
    with pytest.raises(SystemExit) as done:
        cli.run(argv)
    return done.value.code, capsys.readouterr().err


@pytest.mark.parametrize("through_link", [False, True])
def test_build_pack_into_a_users_folder_is_refused_before_building(tmp_path, capsys, through_link):
    folder = users_folder(tmp_path)
    before = contents(folder)
    target = folder
    if through_link:
        target = tmp_path / "link"
        target.symlink_to(folder)
    code, err = run(["build", "-o", str(tmp_path / "t.tap"), "--pack", str(target)], capsys)
    assert code == 2 and err.count("\n") == 1
    assert err == (f"cribbage-zx build: --pack {target}: holds 2 entries that no cribbage-zx run wrote (manifest.json, "
                   f"notes.txt); choose a new or empty folder\n")
    assert contents(folder) == before and sorted(os.listdir(folder)) == ["manifest.json", "notes.txt"]
    assert not (tmp_path / "t.tap").exists()                          # refused before anything was written


def test_write_pack_refuses_a_users_folder_and_a_folder_of_another_command(tmp_path):
    folder = users_folder(tmp_path)
    with pytest.raises(OutputError, match="no cribbage-zx run wrote"):
        pack.write_pack(folder, files())
    assert sorted(os.listdir(folder)) == ["manifest.json", "notes.txt"]
    regress = tmp_path / "run"
    regress.mkdir()
    (regress / ".cribbage-zx-run").write_text('{"command": "regress", "state": "complete", "files": []}')
    with pytest.raises(OutputError, match=r"holds a `cribbage-zx regress` run, not a build --pack one"):
        pack.write_pack(regress, files())


def test_a_new_an_empty_and_an_earlier_pack_folder_are_taken(tmp_path):
    """The near misses: each becomes the new pack, whole."""
    new, empty = tmp_path / "new" / "pack", tmp_path / "empty"
    empty.mkdir()
    for folder in (new, empty):
        pack.write_pack(folder, files(1))
        assert contents(folder) == files(1) and pack.verify(folder) == []
    pack.write_pack(new, files(2))                                   # over an earlier pack of ours
    assert contents(new) == files(2) and pack.verify(new) == []
    assert sorted(os.listdir(tmp_path / "new")) == ["pack"]          # no temporary folder left beside it


def test_an_earlier_versions_pack_without_a_record_is_taken_and_a_changed_one_is_not(tmp_path):
    old = tmp_path / "old"
    old.mkdir()
    for name, data in files(1).items():
        (old / name).write_bytes(data)
    changed = tmp_path / "changed"
    changed.mkdir()
    for name, data in files(1).items():
        (changed / name).write_bytes(data)
    (changed / "b.z80").write_bytes(b"someone's edit")
    with pytest.raises(OutputError, match="holds 4 entries that no cribbage-zx run wrote"):
        pack.write_pack(changed, files(2))
    assert (changed / "b.z80").read_bytes() == b"someone's edit" and not (changed / ".lock").exists()
    pack.write_pack(old, files(2))
    assert contents(old) == files(2)


def test_a_users_file_beside_an_earlier_pack_is_kept_and_one_in_the_way_is_refused(tmp_path):
    folder = tmp_path / "pack"
    pack.write_pack(folder, files(1))
    (folder / "my-notes.txt").write_text("kept")
    pack.write_pack(folder, files(2))
    assert (folder / "my-notes.txt").read_text() == "kept" and pack.verify(folder) == [
        f"{folder / 'my-notes.txt'}: not in the manifest"]
    (folder / "extra.txt").write_text("mine, and a new pack has one too")
    with pytest.raises(OutputError, match=r"holds extra.txt, which no cribbage-zx run wrote"):
        pack.write_pack(folder, {**files(3), "extra.txt": b"ours"})
    assert (folder / "extra.txt").read_text() == "mine, and a new pack has one too"
    assert contents(folder)["b.z80"] == files(2)["b.z80"]


def test_a_full_disk_leaves_the_earlier_pack_whole(tmp_path, monkeypatch):
    folder = tmp_path / "pack"
    pack.write_pack(folder, files(1))
    before = contents(folder)
    real, written = atomic.write_bytes, []

    def fill_up(path, data):
        if len(written) == 2:
            raise OutputError(errno.ENOSPC, f"{path}: cannot write it: {os.strerror(errno.ENOSPC)}")
        written.append(path)
        real(path, data)

    monkeypatch.setattr(atomic, "write_bytes", fill_up)
    with pytest.raises(OutputError) as refused:
        pack.write_pack(folder, files(2))
    assert str(refused.value).startswith(f"{folder}: the new pack could not be written (readme.txt: ")
    assert str(refused.value).endswith(": No space left on device); the earlier one is as it was")
    assert contents(folder) == before and pack.verify(folder) == []
    assert sorted(os.listdir(tmp_path)) == ["pack"]                  # the half-made folder is gone


def test_check_pack_finds_a_changed_file_and_passes_a_pack_as_written(tmp_path, capsys):
    folder = tmp_path / "pack"
    pack.write_pack(folder, files(1))
    assert run(["build", "--check-pack", str(folder)], capsys) == (0, "")
    (folder / "b.z80").write_bytes(b"changed")
    code, err = run(["build", "--check-pack", str(folder)], capsys)
    assert code == 2
    assert err.splitlines() == [f"{folder / 'b.z80'}: differs from the manifest's size or checksums",
                                f"cribbage-zx: {folder}: 1 problem against manifest.json (listed above); the pack "
                                f"is not as it was written"]
    code, err = run(["build", "--check-pack", str(tmp_path / "none")], capsys)
    assert (code, err) == (2, f"cribbage-zx build: --check-pack {tmp_path / 'none'}: no such folder\n")


def test_check_pack_refuses_a_manifest_that_is_not_one(tmp_path, capsys):
    folder = tmp_path / "pack"
    folder.mkdir()
    (folder / "manifest.json").write_text("[" * 100_000)
    code, err = run(["build", "--check-pack", str(folder)], capsys)
    assert (code, err) == (2, f"cribbage-zx build: --check-pack {folder}: its manifest.json is unreadable (not JSON "
                              f"this tool reads: nested more than 100 deep)\n")
    (folder / "manifest.json").write_text('{"files": [{"name": "x"}]}')
    code, err = run(["build", "--check-pack", str(folder)], capsys)
    assert code == 2 and "files[0].size: missing (not a pack manifest)" in err
