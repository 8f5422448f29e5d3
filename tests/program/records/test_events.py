"""Typed events: every kind round-trips through JSON, a transcript file has a schema header, and
malformed lines are refused with the line number (schema 0 files, keyed "t", still read)."""
import dataclasses
import io
import json
import re

import pytest

from harness.errors import InputError
from harness.program.records.events import (EVENT_TYPES, SCHEMA_VERSION, Choice, ChoiceKind, Cut, Deal, EventKind, Failure,
                                 Go, Picture, Score, ScoreContext, Screen, Show, ShowHand, Tally, Who, Win,
                                 event_from_json, event_to_json, read_jsonl, write_jsonl)

SAMPLES = [
    Cut(player_rank=3, computer_rank=11),
    Deal(n=1, dealer=Who.COMPUTER, computer=("AH", "2C", "3D", "4S", "5H", "6C"),
         player=("7D", "8S", "9H", "TC", "JD", "QS")),
    Go(who=Who.PLAYER, count=27),
    Score(who=Who.COMPUTER, points=2, context=ScoreContext.RESET, before=40),
    Show(hand=ShowHand.CRIB, fifteens=4, pairs=2, runs=3, flush=0, nobs=1, ranks=(1, 5, 5, 10, 11),
         suits=(1, 2, 3, 4, 1)),
    Win(who=Who.PLAYER, computer=90, player=121, credited=Who.COMPUTER),
    Tally(computer=1, player=2),
    Choice(what=ChoiceKind.DISCARD, slots=(1, 6)),
    Screen(what="count", rows=((6, "ВСЕГО 15"),), variables={"sum": 15}),
    Failure(reason="budget: more than 10 actions"),
    Picture(moment="select 2720", line=3730, slots={"hand 1": "up 5H 7/2", "deck": "down"},
            pegs={"computer": [4, 9], "player": []}, rows={"message": "ВЫБЕРИТЕ КАРТУ"}, board=True, flag=False,
            variables={"hand": ["5H", None], "held": [1, 0]}),
]


def test_every_kind_has_a_sample_and_round_trips():
    kinds = {type(e).kind for e in SAMPLES}
    for ev in SAMPLES:
        data = event_to_json(ev)
        assert data["kind"] == ev.kind.value
        assert json.loads(json.dumps(data)) == data                  # plain JSON: no enum, no tuple survives
        assert event_from_json(data) == ev
    assert {EventKind.CUT, EventKind.SHOW, EventKind.SCREEN, EventKind.PICTURE} <= kinds
    assert set(EVENT_TYPES) == set(EventKind)


def test_a_none_field_is_left_out_and_comes_back_as_its_default():
    data = event_to_json(Win(who=Who.PLAYER, computer=1, player=121))
    assert "credited" not in data
    assert event_from_json(data).credited is None


def test_schema_zero_dicts_keyed_t_are_read():
    assert event_from_json({"t": "go", "who": "player", "count": 25}) == Go(who=Who.PLAYER, count=25)


@pytest.mark.parametrize("data,message", [
    ({"kind": "peg", "who": "player"}, "unknown event kind 'peg'"),
    ({"kind": "go", "who": "player", "count": 3, "colour": "red"}, "unknown fields ['colour']"),
    ({"kind": "go", "who": "dealer", "count": 3}, "who='dealer' is not one of ['computer', 'player']"),
    ({"kind": "go", "who": "player"}, "go event"),
])
def test_malformed_events_are_refused_with_a_reason(data, message):
    with pytest.raises(InputError, match=message.replace("[", r"\[").replace("]", r"\]")):
        event_from_json(data)


PICTURE = event_to_json(SAMPLES[-1])


