"""The judgement records: docs/JUDGEMENTS.md is generated and current; a game's judgements go through the one
writer and come back from the one reader unchanged; a bad line is refused naming the file and the line; the
counts summed from the records are the comparison's; one set-up chooses the screen words from the program."""
import checkout
import dataclasses
import json

import pytest

from harness.errors import InputError
from harness.cribbage import ARTICLE, STANDARD
from harness.program.judge import judgements as J
from harness.program.model import program as P
from harness.program.judge.compare import Comparator, compare, judge
from harness.program.records.events import Deal, EventKind, Show, Who, event_from_json
from tools import write_judgements_doc as tool

ROOT = checkout.ROOT
DATA = checkout.DATA
BASE = [event_from_json(json.loads(line)) for line in (DATA / "example-deal.jsonl").read_text(encoding="utf-8")
        .splitlines() if line.strip() and json.loads(line).get("kind") != "header"]


def test_the_judgements_document_is_current_and_complete():
    text = (ROOT / "docs" / "JUDGEMENTS.md").read_text(encoding="utf-8")
    assert text == tool.markdown(), "run: .venv/bin/python -m tools.write_judgements_doc"
    for cause in J.Cause:
        assert f"| `{cause.value}` |" in text and f"`{J.FACTS[cause].__name__}`" in text
    assert f'"schema": {J.SCHEMA_VERSION}' in text and "game-NNN.judgements.jsonl" in text


def test_every_cause_has_facts_and_words():
    assert set(J.FACTS) == set(J.Cause) == set(J.CAUSE_WORDS)
    assert all(dataclasses.is_dataclass(c) and c.__dataclass_params__.frozen for c in J.FACTS.values())


def test_a_difference_must_carry_the_facts_of_its_cause():
    with pytest.raises(TypeError, match="winner difference: facts NoFacts, not Scores"):
        J.Difference(J.Kind.FLOW, Who.PLAYER, "computer", "player", J.Cause.WINNER, J.NoFacts())


def _text(events=BASE):
    results = judge(events, J.ComparisonSetup("ru", P.RUSSIAN, (STANDARD, ARTICLE)))
    return results, J.judgements_text([j for r in results.values() for j in r.judgements], list(results), game=7)


def test_a_games_judgements_round_trip_through_the_file(tmp_path):
    results, text = _text()
    path = tmp_path / J.judgements_name(7)
    J.write_judgements(path, [j for r in results.values() for j in r.judgements], list(results), game=7)
    assert path.name == "game-007.judgements.jsonl" and path.read_text(encoding="utf-8") == text
    head, read = J.read_judgements(path)
    assert head == J.JudgementsHeader(rule_sets=("standard", "article"))
    assert json.loads(text.splitlines()[0]) == {"kind": "header", "file": "judgements", "schema": 1,
                                                "rule_sets": ["standard", "article"], "game": 7}
    assert J.under(read, "standard") == results["standard"].judgements
    assert J.under(read, "article") == results["article"].judgements
    # the records are whole: the actions are the transcript's events, at their index
    assert all(BASE[j.action_at] == j.action for j in read)
    lines = text.splitlines()
    assert len(lines) == 1 + len(results["standard"].judgements) + len(results["article"].judgements)
    assert [json.loads(x)["rules"] for x in lines[1:]] == \
        ["standard"] * len(results["standard"].judgements) + ["article"] * len(results["article"].judgements)


def test_the_counts_summed_from_the_records_are_the_comparisons():
    results, text = _text()
    head, read = J.parse_judgements(text.splitlines(), "x")
    for name, result in results.items():
        c = J.Counts.of(J.under(read, name))
        assert (c.score_events, c.checks, c.unexplained) == (result.score_events, result.checks,
                                                             len(result.unexplained))
        assert c.documented == {"D1": 3} and (c.score_events, c.checks) == (10, 45)   # read off the base by hand


def _bad(tmp_path, lines):
    path = tmp_path / "game-000.judgements.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    with pytest.raises(InputError) as e:
        J.read_judgements(path)
    return str(e.value).replace(str(path), "FILE")


