"""Every fact of «КРИБЕДЖ» is in the program model: no BASIC variable name and no line number of the listing
written into the harness outside it.

The scan reads each module of harness/ as Python (ast) and looks at its literals:

* a string literal whose whole text is a variable name of the program (the keys of basic/variables.toml:
  "NOB", "A$()", "F"...), leaving out docstrings, the text of f-strings and argparse's `metavar=` words;
* a decimal integer literal from 1000 to 9999 that is a line number of basic/cribbage.bas (a hex literal is
  an address, so 0x2634 is not line 9780).

The model's own modules are not scanned (MODEL). What else is found must be listed in ALLOWED_NAMES or
ALLOWED_NUMBERS with the reason it is not a fact of the program (a key name, a frame budget...); an entry
nothing needs any more fails too, so the lists stay exact. A planted module shows that a violation is
caught and a near miss is not.
"""
from __future__ import annotations

import checkout
import ast
import re
import tomllib

ROOT = checkout.ROOT
HARNESS = ROOT / "harness"
VARIABLES = frozenset(tomllib.loads((ROOT / "basic" / "variables.toml").read_text(encoding="utf-8")))
LINES = frozenset(int(m.group(1)) for m in re.finditer(r"^(\d+) ", (ROOT / "basic" / "cribbage.bas")
                                                       .read_text(encoding="utf-8"), re.M))

# The program model: the modules that hold the facts (each says so in its docstring).
MODEL = {
    "harness/program/model/program.py": "the program model: every line, wait, screen place, variable and encoding",
    "harness/program/model/rulesets.py": "the listing's rule set as a preset of the engine's options, with its lines",
    "harness/program/model/coverage_notes.py": "the model's notes on the statements a run does not reach, by line",
}
# Not scanned for now: another branch of issue 20 moves this module's facts into the model. Remove the entry
# when that branch is merged (the scan then checks it like every other module).
IN_PROGRESS: dict[str, str] = {}     # modules whose facts are still moving into the model (none now)

KEY_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
# path -> (string literals that are variable names by spelling only, why they are not the program's variables)
ALLOWED_NAMES: dict[str, tuple[frozenset[str], str]] = {
    "harness/spectrum/keyboard.py": (KEY_LETTERS | {"SS", "CR"},
                                     "the Spectrum's key names and their aliases (SS: SYMBOL SHIFT, CR: ENTER)"),
    "harness/spectrum/typist.py": (KEY_LETTERS | {"SS"}, "key names the Typist presses (SS: SYMBOL SHIFT)"),
    "harness/spectrum/sysvars.py": (KEY_LETTERS, "the ROM's report codes A-R"),
    "harness/spectrum/cpu.py": (frozenset({"I"}), "the Z80's I register"),
    "harness/cribbage/cards.py": (frozenset({"T", "J", "K"}),
                                  "the engine's letter for a ten (TH), its rank words for the jack and the king"),
    "harness/edition/cards.py": (frozenset({"T"}), "the engine's letter for a ten, shown as 10"),
    "harness/program/judge/screen_judgements.py": (frozenset({"D"}), "the engine's suit letters H and D (the red suits)"),
    "harness/edition/site.py": (frozenset({"S"}), "the S that stands for $ in an HTML id (v-AS for A$)"),
    "harness/edition/analysis.py": (frozenset({"S"}), "the S that stands for $ in an HTML id"),
    "harness/program/runs/screens.py": (frozenset({"P"}), "Pillow's palette image mode"),
    "harness/program/observe/players.py": (frozenset({"X"}), "a letter the explorer types as an improper answer"),
    "harness/program/model/subroutine.py": (frozenset({"L"}), "the ROM's report code L, BREAK into program"),
    "harness/play/keymap.py": (frozenset({"P"}), "the window's pause key, P"),
    "harness/play/session.py": (frozenset({"P"}), "the window's pause key, P, among the toggles"),
    "harness/web/bench.py": (frozenset({"N"}), "the keys the bench types (N, ENTER: the answers)"),
    "harness/play/waits.py": (frozenset({"Y", "N"}), "the Spectrum's keys Y and N on the page's touch row"),
}
# path -> (integers that are line numbers by value only, why they are not the listing's lines)
ALLOWED_NUMBERS: dict[str, tuple[frozenset[int], str]] = {
    "harness/bench/machine.py": (frozenset({1500}), "frames of the harness's own benchmark (harness/data/bench.bas)"),
    "harness/commands/strength.py": (frozenset({2000}), "engine self-play games by default (--engine-games)"),
    "harness/commands/sweep.py": (frozenset({4000}), "the sample of play cases of --quick"),
    "harness/program/observe/driver.py": (frozenset({4000}), "a game's budget of actions"),
    "harness/program/runs/strength.py": (frozenset({2000}), "engine self-play games by default"),
    "harness/program/model/subroutine.py": (frozenset({2000}), "a routine call's budget of frames"),
    "harness/play/beeper.py": (frozenset({6000}), "the beeper's sample amplitude"),
    "harness/play/session.py": (frozenset({1000}), "frames cut short by traps before it is a machine fault"),
    "harness/spectrum/acceptance.py": (frozenset({2000}), "a frame budget"),
    "harness/spectrum/romcheck.py": (frozenset({2000}), "a frame budget"),
    "harness/spectrum/direct.py": (frozenset({5000}), "a frame budget"),
    "harness/spectrum/audio.py": (frozenset({1000}), "milliseconds (a second of silence, ms to T-states)"),
    "harness/spectrum/tzx.py": (frozenset({1000}), "milliseconds of pause after a block"),
    "harness/commands/html.py": (frozenset({8000}), "--serve's default port"),
    "harness/commands/readings.py": (frozenset({1000}), "the most games a reading may be played on"),
    "harness/oracle/emulators.py": (frozenset({1500}), "MAME's frames to wait after the tape"),
    "harness/web/bench.py": (frozenset({1000, 1280}), "milliseconds a second; the page's width in pixels"),
}


