"""A screenshot of every kind of screen difference the original program shows, for docs/.

    nice -n 10 .venv/bin/python -m tools.screen_findings [--seed 40503 --strategy explorer ...]

Plays the games (by default the explorer game of tests/data/explorer-40503.jsonl and the golden game),
judges each picture as it is taken (the comparison, live) and keeps the screen of the first picture at which
each documented deviation (or an unexplained difference) of the screen shows: docs/figures/screen-D11.png ... .
Prints, for each, the game, the picture's moment and the difference.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from harness.runtime import atomic

ROOT = Path(__file__).resolve().parents[1]

GAMES = (("explorer", 40503), ("random", 7))


def find(strategy: str, seed: int, wanted: dict) -> None:
    import io

    from PIL import Image

    from harness.program.runs import loaded
    from harness.program.judge.compare import Comparator
    from harness.program.observe.driver import GameDriver
    from harness.program.records.events import Picture
    from harness.program.observe.players import make
    from harness.spectrum.screen import render

    m = loaded.worker_tape().machine()
    driver = GameDriver(m, make(strategy, seed), seed=seed)
    comparator = Comparator()
    record = driver.observer.sink

    fed = [0]

    def sink(ev) -> None:
        record(ev)                       # into the game's record, where the driver's own events are too
        closed = []
        for e in driver.rec.events[fed[0]:]:
            closed += comparator.feed(e)
        fed[0] = len(driver.rec.events)
        for j in closed:
            if not isinstance(j.action, Picture):
                continue
            for d in j.differences:
                key = d.deviation or "unexplained"
                if key not in wanted:
                    buf = io.BytesIO()
                    Image.fromarray(render(m.mem, border=m.s.border, scale=2), "RGB").save(buf, format="PNG")
                    wanted[key] = (buf.getvalue(), f"{strategy} seed {seed}, event {j.action_at}, "
                                                   f"{j.action.moment}: {d.observed!r} where {d.expected!r}")
    driver.observer.sink = sink
    driver.play()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "figures")
    args = parser.parse_args(argv)
    from harness.program.runs import loaded
    from harness.program.model.build import tape_bytes
    loaded.init_worker(tape_bytes())
    found: dict = {}
    for strategy, seed in GAMES:
        find(strategy, seed, found)
    for key, (png, where) in sorted(found.items()):
        path = args.out / f"screen-{key}.png"
        atomic.write_bytes(path, png)
        print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: {where}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
