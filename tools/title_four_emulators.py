"""docs/figures/title-four-emulators.png: the title of cribbage.tap in Fuse, zx, MAME and our machine, side by side.

Each picture is the emulator's own: Fuse's window under Xvfb (xwd, as tests/oracles/emulators/test_fuse.py takes it), zx's
frame buffer (`get_frame_pixels`, headless), MAME's snapshot (`video:snapshot` under -video none), and our
machine's `render`. Run: .venv/bin/python -m tools.title_four_emulators [OUT.png]   (a few minutes: zx and
MAME play the tape in emulated time)
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from harness.program.model import build
from harness.program.model.program import ASK_INSTRUCTIONS
from harness.oracle import emulators
from harness.spectrum.screen import render
from tools import import_oracle_helpers

ROOT = Path(__file__).resolve().parent.parent

SIZE = (320, 240)           # each picture scaled to Fuse's window size (border included)


def fuse_title(workdir: Path, tape: Path, ours: bytes) -> np.ndarray:
    from test_emulators import rows
    from test_fuse import BORDER_X, BORDER_Y, Fuse, pixel_rows
    with Fuse(workdir, ["--auto-load", "--tape", tape.name], [ASK_INSTRUCTIONS], None) as fuse:
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline:
            if ASK_INSTRUCTIONS in fuse.lines():
                shot = fuse.screenshot()
                if pixel_rows(shot[BORDER_Y:BORDER_Y + 192, BORDER_X:BORDER_X + 256], ours) == rows(ours, ours):
                    return shot
            time.sleep(1)
    raise SystemExit("Fuse did not show the title within 600 s")


def main(out: Path) -> None:
    import_oracle_helpers()
    from test_emulators import our_title
    work = Path(tempfile.mkdtemp(prefix="cribbage-title-"))
    tap = build.build().tap
    tape = work / "cribbage.tap"
    tape.write_bytes(tap)
    ours = our_title(tap)
    pictures = {"Fuse 1.6 (fuse-sdl, Xvfb)": fuse_title(work, tape, ours)}
    zx = emulators.zx_title(tape)
    assert zx.memory[0x4000:0x5800] == ours[0x4000:0x5800], "zx's title differs from ours"
    px = np.frombuffer(zx.pixels, np.uint8).reshape(280, 352, 4)[:, :, :3]
    pictures["zx 0.13 (kosarev, headless)"] = px
    mame_dir = work / "mame"
    mame_dir.mkdir()
    mame = emulators.mame_title(tape, ROOT / "roms" / "48.rom", mame_dir)
    assert mame.memory[0x4000:0x5800] == ours[0x4000:0x5800], "MAME's title differs from ours"
    pictures["MAME 0.251 (spectrum, -video none)"] = np.asarray(Image.open(mame.png).convert("RGB"))
    pictures["ours (harness/spectrum)"] = render(ours, border=4)
    for i, (name, pic) in enumerate(pictures.items()):
        Image.fromarray(np.ascontiguousarray(pic)).save(work / f"picture-{i}.png")
    print(f"the four pictures: {work}/picture-*.png")
    label_h = 18
    sheet = Image.new("RGB", (SIZE[0] * len(pictures) + 8 * (len(pictures) - 1), SIZE[1] + label_h), "white")
    draw = ImageDraw.Draw(sheet)
    for i, (name, pic) in enumerate(pictures.items()):
        x = i * (SIZE[0] + 8)
        sheet.paste(Image.fromarray(np.ascontiguousarray(pic)).resize(SIZE, Image.NEAREST), (x, label_h))
        draw.text((x + 4, 3), name, fill="black")
    sheet.save(out)
    print(f"wrote {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "figures" / "title-four-emulators.png")
