"""The pack read by outside tools: its files under TOSEC names (git), its recording read by rzxdump, its archive info and hardware blocks by tzxlist."""
from __future__ import annotations

import hashlib
import json
import re
import zlib
from pathlib import Path

import subprocess

import pytest

from harness.program.runs import pack
from harness.spectrum.rzx import read_rzx
from rzx_game import recorded_game
from helpers import EN_TZX, LISTED, RU_TZX, RZX
from helpers import ROOT, run_tool, tool


def tzxlist(path: Path) -> str:
    return run_tool(tool("tzxlist"), path)


def test_the_pack_has_its_files_under_tosec_names(pack_dir):
    assert sorted(p.name for p in pack_dir.iterdir() if not p.name.startswith(".")) == sorted(
        LISTED + ["manifest.json"])
    assert [p.name for p in pack_dir.iterdir() if p.name.startswith(".")] == [".cribbage-zx-run"]


def test_the_manifest_holds_each_files_size_and_checksums_and_the_tool_that_made_them(pack_dir):
    manifest = json.loads((pack_dir / "manifest.json").read_text())
    entries = manifest["files"]
    assert sorted(e["name"] for e in entries) == sorted(LISTED)
    for e in entries:
        data = (pack_dir / e["name"]).read_bytes()
        assert (e["size"], e["crc32"], e["md5"], e["sha1"], e["sha256"]) == (
            len(data), f"{zlib.crc32(data):08x}", hashlib.md5(data).hexdigest(), hashlib.sha1(data).hexdigest(),
            hashlib.sha256(data).hexdigest())
    assert pack.verify(pack_dir) == []
    tool = manifest["tool"]
    version = re.search(r'^__version__ = "(.+)"$', (ROOT / "harness" / "__init__.py").read_text(), re.M).group(1)
    git = lambda *a: subprocess.run(["git", "-C", str(ROOT), *a], capture_output=True, text=True,  # noqa: E731
                                    check=True).stdout.strip()
    assert (tool["name"], tool["version"]) == ("cribbage-zx", version)
    assert tool["commit"] == git("rev-parse", "HEAD") and re.fullmatch(r"[0-9a-f]{40}", tool["commit"])
    assert tool["date"] == git("log", "-1", "--format=%cI") and isinstance(tool["modified"], bool)


@pytest.mark.parametrize("name, language", [(RU_TZX, "Russian"), (EN_TZX, "English (translated from the Russian)")])
def test_tzxlist_reads_the_archive_info_and_hardware_blocks(pack_dir, name, language):
    out = tzxlist(pack_dir / name)
    assert "Block type 0x32 (Archive Info)" in out and "Block type 0x33 (Hardware Information)" in out
    assert re.search(r"Full Title: Kribedzh\n", out) and re.search(r"Origin: Type-in\n", out)
    assert f"Language: {language}\n" in out
    assert "Publisher: Russian-language magazine, name not on the scan" in out
    assert "48K Spectrum/Spectrum +: runs" in out
    assert out.count("Block type 0x10 (Standard Speed Data)") == 4 and "Checksum" in out and "FAIL" not in out


def test_the_packs_recording_is_regress_game_0_and_rzxdump_reads_it(pack_dir):
    data = (pack_dir / RZX).read_bytes()
    assert data == recorded_game().rzx
    assert f"Frame count: {len(read_rzx(data).frames)}" in run_tool(tool("rzxdump"), pack_dir / RZX)
