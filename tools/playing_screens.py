"""Screenshots for docs/PLAYING.md: one game of either edition played by the harness, a PNG at each kind of wait.

The game is played on a fresh embedded 48K with the tape built from the
listing, by a plain player of its own that asks for the instructions and
plays under muggins; the display at the first wait of each kind listed in
SHOTS is kept: what a person sees when the program asks for something. Deterministic: the same seed gives the same
pictures.

    .venv/bin/python -m tools.playing_screens --lang en --out docs/figures/screens
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from harness.program.model.build import build
from harness.spectrum.loading import load_tape
from harness.spectrum.machine import FRAME_S, Spectrum48, StopReason
from harness.spectrum.screen import render
from harness.spectrum.tape import read_tap
from harness.spectrum.typist import Typist
from harness.spectrum.variables import BasicVariables, ForLoop

ROOT = Path(__file__).resolve().parents[1]

#: (wait kind, BASIC line, who called the card selector or None) -> file name stem
SHOTS = {
    ("input", 7060, None): "welcome",
    ("pause", 9065, None): "instructions",
    ("pause", 9090, None): "board-demo",
    ("input", 7405, None): "muggins",
    ("inkey", 4925, None): "cut",
    ("inkey", 3725, 7860): "discard",
    ("inkey", 3725, 2720): "play",
    ("inkey", 3725, 2755): "go",
    ("input", 4780, None): "claim",
    ("pause", 4661, None): "show",
    ("inkey", 8105, None): "next-deal",
    ("pause", 8270, None): "final-board",
    ("input", 8320, None): "again",
}
SEED = 7
SELECTOR_LINES = (3725, 3730, 3750)     # the card selector 3700 polling INKEY$


def _fn_t(rank: float) -> int:
    """DEF FN T (line 60): a card's value in the count."""
    return 10 if rank > 9 else int(rank)


class SimplePlayer:
    """A plain player of its own (no dependence on the game driver): lays the first card that fits,
    says go only when none does, discards the first two cards, claims the true count under muggins."""

    def __init__(self, machine: Spectrum48):
        self.m = machine
        self.v = BasicVariables(machine)
        self.discarded = 0

    def num(self, name: str):
        value = self.v.get(name)
        return value.value if isinstance(value, ForLoop) else value

    def key(self, wait) -> str | None:
        """The key for an INKEY$/PAUSE wait, or None for an INPUT (answered by `text`)."""
        if wait.line in SELECTOR_LINES:
            return self.select(self.m.gosub_stack()[0][0])
        return {9090: "SPACE"}.get(wait.line, "ENTER")

    def select(self, caller: int) -> str:
        if caller in (7860, 7870):
            target = 1 if caller == 7860 else 2
        elif caller == 2755:
            target = int(self.num("HGO"))
        else:
            ranks, held, count = self.num("A()"), self.num("B()"), int(self.num("SUM"))
            fits = [i + 1 for i in range(4) if held[i] and count + _fn_t(ranks[i]) <= 31]
            target = fits[0] if fits else next(i + 1 for i in range(4) if not held[i])
        return "ENTER" if int(self.num("X")) == target else "SPACE"

    def text(self, line: int) -> str:
        if line == 4780:
            return str(int(sum(self.num(n) for n in ("S", "P", "F", "FL", "NOB"))))
        return {7060: "Y", 7405: "Y"}.get(line, "N")


def play_game(tape: bytes, seed: int, on_wait=None, max_actions: int = 3000) -> tuple[StopReason, Spectrum48]:
    """Load *tape* in a fresh 48K and play one game with `SimplePlayer`, SEED set after RANDOMIZE;
    *on_wait(machine, wait)* sees every wait before it is answered. Returns how the program stopped, and the machine."""
    m = Spectrum48(fast=True)
    m.boot()
    load_tape(m, read_tap(tape))
    m.poke("SEED", seed)                     # the loaded program waits at 7060, after RANDOMIZE (7005)
    bot = SimplePlayer(m)
    for _ in range(max_actions):
        stop = m.run(30_000, until_wait=True, what="the program waiting for a key")
        if stop.kind != "wait":
            return stop, m
        if on_wait is not None:
            on_wait(m, stop.wait)
        if stop.wait.kind == "input":
            Typist(m).answer(bot.text(stop.wait.line))
        else:
            m.tap(bot.key(stop.wait))
    raise RuntimeError(f"the game did not end within {max_actions} actions")


def play(lang: str, seed: int = SEED) -> dict[str, object]:
    """Play one game; return {stem: RGB array} for the first wait of each kind in SHOTS."""
    shots: dict[str, object] = {}

    def keep(m: Spectrum48, w) -> None:
        caller = m.gosub_stack()[0][0] if w.line in SELECTOR_LINES else None
        stem = SHOTS.get((w.kind, 3725 if caller else w.line, caller))
        if stem and stem not in shots:
            shots[stem] = render(m.mem, border=m.s.border, scale=2)

    play_game(build(lang=lang).tap, seed, keep)
    return shots


def print_think_times(lang: str, seeds=(3, 7, 11)) -> None:
    """Emulated seconds from 7830 (GO SUB 500) to 7840 (the discards chosen) and from 3225 to 3560 (a card chosen)."""
    spans = {"discard": (7830, 7840), "card": (3225, 3560)}
    times: dict[str, list[float]] = {k: [] for k in spans}
    started: dict[str, int] = {}

    def on_wait(m: Spectrum48, w) -> None:
        if not getattr(m, "_think_hook", False):
            def hook(line: int, stmt: int) -> bool:
                for name, (begin, end) in spans.items():
                    if stmt == 1 and line == begin:
                        started[name] = m.frames
                    elif stmt == 1 and line == end and name in started:
                        times[name].append((m.frames - started.pop(name)) * FRAME_S)
                return False
            m.add_statement_hook(hook)
            m._think_hook = True

    for seed in seeds:
        play_game(build(lang=lang).tap, seed, on_wait)
    for name, values in times.items():
        values.sort()
        print(f"{name}: {len(values)} times, min {values[0]:.1f} s, median {values[len(values) // 2]:.1f} s, "
              f"max {values[-1]:.1f} s (emulated, no contended memory)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", choices=("ru", "en"), default="en")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "figures" / "screens")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--think", action="store_true",
                        help="print how long the computer thinks (emulated seconds) over three games instead")
    args = parser.parse_args(argv)
    if args.think:
        print_think_times(args.lang)
        return 0
    from PIL import Image
    args.out.mkdir(parents=True, exist_ok=True)
    shots = play(args.lang, args.seed)
    for stem in SHOTS.values():
        if stem not in shots:
            print(f"{stem}: not reached in this game", file=sys.stderr)
            continue
        path = args.out / f"{args.lang}-{stem}.png"
        tmp = path.with_suffix(".tmp.png")
        Image.fromarray(shots[stem], "RGB").save(tmp)
        tmp.replace(path)
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
