"""examples/: each script runs as a user would run it (its own process, from the checkout) and prints what it
says; every harness name an example imports is one its package's `__all__` makes public.

The game example (a whole game, ~4 CPU-s) is run by tests/oracles/test_example_game.py.
"""
from __future__ import annotations

import ast
import importlib
import subprocess
import sys

import pytest

from helpers import ROOT, game_tape

EXAMPLES = ROOT / "examples"
PUBLIC = ("harness.spectrum", "harness.cribbage", "harness.program")


def run_example(name: str, *args: str) -> str:
    done = subprocess.run([sys.executable, str(EXAMPLES / name), *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, f"{name} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_boot_and_load_reaches_the_games_first_question(tmp_path):
    tape = tmp_path / "game.tap"
    tape.write_bytes(game_tape())
    out = run_example("boot_and_load.py", str(tape)).splitlines()
    assert out[0] == f"{tape}: 4 blocks, program 19447 bytes"          # the listing's 611 lines, tokenised
    assert out[1].startswith("stopped: wait at line 7060 after ")       # ВАМ НУЖНА ИНСТРУКЦИЯ? is INPUT at 7060
    assert out[2] == "ДОБРО ПОЖАЛОВАТЬ" and out[3].startswith("ВАМ НУЖНА ИНСТРУКЦИЯ? (Y/N):")


def test_type_and_read_types_a_line_and_reads_what_the_rom_printed():
    assert run_example("type_and_read.py").splitlines() == [
        "© 1982 Sinclair Research Ltd", 'typed: PRINT "HI";2+3L', "row 0: HI5", "row 23: 0 OK, 0:1"]


def test_score_a_hand_counts_the_29_hand_and_another_by_hand():
    out = run_example("score_a_hand.py").splitlines()
    # 5H 5D 5S JC + 5C: eight fifteens (four 5+J, four 5+5+5) 16, four fives 12, nobs (JC, a club starter) 1
    assert out[-2] == "5H 5D 5S JC with 5C: fifteens 16, pairs 12, runs 0, flush 0, nobs 1, total 29"
    assert sum(line.startswith("fifteen ") for line in out) == 8 and "double pair royal 5H 5D 5S 5C = 12" in out
    # 2H 3H 4H 6H + 9S: a run of three 3, a hand flush 4, fifteens 6+9, 2+4+9 and 2+3+4+6: 6; 13 in all
    assert run_example("score_a_hand.py", "2H 3H 4H 6H", "9S").splitlines()[-2] == \
        "2H 3H 4H 6H with 9S: fifteens 6, pairs 0, runs 3, flush 4, nobs 0, total 13"
    assert out[-1].startswith("from 5H 5D JC QS 4H 6D lay away ") and out[-1].endswith(" in my crib")


def harness_imports(source: str) -> list[tuple[str, str | None]]:
    """(module, name) for every harness import of *source* (name None for `import harness.x`)."""
    found: list[tuple[str, str | None]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "harness":
            found += [(node.module, a.name) for a in node.names]
        elif isinstance(node, ast.Import):
            found += [(a.name, None) for a in node.names if a.name.split(".")[0] == "harness"]
    return found


def non_public(source: str) -> list[str]:
    """The harness names *source* imports that are not in a public package's `__all__`."""
    bad = []
    for module, name in harness_imports(source):
        if module not in PUBLIC or name is None or name not in importlib.import_module(module).__all__:
            bad.append(f"{module}.{name}" if name else module)
    return bad


@pytest.mark.parametrize("name", ["boot_and_load.py", "type_and_read.py", "score_a_hand.py", "play_one_game.py"])
def test_every_example_imports_public_names_only(name):
    source = (EXAMPLES / name).read_text(encoding="utf-8")
    assert harness_imports(source) and non_public(source) == []


def test_a_private_module_or_a_name_outside_all_is_caught_and_the_public_one_is_not():
    assert non_public("from harness.spectrum.machine import Spectrum48") == ["harness.spectrum.machine.Spectrum48"]
    assert non_public("from harness.spectrum import MachineSnapshot") == ["harness.spectrum.MachineSnapshot"]
    assert non_public("import harness.program.runs.regress") == ["harness.program.runs.regress"]
    assert non_public("from harness.spectrum import Spectrum48\nfrom harness.cribbage import score_hand") == []


def test_the_examples_are_the_four_and_each_is_about_twenty_lines():
    scripts = sorted(p.name for p in EXAMPLES.glob("*.py"))
    assert scripts == ["boot_and_load.py", "play_one_game.py", "score_a_hand.py", "type_and_read.py"]
    for name in scripts:
        code = [l for l in (EXAMPLES / name).read_text(encoding="utf-8").splitlines() if l.strip()]
        assert len(code) <= 30, f"{name}: {len(code)} lines"


@pytest.mark.parametrize("package", PUBLIC)
def test_every_public_name_resolves_and_an_unknown_one_is_an_attribute_error(package):
    module = importlib.import_module(package)
    assert module.__all__ and all(getattr(module, name) is not None for name in module.__all__)
    with pytest.raises(AttributeError):
        getattr(module, "no_such_name")
