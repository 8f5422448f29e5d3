"""`build --check-pack` given a listed file replaced by a symbolic link to the very same bytes (issue 51): a
pack is the files it lists, and a link is not one of them (a later change behind the link would change the
pack unseen). The near miss: the file replaced by a copy of the same bytes, and by a hard link, both files.
A small stand-in pack goes through `write_pack` (no emulator)."""
from __future__ import annotations

import json
import os

import pytest

from harness import cli
from harness.program.runs import pack


def _files() -> dict[str, bytes]:
    out = {"a.tzx": b"ZXTape!\x1a\x01", "b.z80": b"z80z80", "readme.txt": b"readme"}
    entries = [pack.PackFile.of(n, d) for n, d in sorted(out.items())]
    out[pack.MANIFEST] = json.dumps({"tool": {}, "files": [vars(e) for e in entries]}).encode()
    return out


def _check(folder, capsys) -> tuple[int, list[str]]:
    with pytest.raises(SystemExit) as done:
        cli.run(["build", "--check-pack", str(folder)])
    return done.value.code, capsys.readouterr().err.splitlines()


def test_a_listed_file_replaced_by_a_link_to_the_same_bytes_is_found(tmp_path, capsys):
    folder = tmp_path / "pack"
    pack.write_pack(folder, _files())
    elsewhere = tmp_path / "elsewhere.z80"
    elsewhere.write_bytes(b"z80z80")                      # the listed bytes, byte for byte
    (folder / "b.z80").unlink()
    (folder / "b.z80").symlink_to(elsewhere)
    assert pack.verify(folder) == [f"{folder / 'b.z80'}: listed in the manifest, missing"]
    code, err = _check(folder, capsys)
    assert code == 2 and err[0] == f"{folder / 'b.z80'}: listed in the manifest, missing"
    assert err[1].startswith(f"cribbage-zx: {folder}: 1 problem against manifest.json") and len(err) == 2
    # a link to a file of the pack itself is no better
    (folder / "b.z80").unlink()
    (folder / "copy").write_bytes(b"z80z80")
    (folder / "b.z80").symlink_to("copy")
    assert f"{folder / 'b.z80'}: listed in the manifest, missing" in pack.verify(folder)


@pytest.mark.parametrize("how", ["copy", "hard link"])
def test_near_miss_the_same_bytes_as_a_file_pass(tmp_path, capsys, how):
    folder = tmp_path / "pack"
    pack.write_pack(folder, _files())
    elsewhere = tmp_path / "elsewhere.z80"
    elsewhere.write_bytes(b"z80z80")
    (folder / "b.z80").unlink()
    if how == "copy":
        (folder / "b.z80").write_bytes(elsewhere.read_bytes())
    else:
        os.link(elsewhere, folder / "b.z80")
    assert pack.verify(folder) == []
    assert _check(folder, capsys) == (0, [])
