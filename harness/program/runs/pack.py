"""`cribbage-zx build --pack`: the preservation pack, the files an archive of Spectrum software would keep.

For both editions (the Russian original and the English translation): the
tape as TZX with an archive-info block (0x32) and a hardware-type block
(0x33, a 48K), and a .z80 snapshot at the title screen (the program's first
question); for the original, one regress game recorded as RZX (game 0 of
`regress --rzx`, seed 1: the recording Fuse replays in tests/test_fuse_rzx.py)
with a PNG of the screen it ends on beside it; the sources as text (the
listing, the font, the translation table); readme.txt, which tells an
archivist what each file is; and manifest.json: the tool's name, version,
commit and that commit's date, and each file's size, CRC32, MD5, SHA-1 and
SHA-256.

File names follow the TOSEC convention "Title (year)(publisher)(language)[flags]":
the scan names neither the magazine nor the year (docs/sources/article.txt has
the article's prose only), so the year is "19xx" and the publisher "-", as
TOSEC writes unknowns; the English edition carries the translation flag
"[tr en]". Everything is deterministic: the same sources at the same commit
give the same bytes (the date is the commit's, not the clock's).

The pack folder is written whole or not at all (harness/runtime/outdir.py's
`claimed_whole`): a new pack is made in a private folder beside it and swapped
in, so a full disk leaves the earlier pack as it was; `build --check-pack DIR`
recomputes every checksum against the manifest (`verify`).
"""
from __future__ import annotations

import hashlib
import io
import json
import subprocess
import zlib
from dataclasses import dataclass
from pathlib import Path

from ... import __version__, resources
from ...errors import InputError, MachineError, OutputError
from ...runtime import atomic, outdir
from ...runtime.validate import expect, field, parse_json, read_json
from ...spectrum import tzx, z80snap
from ...spectrum.loading import load_tape
from ...spectrum.machine import Spectrum48
from ...spectrum.rom import load_rom
from ...spectrum.rzx import read_rzx
from ...spectrum.screen import render
from ...spectrum.tape import TapeBlock

TITLE = "Kribedzh"                            # «КРИБЕДЖ» transliterated (BGN/PCGN: ж = zh)
TITLE_RU = "КРИБЕДЖ"
TOOL = "cribbage-zx"
STEM = {"ru": f"{TITLE} (19xx)(-)(ru)", "en": f"{TITLE} (19xx)(-)(en)[tr en]"}
RZX_GAME = 0                                  # regress game 0 with --seed 1 (its player: random)
RZX_STEM = f"{STEM['ru']}[rzx regress game {RZX_GAME} seed 1]"
FRAMES_PER_SECOND = 50                        # a 48K's frame rate: how long a player takes to replay the RZX
MANIFEST = "manifest.json"
README = "readme.txt"
COMMAND = "build --pack"                      # the pack folder's record (harness/runtime/outdir.py) names it
DEFAULT_PACK = Path("build/pack")
#: the sources as text, by their name in the pack: the listing, the font as text art, the translation table
SOURCES = {f"{STEM['ru']}.bas": "basic/cribbage.bas", "chr_font.txt": "basic/chr_font.txt",
           "translation.tsv": "basic/translation.tsv"}


def archive_texts(lang: str) -> list[tuple[str, str]]:
    """The 0x32 texts of an edition: ASCII, as the TZX format has it (the Russian title in the comment,
    spelt out, since the format has no Cyrillic). The comment stands alone: a TZX travels without its pack
    and without this repository, so it names no file of either."""
    texts = [("title", TITLE),
             ("publisher", "Russian-language magazine, name not on the scan"),
             ("language", "Russian" if lang == "ru" else "English (translated from the Russian)"),
             ("type", "Game: Card"),
             ("origin", "Type-in"),
             ("comment", "Kribedzh is Cribbage, the Russian title in Latin letters. A type-in listing rebuilt "
                         "by the cribbage-zx project from an OCR scan of the magazine article, each unclear "
                         "character judged. Year unknown."
                         + (" English edition: strings and REMs translated in place." if lang == "en" else ""))]
    return texts


