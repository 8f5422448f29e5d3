"""`cribbage-zx play [--lang en | --tape PATH] [--turbo | --no-reading-time] [--referee [open]] [--load PATH.z80]`:
the game in a window.

Real speed by default: one frame every 1/50 s, the beeper played where the
machine has audio. `--turbo` runs frames as fast as the emulator goes while
the program computes (the shuffle, the deal, its thinking) and keeps real
time whenever a person is needed or reading: a key awaited or held, a timed
PAUSE, a message just printed, the board demo (`PlaySession.needs_real_time`).
`--no-reading-time` is turbo through the timed PAUSEs and the messages too
(`session.READING_TIME`): real time only for a key and the board demo. The
machine runs the same frames at any pace; only the host's waits differ.
A new seed each start unless --seed (shown in the title and the panel);
--record/--replay keep a game's keys (--replay-to runs a replay ahead: to its
last key, or to a deal); --record-rzx writes an RZX of the game that Fuse plays
back. Save slots go to $XDG_DATA_HOME/cribbage-zx (`slots.data_folder`)
unless --save names them. The window's own keys (`keymap.WINDOW_KEYS`:
F1 help, H hint, P pause, F2/F3 save slots, F11 full screen, F10 quit); every
other key goes to the Spectrum (`keymap.HOST_KEYS`). `--referee` adds the
engine's view of the deal beside the screen (`referee`), honest unless `open`.
"""
from __future__ import annotations

import argparse
import secrets
import sys
from pathlib import Path
from typing import Callable

from ..program.model.build import DEFAULT_TAP, EN_TAP, ensure_tape, tape_path
from .cliargs import (KEYS_IN, TAPE_IN, Z80_IN, command_parser, looks_like_z80, float_in, int_in, naming_flags,
                      output_file)
from ..program.model.rulesets import PRESETS
from ..errors import HarnessError, InputError, UsageError
from ..play.keymap import key_help
from ..play.session import PlaySession
from ..play.slots import data_folder
from ..play.settings import PlaySettings
from ..play.window import Window, check_display, import_pygame
from ..play.record import moment_hash, is_key_record, check_record_path

PROG = "cribbage-zx play"

