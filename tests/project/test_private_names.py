"""No test reaches into a private name of the harness more than it did: the uses are counted and ratcheted.

A use is a private name (one leading underscore, not a dunder) of something imported from harness/: an
attribute of an imported module or class (``runner._dask_split``), a name imported by itself
(``from harness.program.runs.strength import _engine_chunk``), or a name given as a string to ``setattr``-like calls
(``monkeypatch.setattr(outdir, "_read_only", ...)``, ``monkeypatch.setattr("harness.a.b._c", ...)``).
Instances' private attributes (``m._port_read``) are not seen: only names reached through an import.

The count may only fall (tests/data/private-names.json); regress's and sweep's private names are used by no
test and no other module of harness/ at all. When the count falls, record it:
``.venv/bin/python tests/test_private_names.py --record``.
"""
from __future__ import annotations

import checkout
import ast
import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = checkout.ROOT
RECORD = ROOT / "tests" / "data" / "private-names.json"
#: modules whose private names no other file may use at all
SEALED = ("harness.program.runs.regress", "harness.program.runs.sweep")
_DOTTED = re.compile(r"^(harness(?:\.\w+)+)\.(_[A-Za-z0-9]\w*)$")


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_uses(source: str) -> list[str]:
    """Every use of a harness private name in *source*, as ``module.name`` (the module as imported)."""
    tree = ast.parse(source)
    bound: dict[str, str] = {}                      # a local name -> the harness module or object it names
    uses: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "harness" or a.name.startswith("harness."):
                    if a.asname:                    # import harness.program.runs.sweep as sweep
                        bound[a.asname] = a.name
                    else:                           # import harness.a.b: harness.a.b._c
                        bound["harness"] = "harness"
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                and (node.module == "harness" or node.module.startswith("harness.")):
            for a in node.names:
                if _private(a.name):
                    uses.append(f"{node.module}.{a.name}")
                bound[a.asname or a.name] = f"{node.module}.{a.name}"
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            base = node.value
            dotted = []
            while isinstance(base, ast.Attribute):
                dotted.append(base.attr)
                base = base.value
            if isinstance(base, ast.Name) and base.id in bound:
                uses.append(".".join([bound[base.id], *reversed(dotted), node.attr]))
        elif isinstance(node, ast.Call) and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str) and (m := _DOTTED.match(first.value)):
                uses.append(f"{m[1]}.{m[2]}")
            elif (len(node.args) >= 2 and isinstance(first, ast.Name) and first.id in bound
                  and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)
                  and _private(node.args[1].value)):
                uses.append(f"{bound[first.id]}.{node.args[1].value}")
    return uses


def _files(folder: str) -> list[Path]:
    return sorted(p for p in (ROOT / folder).rglob("*.py") if "__pycache__" not in p.parts)


def count_tests() -> Counter[str]:
    """The uses by every file under tests/ (this one's examples are strings, not uses)."""
    uses: Counter[str] = Counter()
    for path in _files("tests"):
        uses.update(private_uses(path.read_text(encoding="utf-8")))
    return uses


def _module_of(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def sealed_uses() -> list[str]:
    """Uses of a SEALED module's private names by any file of tests/ or by another module of harness/."""
    found = []
    for path in _files("tests") + _files("harness"):
        for use in private_uses(path.read_text(encoding="utf-8")):
            owner = next((s for s in SEALED if use.startswith(s + ".")), None)
            if owner and owner != _module_of(path):
                found.append(f"{path.relative_to(ROOT)}: {use}")
    return found


def test_the_counter_sees_a_planted_use_and_not_a_near_miss():
    dot = "."                   # the planted uses spelled apart: this file itself holds none (a grep finds none)
    planted = (f"from harness.program.runs import regress\nimport harness.program.runs.sweep as sweep\n"
               f"from harness.program.runs.strength import _engine_chunk\n"
               f"regress{dot}_init_worker(b'')\nsweep{dot}CaseRange{dot}_x\n"
               f"monkeypatch.setattr(sweep, '_sub', None)\nmonkeypatch.setattr('harness.program.runs.sweep{dot}_kind', 1)\n")
    assert sorted(private_uses(planted)) == sorted([
        "harness.program.runs.strength._engine_chunk", f"harness.program.runs.regress{dot}_init_worker",
        f"harness.program.runs.sweep{dot}CaseRange{dot}_x", f"harness.program.runs.sweep{dot}_sub", f"harness.program.runs.sweep{dot}_kind"])
    near = (f"from harness.program.runs import regress\nimport os\nself._x\nos._exit\nregress{dot}__name__\n"
            "regress.play_one\nmonkeypatch.setattr(regress, 'play_one', f)\nother._y\n"
            f"monkeypatch.setattr('harness.program.runs.sweep{dot}__doc__', 1)\n")
    assert private_uses(near) == []


def test_no_file_uses_a_private_name_of_regress_or_sweep():
    assert sealed_uses() == []


def test_the_tests_private_name_uses_only_fall():
    recorded = json.loads(RECORD.read_text(encoding="utf-8"))["count"]
    uses = count_tests()
    n = sum(uses.values())
    assert n <= recorded, (f"{n} uses of private harness names by tests, more than the {recorded} recorded: "
                           + ", ".join(f"{k} x{v}" for k, v in uses.most_common()))
    if n < recorded:
        import warnings
        warnings.warn(f"private names used by tests fell from {recorded} to {n}: record it: "
                      f".venv/bin/python tests/test_private_names.py --record")


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit("usage: python tests/test_private_names.py --record")
    uses = count_tests()
    RECORD.write_text(json.dumps({"about": "uses of private harness names by tests/ (tests/test_private_names.py): "
                                           "the count may only fall", "count": sum(uses.values()),
                                  "by_name": dict(sorted(uses.items()))}, indent=1, ensure_ascii=False) + "\n",
                      encoding="utf-8")
    print(f"{RECORD}: {sum(uses.values())}")
