"""`cribbage-zx build`: basic/cribbage.bas + basic/chr_font.txt -> build/cribbage.tap.

The command line only: what it runs, and why, is told in harness/program/model/build.py.
"""
from __future__ import annotations

import argparse
import sys

from pathlib import Path

from ..program.model.build import (Build, DEFAULT_TAP, EN_TAP, FONT, LISTING, build, fingerprint, looks_like_tap,
                                   write_tape)
from ..program.runs.pack import COMMAND as PACK_COMMAND, an_earlier_pack as _an_earlier_pack
from ..program.model.program import AUTOSTART_LINE as AUTOSTART, FONT_ADDRESS as FONT_START, FONT_LENGTH, FONT_NAME, PROGRAM_NAME
from ..errors import InputError, UsageError
from ..runtime import atomic
from .cliargs import add_replace_option, command_parser, input_file, input_folder, output_file, output_folder
from ..spectrum import audio, tzx
from ..spectrum.basic import split_program
from ..spectrum.font import parse_font
from ..program.runs.pack import make_pack, readme_table, write_pack
from ..program.runs.pack import check_folder
from ..program.runs.pack import MANIFEST, verify


def _numbered(data: bytes) -> bool:
    """A listing: some line of it begins with a line number (the rest is the tokeniser's to judge, FILE:LINE)."""
    rows = data.removeprefix(b"\xef\xbb\xbf").splitlines()
    return any(row.strip()[:1].isdigit() for row in rows if not row.lstrip().startswith(b"#"))


def _font(data: bytes) -> bool:
    try:
        parse_font(data.decode("utf-8-sig"))
    except (ValueError, UnicodeDecodeError):
        return False
    return True


def add_arguments(parser: argparse.ArgumentParser) -> None:
    tap_out = output_file("TAP", looks_like_tap)
    listing = input_file("BASIC listing", text=True, max_bytes=2**20, valid=_numbered, expect="it holds no program lines")
    font = input_file("font", text=True, max_bytes=2**20, valid=_font, expect="not the font's text art")
    parser.add_argument("-o", "--output", type=tap_out, help=f"TAP file to write (default {DEFAULT_TAP}, {EN_TAP} with --lang en)")
    parser.add_argument("--lang", choices=("ru", "en"), default="ru", help="ru: the original; en: the English edition (basic/translation.tsv)")
    parser.add_argument("--listing", type=listing, default=LISTING, help="the BASIC listing (default: basic/cribbage.bas)")
    parser.add_argument("--font", type=font, default=FONT, help="the font as text art (default: basic/chr_font.txt)")
    parser.add_argument("--wav", type=output_file("WAV", lambda h: h[:4] == b"RIFF"), help="also write the tape as audio (ROM timings, 44.1 kHz mono)")
    parser.add_argument("--wav-bits", type=int, choices=(8, 16), default=8, help="bits per WAV sample")
    parser.add_argument("--tzx", type=output_file("TZX", lambda h: h[:8] == b"ZXTape!\x1a"), help="also write the tape as TZX 1.20 (standard speed blocks)")
    parser.add_argument("--pack", type=output_folder(PACK_COMMAND, ours=_an_earlier_pack), nargs="?", const=Path("build/pack"), metavar="DIR",
                        help="also write the preservation pack into DIR (default build/pack): both editions as "
                             "TZX with archive-info and hardware blocks, .z80 snapshots at the title screen, one "
                             "recorded game as RZX with a PNG of its last screen, the sources as text, readme.txt, "
                             "manifest.json with the tool's version and commit and each file's CRC32/MD5/SHA-1/SHA-256 "
                             "(see docs/PACK.md); written whole or not at all, into a new folder or an earlier pack")
    add_replace_option(parser, "-o, --wav or --tzx")
    parser.add_argument("--check-pack", type=input_folder("pack", marker="manifest.json"), metavar="DIR",
                        help="build nothing: recompute every checksum of the pack in DIR against its manifest.json")


def execute(args: argparse.Namespace) -> int:
    """Build, then write each output atomically: a refused build or a failed write leaves every old file as it was."""
    if args.check_pack is not None:
        return _check_pack(args.check_pack)
    args.output = args.output or (EN_TAP if args.lang == "en" else DEFAULT_TAP)
    if args.pack:
        check_folder(args.pack)
    result = build(args.listing, args.font, lang=args.lang)
    from_sources = Path(args.listing) == LISTING and Path(args.font) == FONT
    write_tape(args.output, result.tap, fingerprint(args.lang) if from_sources else None, replace=args.replace)
    lines = len(split_program(result.program))
    print(f"{args.output}: program \"{PROGRAM_NAME}\" LINE {AUTOSTART}, {lines} lines, "
          f"{len(result.program)} bytes; \"{FONT_NAME}\" CODE {FONT_START},{FONT_LENGTH}")
    if args.wav:
        with atomic.replacing(args.wav) as tmp:
            info = audio.write_wav(tmp, result.blocks, bits=args.wav_bits)
        print(f"{args.wav}: {info.seconds:.1f} s of tape, {info.rate} Hz {info.bits}-bit mono")
    if args.tzx:
        atomic.write_bytes(args.tzx, tzx.tap_to_tzx(result.blocks))
        print(f"{args.tzx}: TZX 1.20, {len(result.blocks)} standard speed blocks")
    if args.pack:
        _write_pack(args, result)
    return 0


def _write_pack(args: argparse.Namespace, result: Build) -> None:
    ru = result if args.lang == "ru" else build(args.listing, args.font)
    en = result if args.lang == "en" else build(args.listing, args.font, lang="en")
    entries = write_pack(args.pack, make_pack({"ru": ru.blocks, "en": en.blocks}, ru.tap))
    print(f"{args.pack}: the preservation pack, {len(entries)} files and manifest.json (check it with "
          f"`cribbage-zx build --check-pack {args.pack}`)")
    print(readme_table(entries))


def _check_pack(folder: Path) -> int:
    """`build --check-pack DIR`: every problem on a line of its own, then one line (InputError) if any."""
    if not folder.is_dir():
        raise InputError(f"--check-pack {folder}: " + ("is not a folder" if folder.exists() else "no such folder"))
    problems = verify(folder)
    if problems:
        for line in problems:
            print(line, file=sys.stderr)
        raise InputError(f"{folder}: {len(problems)} problem{'s' * (len(problems) != 1)} against {MANIFEST} "
                         f"(listed above); the pack is not as it was written")
    print(f"{folder}: every file matches {MANIFEST}")
    return 0


def main(argv: list[str]) -> int:
    return execute(command_parser(sys.modules[__name__], "cribbage-zx build", UsageError).parse_args(argv))
