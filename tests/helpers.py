"""What test files share (issue 33): the tape under test and the first session played on our machine, the
tools other emulators are run with, Fuse's tools and screenshots, and the careless player of the play
window. A test module imports these from here, never from another test module.

* The tape and the first session (tests/commands/test_exports.py, test_fuse.py, test_skoolkit.py): the tape is
  build/cribbage.tap's content (built from basic/cribbage.bas) or, while the listing does not exist, a
  small stand-in with the same opening: line 2 loads the "chr" font, 7005 RANDOMIZE, the two questions
  at 7060 and 7405, a cut on INKEY$, the deal at 7700.
* `tool` and `run_tool`: a SkoolKit script or a Debian tool, skipping with the reason when missing.
* Fuse (test_fuse.py, test_fuse_rzx.py, test_play_xvfb.py): the ROM it is given, its start attempts,
  the module-wide check of its tools (`fuse_tools`, imported into a module to use it), XWD screenshots.
* `autoplay`: a PlaySession answered as a careless person might (test_play_referee.py, conftest.py).
"""
from __future__ import annotations

import functools
import hashlib
import json
import shutil
import struct
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest

import stored

from harness.program.model import build as build_mod
from harness.spectrum import z80snap
from harness.spectrum.basic import split_program, tokenise_program
from harness.spectrum.charset import koi7_char
from harness.spectrum.font import build_font
from harness.spectrum.machine import Spectrum48
from harness.spectrum.screen import read_screen
from harness.spectrum.tape import FLAG_DATA, TapeBlock, code_header, program_header, read_tap, write_tap
from harness.spectrum.typist import Typist

if TYPE_CHECKING:
    from harness.play.session import PlaySession

ROOT = Path(__file__).resolve().parents[1]
VENV_BIN = Path(sys.executable).parent
WELCOME = ("ДОБРО ПОЖАЛОВАТЬ", "ВАМ НУЖНА ИНСТРУКЦИЯ? (Y/N):")
MUGGINS = "ИГРАЕМ С ПРАВИЛОМ МАГГИНЗ?"
ANSWERS = ("N", "N", "M")      # no instructions, no muggins, any key to cut the deck
DEAL_LINE = 7700               # "7700 REM ******* СДАЧА"
SEED = 12345                   # put in SEED after RANDOMIZE, so that every emulator deals the same cards
LOAD_COMMAND = b'\xef""\r'     # LOAD "" ENTER

STAND_IN = '''1 GO TO 10
2 CLEAR 64599: LOAD "chr" CODE 64600
4 RUN
8 POKE 23606,88: POKE 23607,251: RETURN
10 GO SUB 8
7005 RANDOMIZE : BORDER 4: PAPER 4: INK 0: CLS
7060 POKE 23658,8: INPUT "ДОБРО ПОЖАЛОВАТЬ"'"ВАМ НУЖНА ИНСТРУКЦИЯ? (Y/N):";I$
7405 POKE 23658,8: INPUT "ИГРАЕМ С ПРАВИЛОМ МАГГИНЗ? ";M$
7410 PRINT #1;AT 0,0;"СНИМИТЕ КОЛОДУ - ЛЮБОЙ КЛАВИШЕЙ"
7420 IF INKEY$<>"" THEN GO TO 7420
7425 IF INKEY$="" THEN GO TO 7425
7700 REM СДАЧА
7710 LET C=INT (RND*13)+1: PRINT AT 5,0;"СДАЧА: ";C
7720 PRINT #1;AT 0,0;"ВЫБЕРИТЕ 2 КАРТЫ              "
7730 IF INKEY$<>"" THEN GO TO 7730
7735 IF INKEY$="" THEN GO TO 7735
'''


# ---------------------------------------------------------------- the tape and the first session
@functools.lru_cache(maxsize=None)
def game_tape() -> bytes:
    """The TAP under test: the game built from basic/cribbage.bas, or the stand-in until it exists."""
    if build_mod.LISTING.exists():
        return stored.build().tap           # the run's one build (tests/stored.py), shared with conftest's build_of
    program = tokenise_program(STAND_IN, path="<stand-in>")
    return write_tap([program_header(build_mod.PROGRAM_NAME, len(program), build_mod.AUTOSTART),
                      TapeBlock(FLAG_DATA, program),
                      code_header(build_mod.FONT_NAME, build_mod.FONT_START, build_mod.FONT_LENGTH),
                      TapeBlock(FLAG_DATA, build_font())])