def edition_tzx(blocks: list[TapeBlock], lang: str) -> bytes:
    """The edition's TZX: archive info, hardware (48K: runs), then the tape's blocks at standard speed."""
    head = [tzx.archive_info(archive_texts(lang)), tzx.hardware_type([(tzx.HW_COMPUTER, tzx.HW_48K, tzx.RUNS)])]
    return tzx.tzx_file(head + [tzx.standard_block(b, index=i) for i, b in enumerate(blocks)])


def title_screen(blocks: list[TapeBlock]) -> bytes:
    """The .z80 of the machine that has loaded the tape and shows the program's first question."""
    m = Spectrum48(fast=True)
    m.boot()
    stop = load_tape(m, blocks)
    if stop.kind == "report":
        raise MachineError(f"the tape stopped with «{stop.report}» before its first question")
    return z80snap.write_z80(z80snap.from_machine(m))


def recorded_game(tap: bytes) -> tuple[bytes, bytes]:
    """Game 0 of `regress --rzx --seed 1`: the RZX and the .z80 of the machine where it ends."""
    from .loaded import init_worker  # lazy: only build --pack plays a game (regress: 0.2 s a plain build skips)
    from .regress import STRATEGIES, GameJob, play_one, spread_seed
    init_worker(tap)
    game = play_one(GameJob(RZX_GAME, spread_seed(1 + RZX_GAME), STRATEGIES[0], rzx=True))
    if game.recording is None or game.failure:
        raise MachineError(f"the recorded game did not finish: {game.failure or game.rzx_note}")
    return game.recording.rzx, game.recording.end


def screen_png(z80: bytes, scale: int = 2) -> bytes:
    """The screen (and border) of a .z80 as a PNG, each Spectrum pixel *scale* pixels square."""
    from PIL import Image  # lazy: Pillow's Image (10 ms) only for the pack's PNG
    snap = z80snap.read_z80(z80)
    buffer = io.BytesIO()
    Image.fromarray(render(snap.memory(load_rom(None)), border=snap.border, scale=scale), "RGB").save(buffer, "PNG")
    return buffer.getvalue()


@dataclass(frozen=True)
class Tool:
    """What made the pack: the tool's name and version, the commit of its checkout and that commit's date
    (ISO 8601); *modified*: the checkout had changes not committed (the commit alone does not make it)."""
    name: str
    version: str
    commit: str
    date: str
    modified: bool


