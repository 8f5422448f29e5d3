"""The record every view reads, counted by hand (issue 36, item 2): a rule set's totals from a few judgements
written out, the heading of a judgement, a difference's words, and the edges between indexes and players."""
import re

import pytest

from harness.program.records.events import Cut, Deal, Picture, Play, Score, ScoreContext, Show, ShowHand, Who, Win
from harness.program.judge.judgements import (CAUSE_WORDS, Cause, Counts, Difference, GoPegged, Judged, Judgement, Kind,
                                     LineSeen, NoFacts, ShowLine, SlotSeen, StaleSeen, describe, differences,
                                     heading_at, index_of, under, who_of)

C, P = Who.COMPUTER, Who.PLAYER
PIC = Picture(moment="select 2720", line=2720, slots={}, pegs={}, rows={}, board=False, flag=False, variables={})
PLAY = Play(C, "5H", 10)


def screen(deviation=None):
    return Difference(Kind.SCREEN, P, "up 5H", "down", Cause.SCREEN_FACE, SlotSeen("hand 1", "select 2720", "held"),
                      deviation)


def peg(deviation=None):
    return Difference(Kind.PLAY, C, 2, 0, Cause.SCREEN_DEAL, NoFacts(), deviation)


def test_counts_by_hand():
    js = [Judgement("standard", Judged.PLAY, PLAY, 3, 4, observed=(Score(C, 2, ScoreContext.PLAY, 0),),
                    differences=(peg("D1"), peg("D1"), peg()), checks=5),
          Judgement("standard", Judged.SCREEN, PIC, 6, 6, differences=(screen(), screen("D12")), checks=40),
          Judgement("standard", Judged.SCREEN, PIC, 9, 9, differences=(screen("D11"),), checks=2),
          Judgement("standard", Judged.PLAY, PLAY, 10, 11, observed=(Score(C, 1, ScoreContext.GO, 2),
                                                                      Score(P, 1, ScoreContext.GO, 0)), checks=3)]
    c = Counts.of(js)
    # pegs 1 + 2 = 3; engine checks 5 + 3 (the pictures' 42 apart); D1 twice, D11 and D12 once, sorted;
    # unexplained: the peg's and the picture's one each; 2 pictures; screen differences 3, 1 unexplained
    assert c == Counts(score_events=3, checks=8, documented={"D1": 2, "D11": 1, "D12": 1}, unexplained=2,
                       pictures=2, screen_checks=42, screen_differences=3, screen_unexplained=1)
    assert list(c.documented) == ["D1", "D11", "D12"]
    assert Counts.of([]) == Counts(0, 0, {}, 0, 0, 0, 0, 0)
    assert js[1].unexplained == (js[1].differences[0],)
    assert differences(js) == [d for j in js for d in j.differences] and len(differences(js)) == 6
    article = Judgement("article", Judged.PLAY, PLAY, 3, 4)
    assert under(js + [article], "article") == [article] and under(js + [article], "standard") == js


def test_the_heading_of_a_judgement():
    cut, deal, show, win = Cut(3, 9), Deal(1, P, ("AH",) * 6, ("2H",) * 6), Show(ShowHand.CRIB, 0, 0, 0, 0, 0, (), ()), \
        Win(C, 121, 90)
    events = [PLAY, cut, PLAY, deal, PLAY, Score(C, 2, ScoreContext.PLAY, 0), show, PLAY, win, PLAY]
    assert heading_at(events, None) is None
    assert heading_at(events, 0) is None                 # nothing heads what comes before the first cut
    assert heading_at(events, 1) is cut                  # an event heads itself
    assert heading_at(events, 2) is cut and heading_at(events, 3) is deal and heading_at(events, 5) is deal
    assert heading_at(events, 7) is show and heading_at(events, 9) is win


def test_a_differences_words():
    def d(cause, facts, kind=Kind.SCREEN):
        return Difference(kind, None, 0, 1, cause, facts)
    assert describe(d(Cause.SCREEN_FACE, SlotSeen("hand 2", "pause 4661", "shown"))) == \
        f"{CAUSE_WORDS[Cause.SCREEN_FACE]}: hand 2 at pause 4661"
    assert describe(d(Cause.SCREEN_LINE, LineSeen("figures", "pause 8270"))) == \
        f"{CAUSE_WORDS[Cause.SCREEN_LINE]}: figures at pause 8270"
    assert describe(d(Cause.SCREEN_STALE, StaleSeen("table 6:10", "select 2720"))) == \
        f"{CAUSE_WORDS[Cause.SCREEN_STALE]}: table 6:10 at select 2720"
    assert describe(d(Cause.GO_PEGGED, GoPegged("31 for 2"), Kind.GO)) == "31 for 2 pegged"
    assert describe(d(Cause.GO_PEGGED, GoPegged(None), Kind.GO)) == CAUSE_WORDS[Cause.GO_PEGGED]
    assert describe(d(Cause.SCREEN_DEAL, NoFacts())) == CAUSE_WORDS[Cause.SCREEN_DEAL]
    with pytest.raises(TypeError, match="screen face difference: facts NoFacts, not SlotSeen"):
        d(Cause.SCREEN_FACE, NoFacts())
    assert ShowLine("total").part == "total"


def test_indexes_and_players():
    assert (who_of(0), who_of(1)) == (C, P)
    assert (index_of(C), index_of(P), index_of("player")) == (0, 1, 1)
    with pytest.raises(ValueError):
        index_of("dealer")
    assert Kind.show_part("runs") is Kind.SHOW_RUNS and Kind.of_peg(ScoreContext.HEELS) is Kind.HEELS


