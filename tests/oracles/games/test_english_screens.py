"""The English edition's screens against the Russian's: read with the Russian words they disagree, and only string and REM bytes differ."""
from __future__ import annotations

from helpers import differences_outside_literals, driven_game, rank_letters_only

# ---------------------------------------------------------------- the project's driver and comparison on both editions


def test_only_string_and_rem_bytes_differ(editions):
    ru, en = editions["ru"].program, editions["en"].program
    assert len(ru) == len(en)
    assert ru != en
    assert differences_outside_literals(ru, en) == []
    changed = sum(x != y for x, y in zip(ru, en))
    assert changed > 2000                     # 132 texts, most of them whole sentences


def test_read_with_the_russian_words_the_english_screens_disagree(editions):
    """Near miss for the test above: the comparison does read the words (the Russian ones find no total there)."""
    from harness.program.judge.compare import compare
    from harness.program.judge.judgements import difference_to_json
    en = driven_game(editions["en"].tap, 1, "greedy")
    assert any(d.kind == "screen" and not rank_letters_only(difference_to_json(d)) for d in compare(en.events).unexplained)
