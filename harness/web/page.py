"""play.html: «КРИБЕДЖ» on the WebAssembly core in the page, the listing and the variables beside the screen.

One file that works from file:// and from any static host: the module, the ROM and both tapes (Russian
and English, built by harness/program/model/build.py) are embedded in base64, with the facts the page needs from
the program model and the play window exported as JSON (the key map, the waits' English status lines,
the lines of the turbo rule, the seed line) so they have one source, the Python. Nothing is fetched.
"""
from __future__ import annotations

import base64
import html
import json
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import jinja2

from ..errors import InputError, OutputError
from ..program.model import program as P
from ..play import session as play_session
from ..play.keymap import GAME_KEYS, HOST_KEYS, MIN_HOLD, WINDOW_KEYS
from ..play.record import HASH_CHARS, tape_digest
from ..play.translate import RANK_LEGEND, screen_texts
from ..play.waits import IGNORED_GO, RUNNING, SELECTOR_CALLERS, STATUS, TOUCH_BY_KIND, TOUCH_COMBOS, TOUCH_KEYS, status_text
from ..resources import LISTING, ROM, data_path
from ..runtime import atomic
from ..spectrum.keyboard import KEY_POSITIONS
from . import build as wasm_build
from ..spectrum.screen import BLOCK_TEXT, DEFAULT_UDG_TEXT, ROM_CHARS, ROM_FONT, UNKNOWN, _block_glyph
from ..spectrum.charset import koi7_char, rom_char
from ..program.model.english import read_table
from ..program.model.build import build

HERE = Path(__file__).resolve().parent
PAGE_NAME = "play.html"
TAPES = (("ru", "Russian: the magazine's listing"), ("en", "English edition"))


@dataclass(frozen=True)
class Written:
    """What write_play_page wrote: the page, or why it could not (one line), and the page's bytes."""
    path: Path | None
    problem: str | None
    size: int = 0


def facts() -> dict[str, object]:
    """What the page's script knows of the Spectrum's keyboard, the play window and the program, as JSON."""
    return {
        "key_positions": {k: list(v) for k, v in KEY_POSITIONS.items()},
        "host_keys": HOST_KEYS,
        "min_hold": MIN_HOLD,
        "seed_line": play_session.SEED_LINE,
        "at_message": list(P.AT_MESSAGE),
        "at_dealt": list(P.AT_DEALT),
        "message_frames": play_session.MESSAGE_READ_FRAMES,
        "reading_time": sorted(play_session.READING_TIME),     # what "No reading time" runs unpaced too
        "demo_lines": list(P.DEMO_LINES),
        "flash_frames": play_session.FLASH_FRAMES,
        "selector_waits": list(P.SELECTOR_WAITS),
        "status": {str(line): status_text(line) for line in STATUS},
        "selector_status": {str(c): status_text(P.SELECTOR_WAITS[0], c) for c in SELECTOR_CALLERS},
        "running": RUNNING,
        # ENTER on an empty slot under a count of 22, ignored by 2742: the status line says why (waits.py)
        "ignored_go": {"text": IGNORED_GO,          # "{count}" is the count
                       "threshold": P.GO_THRESHOLD, "select_play": P.SELECT_PLAY,
                       "keys_held": P.SELECTOR_KEYS_HELD, "count": P.V_COUNT, "pointer": P.V_POINTER,
                       "held": P.V_HELD},
        "touch_keys": {str(line): list(keys) for line, keys in TOUCH_KEYS.items()},
        "touch_by_kind": {kind: list(keys) for kind, keys in TOUCH_BY_KIND.items()},
        "touch_combos": TOUCH_COMBOS,
        "hash_chars": HASH_CHARS,
        "game_variables": [P.V_COUNT, P.V_TOTALS, P.V_GAMES, P.V_DEALER, P.V_MUGGINS, *P.HAND_PLAYER,
                           *P.HAND_COMPUTER, *P.HAND_CRIB],
        "rank_legend": RANK_LEGEND,
        **glyph_facts(),
    }


def glyph_facts() -> dict[str, object]:
    """What the page's screen reader needs (screen.py's glyph_table, in its order): what each code of the
    program's font (KOI-7) and the ROM's stands for, the ROM font's and the block graphics' glyphs, the UDGs'."""
    rom = ROM.read_bytes()
    return {
        "font_text": [koi7_char(c) for c in range(32, 128)],
        "rom_glyphs": [[rom[ROM_FONT + 8 * i:ROM_FONT + 8 * i + 8].hex(), rom_char(32 + i)] for i in range(96)],
        "udg_text": [P.UDG_TEXT.get(144 + i, DEFAULT_UDG_TEXT[144 + i]) for i in range(21)],
        "block_glyphs": [[_block_glyph(code).hex(), BLOCK_TEXT[code - 0x80]] for code in range(0x80, 0x90)],
        "rom_chars": ROM_CHARS, "unknown": UNKNOWN,
    }


