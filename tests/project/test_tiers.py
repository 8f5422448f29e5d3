"""tests/ in the shape of the house, in two tiers (issue 44; tests/tiers.py).

* Every test file sits in exactly one folder of `FOLDERS`, which mirror harness/'s packages (and the program's
  stages), plus tests/project/ (the house itself) and tests/oracles/ (outside programs, other cores, Dask, and the
  games too dear for the quick tier).
* A folder's tests import only their own package and the packages below it (harness's layers, as
  tests/project/test_layers.py reads them); no test module imports another (what they lend is in a conftest or a
  helper module: tests/helpers.py and its neighbours).
* The quick tier is chosen by measurement: tests/data/test-costs.json (written by `tools/suite_figures.py costs`
  from a run of both tiers with --cpu-json) holds every test's core-seconds; a quick-tier test above
  `BUDGET_CORE_S` fails this check unless `DEAR` names it with its reason, and the quick tier's whole cost stays
  under `QUICK_BUDGET_CORE_S`.
* The guard: a quick-tier test that starts a program not Python, or skips, fails with one line.
Each check is shown a planted breach and a near miss.
"""
from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import checkout
from layering import LEVEL, STAGE_LEVEL, stage_of, unit_of

TESTS = checkout.TESTS
COSTS = checkout.DATA / "test-costs.json"

#: each folder of tests/ and the harness unit whose tests it holds (None: the house itself, or the oracles)
FOLDERS: dict[str, str | None] = {
    "spectrum": "spectrum", "cribbage": "cribbage",
    "program/records": "program.records", "program/model": "program.model", "program/observe": "program.observe",
    "program/judge": "program.judge", "program/runs": "program.runs",
    "edition": "edition", "play": "play", "bench": "bench", "web": "web",
    "runtime": "runtime", "commands": "cli", "project": None,      # commands: the commands, through cli.py's table
    "oracles/emulators": None, "oracles/cores": None, "oracles/window": None, "oracles/browser": None,
    "oracles/dask": None, "oracles/tools": None, "oracles/games": None,
}
#: a quick-tier test costing more than this many core-seconds needs its reason in DEAR
BUDGET_CORE_S = 2.0
#: the quick tier's whole cost, in core-seconds, as tests/data/test-costs.json has it
QUICK_BUDGET_CORE_S = 200.0
#: quick-tier tests above the budget, each with why it stays (node ids as pytest names them); most pay for a
#: session fixture the tests after them read (a session fixture's cost lands on the first test that asks for it)
DEAR: dict[str, str] = {
    "tests/commands/test_regress_runs.py::test_a_used_folder_is_refused_and_replace_clears_only_what_the_run_wrote":
        "the first to ask for the run's one real regress game (conftest's played_record, in the game store), which "
        "the stand-in games of the commands', the report's and the records' tests copy",
    "tests/commands/test_regress_runs.py::test_a_second_run_into_a_busy_folder_fails_at_once_naming_it":
        "two regress processes started against one folder: the refusal is the second process's own",
    "tests/commands/test_regress_runs.py::test_ctrl_c_stops_a_sweep_with_130_and_keeps_its_chunks":
        "a sweep on a pool of two worker processes, stopped by Ctrl-C once its first chunk is written: the pool's "
        "start and its stop are the test",
    "tests/commands/test_exports.py::test_the_first_session_shows_the_welcome_asks_muggins_and_deals":
        "the tape's first session (tests/helpers.py), loaded through the ROM and played to the first deal, which the "
        "module's exports read",
    "tests/commands/test_readings_signal.py::test_a_stop_that_left_nothing_untested_says_so_not_that_resume_plays_them":
        "line 2's readings each built as a variant tape and refused by the ROM's own syntax check: a run that "
        "leaves nothing undone, the case its stop line is about",
    "tests/commands/test_play_tools.py::test_a_recorded_game_replays_to_the_same_screens_frame_for_frame":
        "a window session recorded through five answers, then replayed frame by frame to the same screens",
    "tests/program/model/test_cribbage_program.py::test_all_611_lines_pass_the_roms_syntax_check_with_identical_bytes":
        "the listing's every line typed into the ROM's own editor: the check the reconstruction rests on",
    "tests/project/test_private_names.py::test_no_file_uses_a_private_name_of_regress_or_sweep":
        "reads every module of harness/ and tests/ (ast)",
    "tests/commands/test_play_rzx.py::test_the_rzx_holds_the_game_from_the_first_question":
        "the module's one window session recorded as an RZX (the discard to the show), which its tests replay",
    "tests/commands/test_build_refusals.py::test_a_program_too_big_to_load_is_refused":
        "a program at the memory's limit built and loaded through the ROM: the refusal is the ROM's",
    "tests/play/test_play_moments.py::test_each_verdict_is_shown_at_the_wait_after_its_score_is_pegged":
        "a deal played in the window's session to each of its verdicts",
    "tests/play/test_play_honest.py::test_deal_numbers_go_on_through_a_save_and_a_load":
        "the window's session played into its second deal, saved and loaded",
    "tests/play/test_play_honest.py::test_the_computers_cards_the_crib_and_the_claim_are_veiled_until_shown":
        "the window's session played through a deal to its show: what is veiled until then is the test",
}


