"""`cribbage-zx build`: basic/cribbage.bas + basic/chr_font.txt -> build/cribbage.tap.

The command line only: what it runs, and why, is told in harness/game/build.py.
"""
from __future__ import annotations

import argparse
import sys

from pathlib import Path

from ..game.build import Build, DEFAULT_TAP, EN_TAP, FONT, LISTING, build, fingerprint, write_tape
from ..game.program import AUTOSTART_LINE as AUTOSTART, FONT_ADDRESS as FONT_START, FONT_LENGTH, FONT_NAME, PROGRAM_NAME
from ..errors import UsageError
from ..runtime import atomic
from ..runtime.cliargs import command_parser
from ..spectrum import audio, tzx
from ..spectrum.basic import split_program


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", type=Path, help=f"TAP file to write (default {DEFAULT_TAP}, {EN_TAP} with --lang en)")
    parser.add_argument("--lang", choices=("ru", "en"), default="ru", help="ru: the original; en: the English edition (basic/translation.tsv)")
    parser.add_argument("--listing", type=Path, default=LISTING, help="the BASIC listing (default: basic/cribbage.bas)")
    parser.add_argument("--font", type=Path, default=FONT, help="the font as text art (default: basic/chr_font.txt)")
    parser.add_argument("--wav", type=Path, help="also write the tape as audio (ROM timings, 44.1 kHz mono)")
    parser.add_argument("--wav-bits", type=int, choices=(8, 16), default=8, help="bits per WAV sample")
    parser.add_argument("--tzx", type=Path, help="also write the tape as TZX 1.20 (standard speed blocks)")
    parser.add_argument("--pack", type=Path, nargs="?", const=Path("build/pack"), metavar="DIR",
                        help="also write the preservation pack into DIR (default build/pack): both editions as "
                             "TZX with archive-info and hardware blocks, .z80 snapshots at the title screen, one "
                             "recorded game as RZX, manifest.json with CRC32/MD5/SHA-1 (see harness/game/pack.py)")


def execute(args: argparse.Namespace) -> int:
    """Build, then write each output atomically: a refused build or a failed write leaves every old file as it was."""
    args.output = args.output or (EN_TAP if args.lang == "en" else DEFAULT_TAP)
    from ..runtime.outdir import writable_file
    for path, ours, what in ((args.wav, lambda h: h[:4] == b"RIFF", "WAV"),
                             (args.tzx, lambda h: h[:8] == b"ZXTape!\x1a", "TZX")):
        if path is not None:
            writable_file(path, ours, what)
    result = build(args.listing, args.font, lang=args.lang)
    from_sources = Path(args.listing) == LISTING and Path(args.font) == FONT
    write_tape(args.output, result.tap, fingerprint(args.lang) if from_sources else None)
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
    from ..game.pack import make_pack, readme_table, write_pack
    ru = result if args.lang == "ru" else build(args.listing, args.font)
    en = result if args.lang == "en" else build(args.listing, args.font, lang="en")
    entries = write_pack(args.pack, make_pack({"ru": ru.blocks, "en": en.blocks}, ru.tap))
    print(f"{args.pack}: the preservation pack, {len(entries)} files and manifest.json")
    print(readme_table(entries))


def main(argv: list[str]) -> int:
    return execute(command_parser(sys.modules[__name__], "cribbage-zx build", UsageError).parse_args(argv))