def game_listing() -> str:
    return build_mod.LISTING.read_text(encoding="utf-8") if build_mod.LISTING.exists() else STAND_IN


def after_randomize(program: bytes) -> tuple[int, int]:
    """(line, statement) of the statement after the program's first RANDOMIZE: where SEED is set."""
    lines = split_program(program)
    for n, (number, body) in enumerate(lines):
        statement, i, in_string = 1, 0, False
        at_start = True
        while i < len(body):
            b = body[i]
            if b == 0x22:
                in_string = not in_string
            elif not in_string:
                if b == 0x0E:                          # hidden 5-byte number
                    i += 6
                    continue
                if b == 0xEA or b == 0x0D:             # REM or the end of the line
                    break
                if at_start and b == 0xF9:             # RANDOMIZE
                    rest = body[i + 1:]
                    if b":" in rest.split(b"\r")[0]:
                        return number, statement + 1
                    return lines[n + 1][0], 1
                if b == 0x3A:
                    statement += 1
                    at_start = True
                    i += 1
                    continue
            if b != 0x20:
                at_start = False
            i += 1
    raise AssertionError("the program has no RANDOMIZE statement")


@dataclass(frozen=True)
class Step:
    """A wait of the first session as our machine met it, and the answer given to it."""
    kind: str           # 'input' or 'inkey' / 'pause'
    line: int
    statement: int
    answer: str
    memory: bytes       # the 64K at the wait (screen, fonts, program)

    @property
    def rows(self) -> list[str]:
        return [r.rstrip() for r in read_screen(self.memory, font_text=koi7_char).rows]


@dataclass(frozen=True)
class Session:
    tape: bytes
    seed_at: tuple[int, int]
    steps: tuple[Step, ...]      # the waits before the deal, each answered
    deal: Step                   # the first wait after DEAL_LINE (not answered)


def new_machine() -> Spectrum48:
    m = Spectrum48(fast=True)
    m.boot()
    return m


def start_loading(machine: Spectrum48, tape: bytes) -> None:
    machine.insert_tape(read_tap(tape))
    Typist(machine).type_codes(LOAD_COMMAND)


def answer(machine: Spectrum48, kind: str, text: str) -> None:
    if kind == "input":
        Typist(machine).answer(text)
    else:
        machine.tap(text or "ENTER")


@functools.lru_cache(maxsize=None)
def first_session(tape: bytes) -> Session:
    """Our machine from LOAD "" to the wait after the first deal, SEED fixed after RANDOMIZE."""
    program = read_tap(tape)[1].data
    seed_at = after_randomize(program)
    m = new_machine()
    start_loading(m, tape)
    m.run_until_line(*seed_at, max_frames=5000)
    m.poke("SEED", SEED)
    steps, answers = [], list(ANSWERS)
    while True:
        stop = m.run(100_000, until_line=(DEAL_LINE, None), until_wait=True, what=f"line {DEAL_LINE}")
        if stop.kind == "line":
            break
        assert stop.kind == "wait" and stop.wait.kind != "editor", f"the session stopped: {stop}"
        assert answers, f"no answer left for the wait at {stop.wait}"
        steps.append(Step(stop.wait.kind, stop.wait.line, stop.wait.statement, answers[0], bytes(m.mem)))
        answer(m, stop.wait.kind, answers.pop(0))
    stop = m.run_until_wait(100_000)
    assert stop.kind == "wait", f"after the deal the program did not wait: {stop}"
    deal = Step(stop.wait.kind, stop.wait.line, stop.wait.statement, "", bytes(m.mem))
    return Session(tape, seed_at, tuple(steps), deal)


def tool(name: str) -> str:
    """A SkoolKit script of the venv, or a command on PATH; skips the test with the reason if missing."""
    venv = VENV_BIN / name
    if venv.exists():
        return str(venv)
    found = shutil.which(name)
    if not found:
        pytest.skip(f"{name} is not installed (tools/install-system-deps.sh installs the Debian tools)")
    return found


