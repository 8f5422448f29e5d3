"""The package's layers, read from its import statements: every import points down, no package cycle.

The layers, bottom up (docs/ARCHITECTURE.md draws them):
  foundation  harness.errors, harness.resources     what every layer may use
  runtime     harness.runtime                        job runner, output folders, atomic files, argument types
  bottom      harness.spectrum, harness.cribbage     the emulator and the rules engine: neither knows the other
  program     harness.program                           «КРИБЕДЖ»: its model, tape, driver, observer, comparison, runs
  views       harness.edition, harness.play, harness.bench, harness.oracle   what people read, play, time, and
              what other cores and emulators say
  page        harness.web                            play.html: the play window's rules, in the browser
  commands    harness.commands                       one module per command, main(args)
  top         harness.cli; harness.__main__ above it  the name -> command map; python -m harness
A module may import its own package and any package of a layer below its own; nothing else (so the
emulator knows nothing of cribbage, the engine nothing of the Spectrum, and the views nothing of each other).
Imports inside functions count too: a lazy import is still a dependency.
"""
from __future__ import annotations

import checkout
from layering import DATA_UNITS, LEVEL, PROGRAM_STAGES, STAGE_LEVEL, stage_of, unit_of
import ast
from pathlib import Path

ROOT = checkout.ROOT
PACKAGE = ROOT / "harness"

def modules(package: Path = PACKAGE) -> dict[str, Path]:
    found = {}
    for path in package.rglob("*.py"):
        rel = path.relative_to(package.parent).with_suffix("")
        found[".".join(rel.parts).removesuffix(".__init__")] = path
    return found


def imports_of(name: str, source: str, is_package: bool) -> set[str]:
    """The harness modules *name* imports (relative imports resolved; `from x import y` counts x and x.y)."""
    package = name if is_package else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = parts[: len(parts) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            targets.add(module)
            targets.update(f"{module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
    return {t for t in targets if t == "harness" or t.startswith("harness.")}


MODULES = modules()
EDGES = {name: imports_of(name, path.read_text(encoding="utf-8"), path.name == "__init__.py") & set(MODULES) - {name}
         for name, path in MODULES.items()}


def upward_imports(edges: dict[str, set[str]]) -> list[str]:
    """Every import of a unit at its own layer or above (its own package excepted)."""
    bad = []
    for name, targets in sorted(edges.items()):
        here = unit_of(name)
        if here in DATA_UNITS:
            continue
        for target in sorted(targets):
            there = unit_of(target)
            if there == here or there in DATA_UNITS:
                continue
            if LEVEL.get(there, 99) >= LEVEL.get(here, -1):
                bad.append(f"{name} ({here}) imports {target} ({there})")
    return bad


def package_cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Cycles in the graph of units (packages): each as the list of units around it."""
    graph: dict[str, set[str]] = {}
    for name, targets in edges.items():
        graph.setdefault(unit_of(name), set()).update(unit_of(t) for t in targets if unit_of(t) != unit_of(name))
    return cycles_of(graph)


def cycles_of(graph: dict[str, set[str]]) -> list[list[str]]:
    """The cycles a depth-first walk of *graph* finds: each as the list of nodes around it."""
    cycles: list[list[str]] = []
    state: dict[str, str] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = "open"
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                cycles.append(path[path.index(nxt):] + [nxt] if nxt in path else [node, nxt])
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = "done"
    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    return cycles


def test_every_unit_of_the_package_has_a_layer():
    units = {unit_of(m) for m in MODULES} - DATA_UNITS
    assert units <= set(LEVEL), f"packages with no layer (add them to LAYERS and docs/ARCHITECTURE.md): " \
                                f"{sorted(units - set(LEVEL))}"


def test_every_import_points_down():
    assert upward_imports(EDGES) == []


def test_no_package_cycle():
    assert package_cycles(EDGES) == []


def test_the_checks_see_an_upward_import_and_a_cycle():
    """A planted upward import (the engine importing the program model) is caught, and makes a cycle
    (the program imports the engine); a downward one is not; two views importing each other are caught."""
    planted = {k: set(v) for k, v in EDGES.items()}
    planted["harness.cribbage.cards"].add("harness.program.model.program")
    assert upward_imports(planted) == ["harness.cribbage.cards (cribbage) imports harness.program.model.program (program)"]
    assert any(set(c) >= {"cribbage", "program"} for c in package_cycles(planted))
    near_miss = {k: set(v) for k, v in EDGES.items()}
    near_miss["harness.program.model.program"].add("harness.cribbage.cards")        # down: allowed
    near_miss["harness.program.judge.compare"].add("harness.program.model.program")          # its own package: allowed
    assert upward_imports(near_miss) == [] and package_cycles(near_miss) == []
    sideways = {k: set(v) for k, v in EDGES.items()}
    sideways["harness.play.referee"].add("harness.edition.report")
    assert upward_imports(sideways) == ["harness.play.referee (play) imports harness.edition.report (edition)"]


def test_a_lazy_import_inside_a_function_counts():
    source = "def f():\n    from ...edition import report\n    return report\n"
    assert "harness.edition.report" in imports_of("harness.program.runs.regress", source, False)
    assert imports_of("harness.program.runs.regress", "import json\nfrom ..model import program\n", False) >= {"harness.program.model.program"}


def test_architecture_doc_and_readme_name_every_package():
    """docs/ARCHITECTURE.md and the README's layout table are kept true: every package of harness/ is in both."""
    arch = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    packages = sorted({unit_of(m) for m in MODULES} - DATA_UNITS - {"__main__", "errors", "resources", "cli"})
    assert [p for p in packages if f"harness/{p}/" not in arch] == []
    assert [p for p in packages if f"harness/{p}/" not in readme] == []


# ------------------------------------------------------------------ the program's stages, the commands, circles
def upward_stage_imports(edges: dict[str, set[str]]) -> list[str]:
    """Every import, inside harness.program, of a stage above the importer's own."""
    bad = []
    for name, targets in sorted(edges.items()):
        here = stage_of(name)
        for target in sorted(targets):
            there = stage_of(target)
            if here is not None and there is not None and STAGE_LEVEL[there] > STAGE_LEVEL[here]:
                bad.append(f"{name} ({here}) imports {target} ({there})")
    return bad


def command_edges(cli_source: str) -> set[str]:
    """The command modules cli.py names in its COMMANDS table (it imports them by name, lazily)."""
    tree = ast.parse(cli_source)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Dict):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "COMMANDS" for t in targets):
                return {v.elts[0].value for v in node.value.values
                        if isinstance(v, ast.Tuple) and isinstance(v.elts[0], ast.Constant)}
    raise AssertionError("harness/cli.py has no COMMANDS table")


