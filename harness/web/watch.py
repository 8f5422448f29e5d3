"""Watch mode on report.html's game pages: the player block (harness/edition/watch_page.py's `Player`).

A game the run recorded (`regress --rzx`: game-NNN.rzx and game-NNN.frames.json) gets, on its page, the
WebAssembly core, the ROM and the RZX embedded in base64 (as play.html embeds its tapes, so the page works
from file://), spectrum.js's RzxReplay playing it, and each judgement of the game's stored records
(harness/edition/watch_page.py's watch_entries) shown beside the screen when the replay reaches its action's frame.
"""
from __future__ import annotations

import json
from pathlib import Path

from ..edition.report import EDITION_DIR
from ..edition.watch_page import Player, Watch
from ..errors import InputError
from ..play.session import FLASH_FRAMES
from ..resources import ROM
from ..spectrum.rzx import read_rzx
from . import build as wasm_build
from .page import HERE, b64, web_templates


def watch_block(watch: Watch, module: bytes | None = None) -> str:
    """The game page's player: markup, the payload and the scripts."""
    module = module if module is not None else wasm_build.module_bytes()
    try:
        data = watch.rzx.read_bytes()
    except OSError as exc:
        raise InputError(f"{watch.rzx}: {exc.strerror}") from None
    frames = len(read_rzx(data, str(watch.rzx)).frames)           # an InputError naming the file
    payload = {"wasm": b64(module), "rom": b64(ROM.read_bytes()), "rzx": b64(data),
               "entries": watch.entries, "flash_frames": FLASH_FRAMES, "edition": EDITION_DIR,
               "rzx_name": Path(watch.rzx).name, "event_frames": watch.event_frames,
               "belongs": watch.belongs}          # the page's game: watch.js refuses a recording of another
    return web_templates().get_template("watch.html").render(
        payload=json.dumps(payload, ensure_ascii=True, separators=(",", ":")).replace("</", "<\\/"),
        script=(HERE / "static" / "spectrum.js").read_text(encoding="utf-8"),
        watch=(HERE / "static" / "watch.js").read_text(encoding="utf-8"),
        style=(HERE / "static" / "watch.css").read_text(encoding="utf-8"),
        game=watch.game, rzx_name=Path(watch.rzx).name, frames=frames, rule_sets=watch.rule_sets)


def report_player() -> tuple[Player | None, str | None]:
    """The watch block maker for write_report_html, or (without the WebAssembly core) None and the one-line
    reason the game pages have no player."""
    try:
        module = wasm_build.module_bytes()
    except wasm_build.BuildProblem as exc:
        return None, f"the game pages have no watch mode: the WebAssembly core is not built ({exc})"
    return (lambda watch: watch_block(watch, module)), None
