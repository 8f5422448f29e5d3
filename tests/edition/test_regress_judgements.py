"""regress writes each game's judgements once (every rule set it judges, game-NNN.judgements.jsonl) and
report.json's counts are sums over those records: a run is checked file by file against its report, and a
difference planted in a game's records shows up in the report's counts and the exit status."""
import copy
import dataclasses
import json

import pytest

from harness.errors import InputError
from harness.program.judge import judgements as J
from harness.program.runs import regress


@pytest.fixture(scope="module")
def good_tape(tape_path):
    return tape_path()              # the session's one built tape (tests/conftest.py)


@pytest.fixture(scope="module")
def real_record(played_record):
    return copy.deepcopy(played_record)     # regress.play_one((0, 1, "random", False)), tests/conftest.py


def _stand_in(record, plant=None):
    """play_one for every game: the real record, re-indexed (and, for game 1, *plant* applied to its text)."""
    def play_one(job):
        text = record.judgements
        if job.index == 1 and plant:
            text = plant(text)
        return dataclasses.replace(record, index=job.index, seed=job.seed, strategy=job.strategy,
                                   judgements=text)
    return play_one


def _run(monkeypatch, tmp_path, good_tape, record, plant=None, games=3):
    from harness.edition import report as html_report
    monkeypatch.setattr(regress, "play_one", _stand_in(record, plant))
    monkeypatch.setattr(regress, "init_worker", lambda tape, *options: None)
    monkeypatch.setattr(html_report, "write_report_html", lambda out: None)   # the HTML has tests of its own
    out = tmp_path / "out"
    report = regress.run(games, 1, 1, out, regress.RegressOptions(tap=good_tape, progress=False))
    return out, report


def _sums(out):
    """report.json's counts, recomputed from the judgements files alone."""
    totals = {}
    for path in sorted(out.glob("game-*.judgements.jsonl")):
        head, js = J.read_judgements(path)
        assert head.rule_sets == ("standard", "article")
        for rules in head.rule_sets:
            c = J.Counts.of(J.under(js, rules))
            t = totals.setdefault(rules, {"score_events": 0, "checks": 0, "documented": {}, "unexplained": 0})
            t["score_events"] += c.score_events
            t["checks"] += c.checks
            t["unexplained"] += c.unexplained
            for k, v in c.documented.items():
                t["documented"][k] = t["documented"].get(k, 0) + v
    return totals


def test_the_report_counts_are_the_sums_of_the_records(monkeypatch, tmp_path, good_tape, real_record):
    out, report = _run(monkeypatch, tmp_path, good_tape, real_record)
    saved = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert sorted(p.name for p in out.glob("game-*.judgements.jsonl")) == [J.judgements_name(n) for n in range(3)]
    sums = _sums(out)
    std = sums["standard"]
    assert std["score_events"] > 0 and std["checks"] > std["score_events"] and std["documented"]
    assert (saved["score_events"], saved["checks"], saved["documented_by_deviation"],
            saved["documented_differences"], saved["unexplained_differences"]) == \
        (std["score_events"], std["checks"], std["documented"], sum(std["documented"].values()), std["unexplained"])
    assert saved["documented_by_rules"] == {k: v["documented"] for k, v in sums.items()}
    assert saved["unexplained_by_rules"] == {k: v["unexplained"] for k, v in sums.items()}
    # per game, the same: each game's own file
    for g in saved["per_game"]:
        head, js = J.read_judgements(out / J.judgements_name(g["index"]))
        c = J.Counts.of(J.under(js, "standard"))
        assert (g["score_events"], g["documented"], len(g["unexplained"])) == \
            (c.score_events, c.documented, c.unexplained)
    assert report.as_json() == saved


def _unexplain_first_documented(text):
    """The first documented difference of the standard rules made unexplained (its deviation id removed)."""
    lines = text.splitlines()
    for i, line in enumerate(lines[1:], 1):
        record = json.loads(line)
        if record["rules"] == "standard" and any(d["deviation"] for d in record["differences"]):
            d = next(d for d in record["differences"] if d["deviation"])
            d["deviation"] = None
            lines[i] = json.dumps(record, ensure_ascii=False, sort_keys=True)
            return "\n".join(lines) + "\n"
    raise AssertionError("no documented difference to plant on")


def test_a_difference_planted_in_the_records_is_in_the_report(monkeypatch, tmp_path, good_tape, real_record):
    out, report = _run(monkeypatch, tmp_path, good_tape, real_record, _unexplain_first_documented)
    assert report.unexplained_differences == 1 and report.unexplained_by_rules["standard"] == 1
    assert report.unexplained_by_rules["article"] == 0
    assert [len(g.unexplained) for g in report.per_game] == [0, 1, 0]
    clean = _sums(out)["standard"]
    assert clean["unexplained"] == 1
    # a near-miss: the same record planted under the article's rules leaves the verdict clean
    def article_only(text):
        lines = text.splitlines()
        for i, line in enumerate(lines[1:], 1):
            record = json.loads(line)
            if record["rules"] == "article" and any(d["deviation"] for d in record["differences"]):
                next(d for d in record["differences"] if d["deviation"])["deviation"] = None
                lines[i] = json.dumps(record, ensure_ascii=False, sort_keys=True)
                return "\n".join(lines) + "\n"
        raise AssertionError("no documented difference under the article's rules")
    out2, report2 = _run(monkeypatch, tmp_path / "b", good_tape, real_record, article_only)
    assert report2.unexplained_differences == 0 and report2.unexplained_by_rules["article"] == 1


def test_a_corrupt_record_from_a_worker_is_named(monkeypatch, tmp_path, good_tape, real_record):
    with pytest.raises(InputError, match=r"game-001.judgements.jsonl:2: "):
        _run(monkeypatch, tmp_path, good_tape, real_record,
             lambda text: text.replace('"kind": "judgement"', '"kind": "judgment"', 1))
