"""Photographs the real play window under Xvfb for docs/: a Russian message with its English on the panel
(docs/figures/play-translated-message.png) and a verdict on the panel at the wait after its score is pegged
(docs/figures/play-verdict-moment.png, «ВСКРЫВАЮ КРИБ?» with the show just judged).

The game is played in-process (`PlaySession`'s keys) to the moment, then `Window` opens on a private Xvfb
(SDL's X11 driver, as a person's window) and `xwd` photographs it:

    .venv/bin/python -m tools.play_xvfb_shots [--out docs]
"""
from __future__ import annotations

import argparse
import os
import select
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tools import import_oracle_helpers

ROOT = Path(__file__).resolve().parent.parent
SEED = 99
SCALE = 2


def start_xvfb() -> subprocess.Popen:
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", "1", "-screen", "0", "1400x700x24", "-nolisten", "tcp"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    ready, _, _ = select.select([xvfb.stdout], [], [], 30)
    if not ready:
        xvfb.kill()
        raise SystemExit("Xvfb did not report its display within 30 s")
    os.environ["DISPLAY"] = ":" + xvfb.stdout.readline().decode().strip()
    os.environ["SDL_VIDEODRIVER"] = "x11"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    return xvfb


def photograph(session, path: Path) -> None:
    """Open the window on the session, let it draw, photograph it with xwd (the window at 0,0: no window
    manager), crop to its size, save as PNG."""
    from PIL import Image
    from harness.play.window import Window
    from harness.runtime import atomic
    import_oracle_helpers()
    from test_fuse import read_xwd
    window = Window(session)
    try:
        end = time.monotonic() + 1.5
        while time.monotonic() < end:
            for event in window.pygame.event.get():
                window.handle(event)
            window._shown = None              # draw again: the first frames may come before the window maps
            window.present()
            time.sleep(0.1)
        tree = subprocess.run(["xwininfo", "-root", "-children"], capture_output=True, text=True, timeout=30,
                              check=True).stdout
        ids = [line.split()[0] for line in tree.splitlines() if "cribbage-zx play" in line]
        if not ids:
            raise SystemExit(f"no play window on the display: {tree}")
        shot = subprocess.run(["xwd", "-id", ids[0], "-silent"], capture_output=True, timeout=30, check=True).stdout
    finally:
        window.close()
    pixels = read_xwd(shot)
    w, h = session.size
    image = Image.fromarray(pixels[:h, :w])
    with atomic.open_for_replace(path) as f:
        image.save(f, "PNG")
    print(f"wrote {path}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "figures")
    args = parser.parse_args(argv)
    xvfb = start_xvfb()
    try:
        from harness.program.model import program as P
        from harness.program.model.build import build
        from harness.play.session import PlaySession
        from harness.play.settings import PlaySettings
        from play_keys import keys
        from test_play_honest import answer
        with tempfile.TemporaryDirectory() as tmp:
            tape = Path(tmp) / "cribbage.tap"
            tape.write_bytes(build().tap)
            s = PlaySession(PlaySettings(tape=tape, seed=SEED, scale=SCALE))
            keys(s, "N", "ENTER")
            keys(s, "N", "ENTER")
            keys(s, "M")                                   # the cut: «ВЫ СДАЕТЕ» or «Я СДАЮ» on the message line
            said = [l.text for l in s.panel_lines() if l.tone == "translation"]
            if not any("СДАЕТЕ" in t or "СДАЮ" in t for t in said):
                raise SystemExit(f"no dealer's message on the panel at the first wait after the cut: {said}")
            photograph(s, args.out / "play-translated-message.png")
            s = PlaySession(PlaySettings(tape=tape, seed=SEED, scale=SCALE, referee="honest"))
            keys(s, "N", "ENTER")
            keys(s, "N", "ENTER")
            for n in range(200):
                w = s.waiting()
                if w.line == P.SHOW_PAUSE:
                    break
                answer(s, w, n)
            else:
                raise SystemExit("«ВСКРЫВАЮ КРИБ?» not reached in 200 waits")
            photograph(s, args.out / "play-verdict-moment.png")
    finally:
        xvfb.terminate()
        xvfb.wait(timeout=20)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
