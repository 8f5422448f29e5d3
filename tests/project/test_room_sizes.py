"""The rooms' sizes: no module of harness/ over 600 lines, no function over 60 lines or with more than 6
parameters (self and cls aside), unless docs/ARCHITECTURE.md's "Rooms kept large" names it with its reason;
and `Any` named on fewer than 60 lines of harness/. A listed room that has since shrunk is a stale word."""
from __future__ import annotations

import ast
import re

import checkout

ROOT = checkout.ROOT
ARCHITECTURE = ROOT / "docs" / "ARCHITECTURE.md"
MODULE_LINES = 600
FUNCTION_LINES = 60
PARAMETERS = 6
ANY_LINES = 60
SECTION = "## Rooms kept large"
#: a listed room: "- `harness/x/y.py` — reason" or "- `harness/x/y.py:function` — reason"
_ENTRY = re.compile(r"^- `(?P<room>harness/[^`:]+\.py(?::[A-Za-z_][\w.]*)?)`\s*[—-]+\s*(?P<why>\S.*)$")


def oversized(path: str, source: str) -> dict[str, str]:
    """The rooms of one module over the limits: {room: what is over}, a room being the path or path:function
    (a method as Class.method)."""
    found: dict[str, str] = {}
    lines = len(source.splitlines())
    if lines > MODULE_LINES:
        found[path] = f"{lines} lines"

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                a = child.args
                params = [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs if x.arg not in ("self", "cls")]
                params += [x.arg for x in (a.vararg, a.kwarg) if x is not None]
                length = (child.end_lineno or child.lineno) - child.lineno + 1
                over = [f"{length} lines"] if length > FUNCTION_LINES else []
                over += [f"{len(params)} parameters"] if len(params) > PARAMETERS else []
                if over:
                    found[f"{path}:{prefix}{child.name}"] = ", ".join(over)
                visit(child, f"{prefix}{child.name}.")
    visit(ast.parse(source), "")
    return found


def listed(text: str) -> dict[str, str]:
    """The rooms docs/ARCHITECTURE.md's section names, with their reasons."""
    entries: dict[str, str] = {}
    inside = False
    for line in text.splitlines():
        if line.startswith("## "):
            inside = line.startswith(SECTION)
        elif inside and (m := _ENTRY.match(line.strip())):
            entries[m["room"]] = m["why"]
    return entries


def any_lines(source: str) -> int:
    return sum(1 for line in source.splitlines() if re.search(r"\bAny\b", line))


def _sources() -> dict[str, str]:
    return {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8")
            for p in sorted((ROOT / "harness").rglob("*.py"))}


def test_every_large_room_is_listed_with_its_reason():
    rooms = {room: over for path, source in _sources().items() for room, over in oversized(path, source).items()}
    named = listed(ARCHITECTURE.read_text(encoding="utf-8"))
    unlisted = [f"{room} ({over})" for room, over in rooms.items() if room not in named]
    assert not unlisted, f"docs/ARCHITECTURE.md ({SECTION}): not listed: " + "; ".join(unlisted)
    stale = sorted(set(named) - set(rooms))
    assert not stale, f"docs/ARCHITECTURE.md ({SECTION}) lists rooms within the limits now: {stale}"


def test_any_is_named_on_few_lines():
    counts = {path: n for path, source in _sources().items() if (n := any_lines(source))}
    assert sum(counts.values()) < ANY_LINES, sorted(counts.items(), key=lambda kv: -kv[1])[:10]


# -- the checks themselves, on planted rooms ------------------------------------------------------------

def _function(lines: int, params: int = 0, name: str = "f") -> str:
    args = ", ".join(f"a{i}" for i in range(params))
    return f"def {name}({args}):\n" + "    x = 1\n" * (lines - 1)


def test_a_function_one_line_too_long_is_caught_and_one_at_the_limit_is_not():
    assert oversized("harness/p.py", _function(FUNCTION_LINES + 1)) == {"harness/p.py:f": "61 lines"}
    assert oversized("harness/p.py", _function(FUNCTION_LINES)) == {}


def test_a_seventh_parameter_is_caught_and_self_is_not_counted():
    assert oversized("harness/p.py", _function(3, PARAMETERS + 1)) == {"harness/p.py:f": "7 parameters"}
    method = "class C:\n    def m(self, a, b, c, d, e, f):\n        pass\n"
    assert oversized("harness/p.py", method) == {}
    assert oversized("harness/p.py", method.replace("f):", "f, g):")) == {"harness/p.py:C.m": "7 parameters"}


def test_a_module_one_line_too_long_is_caught():
    assert oversized("harness/p.py", "x = 1\n" * (MODULE_LINES + 1)) == {"harness/p.py": "601 lines"}
    assert oversized("harness/p.py", "x = 1\n" * MODULE_LINES) == {}


def test_a_listing_needs_the_section_and_a_reason():
    text = (f"# A\n\n{SECTION}, and why\n\n- `harness/p.py:f` — it is a table\n- `harness/q.py` —\n\n"
            "## Next\n\n- `harness/r.py` — outside the section\n")
    assert listed(text) == {"harness/p.py:f": "it is a table"}


def test_any_counts_the_word_not_a_longer_name():
    assert any_lines("from typing import Any\nx: Any = 1\nAnything = 2\nmany = 3\n") == 2
