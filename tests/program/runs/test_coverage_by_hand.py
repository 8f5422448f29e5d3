"""The coverage of a run by hand (issue 36, item 2): a four-line program and profiles written out, every
figure of `Coverage.as_json` a literal (never-run statements, IFs seen both ways or one, the counts)."""
from collections import Counter

from harness.program.runs import coverage as C
from harness.program.model.coverage_notes import Note
from harness.spectrum.basic import tokenise_program
from harness.spectrum.profile import Profile

PROGRAM = tokenise_program("""\
6 REM never
10 IF A=1 THEN PRINT 1
20 IF A=2 THEN PRINT 2: PRINT 3
30 STOP
""")
# statements: 6:1, 10:1 (IF), 10:2, 20:1 (IF), 20:2, 20:3, 30:1


def test_both_ways_one_way_and_never():
    # 10 ran 3 times, true twice, false once (both ways); 20 ran twice, true never; 6 and 20:2-3 never ran,
    # and 30:1 is counted 0 times: never run too
    p = Profile(Counter({(10, 1): 3, (10, 2): 2, (20, 1): 2, (30, 1): 0}), Counter({(10, 1): 2}),
                Counter({(10, 1): 1, (20, 1): 2}))
    cov = C.Coverage.of(PROGRAM, p)
    assert cov.never_run == [(6, 1), (20, 2), (20, 3), (30, 1)]
    assert cov.one_way == [((20, 1), "true")]
    assert sorted(cov.ifs) == [(10, 1), (20, 1)] and cov.ifs_both == 1
    data = cov.as_json()
    assert data == {
        "statements_run": 3, "statements_total": 7, "ifs_both": 1, "ifs_total": 2,
        "never_run": ["6:1", "20:2", "20:3", "30:1"], "one_way": ["20:1 true"],
        "unexplained": ["20:1 true", "20:2", "20:3", "30:1", "6:1"], "explained_by": {},
        "counts": {"10:1": 3, "10:2": 2, "20:1": 2, "30:1": 0},
        "ifs": {"10:1": [2, 1], "20:1": [0, 2]}}


def test_an_if_never_run_is_not_one_way_and_one_seen_false_only_is(monkeypatch):
    p = Profile(Counter({(20, 1): 1}), Counter(), Counter({(20, 1): 1}))
    cov = C.Coverage.of(PROGRAM, p)
    assert cov.one_way == [((20, 1), "true")] and cov.ifs_both == 0
    assert (10, 1) in cov.never_run and all(k != (10, 1) for k, _ in cov.one_way)
    p = Profile(Counter({(10, 1): 1, (10, 2): 1}), Counter({(10, 1): 1}), Counter())
    assert C.Coverage.of(PROGRAM, p).one_way == [((10, 1), "false")]
    # a note on 20:2-20:3 by its line, and on 10:1 false: the first note that covers an item names it
    monkeypatch.setattr(C, "NOTES", (Note("N1", "t", statements=((20, 20),)), Note("N2", "t", statements=((6, 20),),
                                                                                   outcomes=((10, 1, "false"),))))
    data = C.Coverage.of(PROGRAM, p).as_json()
    assert data["explained_by"] == {"6:1": "N2", "20:1": "N1", "20:2": "N1", "20:3": "N1", "10:1 false": "N2"}
    assert data["unexplained"] == ["30:1"]


def test_the_key_and_the_summary_rows():
    assert C.key(7405, 12) == "7405:12"
    cov = C.RunCoverage(statements_run=3, statements_total=7, ifs_both=1, ifs_total=2, never_run=["6:1", "20:2"],
                        one_way=["20:1 true"], unexplained=[], explained_by={}, counts={}, ifs={}, choices={},
                        pictures_at={})
    assert C.summary_rows(cov, thorough=True) == [
        ("statements run", "3/7"), ("IFs seen both ways", "1/2"), ("never run / one-way IF outcomes", "2 / 1"),
        ("  without a note: a gap (see docs/COVERAGE.md)", "0")]
    assert C.summary_rows(cov, thorough=False)[-1] == ("  without a note: --thorough reaches them (docs/COVERAGE.md)",
                                                       "0")
