"""The package's layers, read from its import statements: every import points down, no package cycle.

The layers, bottom up (docs/ARCHITECTURE.md draws them):
  foundation  harness.errors, harness.resources     what every layer may use
  runtime     harness.runtime                        job runner, output folders, atomic files, argument types
  bottom      harness.spectrum, harness.cribbage     the emulator and the rules engine: neither knows the other
  program     harness.game                           «КРИБЕДЖ»: its model, tape, driver, observer, comparison, runs
  views       harness.edition, harness.play, harness.bench   what people read, play and time
  page        harness.web                            play.html: the play window's rules, in the browser
  commands    harness.commands                       one module per command, main(args)
  top         harness.cli; harness.__main__ above it  the name -> command map; python -m harness
A module may import its own package and any package of a layer below its own; nothing else (so the
emulator knows nothing of cribbage, the engine nothing of the Spectrum, and the views nothing of each other).
Imports inside functions count too: a lazy import is still a dependency.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "harness"

LAYERS: list[set[str]] = [
    {"errors"},
    {"resources"},
    {"runtime"},
    {"spectrum", "cribbage"},          # side by side: neither imports the other
    {"game"},
    {"edition", "play", "bench"},      # side by side: none imports another
    {"web"},                           # play.html: the play window's keys, waits and turbo rule in the page
    {"commands"},
    {"cli"},
    {"__main__"},                      # python -m harness: runs cli
]
LEVEL = {unit: i for i, layer in enumerate(LAYERS) for unit in layer}
#: units that are data or the package's own __init__, not layered code
DATA_UNITS = {"data", "_data", "__init__"}


def unit_of(module: str) -> str:
    """The layer unit of a dotted module name under harness ('harness.game.compare' -> 'game')."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


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
    cycles, state = [], {}

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
    planted["harness.cribbage.cards"].add("harness.game.program")
    assert upward_imports(planted) == ["harness.cribbage.cards (cribbage) imports harness.game.program (game)"]
    assert any(set(c) >= {"cribbage", "game"} for c in package_cycles(planted))
    near_miss = {k: set(v) for k, v in EDGES.items()}
    near_miss["harness.game.program"].add("harness.cribbage.cards")        # down: allowed
    near_miss["harness.game.compare"].add("harness.game.program")          # its own package: allowed
    assert upward_imports(near_miss) == [] and package_cycles(near_miss) == []
    sideways = {k: set(v) for k, v in EDGES.items()}
    sideways["harness.play.referee"].add("harness.edition.report")
    assert upward_imports(sideways) == ["harness.play.referee (play) imports harness.edition.report (edition)"]


def test_a_lazy_import_inside_a_function_counts():
    source = "def f():\n    from ..edition import report\n    return report\n"
    assert "harness.edition.report" in imports_of("harness.game.regress", source, False)
    assert imports_of("harness.game.regress", "import json\nfrom . import program\n", False) >= {"harness.game.program"}


def test_architecture_doc_and_readme_name_every_package():
    """docs/ARCHITECTURE.md and the README's layout table are kept true: every package of harness/ is in both."""
    arch = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    packages = sorted({unit_of(m) for m in MODULES} - DATA_UNITS - {"__main__", "errors", "resources", "cli"})
    assert [p for p in packages if f"harness/{p}/" not in arch] == []
    assert [p for p in packages if f"harness/{p}/" not in readme] == []