#: what a session or a key record refuses, marked in the library's terms (errors.needing), worded with the option
FLAG_WORDS: dict[str, Callable[[str], str]] = {
    "tape": lambda m: f"--tape {m}",
    "replay": lambda m: f"--replay {m}",
    "seed": lambda m: f"--{m}",                           # "seed 5: the record ... was played with seed 7"
    "record": lambda m: f"--record {m}",
    "replace": lambda m: f"--record {m}; or give --replace",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = "\n".join(key_help())
    parser.add_argument("--tape", type=TAPE_IN, default=None,
                        help=f"tape to load (default: the built game, {DEFAULT_TAP}, built when missing or stale)")
    parser.add_argument("--lang", choices=("ru", "en"), default=None,
                        help=f"ru: the original, {DEFAULT_TAP}; en: the English edition, {EN_TAP} "
                             "(each built when missing or stale); instead of --tape")
    parser.add_argument("--load", type=Z80_IN, metavar="PATH.z80", help="start from a saved game instead")
    parser.add_argument("--save", type=output_file(".z80", looks_like_z80), default=None, metavar="PATH.z80",
                        help="the save slots' name: F2/F3 and a digit save/load slot N as PATH-N.z80 "
                             "(default: cribbage-1.z80 ... cribbage-9.z80 in $XDG_DATA_HOME/cribbage-zx, "
                             "else ~/.local/share/cribbage-zx)")
    parser.add_argument("--turbo", action="store_true",
                        help="full speed while the program computes; real time while a key is awaited or "
                             "held, a message is shown, or the board demo runs")
    parser.add_argument("--no-reading-time", action="store_true",
                        help="--turbo without the reading time: full speed through the program's timed PAUSEs "
                             "and past its messages too; real time only while a key is awaited or held, or the "
                             "board demo runs (the game is the same, frame for frame: only the waiting goes)")
    parser.add_argument("--referee", nargs="?", const="honest", choices=("honest", "open"), default=None,
                        help="the engine's view of the deal beside the screen; honest (the default) hides the "
                             "computer's cards and the crib until shown, and your count until you claim it "
                             "(muggins); 'open' shows everything at once")
    parser.add_argument("--rules", choices=sorted(PRESETS), default="standard",
                        help="the rules the referee judges by (default standard, regress's verdict)")
    parser.add_argument("--scale", type=int_in(1, 8), default=2, help="window pixels per Spectrum pixel (1..8, default 2)")
    parser.add_argument("--seed", type=int_in(0, 65535), default=None,
                        help="SEED after RANDOMIZE (default: a new one each start, shown in the title)")
    parser.add_argument("--record", type=output_file("key record", _is_key_record), metavar="FILE", help="write the game's keys to FILE when it ends")
    parser.add_argument("--replace", action="store_true",
                        help="let --record FILE or --record-rzx FILE replace a file there that this tool did not write")
    parser.add_argument("--replay", type=KEYS_IN, metavar="FILE",
                        help="play the keys of a --record FILE again (the same seed and tape: the same screens)")
    parser.add_argument("--replay-to", type=replay_target, metavar="end|DEAL", default=None,
                        help="run the --replay ahead at full speed: to its last key (end), or until deal DEAL "
                             "is dealt; then real speed")
    parser.add_argument("--record-rzx", type=output_file("RZX", lambda h: h[:4] == b"RZX!"), metavar="FILE.rzx",
                        help="write an RZX of the game from its first question when it ends (Fuse plays it back "
                             "to the same screen: fuse-sdl --machine 48 --playback FILE.rzx)")
    parser.add_argument("--hash", action="store_true",
                        help="no window: play the --replay record to its end (or the --seed's game to its first "
                             "question), print its frame and the moment's hash (play.html shows the same)")
    parser.add_argument("--no-sound", action="store_true", help="do not play the beeper")
    parser.add_argument("--seconds", type=float_in(0), default=None, help="quit after this many seconds (for tests)")


def _is_key_record(head: bytes) -> bool:
    return is_key_record(head)


def replay_target(text: str) -> str | int:
    """--replay-to: "end" or a deal number from 1."""
    if text == "end":
        return "end"
    try:
        deal = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: 'end' or a deal number") from None
    if deal < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: a deal is numbered from 1")
    return deal


def choose_seed(seed: int | None, replay: Path | None) -> int | None:
    """--seed, or the record's (--replay), or a new one at random (65,536 seeds: SEED is two bytes)."""
    if seed is not None or replay is not None:
        return seed
    return secrets.randbelow(65536)


def execute(args: argparse.Namespace) -> int:
    """Play; a HarnessError is one line on stderr and status 2."""
    try:
        return _play(args)
    except HarnessError as exc:             # a usage, file or machine error: one line
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2


def main(argv: list[str]) -> int:
    try:
        args = command_parser(sys.modules[__name__], PROG, UsageError).parse_args(argv)
    except HarnessError as exc:
        print(str(exc), file=sys.stderr)     # argparse's message already names the command
        return 2
    return execute(args)


def _hash(args: argparse.Namespace) -> int:
    """--hash: the record (or a new game of --seed) played on the embedded machine without a window; the frame
    and the moment's hash printed, as play.html shows them for the same link."""
    for option, given in (("--load", args.load), ("--record", args.record), ("--record-rzx", args.record_rzx),
                          ("--replay-to", args.replay_to)):
        if given is not None:
            raise UsageError(f"--hash plays without a window from the tape: not with {option}")
    if args.replay is None and args.seed is None:
        raise UsageError("--hash: give --replay FILE (played to its end) or --seed N (the first question)")
    if args.tape is not None and args.lang is not None:
        raise UsageError("--lang chooses the built tape: give --tape or --lang, not both")
    tape = (tape_path(args.tape) if args.tape is not None
            else ensure_tape(EN_TAP if args.lang == "en" else DEFAULT_TAP, lang=args.lang or "ru"))
    with naming_flags(FLAG_WORDS):
        session = PlaySession(PlaySettings(tape=tape, scale=1, seed=args.seed, replay=args.replay))
    if session.player is not None:                    # the tape's SHA-256 was checked against the record's
        session.step(session.player.record.frames)
    m = session.machine
    print(f"frame {session.frames} hash {moment_hash(m.read(0x4000, 0xC000), m.s.border)}", flush=True)
    return 0


def _play(args: argparse.Namespace) -> int:
    if args.record is not None:                # found now, not when the game's keys are lost at its end
        with naming_flags(FLAG_WORDS):
            check_record_path(args.record, args.replace)
    elif args.replace and not args.record_rzx:
        raise UsageError("--replace goes with --record FILE or --record-rzx FILE")
    if args.hash:
        return _hash(args)
    check_display()
    import_pygame()
    tape = None
    if args.tape is not None and args.lang is not None:
        raise UsageError("--lang chooses the built tape: give --tape or --lang, not both")
    if args.load is None:
        try:
            if args.tape is None:
                tape = ensure_tape(EN_TAP if args.lang == "en" else DEFAULT_TAP, lang=args.lang or "ru")
            else:
                tape = tape_path(args.tape)
        except Exception as exc:           # a missing tape file, or a listing that does not build
            if isinstance(exc, HarnessError) or type(exc).__module__.startswith("harness"):
                raise InputError(f"--tape: {exc}") from exc
            raise
    if (args.record or args.replay or args.record_rzx) and args.load is not None:
        option = "record" if args.record else "replay" if args.replay else "record-rzx"
        raise UsageError(f"--{option} starts from the tape, not from --load")
    if args.replay_to is not None and args.replay is None:
        raise UsageError("--replay-to runs a --replay ahead: give --replay FILE")
    seed = choose_seed(args.seed, args.replay) if args.load is None else args.seed
    settings = PlaySettings(tape=tape, load=args.load, referee=args.referee, scale=args.scale, seed=seed,
                            sound=not args.no_sound, rules=PRESETS[args.rules], record=args.record,
                            replay=args.replay, ahead=args.replay_to, record_rzx=args.record_rzx)
    with naming_flags(FLAG_WORDS):
        session = PlaySession(settings)
    if session.seed is not None:
        print(f"{PROG}: seed {session.seed} (replay this game with --seed {session.seed})", flush=True)
    print(f"{PROG}: save slots (F2/F3) in {args.save.parent if args.save else data_folder()}", flush=True)
    window = Window(session, turbo=args.turbo, save_path=args.save, max_seconds=args.seconds,
                    reading_time=not args.no_reading_time)
    try:
        window.run()
    finally:
        window.close()
        session.close()
        if args.record:
            print(f"{PROG}: recorded the game's keys in {args.record}", flush=True)
        if args.record_rzx:
            print(f"{PROG}: recorded {session.rzx_frames} frames as RZX in {args.record_rzx} "
                  f"(cd roms && fuse-sdl --machine 48 --rom-48 48.rom --playback {args.record_rzx.resolve()})", flush=True)
    return 0
