"""The preservation pack (`cribbage-zx build --pack`): TZX archive-info and hardware blocks as Debian's tzxlist
reads them, the title-screen snapshots, the recorded game, and the manifest's checksums (and docs/PACK.md's)."""
from __future__ import annotations

import hashlib
import json
import re
import shutil


import numpy as np
import pytest

from harness.errors import InputError
from harness.program.runs import pack
from harness.spectrum import tzx, z80snap
from harness.spectrum.rom import load_rom
from harness.spectrum.rzx import read_rzx
from harness.spectrum.charset import koi7_char
from harness.spectrum.screen import read_screen
from rzx_game import recorded_game
from helpers import EN_Z80, LISTED, PNG, RU_Z80, RZX, SOURCES
from helpers import ROOT, WELCOME
from tools.write_pack_doc import page_with_table, table_of

WELCOME_EN = ("WELCOME", "NEED INSTRUCTIONS? (Y/N):")


def test_the_sources_are_in_the_pack_as_text(pack_dir):
    for name, source in zip(SOURCES, ["cribbage.bas", "chr_font.txt", "translation.tsv"]):
        assert (pack_dir / name).read_bytes() == (ROOT / "basic" / source).read_bytes()


def test_the_readme_tells_an_archivist_every_file_the_rom_and_how_to_replay(pack_dir):
    readme = (pack_dir / "readme.txt").read_text(encoding="utf-8")
    assert readme.isascii() is False and "КРИБЕДЖ" in readme          # UTF-8 text, the title as printed
    lines = readme.splitlines()
    for name in LISTED:
        if name != "readme.txt":
            assert name in lines, f"readme.txt has no paragraph on {name}"
    tool = json.loads((pack_dir / "manifest.json").read_text())["tool"]
    assert f"commit {tool['commit']}" in readme and tool["date"] in readme and tool["version"] in readme
    assert hashlib.sha256((ROOT / "roms" / "48.rom").read_bytes()).hexdigest() in readme
    frames = len(read_rzx((pack_dir / RZX).read_bytes()).frames)
    minutes, seconds = divmod(round(frames / 50), 60)
    assert f"({frames} frames: {minutes} min {seconds:02d} s at 50 frames a second)" in " ".join(readme.split())
    assert f'fuse-sdl --machine 48 --rom-48 48.rom --playback "{RZX}"' in readme
    assert '"RZX frame is longer than 79000 tstates"' in readme and "press Return" in readme


def test_the_png_beside_the_recording_is_our_screen_where_it_ends(pack_dir):
    from PIL import Image
    from harness.spectrum.screen import render
    game = recorded_game()
    with Image.open(pack_dir / PNG) as img:
        shown = np.asarray(img.convert("RGB"))
    assert shown.shape == (512, 640, 3)
    assert np.array_equal(shown, render(game.memory, border=game.end.border, scale=2))
    assert not np.array_equal(shown, render(game.memory[:0x4000] + bytes(0x1B00) + game.memory[0x5B00:],
                                            border=game.end.border, scale=2))


def test_verify_finds_a_changed_byte_a_missing_file_and_a_stray_one(pack_dir, tmp_path):
    copy = tmp_path / "pack"
    shutil.copytree(pack_dir, copy)
    data = bytearray((copy / RU_Z80).read_bytes())
    data[100] ^= 1
    (copy / RU_Z80).write_bytes(bytes(data))
    (copy / EN_Z80).unlink()
    (copy / "extra.txt").write_text("x")
    problems = pack.verify(copy)
    assert len(problems) == 3
    assert any(RU_Z80 in p and "differs" in p for p in problems)
    assert any(EN_Z80 in p and "missing" in p for p in problems)
    assert any("extra.txt" in p and "not in the manifest" in p for p in problems)


def test_the_archive_info_block_refuses_what_tzx_cannot_hold():
    """The TZX format's texts are ASCII: the Cyrillic title is refused, its transliteration is not."""
    with pytest.raises(InputError, match="ASCII"):
        tzx.archive_info([("title", pack.TITLE_RU)])
    assert tzx.archive_info([("title", pack.TITLE)])[3:] == b"\x01\x00\x08Kribedzh"
    with pytest.raises(InputError, match="256 bytes"):
        tzx.archive_info([("comment", "x" * 256)])
    assert tzx.hardware_type([(0, 1, 0)]) == b"\x33\x01\x00\x01\x00"


@pytest.mark.parametrize("name, welcome", [(RU_Z80, WELCOME), (EN_Z80, WELCOME_EN)])
def test_the_snapshots_show_the_title_screen(pack_dir, name, welcome):
    memory = z80snap.read_z80(pack_dir / name).memory(load_rom(None))
    rows = read_screen(memory, font_text=koi7_char).rows
    assert all(any(text in row for row in rows) for text in welcome)


def test_the_pack_page_lists_the_packs_files_with_their_checksums(pack_dir):
    page = (ROOT / "docs" / "PACK.md").read_text(encoding="utf-8")
    assert page_with_table(page, table_of(pack_dir)) == page, \
        "docs/PACK.md's table is stale: run python -m tools.write_pack_doc"


def test_a_stale_pack_page_is_told_apart(pack_dir):
    page = (ROOT / "docs" / "PACK.md").read_text(encoding="utf-8")
    stale = page.replace("| `Kribedzh", "| `Kribedz", 1)     # planted: a file's name off by a letter
    assert stale != page and page_with_table(stale, table_of(pack_dir)) == page


def test_the_tzx_comment_stands_alone():
    """A TZX travels without the pack and the repository: its comment names no file of either."""
    for lang in ("ru", "en"):
        comment = dict(pack.archive_texts(lang))["comment"]
        assert "cribbage-zx" in comment and "Cribbage" in comment
        assert not re.search(r"\b[\w-]+/[\w./-]+|\.(md|txt|bas|py)\b", comment), comment
