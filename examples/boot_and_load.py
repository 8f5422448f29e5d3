"""Boot the embedded 48K Spectrum and LOAD "" the game's tape, as a person would; print the screen it shows.

    python examples/boot_and_load.py [TAPE]                 # default: build/cribbage.tap (built when stale)
"""
import sys

from harness.program import ensure_tape
from harness.spectrum import Spectrum48, koi7_char, load_tape, read_screen, read_tap

tape = sys.argv[1] if len(sys.argv) > 1 else ensure_tape()      # the Russian original; lang="en": the English
blocks = read_tap(tape)                                          # header, program, header, the "chr" font
print(f"{tape}: {len(blocks)} blocks, program {len(blocks[1].data)} bytes")

machine = Spectrum48(fast=True)        # the Sinclair ROM and the z80 core; fast: no real-time pacing
machine.boot()                         # power on: the ROM runs to the © message and waits for a key
stop = load_tape(machine, blocks)      # J, "", ENTER; the tape traps serve each block; runs until a wait
print(f"stopped: {stop.kind} at line {stop.wait.line} after {machine.frames} frames")

screen = read_screen(machine.mem, font_text=koi7_char)   # the game's own font holds KOI-7 Cyrillic
for row in screen.rows:
    if row.strip():
        print(row.rstrip())
