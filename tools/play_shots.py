"""Writes the screenshots of `cribbage-zx play` kept in docs/figures/: the status line (and why an ENTER on an
empty slot was ignored), the key help, the hint, and the honest referee's panel on the Russian and the English
tapes.

The window's picture is `PlaySession.surface()`, the same pixels the window shows (tests/test_play_xvfb*.py
compare them with photos of the real window), drawn here with SDL's dummy driver, no display needed:

    .venv/bin/python -m tools.play_shots [--out docs/figures]
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from harness.runtime import atomic
from harness.program.model.build import build
from harness.program.model import program as P
from harness.program.records.events import Deal
from harness.play.session import PlaySession
from harness.play.settings import PlaySettings

ROOT = Path(__file__).resolve().parent.parent
SEED = 99


def keys(s: PlaySession, *names: str):
    for name in names:
        s.tap(name)
    return s.run_until_wait()


def answer(s: PlaySession, w, n: int) -> None:
    if w.kind == "input":
        keys(s, *(("1", "0") if n % 2 else ("4",)), "ENTER") if w.line == P.ASK_CLAIM else keys(s, "N", "ENTER")
    elif w.line in P.SELECTOR_WAITS:
        keys(s, "ENTER") if s.caller() == P.SELECT_GO_CONFIRM else keys(s, *(["SPACE"] * (n % 4)), "ENTER")
    else:
        keys(s, "ENTER")


def save(surface, path: Path) -> None:
    import pygame                            # imported first by main, after SDL's settings
    with atomic.open_for_replace(path) as f:
        pygame.image.save(surface, f, path.name)
    print(f"wrote {path}")


def to_discard(tape: Path, scale: int, **kw) -> PlaySession:
    s = PlaySession(PlaySettings(tape=tape, seed=SEED, scale=scale, **kw))
    keys(s, "N", "ENTER")
    keys(s, "Y", "ENTER")
    keys(s, "M")
    return s


def to_claim(tape: Path, scale: int) -> PlaySession:
    """The first claim of a muggins game, honest referee: the crib and the claim's count veiled."""
    s = to_discard(tape, scale, referee="honest")
    for n in range(300):
        w = s.waiting()
        if w.kind == "input" and w.line == P.ASK_CLAIM:
            return s
        answer(s, w, n)
    raise RuntimeError("no claim within 300 waits")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "figures")
    args = parser.parse_args(argv)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")        # no display needed: read when pygame is imported
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame
    with tempfile.TemporaryDirectory() as tmp:
        tapes = {}
        for lang in ("ru", "en"):
            tapes[lang] = Path(tmp) / f"cribbage-{lang}.tap"
            tapes[lang].write_bytes(build(lang=lang).tap)
        pygame.display.init()
        s = PlaySession(PlaySettings(tape=tapes["en"], seed=SEED, scale=1))
        keys(s, "N", "ENTER")
        keys(s, "N", "ENTER")                                  # the cut: the status line says what to do
        save(s.surface(), args.out / "play-status.png")
        save(_help(tapes["en"]), args.out / "play-help.png")
        s = to_discard(tapes["ru"], 2, referee="honest")
        s.hint_on = True
        assert any(isinstance(e, Deal) for e in s.referee.events)
        save(s.surface(), args.out / "play-hint.png")
        save(to_claim(tapes["ru"], 2).surface(), args.out / "play-referee.png")
        save(to_claim(tapes["en"], 2).surface(), args.out / "play-referee-en.png")
        save(to_ignored_go(tapes["en"]).surface(), args.out / "play-ignored-go.png")
        pygame.quit()
    return 0


def to_ignored_go(tape: Path, record: Path | None = None) -> PlaySession:
    """Seed 99 at scale 2 (as tests/helpers.py's to_an_empty_slot_under_22 plays it): slots 1 and 2 discarded,
    the first card held laid, go when stuck, until a turn with an empty slot under 22; then ENTER on it (with
    *record*, the keys kept there: close() the session to write them)."""
    from harness.spectrum.variables import BasicVariables
    s = PlaySession(PlaySettings(tape=tape, seed=99, scale=2, record=record))
    keys(s, "N", "ENTER")
    keys(s, "N", "ENTER")
    for _ in range(40):
        w, caller = s.waiting(), s.caller()
        if w.line in P.SELECTOR_WAITS and caller == P.SELECT_PLAY:
            v = BasicVariables(s.machine)
            slots, count = [int(b) for b in v.get(P.V_HELD)][:4], int(v.number(P.V_COUNT))
            if 0 in slots and count < P.GO_THRESHOLD:
                keys(s, *["SPACE"] * slots.index(0), "ENTER")
                assert s.ignored_go == count
                return s
            keys(s, *["SPACE"] * slots.index(0 if 0 in slots else 1), "ENTER")
        elif w.line in P.SELECTOR_WAITS and caller == P.SELECT_SECOND_DISCARD:
            keys(s, "SPACE", "ENTER")
        else:
            keys(s, "ENTER")
    raise RuntimeError("no turn with an empty slot under 22 within 40 waits")


def _help(tape: Path):
    s = PlaySession(PlaySettings(tape=tape, seed=SEED, scale=2))
    s.help_on = True
    return s.surface()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