@lru_cache(maxsize=2)
def tape_texts(lang: str) -> list[list[str]]:
    """The tape's Russian texts with their English, as the window's panel pairs them (none on the English tape)."""
    return texts_of(build(lang=lang).program)


def texts_of(program: bytes) -> list[list[str]]:
    """A tokenised program's Russian texts and their English: [russian as the screen shows it, english]."""
    return [[t.russian, t.english] for t in screen_texts(program)]


def listing_lines(path: Path = LISTING) -> list[tuple[int, str]]:
    """The listing's lines (number, text after the number), as basic/cribbage.bas holds them."""
    out = []
    for i, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        head, _, rest = raw.strip().partition(" ")
        if not head:
            continue
        if not head.isdigit():
            raise InputError(f"{path}:{i}: not a numbered line: {raw[:40]!r}")
        out.append((int(head), rest))
    return out


def english_listing(lines: list[tuple[int, str]]) -> dict[str, str]:
    """The lines the English edition changes, as it lists them: each literal of basic/translation.tsv replaced
    by its English in its line (the page shows these when the English tape is chosen)."""
    text = dict(lines)
    changed: dict[int, str] = {}
    for t in read_table():
        line = changed.get(t.line, text.get(t.line))
        if line is None or t.russian not in line:
            raise InputError(f"basic/translation.tsv: line {t.line}'s \"{t.russian}\" is not in the listing's line")
        quoted = f'"{t.russian}"'
        changed[t.line] = (line.replace(quoted, f'"{t.english}"', 1) if quoted in line
                           else line.replace(t.russian, t.english, 1))
    return {str(n): t for n, t in changed.items()}


def meanings() -> dict[str, str]:
    """basic/variables.toml: each variable's meaning, as the edition's memory map shows it."""
    path = data_path("basic/variables.toml")
    try:
        return {str(k): str(v) for k, v in tomllib.loads(path.read_text(encoding="utf-8")).items()}
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path}: {exc}") from exc


@lru_cache(maxsize=2)
def tape_bytes(lang: str) -> bytes:
    return build(lang=lang).tap


def web_templates() -> jinja2.Environment:
    """The pages' templates (harness/web/templates): play.html here, the watch block in watch.py."""
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(HERE / "templates")),
                              autoescape=jinja2.select_autoescape(["html"]), undefined=jinja2.StrictUndefined)


def b64(data: bytes) -> str:
    """Bytes embedded in a page (the module, the ROM, tapes, an RZX): base64 as ASCII text."""
    return base64.b64encode(data).decode("ascii")


def render_play_page(module: bytes, tapes: dict[str, bytes] | None = None) -> str:
    """The page's text, the module and everything else inside it."""
    tapes = tapes if tapes is not None else {lang: tape_bytes(lang) for lang, _ in TAPES}
    lines = listing_lines()
    payload = {"wasm": b64(module), "rom": b64(ROM.read_bytes()),
               "tapes": {lang: b64(data) for lang, data in tapes.items()},
               "tape_names": {lang: name for lang, name in TAPES if lang in tapes},
               "tape_sha256": {lang: tape_digest(data) for lang, data in tapes.items()},
               "texts": {lang: tape_texts(lang) for lang in tapes},
               "facts": facts(), "meanings": meanings(), "listing_en": english_listing(lines)}
    return web_templates().get_template("play.html").render(
        payload=json.dumps(payload, ensure_ascii=True, separators=(",", ":")).replace("</", "<\\/"),
        script=(HERE / "static" / "spectrum.js").read_text(encoding="utf-8"),
        app=(HERE / "static" / "app.js").read_text(encoding="utf-8"),
        style=(HERE / "static" / "play.css").read_text(encoding="utf-8"),
        lines=[(n, html.escape(t)) for n, t in lines], window_keys=WINDOW_KEYS, game_keys=GAME_KEYS,
        tapes=[(lang, name) for lang, name in TAPES if lang in tapes])


def write_play_page(folder: Path) -> Written:
    """folder/play.html, or (without a compiler and no module built) the one-line reason it is not written."""
    try:
        module = wasm_build.module_bytes()
    except wasm_build.BuildProblem as exc:
        return Written(None, f"{PAGE_NAME} not written: the WebAssembly core is not built ({exc})")
    text = render_play_page(module)
    path = folder / PAGE_NAME
    try:
        atomic.write_text(path, text)
    except OSError as exc:
        raise OutputError(f"{path}: {exc.strerror or exc}") from exc
    return Written(path, None, len(text.encode("utf-8")))