@pytest.mark.parametrize("pegs", [{"computer": ["4"]}, {"computer": 4}, [4, 9], {"player": [True]}])
def test_a_pictures_pegs_of_the_wrong_form_are_refused(pegs):
    """The pegs are each side's holes: a hole that is not a whole number, or a side that is not a list, is
    refused; the right form (and no pegs at all: the board not drawn) is read back."""
    with pytest.raises(InputError, match="pegs=.*expected an object of lists of whole numbers"):
        event_from_json(PICTURE | {"pegs": pegs})
    assert event_from_json(PICTURE | {"pegs": {"computer": [4, 9]}}).pegs == {"computer": [4, 9]}
    assert event_from_json(PICTURE | {"pegs": {}}).pegs == {}


@pytest.mark.parametrize("card", [7, None])
def test_a_card_that_is_not_a_string_is_refused_in_parse_cards_words(card):
    with pytest.raises(InputError, match=f"bad card token {card!r}: not a string"):
        event_from_json({"kind": "deal", "n": 1, "dealer": "player", "computer": ["AH"] * 5 + [card],
                         "player": ["2C"] * 6})


def test_a_transcript_file_has_a_header_and_reads_back():
    f = io.StringIO()
    write_jsonl(f, SAMPLES, seed=7, player="random")
    lines = f.getvalue().splitlines()
    assert json.loads(lines[0]) == {"kind": "header", "schema": SCHEMA_VERSION, "seed": 7, "player": "random"}
    head, events = read_jsonl(io.StringIO(f.getvalue()))
    assert (head.seed, head.player, head.game) == (7, "random", None) and events == SAMPLES


def test_a_bad_line_is_named_by_its_number():
    text = json.dumps({"kind": "header", "schema": SCHEMA_VERSION}) + "\n" + '{"kind": "go", "who": "player", "count": 1}\n{oops\n'
    with pytest.raises(InputError, match="line 3: not JSON"):
        read_jsonl(io.StringIO(text))
    newer = json.dumps({"kind": "header", "schema": SCHEMA_VERSION + 1}) + "\n"
    with pytest.raises(InputError, match=f"line 1: schema {SCHEMA_VERSION + 1}"):
        read_jsonl(io.StringIO(newer))


def test_events_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        SAMPLES[2].count = 5


@pytest.mark.parametrize("field, value, problem", [("seed", '"7"', 'header.seed: expected a whole number, found a '
                                                                   'string "7"'),
                                                   ("player", "5", "header.player: expected a string, found a whole "
                                                                   "number 5"),
                                                   ("game", "true", "header.game: expected a whole number, found true "
                                                                    "or false true")])
def test_a_header_field_of_the_wrong_kind_is_refused_naming_the_file(tmp_path, field, value, problem):
    from harness.program.records.events import GameHeader, read_game
    good = {"seed": "7", "player": '"greedy"', "game": "2"}
    path = tmp_path / "game-002.jsonl"
    event = '{"kind": "cut", "player_rank": 5, "computer_rank": 9}\n'

    def header(**fields):
        return '{"kind": "header", "schema": %d, %s}\n' % (SCHEMA_VERSION, ", ".join(
            f'"{k}": {v}' for k, v in fields.items()))
    path.write_text(header(**{**good, field: value}) + event, encoding="utf-8")
    with pytest.raises(InputError, match=f"^{re.escape(f'{path}: line 1: {problem}')}$"):
        read_game(path, "a strength or regress run")
    path.write_text(header(**good) + event, encoding="utf-8")                        # the near miss
    head, events = read_game(path, "a strength or regress run")
    assert head == GameHeader(seed=7, player="greedy", game=2) and len(events) == 1


def test_a_header_naming_less_is_read_with_none_for_what_it_does_not_name():
    text = json.dumps({"kind": "header", "schema": SCHEMA_VERSION, "seed": 3, "edition": "ru"}) + "\n"
    head, events = read_jsonl(io.StringIO(text))
    assert (head.schema, head.seed, head.player, head.game, events) == (SCHEMA_VERSION, 3, None, None, [])
    assert read_jsonl(io.StringIO(""))[0].schema == 0                                 # no header line: schema 0
