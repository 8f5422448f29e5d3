"""Play one whole game of «КРИБЕДЖ» on the embedded Spectrum with an automated player, and print how the
rules engine judged every score and picture in it.        python examples/play_one_game.py [SEED [PLAYER]]
"""
import sys
from collections import Counter

from harness.program import DEVIATIONS, GameDriver, describe, judge_game, load_program, make_player, tape_bytes

seed = int(sys.argv[1]) if len(sys.argv) > 1 else 7
player = sys.argv[2] if len(sys.argv) > 2 else "greedy"      # random, greedy, adversarial, ...

loaded = load_program(tape_bytes())                    # booted, LOADed, at the first question (built if stale)
record = GameDriver(loaded.machine(), make_player(player, seed), seed=seed).play()
print(f"seed {seed}, {player}: {record.deals} deals, {len(record.events)} events, winner {record.winner}, "
      f"scores {record.scores}")

for rules, comparison in judge_game(record.events, loaded.setup).items():   # one comparison per rule set
    causes = Counter(d.deviation or "unexplained" for d in comparison.differences)
    print(f"{rules}: {len(comparison.judgements)} judgements, {comparison.score_events} pegs checked, "
          f"differences {dict(sorted(causes.items()))}")
    for d in comparison.differences[:3]:                # the first few, with the deviation that explains each
        why = DEVIATIONS[d.deviation].brief if d.deviation in DEVIATIONS else "UNEXPLAINED"
        print(f"  {d.kind.value}: expected {d.expected}, saw {d.observed} ({describe(d)}): {why}")
