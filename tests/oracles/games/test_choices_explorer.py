"""The explorer takes its choices in a played game and every difference is explained."""
from collections import Counter


from harness.program.judge.compare import compare
from harness.program.judge.judgements import difference_to_json
from harness.program.records.events import Choice, ChoiceKind, Cut, Win
from harness.program.observe.players import ExplorerPlayer
from helpers import play_from


def test_the_explorer_takes_its_choices_and_every_difference_is_explained(loaded_tape):
    _, rec = play_from(loaded_tape.snapshot, ExplorerPlayer(seed=40503), seed=40503)
    choices = Counter(e.what for e in rec.events if isinstance(e, Choice))
    for kind in (ChoiceKind.ANSWER, ChoiceKind.RESELECT, ChoiceKind.KEYS_WHILE_DRAWING, ChoiceKind.GO,
                 ChoiceKind.DISCARD, ChoiceKind.PLAY):
        assert choices[kind] > 0, kind
    # several games on one machine: «СЫГРАЕМ ЕЩЕ?» answered Y, or anything but N (8330 stops on "N" only)
    games = len([e for e in rec.events if isinstance(e, Cut)])
    assert games >= 2 and len([e for e in rec.events if isinstance(e, Win)]) == games
    assert rec.reports == ["9 STOP statement, 8330:2"] and rec.failure is None
    result = compare(rec.events)
    assert result.unexplained == [], [difference_to_json(d) for d in result.unexplained[:3]]
    assert {d.deviation for d in result.documented} >= {"D1", "D3"}
