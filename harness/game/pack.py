"""`cribbage-zx build --pack`: the preservation pack, the files an archive of Spectrum software would keep.

For both editions (the Russian original and the English translation): the
tape as TZX with an archive-info block (0x32) and a hardware-type block
(0x33, a 48K), and a .z80 snapshot at the title screen (the program's first
question); for the original, one regress game recorded as RZX (game 0 of
`regress --rzx`, seed 1: the recording Fuse replays in tests/test_fuse_rzx.py);
and manifest.json with each file's size, CRC32, MD5 and SHA-1.

File names follow the TOSEC convention "Title (year)(publisher)(language)[flags]":
the scan names neither the magazine nor the year (docs/sources/article.txt has
the article's prose only), so the year is "19xx" and the publisher "-", as
TOSEC writes unknowns; the English edition carries the translation flag
"[tr en]". Everything is deterministic: the same sources give the same bytes.
"""
from __future__ import annotations

import hashlib
import json
import zlib
from dataclasses import dataclass
from pathlib import Path

from ..runtime import atomic
from ..errors import HarnessError
from ..spectrum import tzx, z80snap
from ..spectrum.loading import load_tape
from ..spectrum.machine import Spectrum48
from ..spectrum.tape import TapeBlock

TITLE = "Kribedzh"                            # «КРИБЕДЖ» transliterated (BGN/PCGN: ж = zh)
TITLE_RU = "КРИБЕДЖ"
STEM = {"ru": f"{TITLE} (19xx)(-)(ru)", "en": f"{TITLE} (19xx)(-)(en)[tr en]"}
RZX_GAME = 0                                  # regress game 0 with --seed 1 (its player: random)
MANIFEST = "manifest.json"
DEFAULT_PACK = Path("build/pack")


class PackError(HarnessError):
    """The pack could not be made (a tape that stops before its first question, a recording that failed)."""


def archive_texts(lang: str) -> list[tuple[str, str]]:
    """The 0x32 texts of an edition: ASCII, as the TZX format has it (the Russian title in the comment,
    spelt out, since the format has no Cyrillic)."""
    texts = [("title", TITLE),
             ("publisher", "Russian-language magazine, name not on the scan"),
             ("language", "Russian" if lang == "ru" else "English (translated from the Russian)"),
             ("type", "Game: Card"),
             ("origin", "Type-in"),
             ("comment", "Kribedzh: the Russian title (Cyrillic) in Latin letters; the game is Cribbage. "
                         "Listing reconstructed from an OCR scan of the article by cribbage-zx (judgements: "
                         "basic/RECONSTRUCTION.md). Year unknown."
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
        raise PackError(f"the tape stopped with «{stop.report}» before its first question")
    return z80snap.write_z80(z80snap.from_machine(m))


def recorded_game(tap: bytes) -> bytes:
    """Game 0 of `regress --rzx --seed 1`, as RZX."""
    from . import regress
    regress._init_worker(tap)
    game = regress.play_one((RZX_GAME, regress.spread_seed(1 + RZX_GAME), regress.STRATEGIES[0], False, True))
    if "rzx" not in game or game.get("failure"):
        raise PackError(f"the recorded game did not finish: {game.get('failure') or game.get('rzx_note')}")
    return game["rzx"]


@dataclass(frozen=True)
class PackFile:
    name: str
    size: int
    crc32: str
    md5: str
    sha1: str

    @classmethod
    def of(cls, name: str, data: bytes) -> "PackFile":
        return cls(name, len(data), f"{zlib.crc32(data):08x}", hashlib.md5(data).hexdigest(),
                   hashlib.sha1(data).hexdigest())


def make_pack(editions: dict[str, list[TapeBlock]], tap_ru: bytes) -> dict[str, bytes]:
    """Every file of the pack by name, the manifest last."""
    files: dict[str, bytes] = {}
    for lang, blocks in editions.items():
        files[f"{STEM[lang]}.tzx"] = edition_tzx(blocks, lang)
        files[f"{STEM[lang]}.z80"] = title_screen(blocks)
    files[f"{STEM['ru']}[rzx regress game {RZX_GAME} seed 1].rzx"] = recorded_game(tap_ru)
    entries = [PackFile.of(name, data) for name, data in sorted(files.items())]
    files[MANIFEST] = (json.dumps({"files": [vars(e) for e in entries]}, indent=1, ensure_ascii=False)
                       + "\n").encode("utf-8")
    return files


def write_pack(folder: Path, files: dict[str, bytes]) -> list[PackFile]:
    """Write the pack's files into *folder* (each atomically); returns the manifest's entries."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        atomic.write_bytes(folder / name, data)
    return [PackFile(**e) for e in json.loads(files[MANIFEST])["files"]]


def readme_table(entries: list[PackFile]) -> str:
    """The pack's files as the README lists them."""
    rows = ["| file | bytes | CRC32 | MD5 | SHA-1 |", "| --- | ---: | --- | --- | --- |"]
    rows += [f"| `{e.name}` | {e.size} | `{e.crc32}` | `{e.md5}` | `{e.sha1}` |" for e in entries]
    return "\n".join(rows)


def verify(folder: Path) -> list[str]:
    """What in *folder* disagrees with its manifest.json: a file missing, changed or not listed (empty: none)."""
    try:
        entries = [PackFile(**e) for e in json.loads((folder / MANIFEST).read_text(encoding="utf-8"))["files"]]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return [f"{folder / MANIFEST}: not a pack manifest ({exc})"]
    problems = []
    listed = {e.name for e in entries}
    for e in entries:
        path = folder / e.name
        if not path.is_file():
            problems.append(f"{path}: listed in the manifest, missing")
        elif PackFile.of(e.name, path.read_bytes()) != e:
            problems.append(f"{path}: differs from the manifest's size or checksums")
    for path in sorted(folder.iterdir()):
        if path.name != MANIFEST and path.name not in listed:
            problems.append(f"{path}: not in the manifest")
    return problems
