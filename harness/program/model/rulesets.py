"""The listing's own rules: the program model's presets of the engine's generic rule options.

The rules engine (harness/cribbage/rules.py) knows nothing of «КРИБЕДЖ»: its options are generic and its
sources the article, the Cadenza manual and the modern standard. What the BASIC listing does is a fact of
the program, so it is here, beside the program model: `PROGRAM`, the rule set the listing plays (each
value from the line that decides it), `PRESETS` (the engine's and the program's, for play --rules), and
`RULE_SOURCES`, the engine's sources with the listing's column added (each quote a line of the listing,
checked against it by tests/test_article_rules.py).
"""
from __future__ import annotations

from ...cribbage.rules import PRESETS as ENGINE_PRESETS, RULE_SOURCES as ENGINE_SOURCES, Rules, Source

# The BASIC listing as printed: 2 for his heels (8020), a 31 ends the series without a go point even on
# the last card (4130), one game won per game (8260 LET G(PLAYER)=G(PLAYER)+1), and muggins takes the
# whole hand on any wrong claim (4790-4800: «НЕВЕРНО. Я ПОЛУЧАЮ ОЧКИ!»).
PROGRAM = Rules(name="program", his_heels=2, thirty_one_last_card=2, game_points="single", muggins="whole_hand")

PRESETS: dict[str, Rules] = {**ENGINE_PRESETS, PROGRAM.name: PROGRAM}

# What the listing says of every scoring value of the engine: the value and the line that makes it.
PROGRAM_SAYS: dict[str, Source] = {
    "fifteen": Source(2, "2020 LET T=SUM+CT: IF T=15 OR T=31 THEN LET S=2"),
    "pair": Source(2, "2050 LET P=P+2"),
    "pair_royal": Source(6, "2110 IF P=4 THEN LET P=6"),
    "double_pair_royal": Source(12, "2100 IF P=6 THEN LET P=12"),
    "run_per_card": Source(1, "2370 IF R>P THEN LET P=R"),
    "go": Source(1, "4160 LET S=1: GO SUB 2900: IF WIN>0 THEN RETURN"),
    "thirty_one": Source(2, "2020 LET T=SUM+CT: IF T=15 OR T=31 THEN LET S=2"),
    "last_card": Source(1, "4260 LET S=1: GO SUB 2900: IF WIN>0 THEN RETURN"),
    "thirty_one_last_card": Source(2, "4130 IF SUM=31 THEN GO SUB 4300: GO TO 4200"),
    "his_heels": Source(2, 'LET M$="2 ОЧКА ЗА ЕГО ЧЕЛЯДЬ": GO SUB 5500: LET S=2'),
    "his_nobs": Source(1, "4715 IF X<5 AND H(X)=11 AND H$(X)=E$(5) THEN LET NOB=1"),
    "hand_flush": Source(4, "1070 LET P=0: LET F=0: LET FL=4"),
    "hand_flush_with_starter": Source(5, "1300 IF FL=4 AND H$(5)=H$(1) THEN LET FL=5"),
    "crib_flush": Source(0, "1310 IF FL=4 AND CR=1 THEN LET FL=0"),
    "crib_flush_with_starter": Source(5, "1300 IF FL=4 AND H$(5)=H$(1) THEN LET FL=5"),
    "game_length": Source(121, "6060 IF S(PLAYER)>120 THEN LET WIN=PLAYER"),
    "game_points": Source("single", "8260 LET G(PLAYER)=G(PLAYER)+1"),
    "muggins": Source("whole_hand", '4795 LET M$=STR$ SS+" - НЕВЕРНО. Я ПОЛУЧАЮ ОЧКИ!"'),
    "lower_card_deals": Source(True, "7450 IF S<K THEN LET DIR=MAN"),
    "go_point_when_opponent_out": Source(True, "4260 LET S=1: GO SUB 2900: IF WIN>0 THEN RETURN"),
}

RULE_SOURCES: dict[str, dict[str, Source]] = {rule: {**by, "program": PROGRAM_SAYS[rule]}
                                              for rule, by in ENGINE_SOURCES.items()}
