"""The golden screens: the same fixed-seed game shows, byte for byte, the stored screen at every named
moment (the CRC32 of its 6,912 bytes), and each stored PNG is the picture of its stored screen.
Regenerate with `.venv/bin/python -m tools.golden_screens` (docs/golden/README.md)."""
import checkout
import io
import json
import zlib

import numpy as np
import pytest
from PIL import Image

from tools import golden_screens as G

ROOT = checkout.ROOT
INDEX = json.loads((ROOT / "tests" / "data" / "golden" / "golden.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def shots():
    return G.capture(INDEX["seed"], INDEX["strategy"])


def test_every_named_moment_has_a_stored_screen_its_crc_and_a_png():
    assert set(INDEX["screens"]) == set(G.MOMENTS) >= {"welcome", "cut", "discard", "show", "final-board", "tally"}
    for name, entry in INDEX["screens"].items():
        scr = (ROOT / "tests" / "data" / "golden" / f"{name}.scr").read_bytes()
        assert len(scr) == 6912 and f"{zlib.crc32(scr):08x}" == entry["crc32"], name
        png = np.asarray(Image.open(ROOT / "docs" / "golden" / f"{name}.png").convert("RGB"))
        assert (png == np.asarray(Image.open(io.BytesIO(G.png_bytes(scr))).convert("RGB"))).all(), name
    readme = (ROOT / "docs" / "golden" / "README.md").read_text(encoding="utf-8")
    assert readme == G.index_markdown(INDEX["screens"])


def test_the_game_shows_the_golden_screens_again(shots):
    for name, entry in INDEX["screens"].items():
        assert f"{zlib.crc32(shots[name]):08x}" == entry["crc32"], (
            f"{name}: the screen changed; look at it and run python -m tools.golden_screens if that is meant")