# ------------------------------------------------------------------------------------------------ the folders
def files_of_tests(root=TESTS) -> list:
    return sorted(p for p in root.rglob("test_*.py") if "__pycache__" not in p.parts)


def misplaced(paths, root=TESTS) -> list[str]:
    """Test files outside every folder of FOLDERS (tests/ itself included)."""
    return [str(p.relative_to(root)) for p in paths if str(p.parent.relative_to(root)) not in FOLDERS]


def test_every_test_file_is_in_one_folder_of_the_house():
    assert misplaced(files_of_tests()) == []
    names = [p.name for p in files_of_tests()]
    assert sorted({n for n in names if names.count(n) > 1}) == [], "two test files of one name"


def test_a_test_file_at_the_top_or_in_an_unknown_folder_is_named(tmp_path):
    for folder in ("", "emulator", "program/judge"):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
        (tmp_path / folder / "test_x.py").write_text("")
    assert misplaced(files_of_tests(tmp_path), tmp_path) == ["emulator/test_x.py", "test_x.py"]


# ------------------------------------------------------------------------------------------------ the imports
def imported(source: str) -> set[str]:
    """Every module a test module imports (lazy imports inside functions too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


def above_the_folder(folder: str, modules: set[str]) -> list[str]:
    """The harness modules *modules* names that a test of *folder* may not import: a package at its own layer
    or above (its own excepted), or a later stage of the program."""
    unit = FOLDERS[folder]
    if unit is None:
        return []
    own, _, stage = unit.partition(".")
    bad = []
    for module in sorted(m for m in modules if m.startswith("harness.")):
        there = unit_of(module)
        if there in ("data", "_data", "__init__"):
            continue
        if there == own:
            there_stage = stage_of(module)
            if stage and there_stage and STAGE_LEVEL[there_stage] > STAGE_LEVEL[stage]:
                bad.append(module)
        elif LEVEL.get(there, 99) >= LEVEL[own]:
            bad.append(module)
    return bad


def imported_test_modules(modules: set[str], names: set[str]) -> list[str]:
    """The test modules among *modules* (a test module importing another)."""
    return sorted({m.split(".")[0] for m in modules} & names)


def test_a_folders_tests_import_only_their_package_and_those_below():
    bad = {}
    for path in files_of_tests():
        folder = str(path.parent.relative_to(TESTS))
        wrong = above_the_folder(folder, imported(path.read_text(encoding="utf-8")))
        if wrong:
            bad[str(path.relative_to(TESTS))] = wrong
    assert bad == {}


def test_no_test_module_imports_another():
    names = {p.stem for p in files_of_tests()}
    bad = {str(p.relative_to(TESTS)): imported_test_modules(imported(p.read_text(encoding="utf-8")), names)
           for p in files_of_tests()}
    assert {k: v for k, v in bad.items() if v} == {}


def test_the_import_rules_see_a_planted_breach_and_pass_a_near_miss():
    assert above_the_folder("spectrum", {"harness.program.model.program"}) == ["harness.program.model.program"]
    assert above_the_folder("cribbage", {"harness.spectrum.machine"}) == ["harness.spectrum.machine"]   # sideways
    assert above_the_folder("program/judge", {"harness.program.runs.regress"}) == ["harness.program.runs.regress"]
    assert above_the_folder("edition", {"harness.commands.html"}) == ["harness.commands.html"]
    near = {"harness.errors", "harness.spectrum.machine", "harness.program.model.program", "harness.program.judge.compare"}
    assert above_the_folder("program/judge", near) == []
    assert above_the_folder("oracles/cores", {"harness.cli"}) == []
    names = {"test_web", "test_report_html"}
    assert imported_test_modules(imported("from test_web import browser\nimport helpers\n"), names) == ["test_web"]
    assert imported_test_modules(imported("def f():\n    from test_report_html import x\n"), names) == ["test_report_html"]
    assert imported_test_modules(imported("from helpers import shift_action\nimport test_layers_x\n"), names) == []


# ------------------------------------------------------------------------------------------------ the costs
def is_quick(nodeid: str) -> bool:
    return not nodeid.startswith("tests/oracles/")


def over_budget(costs: dict[str, float], dear: dict[str, str] = DEAR, budget: float = BUDGET_CORE_S) -> list[str]:
    """Quick-tier tests dearer than *budget* core-seconds and not named in *dear*, dearest first."""
    over = [(c, n) for n, c in costs.items() if is_quick(n) and c > budget and n not in dear]
    return [f"{n}: {c:.2f} core-s" for c, n in sorted(over, reverse=True)]


def quick_total(costs: dict[str, float]) -> float:
    return sum(c for n, c in costs.items() if is_quick(n))


def read_costs() -> dict[str, float]:
    return json.loads(COSTS.read_text(encoding="utf-8"))["tests"]


def test_no_quick_test_is_dearer_than_the_budget_without_its_reason():
    assert over_budget(read_costs()) == []


def test_the_quick_tier_costs_less_than_its_budget():
    assert quick_total(read_costs()) <= QUICK_BUDGET_CORE_S


def stale_reasons(costs: dict[str, float], dear: dict[str, str] = DEAR) -> list[str]:
    """Reasons naming a test that is not in the quick tier, or no longer near the budget (below half of it: the
    host's noise moves a test by a few tenths, not by half)."""
    return [n for n in dear if n not in costs or costs[n] <= BUDGET_CORE_S / 2 or not is_quick(n)]


def test_every_reason_names_a_quick_test_that_is_still_dear():
    assert stale_reasons(read_costs()) == []


def test_the_budget_check_sees_a_dear_test_and_passes_a_near_miss():
    costs = {"tests/spectrum/test_a.py::test_dear": 2.01, "tests/spectrum/test_a.py::test_cheap": 2.0,
             "tests/oracles/emulators/test_b.py::test_fuse": 40.0, "tests/play/test_c.py::test_named": 9.0}
    assert over_budget(costs, dear={"tests/play/test_c.py::test_named": "a reason"}) == [
        "tests/spectrum/test_a.py::test_dear: 2.01 core-s"]
    assert over_budget(costs, dear={}) == ["tests/play/test_c.py::test_named: 9.00 core-s",
                                           "tests/spectrum/test_a.py::test_dear: 2.01 core-s"]
    assert quick_total(costs) == pytest.approx(13.01)
    assert stale_reasons(costs, {"tests/play/test_c.py::test_named": "a reason"}) == []
    assert stale_reasons(costs, {"tests/spectrum/test_a.py::test_gone": "a reason",
                                 "tests/oracles/emulators/test_b.py::test_fuse": "an oracle",
                                 "tests/spectrum/test_a.py::test_cheap": "near the budget"}) == [
        "tests/spectrum/test_a.py::test_gone", "tests/oracles/emulators/test_b.py::test_fuse"]


# ------------------------------------------------------------------------------------------------ the guard
GUARDED = {
    "quick/test_q.py": '''
        import subprocess, sys, pytest

        def test_starts_a_program_not_python():
            subprocess.run([TRUE])

        def test_catches_the_refusal_and_still_fails():
            try:
                subprocess.run([TRUE])
            except Exception:
                pass

        def test_a_program_not_on_its_path_is_missing_as_on_a_bare_machine():
            with pytest.raises(FileNotFoundError):
                subprocess.run(["true"])

        def test_starts_python():
            subprocess.run([sys.executable, "-c", "pass"], check=True)

        def test_skips():
            pytest.skip("no such tool")

        def test_sees_only_the_venvs_programs():
            import shutil
            assert shutil.which("true") is None
    ''',
    "oracles/test_o.py": '''
        import subprocess, shutil

        def test_an_oracle_starts_what_it_likes():
            subprocess.run(["true"], check=True)
            assert shutil.which("true") is not None
    ''',
}


def test_the_guard_fails_a_quick_test_that_starts_a_program_or_skips_and_leaves_the_oracles_be(tmp_path):
    outside = os.pathsep.join([str(Path(sys.executable).parent), os.defpath])     # the quick tier's PATH hides `true`
    if shutil.which("true", path=outside) is None:
        pytest.fail(f"this check plants a start of `true` (coreutils), and there is none on {outside}")
    root = tmp_path / "tests"
    for name, source in GUARDED.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(f"TRUE = {shutil.which('true', path=outside)!r}\n" + textwrap.dedent(source))
    shutil.copy(TESTS / "tiers.py", root / "tiers.py")
    (root / "conftest.py").write_text('pytest_plugins = ["tiers"]\n')
    env = {**{k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"}, "PATH": outside}   # not the outer run's
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "-rA",
                           "--tier", "all", "-o", "addopts=", str(root)], cwd=tmp_path, capture_output=True, env=env,
                          text=True, timeout=120)
    out = done.stdout
    assert done.returncode == 1, out
    outcome = {line.split(" ")[1].split("::")[-1]: line.split(" ")[0] for line in out.splitlines()
               if line.startswith(("PASSED ", "FAILED ", "SKIPPED ", "ERROR "))}
    assert outcome == {"test_starts_a_program_not_python": "FAILED",
                       "test_catches_the_refusal_and_still_fails": "FAILED",
                       "test_a_program_not_on_its_path_is_missing_as_on_a_bare_machine": "PASSED",
                       "test_starts_python": "PASSED", "test_skips": "FAILED",
                       "test_sees_only_the_venvs_programs": "PASSED",
                       "test_an_oracle_starts_what_it_likes": "PASSED"}, out
    assert "tests/quick/test_q.py::test_starts_a_program_not_python started 'true'" in out, out
    assert "not a Python program: a quick-tier test starts none (move it to tests/oracles/)" in out
    assert "skipped in the quick tier (" in out and "no such tool" in out
    quick = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "-q",
                            "--tier", "quick", "-o", "addopts=", str(root)], cwd=tmp_path, capture_output=True, env=env,
                           text=True, timeout=120)
    assert "test_o.py" not in quick.stdout and "3 failed, 3 passed" in quick.stdout, quick.stdout
