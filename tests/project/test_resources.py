"""harness.resources: in a checkout the data files are the top-level basic/ and roms/ themselves (the one
copy), and outputs default under the current directory. (tests/test_wheel.py covers the installed case.)"""
from __future__ import annotations

import checkout
from pathlib import Path

import pytest

from harness.errors import InputError
from harness import resources
from harness.program.model.build import DEFAULT_TAP
from harness.spectrum import font, rom

ROOT = checkout.ROOT


def test_a_checkout_uses_the_top_level_files():
    assert resources.LISTING == ROOT / "basic" / "cribbage.bas"
    assert resources.FONT == ROOT / "basic" / "chr_font.txt"
    assert resources.ROM == ROOT / "roms" / "48.rom"
    assert resources.BENCH_PROGRAM == ROOT / "harness" / "data" / "bench.bas"
    assert rom.DEFAULT_ROM == resources.ROM and font.DEFAULT_PATH == resources.FONT
    for path in (resources.LISTING, resources.FONT, resources.ROM, resources.BENCH_PROGRAM):
        assert path.is_file(), path


def test_the_tape_is_written_under_the_current_directory():
    assert DEFAULT_TAP == Path("build") / "cribbage.tap" and not DEFAULT_TAP.is_absolute()


@pytest.mark.parametrize("bad", ["docs/DEVIATIONS.md", "basic", "basic/", "../roms/48.rom",
                                 "basic/../roms/48.rom"])
def test_only_files_under_basic_and_roms_are_asked_for(bad):
    with pytest.raises(InputError, match="not a file under basic/ or roms/"):
        resources.data_path(bad)


def test_a_nested_resource_keeps_its_folders():
    assert resources.data_path("basic/ocr/listing.txt") == ROOT / "basic" / "ocr" / "listing.txt"
