"""A regress game's screenshots as files: encoded in the worker (PNGs at twice the size, a GIF of every
action's frame), written by the parent. Kilobytes rather than the megabytes of raw pixels, which matters when
a result crosses a network (Dask)."""
from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ...runtime import atomic
from ..observe.driver import Screenshot
import numpy as np
from ...spectrum.screen import PALETTE

if TYPE_CHECKING:                           # typing only: Pillow is imported when a game's screens are encoded
    from PIL.Image import Image


@dataclass
class Screens:
    """A game's screenshots, encoded in the worker: named PNGs, and the GIF of every action's frame."""
    pngs: list[tuple[str, bytes]]
    gif: bytes | None


def encode_screens(screens: list[Screenshot]) -> Screens:
    """The game's screenshots as files: PNGs (twice the size, named in order) and, for the frames of every
    action, a GIF."""
    from PIL import Image  # lazy: Pillow's Image (10 ms) only when screenshots are written
    pngs, frames = [], []
    for n, (label, pixels) in enumerate(screens):
        img = palette_image(Image.fromarray(pixels, "RGB"))   # no quantising: the 16 colours are known
        if label == "action":
            frames.append(img)
            continue
        buf = io.BytesIO()                 # a palette PNG: the same pixels, in about half the bytes and CPU
        img.resize((img.width * 2, img.height * 2), Image.Resampling.NEAREST).save(buf, format="PNG")
        pngs.append((f"{n:03d}-{label.replace(' ', '-')}.png", buf.getvalue()))
    gif = None
    if frames:
        buf = io.BytesIO()
        frames[0].save(buf, format="GIF", save_all=True, append_images=frames[1:], duration=400, loop=0)
        gif = buf.getvalue()
    return Screens(pngs, gif)


def palette_image(img: Image) -> Image:
    """A screenshot (RGB, the Spectrum's 16 colours only) as a palette image indexed like screen.PALETTE."""
    from PIL import Image as PILImage  # lazy: Pillow's Image (10 ms) only when screenshots are written
    rgb = np.asarray(img)
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    index = ((r == 0xFF) | (g == 0xFF) | (b == 0xFF)) * 8 + (g > 0) * 4 + (r > 0) * 2 + (b > 0)
    out = PILImage.fromarray(index.astype(np.uint8), "P")
    out.putpalette(PALETTE.tobytes())
    return out


def write_screens(out: Path, index: int, screens: Screens | None) -> None:
    """Game *index*'s PNGs (in its folder, made even when there are none) and its GIF, each file written
    atomically."""
    name = f"game-{index:03d}"
    shots = out / name
    shots.mkdir(exist_ok=True)
    if screens is None:
        return
    for filename, data in screens.pngs:
        atomic.write_bytes(shots / filename, data)
    if screens.gif:
        atomic.write_bytes(out / f"{name}.gif", screens.gif)
