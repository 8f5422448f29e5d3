"""Each row of WORDS takes the events of its own kind: its class is the kind's, and an event of another class
is refused (words.py `Words`), so a row's words are checked against the fields they read."""
import pytest

from harness.program.records import events as E
from harness.program.records.words import WORDS, RowWords, Words


def test_every_row_of_words_names_the_class_of_its_kind():
    for kind, words in WORDS.items():
        assert isinstance(words, Words) and words.cls is E.EVENT_TYPES[kind]


def test_an_event_of_another_class_is_refused_and_its_own_is_worded():
    go = E.Go(E.Who.PLAYER, 28)
    with pytest.raises(TypeError, match="a go event given to the words of Reset"):
        WORDS[E.EventKind.RESET].row(go)
    with pytest.raises(TypeError, match="a go event given to the words of Reset"):
        WORDS[E.EventKind.RESET].panel(go, None)
    assert WORDS[E.EventKind.GO].row(go) == RowWords("go", count=True)
    planted = Words(E.Reset, lambda ev: RowWords(f"reset at {ev.count}"), lambda ev, seen: None)
    assert planted.row(E.Reset(31)) == RowWords("reset at 31") and planted.panel(E.Reset(31), None) is None
