"""Benchmark (prints numbers, asserts nothing): what counting every BASIC statement costs a game.

    .venv/bin/python -m tools.bench_profiler [--games 3] [--seed 7]

Plays the same seeded games with and without the statement profiler, in this one process, and prints
the CPU seconds of each and the overhead (issue 10's goal: at most 3 % of wall time).
"""
from __future__ import annotations

import argparse
import sys
import time

from harness.program.runs import loaded, regress
from harness.program.model.build import tape_bytes
from harness.program.observe.driver import DriverOptions, GameDriver
from harness.program.observe.players import RandomPlayer


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    loaded.init_worker(tape_bytes())
    totals = {False: 0.0, True: 0.0}
    for n in range(args.games):
        seed = regress.spread_seed(args.seed + n)
        for profiled in (False, True, False, True):          # interleaved, so drifting load hits both alike
            m = loaded.worker_tape().machine()
            profiler = loaded.worker_tape().profiler() if profiled else None
            t = time.process_time()
            GameDriver(m, RandomPlayer(seed=seed), seed=seed, options=DriverOptions(profiler=profiler)).play()
            totals[profiled] += time.process_time() - t
    plain, counted = totals[False] / (2 * args.games), totals[True] / (2 * args.games)
    print(f"games: {args.games} (each twice with and twice without)")
    print(f"CPU seconds a game, plain:     {plain:.3f}")
    print(f"CPU seconds a game, profiled:  {counted:.3f}")
    print(f"profiler overhead:             {100 * (counted - plain) / plain:+.1f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main())