def _skipped(tree: ast.AST) -> set[int]:
    """ids of the literals that are not code: docstrings and statements that are a bare string, the text
    of f-strings, and argparse's metavar words."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skip.add(id(node.value))
        elif isinstance(node, ast.JoinedStr):
            skip.update(id(v) for v in node.values)
        elif isinstance(node, ast.keyword) and node.arg == "metavar":
            skip.add(id(node.value))
    return skip


def program_facts(source: str) -> list[tuple[str, int, object]]:
    """("variable"|"line", source line, value) for each literal of *source* that is a fact of the program."""
    tree = ast.parse(source)
    skip = _skipped(tree)
    found: list[tuple[str, int, object]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Constant) or id(node) in skip:
            continue
        value = node.value
        if isinstance(value, str) and value in VARIABLES:
            found.append(("variable", node.lineno, value))
        elif type(value) is int and 1000 <= value <= 9999 and value in LINES:
            written = ast.get_source_segment(source, node) or ""
            if written.replace("_", "").isdigit():              # decimal: 0x2634 is an address, not line 9780
                found.append(("line", node.lineno, value))
    return sorted(found, key=lambda f: f[1])


def _modules() -> dict[str, str]:
    return {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8") for p in sorted(HARNESS.rglob("*.py"))}


def _unexplained(path: str, facts: list[tuple[str, int, object]]) -> list[tuple[str, int, object]]:
    names = ALLOWED_NAMES.get(path, (frozenset(), ""))[0]
    numbers = ALLOWED_NUMBERS.get(path, (frozenset(), ""))[0]
    return [f for f in facts if not (f[0] == "variable" and f[2] in names or f[0] == "line" and f[2] in numbers)]


def test_the_scan_knows_the_program():
    assert {"NOB", "A$()", "F", "SUM", "R$", "T()"} <= VARIABLES and "OK" not in VARIABLES
    assert {3700, 3730, 9540} <= LINES and 2048 not in LINES


def test_no_fact_of_the_program_outside_the_model():
    problems = []
    for path, source in _modules().items():
        if path in MODEL or path in IN_PROGRESS:
            continue
        found = _unexplained(path, program_facts(source))
        problems += [f"{path}:{line}: {kind} {value!r}" for kind, line, value in found]
    assert problems == [], "facts of the program outside harness/program/model/program.py (move them into the model, " \
                           "or allow-list them here with the reason):\n" + "\n".join(problems)


def test_every_exception_is_still_needed():
    modules = _modules()
    for path in list(MODEL) + list(IN_PROGRESS) + list(ALLOWED_NAMES) + list(ALLOWED_NUMBERS):
        assert path in modules, f"{path}: listed here but not in harness/"
    for path, (names, why) in ALLOWED_NAMES.items():
        used = {v for kind, _, v in program_facts(modules[path]) if kind == "variable"}
        assert names & used, f"{path}: no literal needs the exception ({why})"
    for path, (numbers, why) in ALLOWED_NUMBERS.items():
        used = {v for kind, _, v in program_facts(modules[path]) if kind == "line"}
        assert numbers <= used, f"{path}: {sorted(numbers - used)} no longer written ({why})"
    for path in IN_PROGRESS:
        assert program_facts(modules[path]), f"{path}: has no fact of the program left: scan it (drop IN_PROGRESS)"


PLANTED = '''
"""A module that peeks at NOB and stops at 3730 (its docstring may say so)."""
from harness.spectrum.variables import peek_var


def nobs(m):
    return peek_var("NOB")


def waiting(line):
    return line == 3730
'''

NEAR_MISS = '''
"""Says "F" and 3730 in its docstring only."""
import argparse

BUFFER = 2048                # not a line of the listing
ROM_ROUTINE = 0x0EA6         # 3750 written in hex: an address
STATUS = "OK"                # not a variable of the program
WORDS = ("NOBS", "SUMS", "LET NOB=0")   # longer texts that contain a name


def label(n):
    return f"F{n}"            # the text of an f-string


def parser():
    p = argparse.ArgumentParser()
    p.add_argument("--from", metavar="DIR")   # argparse's placeholder word
    return p
'''


def test_a_planted_variable_name_and_line_number_are_caught():
    assert program_facts(PLANTED) == [("variable", 7, "NOB"), ("line", 11, 3730)]
    assert _unexplained("harness/program/planted.py", program_facts(PLANTED)) != []


def test_near_misses_are_not_caught():
    assert program_facts(NEAR_MISS) == []


def test_a_one_letter_name_is_caught_only_as_a_whole_literal():
    assert program_facts('x = get("F")\ny = "F1"\nz = "f"\n') == [("variable", 1, "F")]
    # ...and allowed only where its file's entry names it: the keyboard's "S" is a key, the driver's is not
    assert _unexplained("harness/spectrum/keyboard.py", [("variable", 1, "S")]) == []
    assert _unexplained("harness/program/observe/driver.py", [("variable", 1, "S")]) == [("variable", 1, "S")]
