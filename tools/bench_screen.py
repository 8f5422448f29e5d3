"""What judging the screen costs a game: CPU seconds with the pictures taken and judged, and without.

    nice -n 10 .venv/bin/python -m tools.bench_screen [--games 3] [--repeats 3]

Plays the same games (seeds spread as regress spreads them, the default strategies in turn) with the
observer's pictures on and off, each game's play plus its comparison timed in CPU seconds
(time.process_time), the median of --repeats runs; prints each game and the overhead in all.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def one(seed: int, strategy: str, pictures: bool) -> tuple[float, float]:
    """CPU seconds of one game (play + comparison), and of reading its pictures."""
    from harness.program.runs import loaded
    from harness.program.judge.compare import compare
    from harness.program.observe.driver import GameDriver
    from harness.program.observe.players import make
    m = loaded.worker_tape().machine()
    driver = GameDriver(m, make(strategy, seed), seed=seed)
    driver.observer.take_pictures = pictures
    start = time.process_time()
    rec = driver.play()
    compare(rec.events)
    return time.process_time() - start, driver.observer.picture_seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    from harness.program.runs import loaded, regress
    from harness.program.model.build import tape_bytes
    loaded.init_worker(tape_bytes())
    total_on = total_off = total_read = 0.0
    for i in range(args.games):
        seed, strategy = regress.spread_seed(1 + i), regress.STRATEGIES[i % len(regress.STRATEGIES)]
        on, off, read = [], [], []
        for _ in range(args.repeats):
            cpu, reading = one(seed, strategy, True)
            on.append(cpu)
            read.append(reading)
            off.append(one(seed, strategy, False)[0])
        a, b, r = statistics.median(on), statistics.median(off), statistics.median(read)
        total_on, total_off, total_read = total_on + a, total_off + b, total_read + r
        print(f"game {i} (seed {seed}, {strategy}): {b:.2f} s without the screen judged, {a:.2f} s with "
              f"(+{100 * (a - b) / b:.1f} %; reading the pictures {r:.3f} s)")
    print(f"all {args.games} games: {total_off:.2f} s -> {total_on:.2f} s CPU, "
          f"+{100 * (total_on - total_off) / total_off:.1f} % (reading {100 * total_read / total_off:.1f} %, "
          f"medians of {args.repeats})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
