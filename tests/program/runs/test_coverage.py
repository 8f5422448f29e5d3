"""BASIC coverage: what a run did not reach is set against the notes, docs/COVERAGE.md is current, every
note still explains something, and the default run (the README's main job) reaches exactly what the
document says it does."""
import checkout

from harness.program.runs.coverage import Coverage
from harness.program.model.coverage_notes import NOTES
from harness.spectrum.basic import tokenise_program
from harness.spectrum.profile import profile_of_counts, statement_table
from tools import write_coverage_doc

ROOT = checkout.ROOT
TOOL = write_coverage_doc
DATA = __import__("json").loads((ROOT / "docs" / "data" / "coverage.json").read_text(encoding="utf-8"))

SMALL = """\
6 REM never
10 IF A=1 THEN PRINT 1
20 IF A=2 THEN PRINT 2
30 STOP
"""


def test_never_run_and_one_way_ifs_are_found_and_matched_against_notes(monkeypatch):
    program = tokenise_program(SMALL)
    table = statement_table(program)
    ifs = {k for k, code in table.items() if code == 0xFA}
    # A=1: 10 went true, 20 went false; 5 never ran
    profile = profile_of_counts({(10, 1): 1, (10, 2): 1, (20, 1): 1, (30, 1): 1}, ifs)
    cov = Coverage.of(program, profile)
    assert cov.never_run == [(6, 1), (20, 2)]
    assert cov.one_way == [((10, 1), "false"), ((20, 1), "true")]
    data = cov.as_json()
    assert (data["statements_run"], data["statements_total"], data["ifs_both"], data["ifs_total"]) == (4, 6, 0, 2)
    assert data["unexplained"] == ["10:1 false", "20:1 true", "20:2", "6:1"]
    # a note for line 6 and for the outcome 20:1 true explains exactly those; the near-misses stay unexplained
    from harness.program.runs import coverage as coverage_module
    from harness.program.model.coverage_notes import Note
    monkeypatch.setattr(coverage_module, "NOTES", (Note("X1", "test", statements=((6, 6),),
                                                        outcomes=((20, 1, "true"),)),))
    data = Coverage.of(program, profile).as_json()
    assert data["explained_by"] == {"6:1": "X1", "20:1 true": "X1"}
    assert data["unexplained"] == ["10:1 false", "20:2"]


def test_the_coverage_document_is_current():
    assert (ROOT / "docs" / "COVERAGE.md").read_text(encoding="utf-8") == TOOL.markdown(DATA)


def test_the_thorough_set_leaves_nothing_unexplained_and_the_default_run_only_what_the_thorough_set_reaches():
    assert DATA["thorough"]["unexplained"] == []
    assert TOOL.reasons(DATA, "default").get("?") is None
    assert TOOL.reasons(DATA, "thorough").get("?") is None
    assert DATA["thorough"]["statements_run"] > DATA["default"]["statements_run"]


def test_every_note_explains_something_the_thorough_set_does_not_reach():
    used = set(DATA["thorough"]["explained_by"].values())
    assert used == {n.id for n in NOTES}


def test_the_summary_says_items_without_a_note_are_the_thorough_sets_only_after_a_default_run():
    from harness.program.runs.coverage import RunCoverage, summary_rows
    cov = RunCoverage(statements_run=5, statements_total=9, ifs_both=1, ifs_total=2, never_run=["6:1"], one_way=[],
                      unexplained=["6:1", "20:2"], explained_by={}, counts={}, ifs={}, choices={}, pictures_at={})
    default = dict(summary_rows(cov, thorough=False))
    thorough = dict(summary_rows(cov, thorough=True))
    assert default["  without a note: --thorough reaches them (docs/COVERAGE.md)"] == "2"
    assert thorough["  without a note: a gap (see docs/COVERAGE.md)"] == "2"
    assert set(default) - set(thorough) and default["statements run"] == thorough["statements run"] == "5/9"
