"""Full games to 121 under each strategy, and the same seed gives an identical transcript."""
import json

import pytest

from harness.program.judge.compare import compare
from harness.program.judge.judgements import difference_to_json
from harness.program.records.events import Message, Refused, event_to_json
from harness.program.observe.players import AdversarialPlayer, GreedyPlayer, RandomPlayer
from helpers import play_from


@pytest.mark.parametrize("player_class,seed", [(RandomPlayer, 11), (GreedyPlayer, 12), (AdversarialPlayer, 13)])
def test_a_full_game_to_121_under_each_strategy(loaded_tape, player_class, seed):
    driver, rec = play_from(loaded_tape.snapshot, player_class(seed=seed), seed=seed)
    assert rec.failure is None and rec.basic_errors == []
    assert rec.reports == ["9 STOP statement, 8330:2"]          # «СЫГРАЕМ ЕЩЕ?» answered N
    assert max(rec.scores.values()) > 120 and rec.winner in ("computer", "player")
    result = compare(rec.events)
    assert result.score_events > 20
    assert result.unexplained == [], [difference_to_json(d) for d in result.unexplained]
    if player_class is AdversarialPlayer:
        # every card tried past 31 was refused with the program's message
        tried = driver.player.tries.count("illegal card")
        refused = [e for e in rec.events if isinstance(e, Refused)]
        messages = [e.text for e in rec.events if isinstance(e, Message)]
        assert tried > 0 and len(refused) == tried
        assert messages == ["СУММА ДОЛЖНА БЫТЬ МЕНЬШЕ 32"] * tried


def test_the_same_seed_gives_an_identical_transcript(loaded_tape):
    runs = [play_from(loaded_tape.snapshot, RandomPlayer(seed=3), seed=3, max_deals=2)[1] for _ in range(2)]
    a, b = (json.dumps([event_to_json(e) for e in r.events], ensure_ascii=False) for r in runs)
    assert a == b and runs[0].frames == runs[1].frames
    other = play_from(loaded_tape.snapshot, RandomPlayer(seed=4), seed=4, max_deals=2)[1]
    assert json.dumps([event_to_json(e) for e in other.events], ensure_ascii=False) != a
