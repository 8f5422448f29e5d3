"""Score a cribbage hand with the rules engine alone (no Spectrum): every combination, then the total.

    python examples/score_a_hand.py "5H 5D 5S JC" 5C        # the 29 hand
"""
import sys

from harness.cribbage import ARTICLE, best_discard, format_cards, parse_cards, score_hand

hand = sys.argv[1] if len(sys.argv) > 1 else "5H 5D 5S JC"
starter = sys.argv[2] if len(sys.argv) > 2 else "5C"

score = score_hand(hand, starter)                      # the standard rules (STANDARD) unless rules= is given
for combo in score.combinations:
    print(combo)                                       # e.g. "fifteen 5H 5D 5S = 2"
print(f"{hand} with {starter}: fifteens {score.fifteens}, pairs {score.pairs}, runs {score.runs}, "
      f"flush {score.flush}, nobs {score.nobs}, total {score.total}")

six = parse_cards("5H 5D JC QS 4H 6D")                 # which two of six to lay away, under the article's rules
i, j = best_discard(six, my_crib=True, rules=ARTICLE)  # their positions in the six
print(f"from {format_cards(six)} lay away {format_cards([six[i], six[j]])} in my crib")
