"""Each event kind's words are declared once (harness/program/records/words.py): every kind has its row and
its panel, and the two views that narrate events hold no words of their own."""
from __future__ import annotations

import ast
import inspect
import textwrap
from dataclasses import dataclass

from harness.play.referee import Referee
from harness.program.records import events as E
from harness.program.records.words import WORDS, Line, PanelWords, RowWords

SAMPLES = [E.Cut(3, 10), E.Deal(2, E.Who.PLAYER, ("TH", "AS", "5C", "5D", "JH", "KS"), ("2H", "3H", "4H", "6S", "7S", "8S")),
           E.Discard(E.Who.COMPUTER, ("TH", "AS")), E.Discard(E.Who.PLAYER, ("2H", "3H")),
           E.Crib(("TH", "AS", "2H", "3H")), E.Starter("QD"), E.Play(E.Who.COMPUTER, "TC", 5), E.Play(E.Who.PLAYER, "5H", 15),
           E.Go(E.Who.PLAYER, 28), E.Reset(31), E.Score(E.Who.COMPUTER, 2, E.ScoreContext.PLAY, 10),
           E.Score(E.Who.PLAYER, 1, E.ScoreContext.DEMO, 0),
           E.Show(E.ShowHand.CRIB, 4, 2, 0, 0, 1, (1, 5, 5, 11), (0, 1, 2, 3)), E.Claim(7), E.Refused(E.Who.PLAYER, "KH", 25),
           E.Win(E.Who.COMPUTER, 121, 98, E.Who.COMPUTER), E.Tally(1, 0), E.Options(True),
           E.Choice(E.ChoiceKind.PLAY, slot=2), E.Message("ХОД НЕВОЗМОЖЕН"), E.Rigged(E.Who.PLAYER),
           E.Screen("board", ((1, "x"),), {}), E.Picture("cut", 7430, {}, {}, {}, False, False, {}),
           E.Report("0", "OK", 9999, 1), E.Failure("budget")]


@dataclass
class _Seen:
    played: bool = True
    dealer: E.Who | None = E.Who.PLAYER
    muggins: bool = True

    def muggins_on(self) -> bool:
        return self.muggins


def test_every_kind_has_its_words_and_a_sample_here():
    assert set(WORDS) == set(E.EVENT_TYPES) == set(E.EventKind)
    assert {ev.kind for ev in SAMPLES} == set(E.EventKind)          # the samples below cover every kind


def test_each_kind_says_its_row_and_panel():
    for ev in SAMPLES:
        row = WORDS[ev.kind].row(ev)
        assert isinstance(row, RowWords)
        panel = WORDS[ev.kind].panel(ev, _Seen())
        assert panel is None or isinstance(panel, PanelWords), ev
    play = WORDS[E.EventKind.PLAY]
    assert play.row(E.Play(E.Who.COMPUTER, "TC", 5)) == RowWords("", ("TC",), count=True)
    assert play.panel(E.Play(E.Who.COMPUTER, "TC", 5), _Seen()).lines == (Line("computer: 10C, count 15", "event"),)
    assert play.panel(E.Play(E.Who.PLAYER, "TC", 15), _Seen()).lines == (Line("you: 10C, count 15", "event"),)


def test_what_the_panel_words_depend_on_beyond_the_event():
    reset, show = E.Reset(31), E.Show(E.ShowHand.CRIB, 4, 2, 0, 0, 1, (1, 5, 5, 11), (0, 1, 2, 3))
    assert WORDS[reset.kind].panel(reset, _Seen(played=False)) == PanelWords()   # no card laid: nothing to say
    assert WORDS[reset.kind].panel(reset, _Seen(played=True)).lines[0].text == "count 31: back to 0"
    mine = WORDS[show.kind].panel(show, _Seen(dealer=E.Who.PLAYER, muggins=True))
    assert mine.secret == "claim:crib" and mine.lines[1].secret == "claim:crib"
    assert WORDS[show.kind].panel(show, _Seen(dealer=E.Who.COMPUTER, muggins=True)).secret is None   # not the player's
    assert WORDS[show.kind].panel(show, _Seen(dealer=E.Who.PLAYER, muggins=False)).secret is None
    demo = E.Score(E.Who.PLAYER, 1, E.ScoreContext.DEMO, 0)
    assert WORDS[demo.kind].panel(demo, _Seen()) is None                          # folded into the demo's line


def _formatted_strings(fn) -> int:
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    return sum(isinstance(n, ast.JoinedStr) for n in ast.walk(tree))


def test_the_referee_block_is_layout_only_and_a_planted_word_is_seen():
    assert _formatted_strings(Referee.event_block) == 0

    def planted(self, ev):
        return f"Cut for deal: you {ev.player_rank}"
    assert _formatted_strings(planted) == 1