def test_a_bad_line_is_refused_naming_the_file_and_the_line(tmp_path):
    _, text = _text()
    head, first = text.splitlines()[:2]
    record = json.loads(first)
    def line(**changes):
        return json.dumps({**record, **changes}, ensure_ascii=False)
    with_diff = next(x for x in text.splitlines()[1:] if json.loads(x)["differences"])
    diff_record = json.loads(with_diff)

    def with_difference(**changes):
        return json.dumps({**diff_record, "differences": [{**diff_record["differences"][0], **changes}]})
    assert _bad(tmp_path, []) == "FILE: empty, no judgements header"
    assert _bad(tmp_path, [first]) == "FILE:1: no judgements header"
    assert _bad(tmp_path, [head.replace('"schema": 1', '"schema": 2')]) == "FILE:1: schema 2, this reader knows 1"
    assert _bad(tmp_path, [head, "{"]).startswith("FILE:2: not JSON")
    assert _bad(tmp_path, [head, "", line(extra=1)]) == "FILE:3: judgement: unknown fields ['extra']"
    assert _bad(tmp_path, [head, line(judged="guess")]).startswith("FILE:2: judgement.judged='guess' is not one of")
    assert _bad(tmp_path, [head, line(checks="1")]) == "FILE:2: judgement.checks: '1' is not int"
    assert _bad(tmp_path, [head, line(rules="cadenza")]) == \
        "FILE:2: rule set 'cadenza' is not in the header's ['standard', 'article']"
    no_rules = dict(record)
    del no_rules["rules"]
    assert _bad(tmp_path, [head, json.dumps(no_rules)]) == "FILE:2: judgement: no rules"
    assert _bad(tmp_path, [head, line(action={"kind": "nothing"})]) == "FILE:2: unknown event kind 'nothing'"
    assert _bad(tmp_path, [head, with_difference(cause="why")]).startswith(
        "FILE:2: judgement.differences[0].cause='why' is not one of")
    assert _bad(tmp_path, [head, with_difference(facts={})]) == "FILE:2: judgement.differences[0].facts: no context"
    assert _bad(tmp_path, [head, with_difference(who="nobody")]).startswith(
        "FILE:2: judgement.differences[0].who='nobody' is not one of")
    assert _bad(tmp_path, [head, line(observed=[{"kind": "go", "who": "player", "count": 3}])]) == \
        "FILE:2: judgement.observed[0]: a go event, not Score"
    assert _bad(tmp_path, [head, line(kind="header")]) == "FILE:2: judgement: not a judgement record"


def test_an_unreadable_file_is_named(tmp_path):
    with pytest.raises(InputError, match="nowhere.jsonl: No such file"):
        J.read_judgements(tmp_path / "nowhere.jsonl")


def test_the_set_up_chooses_the_words_from_the_program(build_of):
    ru = build_of("ru").program
    en = build_of("en").program
    assert (J.comparison_setup(ru).edition, J.comparison_setup(ru).words) == ("ru", P.RUSSIAN)
    setup = J.comparison_setup(en, (ARTICLE,))
    assert (setup.edition, setup.words, setup.verdict) == ("en", P.english_words(), ARTICLE)
    assert [r.name for r in J.comparison_setup(ru).rule_sets] == ["standard", "article"]
    assert Comparator.for_setup(setup).words == P.english_words() and Comparator.for_setup(setup).rules == ARTICLE
    with pytest.raises(KeyError, match="no rule set 'cadenza'"):
        setup.rules("cadenza")
    with pytest.raises(ValueError):
        J.comparison_setup(ru, ())


def test_heading_names_and_edges():
    result = compare(BASE)
    shows = [i for i, e in enumerate(BASE) if isinstance(e, Show)]
    deal = next(i for i, e in enumerate(BASE) if isinstance(e, Deal))
    for j in result.judgements:
        head = J.heading_at(BASE, j.action_at)
        if j.judged == "show":
            assert head is j.action or head == j.action       # a show heads itself
        elif j.action_at < shows[0]:
            assert head == BASE[deal]                         # the play is under its deal
    assert J.heading_at(BASE, None) is None and J.heading_at(BASE[:1], 0) is None
    assert J.is_transcript_name("game-003.jsonl") and not J.is_transcript_name("game-003.judgements.jsonl")
    assert not J.is_transcript_name("report.json")
    assert [J.who_of(0), J.who_of(1)] == [Who.COMPUTER, Who.PLAYER]
    assert [J.index_of(Who.COMPUTER), J.index_of(Who.PLAYER)] == [0, 1]
    d = J.Difference(J.Kind.SCREEN, Who.PLAYER, "8♦", "  ", J.Cause.SCREEN_HAND, J.HandSlot(3))
    assert J.describe(d) == "hand on the screen: slot 3"
    assert EventKind.DEAL in (J.heading_at(BASE, deal).kind,)


def test_fairness_reads_the_transcripts_not_the_judgements(tmp_path):
    """game-*.jsonl matches both files of a game; `fairness --from` reads the transcript only."""
    from harness.program.runs.fairness import read_runs
    _, text = _text()
    header = '{"game": 0, "kind": "header", "player": "random", "schema": 1, "seed": 40503}\n'   # a run's transcript
    (tmp_path / "game-000.jsonl").write_text(header + (DATA / "example-deal.jsonl").read_text(encoding="utf-8"),
                                             encoding="utf-8")
    (tmp_path / J.judgements_name(0)).write_text(text, encoding="utf-8")
    (machines,) = read_runs([tmp_path])
    assert machines == BASE