def run_tool(*args, timeout: float = 300) -> str:
    done = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{args[0]} failed ({done.returncode}):\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return done.stdout


TAP2SNA_ROM_LOAD = ("-c", "fast-load=0", "-c", "finish-tape=1", "-s", "0x1B76")   # the ROM's LD-BYTES on the pulses; stop at STMT-RET after the tape


def tap2sna(tape_file: Path, out: Path) -> Spectrum48:
    """Load *tape_file* with SkoolKit's tap2sna (the ROM loader reading the tape's pulses) and restore it here."""
    run_tool(tool("tap2sna.py"), *TAP2SNA_ROM_LOAD, tape_file, out)
    return z80snap.load(out, fast=True)


# ---------------------------------------------------------------- Fuse
FUSE_TOOLS = ("fuse-sdl", "Xvfb", "xdotool", "xwd", "fmfconv")
INSTALLER = ROOT / "tools" / "install-system-deps.sh"
ROM = ROOT / "roms" / "48.rom"
STARTS = 3              # attempts at starting Fuse (see test_fuse.Fuse._launch)


def tools_or_skip(tools: tuple[str, ...], packages: str) -> None:
    """Skip the test (with the Debian *packages* to install) unless every one of *tools* is on PATH, once
    tools/install-system-deps.sh has been run to try."""
    missing = [t for t in tools if not shutil.which(t)]
    if missing:
        subprocess.run(["bash", str(INSTALLER)], timeout=1200, capture_output=True)
        missing = [t for t in tools if not shutil.which(t)]
    if missing:
        pytest.skip(f"{', '.join(missing)} missing and could not be installed (Debian packages {packages})")


@pytest.fixture(scope="module", autouse=True)
def fuse_tools():
    tools_or_skip(FUSE_TOOLS, "fuse-emulator-sdl fuse-emulator-utils xvfb xdotool x11-apps")


def read_xwd(data: bytes) -> np.ndarray:
    """RGB pixels of an XWD dump (ZPixmap, 24 or 32 bits per pixel, as xwd writes from Xvfb)."""
    f = struct.unpack(">25I", data[:100])
    header_size, width, height, byte_order = f[0], f[4], f[5], f[7]
    bits_per_pixel, bytes_per_line, masks, ncolors = f[11], f[12], f[14:17], f[19]
    if f[2] != 2 or bits_per_pixel not in (24, 32):
        raise ValueError(f"XWD format {f[2]} with {bits_per_pixel} bits per pixel is not handled")
    step = bits_per_pixel // 8
    start = header_size + 12 * ncolors
    rows = np.frombuffer(data[start:start + bytes_per_line * height], np.uint8).reshape(height, bytes_per_line)
    px = rows[:, :width * step].reshape(height, width, step).astype(np.uint32)
    order = range(step) if byte_order else range(step - 1, -1, -1)      # MSB first or LSB first
    words = np.zeros((height, width), np.uint32)
    for i in order:
        words = words << 8 | px[:, :, i]
    out = []
    for mask in masks:
        shift = (mask & -mask).bit_length() - 1
        out.append(((words & mask) >> shift).astype(np.uint8))
    return np.stack(out, axis=2)


# ---------------------------------------------------------------- the careless player of the play window
SELECTOR = (3725, 3730, 3750)      # the card selector 3700
CLAIM = 4780                       # INPUT of the points claimed in the show (muggins)
GO_CONFIRM = 2755                  # «ЕСЛИ НЕЧЕМ ХОДИТЬ, НАЖМИТЕ ENTER»: the empty slot chosen again says go


def choose(s: PlaySession, n: int):
    """At the card selector: confirm a go, else move the pointer 0-3 places and choose."""
    from play_keys import keys
    if s.machine.gosub_stack()[0][0] == GO_CONFIRM:
        return keys(s, "ENTER")
    return keys(s, *(["SPACE"] * (n % 4)), "ENTER")


def answer_wait(s: PlaySession, w, n: int) -> None:
    """One wait answered: claims of 10 and 4 in turn, N to questions, the pointer moved 0-3 places (refused
    cards and false goes included), any key."""
    from play_keys import keys
    if w.kind == "input":
        keys(s, *(("1", "0") if n % 2 else ("4",)), "ENTER") if w.line == CLAIM else keys(s, "N", "ENTER")
    elif w.line in SELECTOR:
        choose(s, n)
    else:
        keys(s, "ENTER")