def module_cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Circles of imports between modules of one package (lazy and TYPE_CHECKING imports counted)."""
    package_of = {name: name.rpartition(".")[0] for name in edges}
    graph = {name: {t for t in targets if t in edges and package_of.get(t) == package_of[name]
                    and not MODULES[t].name == "__init__.py" and not MODULES[name].name == "__init__.py"}
             for name, targets in edges.items()}
    return cycles_of(graph)


def test_the_programs_stages_are_the_sub_packages_and_import_down():
    stages = {stage_of(m) for m in MODULES} - {None}
    assert stages == set(PROGRAM_STAGES), "harness/program/ holds a stage not in PROGRAM_STAGES (or lacks one)"
    assert upward_stage_imports(EDGES) == []


def test_an_upward_stage_import_is_caught_and_a_downward_one_is_not():
    planted = {k: set(v) for k, v in EDGES.items()}
    planted["harness.program.model.program"].add("harness.program.runs.regress")       # the model importing a run
    assert upward_stage_imports(planted) == [
        "harness.program.model.program (model) imports harness.program.runs.regress (runs)"]
    near_miss = {k: set(v) for k, v in EDGES.items()}
    near_miss["harness.program.runs.regress"].add("harness.program.model.program")     # a run importing the model
    assert upward_stage_imports(near_miss) == []


def test_cli_imports_exactly_the_command_modules_and_they_sit_below_it():
    named = command_edges((PACKAGE / "cli.py").read_text(encoding="utf-8"))
    modules_here = {m for m in MODULES if m.startswith("harness.commands.")}
    assert named <= modules_here, f"named in cli.py but missing: {sorted(named - modules_here)}"
    unnamed_commands = [m for m in modules_here - named
                        if "\ndef execute(" in MODULES[m].read_text(encoding="utf-8")]
    assert unnamed_commands == [], f"commands not in cli.py's table: {unnamed_commands}"
    with_cli = {k: set(v) for k, v in EDGES.items()}
    with_cli["harness.cli"] |= named
    assert upward_imports(with_cli) == []
    planted = {k: set(v) for k, v in with_cli.items()}
    planted["harness.commands.regress"].add("harness.cli")                             # a command importing the top
    assert upward_imports(planted) == ["harness.commands.regress (commands) imports harness.cli (cli)"]


def test_no_import_circle_inside_a_package():
    assert module_cycles(EDGES) == []


def test_an_import_circle_inside_a_package_is_caught_even_when_one_side_is_lazy():
    source = "def f():\n    from .machine import Spectrum48\n"                           # planted: screen -> machine
    planted = {k: set(v) for k, v in EDGES.items()}
    planted["harness.spectrum.screen"] |= imports_of("harness.spectrum.screen", source, False) & set(MODULES)
    assert ["harness.spectrum.machine", "harness.spectrum.screen", "harness.spectrum.machine"] in module_cycles(planted)
    near_miss = {k: set(v) for k, v in EDGES.items()}
    near_miss["harness.spectrum.screen"].add("harness.spectrum.charset")              # down, no circle back
    assert module_cycles(near_miss) == module_cycles(EDGES)