# ------------------------------------------------------------------------------------ the survivors of issue 36
def test_the_screens_differences_are_counted_apart_from_the_others():
    """One screen difference (unexplained) beside two of the play (documented): the screen's counts are 1 and 1,
    whichever way the others go (a count of the other kinds would give 2 and 0)."""
    js = [Judgement("standard", Judged.PLAY, PLAY, 1, 2, differences=(peg("D1"), peg("D1"))),
          Judgement("standard", Judged.SCREEN, PIC, 3, 3, differences=(screen(),), checks=7)]
    c = Counts.of(js)
    assert (c.screen_differences, c.screen_unexplained, c.unexplained, c.documented) == (1, 1, 1, {"D1": 2})


def test_a_difference_read_alone_is_named_a_difference():
    from harness.errors import InputError
    from harness.program.judge.judgements import difference_from_json
    with pytest.raises(InputError, match=r"^difference: not an object$"):
        difference_from_json("up 5H")
    with pytest.raises(InputError, match=r"^d\[0\]: not an object$"):
        difference_from_json([], "d[0]")


def test_a_judgement_without_differences_has_none():
    import json
    from harness.program.judge.judgements import judgement_from_json, judgement_to_json
    j = Judgement("standard", Judged.PLAY, PLAY, 3, 4, checks=2)
    data = json.loads(json.dumps(judgement_to_json(j)))
    del data["differences"]
    assert judgement_from_json(data) == j


@pytest.mark.parametrize("first", ['{"kind": "header", "file": "transcript", "schema": 1, "rule_sets": []}',
                                   '{"kind": "judgement", "file": "judgements", "schema": 1, "rule_sets": []}',
                                   '["header", "judgements"]'])
def test_a_first_line_that_is_not_a_judgements_header_is_refused(first):
    from harness.errors import InputError
    from harness.program.judge.judgements import JudgementsHeader, parse_judgements
    with pytest.raises(InputError, match=r"^f:1: no judgements header$"):
        parse_judgements([first], "f")
    assert parse_judgements(['{"kind": "header", "file": "judgements", "schema": 1, "rule_sets": []}'], "f") == (
        JudgementsHeader(rule_sets=()), [])                                                # the near miss


def test_a_judgements_file_is_read_as_utf_8_whatever_the_locale(tmp_path, monkeypatch):
    """Under a locale whose default encoding is ASCII (the C locale, not coerced) a file naming a Russian word
    is still read: the reader names its encoding. The locale's default is stood in for by an open() that
    takes ASCII when no encoding is given, as Python's does under that locale."""
    import builtins
    from harness.program.judge import judgements as J
    path = tmp_path / "game-001.judgements.jsonl"
    path.write_text('{"kind": "header", "file": "judgements", "schema": 1, "rule_sets": ["КРИБЕДЖ"]}\n',
                    encoding="utf-8")

    def c_locale_open(file, mode="r", buffering=-1, encoding=None, *args, **kwargs):
        return builtins.open(file, mode, buffering, encoding if encoding or "b" in mode else "ascii", *args, **kwargs)
    monkeypatch.setattr(J, "open", c_locale_open, raising=False)
    assert J.read_judgements(path)[0].rule_sets == ("КРИБЕДЖ",)
    with pytest.raises(UnicodeDecodeError):                     # the stand-in is the C locale's default
        c_locale_open(path).read()


@pytest.mark.parametrize("rule_sets, problem", [('"standard"', "the header names no rule_sets"),
                                                ('["standard", 7]', "header.rule_sets[1]: expected a string, "
                                                                    "found a whole number 7")])
def test_a_judgements_header_of_the_wrong_kind_is_refused_naming_the_file(tmp_path, rule_sets, problem):
    from harness.errors import InputError
    from harness.program.judge.judgements import JudgementsHeader, read_judgements
    path = tmp_path / "game-003.judgements.jsonl"
    path.write_text('{"kind": "header", "file": "judgements", "schema": 1, "rule_sets": %s}\n' % rule_sets,
                    encoding="utf-8")
    with pytest.raises(InputError, match=f"^{re.escape(f'{path}:1: {problem}')}$"):
        read_judgements(path)
    path.write_text('{"kind": "header", "file": "judgements", "schema": 1, "rule_sets": ["standard", "article"], '
                    '"game": 3}\n', encoding="utf-8")                                     # the near miss
    assert read_judgements(path) == (JudgementsHeader(("standard", "article")), [])


def test_the_set_up_reads_the_edition_from_the_programs_count_label():
    """A program holding «ВСЕГО» (the Russian count label, in the program's KOI-7 encoding) is the Russian
    edition, judged under both rule sets by default, the standard's first; one without it, the English.
    Worked on a few bytes rather than a built tape (tests/program/runs/test_judgements.py builds both)."""
    from harness.cribbage import ARTICLE, STANDARD
    from harness.program.judge.judgements import comparison_setup
    from harness.program.model import program as P
    from harness.spectrum.charset import encode
    russian = b"\x00\x0a" + encode("ВСЕГО") + b"\x0d"
    setup = comparison_setup(russian)
    assert (setup.edition, setup.words, setup.rule_sets) == ("ru", P.RUSSIAN, (STANDARD, ARTICLE))
    english = comparison_setup(b"\x00\x0aTOTAL\x0d", [ARTICLE])             # near miss: no «ВСЕГО»
    assert (english.edition, english.words, english.rule_sets) == ("en", P.english_words(), (ARTICLE,))
    assert english.words != P.RUSSIAN
    with pytest.raises(ValueError, match="no rule set"):
        comparison_setup(russian, [])