def play_through(s: PlaySession, until_deal: int, muggins: str = "Y", on_wait=None, max_waits: int = 400) -> None:
    """Answer every wait (no instructions; claims right and wrong in turn) until deal *until_deal* is dealt,
    calling *on_wait(s, wait)* at each wait first."""
    from harness.program.records.events import Deal
    from play_keys import keys
    keys(s, "N", "ENTER")
    keys(s, muggins, "ENTER")
    n = 0
    for _ in range(max_waits):
        if any(isinstance(e, Deal) and e.n >= until_deal for e in s.referee.events):
            return
        w = s.waiting()
        if on_wait is not None:
            on_wait(s, w)
        n += 1
        answer_wait(s, w, n)
    raise AssertionError(f"deal {until_deal} not reached in {max_waits} waits")


def autoplay(s: PlaySession, until_deal: int, muggins: str = "N", max_waits: int = 400) -> None:
    """The careless person without muggins by default: `play_through` answering every wait."""
    play_through(s, until_deal, muggins, max_waits=max_waits)


def texts(referee, tone: str | None = None) -> list[str]:
    """The referee's panel lines as a person sees them now, of one tone or all."""
    return [line.text for line in referee.lines() if tone is None or line.tone == tone]


# ---------------------------------------------------------------- faults planted in a run's records
def shift_action(path: Path, judged: str, shift: int) -> tuple[int, dict]:
    """Planted in a judgements file: the first judgement of *judged* points *shift* events off its action;
    its line number (its number in check_actions' words) and its record as planted."""
    lines = path.read_text(encoding="utf-8").splitlines()
    n, rec = next((n, json.loads(line)) for n, line in enumerate(lines) if n and json.loads(line)["judged"] == judged)
    rec["action_at"] += shift
    lines[n] = json.dumps(rec, ensure_ascii=False, sort_keys=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return n, rec


def watch_console(page, problems: list[str]) -> None:
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url}"))
    page.on("response", lambda r: problems.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None)


def copy_run(run: Path, to: Path) -> Path:
    """A copy of a run folder to write its pages again: its records, not its pages or plots."""
    shutil.copytree(run, to, ignore=shutil.ignore_patterns("*.html", "plots"))
    return to


def plant_recording(folder: Path, game: str, rzx: bytes) -> None:
    """*rzx* (a recording damaged on purpose: a frame changed) put in place of *game*'s RZX in a run folder, and
    its frames file made to name it (its rzx_sha256), so that the pages take it for the game's own recording
    (records/frames.py refuses the frames of another) and what is tested is the player's check of the frames."""
    (folder / f"{game}.rzx").write_bytes(rzx)
    frames = folder / f"{game}.frames.json"
    record = json.loads(frames.read_text(encoding="utf-8"))
    record["rzx_sha256"] = hashlib.sha256(rzx).hexdigest()
    frames.write_text(json.dumps(record, separators=(",", ":")) + "\n", encoding="utf-8")


def to_an_empty_slot_under_22(s: PlaySession) -> tuple[list[int], int]:
    """From the first question (the tests start seed 99): discard slots 1 and 2, lay the first card held, say go when stuck (an empty slot twice), until
    the player's turn has an empty slot and a count under 22; the slots' B() and the count there."""
    from harness.program.model import program as P
    from harness.spectrum.variables import BasicVariables
    from play_keys import keys
    keys(s, "N", "ENTER")
    keys(s, "N", "ENTER")
    for _ in range(40):
        w, caller = s.waiting(), s.caller()
        if w.line in P.SELECTOR_WAITS and caller == P.SELECT_PLAY:
            v = BasicVariables(s.machine)
            slots, count = [int(b) for b in v.get("B()")][:4], int(v.number("SUM"))
            if 0 in slots and count < 22:
                return slots, count
            keys(s, *["SPACE"] * slots.index(0 if 0 in slots and count >= 22 else 1), "ENTER")
        elif w.line in P.SELECTOR_WAITS and caller == P.SELECT_SECOND_DISCARD:
            keys(s, "SPACE", "ENTER")
        else:
            keys(s, "ENTER")
    raise AssertionError("no turn with an empty slot under 22")


