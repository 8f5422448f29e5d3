"""The golden screens: «КРИБЕДЖ»'s display at named moments of a fixed-seed game, stored and checked.

    .venv/bin/python -m tools.golden_screens        # play the game again and rewrite every golden screen

For each moment (the welcome prompt, the cut for deal, the discard, a show, the final board, the games
tally) it keeps the 6,912 bytes of the display file (tests/data/golden/NAME.scr), their CRC32 and what the
moment is (tests/data/golden/golden.json), and a PNG of it (docs/golden/NAME.png, with an index in
docs/golden/README.md). tests/test_golden.py plays the same game and checks every CRC, and that each PNG
shows its .scr. A change to the listing, the font, the ROM or the emulator that changes what a person
sees fails that test until this command is run again (and the new screens looked at). The game's
transcript, pictures and all, is kept too (tests/data/golden/transcript.jsonl): the screen detectors'
tests plant their faults in it.
"""
from __future__ import annotations

import json
import sys
import zlib
from pathlib import Path

from harness.runtime import atomic

ROOT = Path(__file__).resolve().parents[1]

DATA = ROOT / "tests" / "data" / "golden"
PNGS = ROOT / "docs" / "golden"
SEED, STRATEGY = 7, "random"
# name -> (the picture's moment, which occurrence, what a person sees then)
MOMENTS = {
    "welcome": ("input 7060", 1, "«ДОБРО ПОЖАЛОВАТЬ / ВАМ НУЖНА ИНСТРУКЦИЯ? (Y/N):», the first question (7060)"),
    "cut": ("cut", 1, "the cut for deal: both cards face up over their packs, «МЛАДШАЯ КАРТА СДАЕТ» (7430-7450)"),
    "discard": ("select 7860", 1, "the six cards dealt, the computer's four face down, «ВЫБЕРИТЕ 2 КАРТЫ» (7840-7860)"),
    "play": ("select 2720", 2, "the play: cards laid in both rows, the count «ВСЕГО», the starter on the pack (2720)"),
    "show": ("pause 4661", 1, "both hands shown with their counts, «ВСКРЫВАЮ КРИБ?» (4500-4661)"),
    "final-board": ("pause 8270", 1, "the final board: the winner's flag, «НАЖМИТЕ ЛЮБУЮ КЛАВИШУ» (8200-8270)"),
    "tally": ("input 8320", 1, "the games tally «СЧЕТ:» and «СЫГРАЕМ ЕЩЕ? (Y/N)» (8280-8320)"),
}
DISPLAY = slice(0x4000, 0x5B00)


def capture(seed: int = SEED, strategy: str = STRATEGY, record: list | None = None) -> dict[str, bytes]:
    """Play the game and return the display file at each moment of MOMENTS (its events into *record*)."""
    from harness.program.runs import loaded
    from harness.program.model.build import tape_bytes
    from harness.program.observe.driver import GameDriver
    from harness.program.observe.players import make

    loaded.init_worker(tape_bytes())
    m = loaded.worker_tape().machine()
    driver = GameDriver(m, make(strategy, seed), seed=seed)
    seen: dict[str, int] = {}
    shots: dict[str, bytes] = {}
    observe = driver.observer.observe_picture

    def observe_and_keep(moment: str, line: int) -> None:
        seen[moment] = seen.get(moment, 0) + 1
        for name, (want, nth, _) in MOMENTS.items():
            if want == moment and nth == seen[moment] and name not in shots:
                shots[name] = bytes(m.mem[DISPLAY])
        observe(moment, line)

    driver.observer.observe_picture = observe_and_keep
    rec = driver.play()
    if record is not None:
        record.extend(rec.events)
    missing = sorted(set(MOMENTS) - set(shots))
    if missing:
        raise SystemExit(f"tools/golden_screens.py: the game (seed {seed}, {strategy}) never reached {missing}")
    return shots


def crc(screen: bytes) -> str:
    return f"{zlib.crc32(screen):08x}"


def png_bytes(screen: bytes) -> bytes:
    """The screen as a PNG at twice the size, the border in the table's green (BORDER 4, 7010)."""
    import io

    import numpy as np
    from PIL import Image

    from harness.spectrum.screen import render
    mem = np.zeros(0x10000, dtype=np.uint8)
    mem[DISPLAY] = np.frombuffer(screen, dtype=np.uint8)
    buf = io.BytesIO()
    Image.fromarray(render(mem, border=4, scale=2), "RGB").save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def index_markdown(entries: dict) -> str:
    rows = ["# Golden screens", "",
            "Written by `.venv/bin/python tools/golden_screens.py`, with the pictures beside it; do not edit by hand.",
            "",
            f"«КРИБЕДЖ»'s screen at named moments of one fixed game (seed {SEED}, the {STRATEGY} player), "
            "stored as the 6,912 bytes of the display file (`tests/data/golden/*.scr`) with their CRC32 "
            "(`tests/data/golden/golden.json`). `tests/test_golden.py` plays the game again and checks every "
            "one; after a change that is meant to change a screen, run `.venv/bin/python tools/golden_screens.py` "
            "and look at the new pictures.", "",
            "| moment | CRC32 | what it shows | picture |", "| --- | --- | --- | --- |"]
    for name, e in entries.items():
        rows.append(f"| {name} (`{e['moment']}` #{e['occurrence']}) | `{e['crc32']}` | {e['shows']} | "
                    f"![{name}]({name}.png) |")
    return "\n".join(rows) + "\n"


def main() -> int:
    from harness.program.records.events import transcript_records, write_transcript
    events: list = []
    shots = capture(record=events)
    DATA.mkdir(parents=True, exist_ok=True)
    PNGS.mkdir(parents=True, exist_ok=True)
    entries = {}
    for name, (moment, nth, shows) in MOMENTS.items():
        screen = shots[name]
        atomic.write_bytes(DATA / f"{name}.scr", screen)
        atomic.write_bytes(PNGS / f"{name}.png", png_bytes(screen))
        entries[name] = {"moment": moment, "occurrence": nth, "crc32": crc(screen), "shows": shows}
    atomic.write_text(DATA / "golden.json", json.dumps({"seed": SEED, "strategy": STRATEGY, "screens": entries},
                                                       ensure_ascii=False, indent=1) + "\n")
    atomic.write_text(PNGS / "README.md", index_markdown(entries))
    # the game's transcript: the screen detectors' test data
    write_transcript(DATA / "transcript.jsonl", transcript_records(events, seed=SEED, player=STRATEGY))
    print(f"wrote {len(entries)} golden screens: {DATA.relative_to(ROOT)}, {PNGS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
