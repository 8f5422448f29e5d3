"""tools/mutation.py's scoring without running mutmut: killed and argued count, a survivor does not, an
argument whose line no longer matches its mutant is stale and does not count, the goal is per module."""
import checkout

import pytest

from tools import mutation as M

ROOT = checkout.ROOT


def test_a_module_scores_killed_and_argued(monkeypatch):
    monkeypatch.setattr(M, "mutated_lines", lambda module, name: {"m.x_f__mutmut_3": ["x = 2"],
                                                                  "m.x_f__mutmut_4": ["y = 3"]}.get(name, []))
    codes = {"m.x_f__mutmut_1": 1, "m.x_f__mutmut_2": -24, "m.x_f__mutmut_3": 0, "m.x_f__mutmut_4": 0,
             "m.x_f__mutmut_5": 0, "m.x_f__mutmut_6": 34, "m.x_f__mutmut_7": None}
    argued = {"m.x_f__mutmut_3": {"line": "x = 2", "reason": "r"},
              "m.x_f__mutmut_4": {"line": "y = 4", "reason": "stale: the mutant now adds y = 3"},
              "m.x_f__mutmut_1": {"line": "z", "reason": "killed anyway"}}
    s = M.score_module("m", codes, argued)
    # 6 counted (34 skipped); killed 1 and 2; argued 3; 4 (stale) and 5 survived; 7 was not run (not killed either)
    assert (s["mutants"], s["ran"], s["killed"], s["equivalent"], s["survived"]) == (6, 5, 2, 1, 2)
    assert s["score"] == 50.0
    assert s["surviving"] == ["m.x_f__mutmut_4", "m.x_f__mutmut_5"]
    assert s["stale_arguments"] == ["m.x_f__mutmut_4"] and s["equivalents"] == ["m.x_f__mutmut_3"]


def test_the_equivalents_file_is_read_and_an_entry_without_a_reason_refused(tmp_path):
    f = tmp_path / "eq.toml"
    f.write_text('[[equivalent]]\nmutant = "a"\nline = "b"\nreason = "c"\n', encoding="utf-8")
    assert M.load_equivalents(f) == {"a": {"line": "b", "reason": "c"}}
    f.write_text('[[equivalent]]\nmutant = "a"\nline = "b"\nreason = " "\n', encoding="utf-8")
    with pytest.raises(SystemExit, match="equivalent #1 lacks reason"):
        M.load_equivalents(f)
    assert M.load_equivalents(tmp_path / "none.toml") == {}


def test_the_projects_arguments_are_well_formed_and_name_modules_of_the_set():
    argued = M.load_equivalents()
    prefixes = tuple(p.split("*")[0].rsplit(".", 1)[0] for m in M.MODULES.values() for p in m.patterns)
    assert argued and all(name.startswith(prefixes) for name in argued)


def test_the_page_shows_every_module_and_what_is_left():
    results = {"study": {"mutants": 10, "killed": 8, "survived": 1, "equivalent": 1, "score": 90.0, "seconds": 60.0,
                         "children": 1, "commit": "abc", "surviving": ["harness.program.runs.study.x_f__mutmut_9"],
                         "equivalents": ["harness.program.runs.study.x_f__mutmut_2"], "again": {"rerun": 2, "seconds": 30.0}}}
    page = M.page(results, {"harness.program.runs.study.x_f__mutmut_2": {"line": "x", "reason": "why"}})
    assert "| study | the strength figures of a match | 10 | 8 | 1 | 1 | 90.0 % | 60 + 30 (2 again) | 1 | abc |" in page
    assert all(f"| {name} |" in page for name in M.MODULES)
    assert "- study: `harness.program.runs.study.x_f__mutmut_9`" in page and "`x`: why" in page


def test_again_past_its_budget_runs_no_second_pass(monkeypatch, tmp_path):
    """--again whose first pass overran: the mutants of lines the added tests reach are left out (a second
    pass would take another budget); the mutants run are merged, the run is a partial score (exit 2)."""
    import json
    monkeypatch.setattr(M, "WORK", tmp_path)
    monkeypatch.setattr(M, "RESULTS", tmp_path / "mutation.json")
    monkeypatch.setattr(M, "PAGE", tmp_path / "MUTATION.md")
    monkeypatch.setattr(M, "load_equivalents", lambda: {})
    monkeypatch.setattr(M, "commit", lambda: "abc1234")
    monkeypatch.setattr(M, "OVERRUN", set())
    (tmp_path / "picture").mkdir()
    calls = []

    def fake_results(name):
        merged = tmp_path / "picture" / "codes.json"
        if merged.is_file():
            return json.loads(merged.read_text(encoding="utf-8"))
        return {"p.a": 0, "p.b": 1} if not calls else {"p.a": 1, "p.b": 1, "p.new": 0}

    def fake_run(name, children, budget, only=None, fresh=True):
        calls.append((tuple(only or ()), fresh))
        M.OVERRUN.add(name)
    monkeypatch.setattr(M, "results", fake_results)
    monkeypatch.setattr(M, "run_mutmut", fake_run)
    assert M.main(["--module", "picture", "--again", "--children", "1"]) == 2
    assert calls == [(("p.a",), True)]                      # one pass, the one not killed before
    assert json.loads((tmp_path / "picture" / "codes.json").read_text(encoding="utf-8")) == {"p.a": 1, "p.b": 1}
    kept = json.loads((tmp_path / "mutation.json").read_text(encoding="utf-8"))["picture"]
    assert (kept["killed"], kept["mutants"], kept["partial"]) == (2, 2, True)