# ---------------------------------------------------------------- stand-in games for regress (conftest's stand_in_games)
STAND_IN_TEMPLATE: list = []          # one real game's record: the stand-ins have the shape regress expects


def stand_in_game(job):
    """A stand-in for regress.play_one: game 1 raises, game 2 says it started, game 3 runs out of its budget,
    the others are copies of the real game under their own index, seed and player."""
    import dataclasses
    index, seed, strategy = job.index, job.seed, job.strategy
    if index == 1:
        raise RuntimeError(f"the driver lost track at deal 3\n(details of game {index})")
    if index == 2:
        print("game 2 started", file=sys.stderr, flush=True)
    return dataclasses.replace(STAND_IN_TEMPLATE[0], index=index, seed=seed, strategy=strategy,
                               failure="budget of 60 s exceeded at deal 9" if index == 3 else None)


# ------------------------------------------------------------------ the two editions (test_english*.py)
def literal_mask(body: bytes) -> list[bool]:
    """True for every byte of a line body inside a string literal or a REM's text (quotes excluded): an
    independent scan of the bytes, not the tokeniser's."""
    mask = [False] * len(body)
    in_string = False
    i = 0
    while i < len(body) - 1:
        b = body[i]
        if in_string:
            if b == 0x22:
                in_string = False
            else:
                mask[i] = True
        elif b == 0x22:
            in_string = True
        elif b == 0xEA:                       # REM: the rest of the line but its 0x0D
            for k in range(i + 1, len(body) - 1):
                mask[k] = True
            break
        elif b == 0x0E:                       # a hidden number: 5 bytes that may look like anything
            i += 5
        i += 1
    return mask


def differences_outside_literals(ru: bytes, en: bytes) -> list[str]:
    """Where two program areas differ other than inside strings and REMs (empty if nowhere)."""
    a, b = split_program(ru), split_program(en)
    if [n for n, _ in a] != [n for n, _ in b]:
        return ["the line numbers differ"]
    found = []
    for (number, x), (_, y) in zip(a, b):
        if len(x) != len(y):
            found.append(f"line {number}: {len(x)} bytes, {len(y)} in the English")
            continue
        mask_x, mask_y = literal_mask(x), literal_mask(y)
        found += [f"line {number} byte {i}: {x[i]:#04x} -> {y[i]:#04x}"
                  for i in range(len(x)) if (x[i] != y[i] or mask_x[i] != mask_y[i]) and not (mask_x[i] and mask_y[i])]
    return found


RANKS_EN = {"Т": "A", "В": "J", "Д": "Q", "К": "K"}     # R$ at 7320: the ace and the court cards, Russian -> English


@functools.lru_cache(maxsize=None)
def driven_game(tape: bytes, seed: int, strategy: str):
    """The project's driver playing *tape* (either edition) with one of its players."""
    from harness.program.observe.driver import GameDriver
    from harness.program.observe.players import PLAYERS
    from harness.spectrum.loading import load_tape
    m = Spectrum48(fast=True)
    m.boot()
    load_tape(m, read_tap(tape))
    return GameDriver(m, PLAYERS[strategy](seed=seed), seed=seed).play()


def rank_letters_only(diff: dict) -> bool:
    """A hand-slot screen difference that is only the English rank letter where the Russian model expects its own."""
    expected, observed = diff["expected"], diff["observed"]
    return (diff["kind"] == "screen" and diff["cause"] == "screen hand"
            and isinstance(expected, str) and len(expected) == len(observed) == 2
            and RANKS_EN.get(expected[0]) == observed[0] and expected[1] == observed[1])


# ------------------------------------------------------------------ the window's recorded game (test_play_rzx*.py)
def to_the_discard(s: PlaySession) -> None:
    """From the first question to the card selector of the first discard (the window's recorded game)."""
    from harness.program.model import program as P
    from play_keys import keys
    keys(s, "N", "ENTER")
    keys(s, "N", "ENTER")
    keys(s, "M")                                          # the cut, then «ВЫ СДАЕТЕ» or «Я СДАЮ»
    for _ in range(4):
        if s.waiting().line in P.SELECTOR_WAITS:
            return
        keys(s, "ENTER")