def _git(*args: str) -> str | None:
    if resources.CHECKOUT is None:
        return None
    try:
        done = subprocess.run(["git", "-C", str(resources.CHECKOUT), *args], capture_output=True, text=True,
                              timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def this_tool() -> Tool:
    """The tool as it runs now (an installed wheel has no checkout: its commit is "unknown")."""
    version = __version__                   # harness/__init__.py: the one place the version is written
    commit = _git("rev-parse", "HEAD")
    if commit is None:
        return Tool(TOOL, version, "unknown", "unknown", False)
    date = _git("log", "-1", "--format=%cI", "HEAD") or "unknown"
    changes = _git("status", "--porcelain", "--untracked-files=no", "--", "basic", "harness", "roms")
    return Tool(TOOL, version, commit, date, bool(changes))


@dataclass(frozen=True)
class PackFile:
    name: str
    size: int
    crc32: str
    md5: str
    sha1: str
    sha256: str

    @classmethod
    def of(cls, name: str, data: bytes) -> "PackFile":
        return cls(name, len(data), f"{zlib.crc32(data):08x}", hashlib.md5(data).hexdigest(),
                   hashlib.sha1(data).hexdigest(), hashlib.sha256(data).hexdigest())


def _seconds(frames: int) -> str:
    minutes, seconds = divmod(round(frames / FRAMES_PER_SECOND), 60)
    return f"{minutes} min {seconds:02d} s"


#: the pack's readme.txt, for someone who has only the pack (`readme_text` fills it in)
README_TEXT = """\
KRIBEDZH (КРИБЕДЖ, "Cribbage") for the ZX Spectrum 48K: a preservation pack
==========================================================================

A card game in Sinclair BASIC, printed as a type-in listing in a Russian-language
magazine (its name and year are not on the scan). The listing was rebuilt from an
OCR scan of the article, each unclear character judged, and is played here as it
was printed, with its own mistakes. An English edition translates every string and
REM in place (same lengths, so every screen keeps its layout).

Made by {tool.name} {tool.version}, commit {commit}, of {tool.date}.
manifest.json lists every file with its size, CRC32, MD5, SHA-1 and SHA-256.

Files
-----
{stem_ru}.tzx
    The original tape: TZX 1.20, an archive-info block (title, publisher, language,
    type, origin, comment), a hardware block (48K: runs), then the tape's four
    standard-speed blocks: the BASIC program "CRIBBAGE" (autostart) and the font
    "chr" (CODE 64600). Made from {stem_ru}.bas and chr_font.txt.
{stem_en}.tzx
    The English edition's tape, the same layout. Made from the same listing with
    translation.tsv applied.
{stem_ru}.z80
{stem_en}.z80
    Snapshots (.z80, version 3, 48K) of each edition loaded from its tape and
    waiting at the program's first question, the title screen.
{RZX_STEM}.rzx
    One whole game recorded as RZX 0.13: a .z80 snapshot at the program's first
    question, then every frame's instruction count and keyboard readings
    ({frames} frames: {duration} at 50 frames a second). The player is
    the tool's random player, seed 1.
{RZX_STEM}.png
    The screen the recording ends on (with its border, each pixel 2x2): a player
    that replays the RZX correctly shows exactly this.
{stem_ru}.bas
    The reconstructed listing as UTF-8 text, one BASIC line a line, as the tape
    holds it (Cyrillic as printed; the tape encodes it in the program's own font).
chr_font.txt
    The program's font "chr" as text art, 8x8 cells (CODE 64600).
translation.tsv
    The English edition's table: BASIC line, Russian text, English text.

The ROM
-------
The tapes, the snapshots and the recording need the standard Sinclair ZX Spectrum
48K ROM (16,384 bytes,
SHA-256 {rom_sha256}); the pack does not hold it.

Replaying in Fuse
-----------------
    fuse-sdl --machine 48 --rom-48 48.rom --playback "{RZX_STEM}.rzx"
The playback takes about {duration} at normal speed. Early on Fuse shows a
modal warning, "RZX frame is longer than 79000 tstates": press Return (OK) and the
playback goes on. The warning is expected: Fuse emulates contended memory and
the recording's machine did not, so a frame takes Fuse more T-states; RZX counts
instructions, not T-states, so the game replays the same and ends on the PNG's
screen. To play, load a tape or a snapshot:
    fuse-sdl --machine 48 --rom-48 48.rom --auto-load --tape "{stem_ru}.tzx"
"""


def readme_text(tool: Tool, frames: int, rom_sha256: str) -> str:
    """The pack's readme.txt: what each file is and where it comes from, for someone who has only the pack."""
    commit = tool.commit + (" (with changes not committed)" if tool.modified else "")
    return README_TEXT.format(tool=tool, commit=commit, stem_ru=STEM["ru"], stem_en=STEM["en"], RZX_STEM=RZX_STEM,
                         frames=frames, duration=_seconds(frames), rom_sha256=rom_sha256)


def make_pack(editions: dict[str, list[TapeBlock]], tap_ru: bytes, tool: Tool | None = None) -> dict[str, bytes]:
    """Every file of the pack by name, the manifest last."""
    tool = tool or this_tool()
    files: dict[str, bytes] = {}
    for lang, blocks in editions.items():
        files[f"{STEM[lang]}.tzx"] = edition_tzx(blocks, lang)
        files[f"{STEM[lang]}.z80"] = title_screen(blocks)
    rzx, end = recorded_game(tap_ru)
    files[f"{RZX_STEM}.rzx"] = rzx
    files[f"{RZX_STEM}.png"] = screen_png(end)
    for name, source in SOURCES.items():
        path = resources.data_path(source)
        try:
            files[name] = path.read_bytes()
        except OSError as exc:
            raise InputError(f"{path}: cannot read it: {exc.strerror}") from None
    rom = hashlib.sha256(load_rom(None)).hexdigest()
    files[README] = readme_text(tool, len(read_rzx(rzx).frames), rom).encode("utf-8")
    entries = [PackFile.of(name, data) for name, data in sorted(files.items())]
    files[MANIFEST] = (json.dumps({"tool": vars(tool), "files": [vars(e) for e in entries]}, indent=1,
                                  ensure_ascii=False) + "\n").encode("utf-8")
    return files


def _entries(manifest: object, where: str) -> list[PackFile]:
    """The manifest's file entries, each field checked (InputError naming the entry)."""
    files = field(expect(manifest, dict, where), "files", list, where)
    entries = []
    for i, e in enumerate(files):
        at = f"{where}: files[{i}]"
        e = expect(e, dict, at)
        entries.append(PackFile(name=field(e, "name", str, at), size=field(e, "size", int, at),
                                crc32=field(e, "crc32", str, at), md5=field(e, "md5", str, at),
                                sha1=field(e, "sha1", str, at), sha256=field(e, "sha256", str, at)))
    return entries


def check_folder(folder: Path) -> None:
    """Refuse, before anything is built, a pack folder write_pack would refuse (OutputError naming it)."""
    outdir.check_whole(folder, COMMAND, ours=_an_earlier_pack)


def write_pack(folder: Path, files: dict[str, bytes]) -> list[PackFile]:
    """Write the pack's files into *folder*, whole or not at all: into a fresh folder swapped in for the
    earlier pack (outdir.claimed_whole refuses a folder of someone else's); returns the manifest's entries."""
    with outdir.claimed_whole(folder, COMMAND, ours=_an_earlier_pack) as fresh:
        for name, data in files.items():
            try:
                atomic.write_bytes(fresh / name, data)
            except OutputError as exc:
                raise OutputError(exc.errno, f"{folder}: the new pack could not be written ({name}: "
                                             f"{exc.strerror or exc}); the earlier one is as it was") from None
    return _entries(parse_json(files[MANIFEST].decode("utf-8"), MANIFEST), MANIFEST)


def an_earlier_pack(folder: Path) -> bool:
    """A folder with no record that is an earlier version's pack (what `build --pack` may replace)."""
    return _an_earlier_pack(folder, outdir.entries(folder))


def _an_earlier_pack(folder: Path, present: set[str]) -> bool:
    """A folder with no record is ours if it is a pack of an earlier version: exactly its manifest and the files
    that manifest lists, unchanged."""
    return MANIFEST in present and not verify(folder)


def readme_table(entries: list[PackFile]) -> str:
    """The pack's files as docs/PACK.md lists them (readme.txt left out: it names the commit)."""
    rows = ["| file | bytes | CRC32 | SHA-256 |", "| --- | ---: | --- | --- |"]
    rows += [f"| `{e.name}` | {e.size} | `{e.crc32}` | `{e.sha256}` |" for e in entries if e.name != README]
    return "\n".join(rows)


def verify(folder: Path) -> list[str]:
    """What in *folder* disagrees with its manifest.json: a file missing, changed or not listed (empty: none).
    The folder's record and lock (outdir.py) are not the pack's."""
    folder = Path(folder)
    try:
        entries = _entries(read_json(folder / MANIFEST), str(folder / MANIFEST))
    except InputError as exc:
        return [f"{exc} (not a pack manifest)"]
    problems = []
    listed = {e.name for e in entries}
    for e in entries:
        path = folder / e.name
        if "/" in e.name or e.name in ("", ".", ".."):
            problems.append(f"{folder / MANIFEST}: names {e.name[:40]!r}, not a file of the folder")
        elif not path.is_file() or path.is_symlink():
            problems.append(f"{path}: listed in the manifest, missing")
        elif PackFile.of(e.name, path.read_bytes()) != e:
            problems.append(f"{path}: differs from the manifest's size or checksums")
    for path in sorted(folder.iterdir()):
        if path.name not in (MANIFEST, *outdir.OURS) and path.name not in listed:
            problems.append(f"{path}: not in the manifest")
    return problems
