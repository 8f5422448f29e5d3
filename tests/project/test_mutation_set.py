"""The mutated set covers every module that decides, compares or refuses (issue 51): tools/mutation.py's
`deciding_modules` finds each module of harness/ with a function that returns differences, verdicts or
refusals (named so, or annotated to return a Finding, Difference, Divergence, Verdict...); each must be in
MODULES (and pyproject's only_mutate) or in NOT_MUTATED with its reason. Planted: a module of that kind in a
small package listed nowhere, and one listed with no reason; near misses: the same module listed, or with a
reason, and a module whose functions only describe or draw."""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from tools import mutation as M

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def deciding() -> dict[str, list[str]]:
    return M.deciding_modules(ROOT / "harness")


def _package(tmp_path: Path) -> Path:
    pkg = tmp_path / "pkg"
    (pkg / "judge").mkdir(parents=True)
    (pkg / "judge" / "check.py").write_text("def differences(a, b):\n    return [x for x in a if x not in b]\n")
    (pkg / "judge" / "typed.py").write_text("def tell(a) -> list[ScreenFinding]:\n    return []\n")
    (pkg / "view.py").write_text("def describe(d):\n    return str(d)\n\nclass Page:\n    def draw(self) -> str:\n"
                                 "        return ''\n")
    (pkg / "guard.py").write_text("class Folder:\n    def _refuse_theirs(self, path):\n        raise OSError(path)\n")
    return pkg


def test_the_deciding_modules_are_found_by_name_and_by_what_they_return(tmp_path):
    assert M.deciding_modules(_package(tmp_path)) == {"guard.py": ["_refuse_theirs"], "judge/check.py": ["differences"],
                                                      "judge/typed.py": ["tell"]}


def test_a_deciding_module_listed_nowhere_is_caught_and_one_listed_is_not(tmp_path):
    pkg = _package(tmp_path)
    every = {"guard.py", "judge/check.py", "judge/typed.py"}
    assert M.unaccounted(pkg, set(), {}) == {"guard.py": ["_refuse_theirs"], "judge/check.py": ["differences"],
                                             "judge/typed.py": ["tell"]}
    # planted: one left out of both lists
    assert M.unaccounted(pkg, {"guard.py", "judge/typed.py"}, {}) == {"judge/check.py": ["differences"]}
    # ... or listed without a reason (a word or two is no reason)
    assert M.unaccounted(pkg, {"guard.py", "judge/typed.py"}, {"judge/check.py": "later"}) == {
        "judge/check.py": ["differences"]}
    # near misses: mutated, or kept out with a reason
    assert M.unaccounted(pkg, every, {}) == {}
    assert M.unaccounted(pkg, {"guard.py", "judge/typed.py"},
                         {"judge/check.py": "lists names for a page; decides nothing"}) == {}


def test_every_deciding_module_of_harness_is_mutated_or_kept_out_with_its_reason(deciding, monkeypatch):
    mutated = {m.file for m in M.MODULES.values()}
    monkeypatch.setattr(M, "deciding_modules", lambda package: deciding)
    assert M.unaccounted(ROOT / "harness", mutated, M.NOT_MUTATED) == {}


def test_the_lists_name_modules_that_are_there_and_do_not_contradict_each_other(deciding):
    mutated = {m.file for m in M.MODULES.values()}
    assert [f for f in sorted(mutated | set(M.NOT_MUTATED)) if not (ROOT / "harness" / f).is_file()] == []
    assert mutated & set(M.NOT_MUTATED) == set()
    assert [f for f in M.NOT_MUTATED if f not in deciding] == []          # a reason for nothing: stale
    # the modules of the issue 51 round are in the set
    assert {"program/records/frames.py", "web/compare.py", "spectrum/recording.py", "program/runs/readings.py",
            "oracle/lockstep.py", "oracle/conformance.py", "oracle/emulators.py", "program/runs/pack.py"} <= mutated


def test_pyproject_mutates_every_module_of_the_set():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mutmut"]
    assert sorted(config["only_mutate"]) == sorted(f"harness/{m.file}" for m in {m.file: m for m in M.MODULES.values()}.values())


def test_a_row_naming_a_function_its_file_no_longer_holds_is_caught_and_one_still_there_is_not(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "judge.py").write_text("def verdict(a):\n    return a\n\nclass Referee:\n    def call(self):\n"
                                  "        return 1\n")
    near = {"all": M.Module("judge.py", ("pkg.judge.*",), "every mutant"),
            "fn": M.Module("judge.py", M._functions("pkg.judge", "verdict"), "a function"),
            "cls": M.Module("judge.py", ("pkg.judge.xǁRefereeǁ*",), "a class"),
            "method": M.Module("judge.py", ("pkg.judge.xǁRefereeǁcall__mutmut_*",), "a method")}
    assert M.stale_patterns(pkg, near) == []
    # planted: a function moved out by a split, a renamed class and method, a file gone
    planted = {"fn": M.Module("judge.py", M._functions("pkg.judge", "verdict", "_causes"), "a function"),
               "cls": M.Module("judge.py", ("pkg.judge.xǁUmpireǁ*",), "a class"),
               "method": M.Module("judge.py", ("pkg.judge.xǁRefereeǁwhistle__mutmut_*",), "a method"),
               "gone": M.Module("gone.py", ("pkg.gone.*",), "a file")}
    assert M.stale_patterns(pkg, planted) == ["fn: pkg.judge.x__causes__mutmut_*", "cls: pkg.judge.xǁUmpireǁ*",
                                              "method: pkg.judge.xǁRefereeǁwhistle__mutmut_*", "gone: pkg.gone.*"]


def test_every_row_of_the_mutated_set_names_what_its_file_holds():
    assert M.stale_patterns(ROOT / "harness", M.MODULES) == []