def play_a_while(s: PlaySession) -> dict[str, bytes]:
    """To the discard, both cards laid, the play, to «ВСКРЫВАЮ КРИБ?» after the hands' show: a still screen (the
    card selector's pointer flashes by PRINT, so a recording ending there ends on either of two screens)."""
    from harness.program.model import program as P
    to_the_discard(s)
    screens = {"discard": s.machine.read(0x4000, 0x1B00)}
    for n in range(60):
        w = s.waiting()
        if w.line == P.SHOW_PAUSE:
            break
        answer_wait(s, w, n)
    assert s.waiting().line == P.SHOW_PAUSE
    s.step(50)                                            # a second of the still wait
    return screens


# ------------------------------------------------------------------ Ctrl-C to a run (test_regress_runs*.py)
def interrupt_when(proc, ready, timeout=120):
    """Ctrl-C to a running command once *ready()*: it must stop within 10 s and take its workers with it."""
    import psutil
    deadline = time.monotonic() + timeout
    while not ready():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the run never got going"
        time.sleep(0.2)
    workers = psutil.Process(proc.pid).children(recursive=True)
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail("Ctrl-C did not stop the run within 10 s")
    gone, alive = psutil.wait_procs(workers, timeout=5)
    assert alive == [], "workers outlived the run"
    return out, err


# ------------------------------------------------------------------ strength runs (test_strength_runs*.py)
STRENGTH_OPPONENTS = ("ev", "greedy")
STRENGTH_ENGINE_GAMES = 10


def without_run(report: dict) -> dict:
    """A strength report without its "run" part (times, workers, scheduler): the figures alone."""
    return {k: v for k, v in report.items() if k != "run"}


def strength_transcripts(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(out.glob("game-*.jsonl"))}


# ------------------------------------------------------------------ whole games from the loaded tape (test_game.py, test_full_games.py)
def play_from(snapshot, player, seed, **kwargs):
    """The driver and its record of a game played from *snapshot* (the program's first question)."""
    from harness.program.observe.driver import DriverOptions, GameDriver
    m = Spectrum48(fast=True)
    m.restore(snapshot)
    driver = GameDriver(m, player, seed=seed, options=DriverOptions(**kwargs))
    return driver, driver.play()


def scores_of(rec, context):
    """(who, points) of each score event of *context* ("play", "go", "show", "reset", ...) in a game's record."""
    from harness.program.records.events import Score
    return [(e.who, e.points) for e in rec.events if isinstance(e, Score) and e.context == context]


# ------------------------------------------------------------------ a machine-code RZX recording (test_rzx*.py)
def machine_code_recording(booted_snapshot, frames: int = 150):
    """A booted machine running LD IX,0 / IN A,(254) / JR back: prefixed instructions, port reads, interrupts."""
    from harness.spectrum.recording import RzxRecorder, recording_machine
    m = recording_machine()
    m.restore(booted_snapshot)
    m.write(0x8000, bytes([0xDD, 0x21, 0x00, 0x00, 0xDB, 0xFE, 0x18, 0xF8]))
    m.cpu.pc = 0x8000
    rec = RzxRecorder(m)
    rec.start()
    m.run_frames(frames)
    return m, rec, rec.stop()


# ------------------------------------------------------------------ the pack's files (test_pack*.py)
RU_TZX, EN_TZX = "Kribedzh (19xx)(-)(ru).tzx", "Kribedzh (19xx)(-)(en)[tr en].tzx"
RU_Z80, EN_Z80 = "Kribedzh (19xx)(-)(ru).z80", "Kribedzh (19xx)(-)(en)[tr en].z80"
RZX = "Kribedzh (19xx)(-)(ru)[rzx regress game 0 seed 1].rzx"
PNG = RZX.removesuffix(".rzx") + ".png"
SOURCES = ["Kribedzh (19xx)(-)(ru).bas", "chr_font.txt", "translation.tsv"]
LISTED = [RU_TZX, EN_TZX, RU_Z80, EN_Z80, RZX, PNG, *SOURCES, "readme.txt"]
