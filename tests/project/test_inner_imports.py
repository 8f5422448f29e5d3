"""Imports inside functions: each one says why it is not at the module's top (issue 50).

An import inside a function hides what a module needs; it is kept only where it saves the start-up of a command
that does not need it (a heavy or optional library, a module only one command uses) or breaks a cycle, and
then it says so: a reason comment on its own line(s), or on a comment line directly above it, or (for a group
of such imports one after another) on the group's first line or the comment line directly above the group.
A bare pragma (`# type: ignore[...]`, `# noqa`) is no reason."""
from __future__ import annotations

import ast
import io
import re
import tokenize

import checkout

ROOT = checkout.ROOT
_PRAGMA = re.compile(r"\s*(type:\s*ignore(\[[^\]]*\])?|noqa(:\s*[\w, ]+)?|pragma:[^#]*)\s*")


def _reasons(source: str) -> tuple[set[int], set[int]]:
    """The lines carrying a reason comment, and those of them that are nothing but a comment."""
    commented: set[int] = set()
    alone: set[int] = set()
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type != tokenize.COMMENT:
            continue
        text = "".join(part for part in tok.string.split("#") if not _PRAGMA.fullmatch(part))
        if text.strip():
            commented.add(tok.start[0])
            if not tok.line[: tok.start[1]].strip():
                alone.add(tok.start[0])
    return commented, alone


def _inner_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST, inside: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if inside and isinstance(child, (ast.Import, ast.ImportFrom)):
                found.append(child)
            visit(child, inside or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)))
    visit(tree, False)
    return sorted(found, key=lambda n: n.lineno)


def unexplained(source: str) -> list[int]:
    """The lines of the imports inside functions of *source* that give no reason for being there."""
    commented, alone = _reasons(source)
    bare: list[int] = []
    group_head = 0            # the first line of the run of imports the current one belongs to
    previous_end = -1
    for node in _inner_imports(ast.parse(source)):
        end = node.end_lineno or node.lineno
        if node.lineno != previous_end + 1:
            group_head = node.lineno
        previous_end = end
        own = any(line in commented for line in range(node.lineno, end + 1))
        head = group_head in commented or group_head - 1 in alone
        if not (own or node.lineno - 1 in alone or head):
            bare.append(node.lineno)
    return bare


def _sources() -> dict[str, str]:
    return {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8")
            for p in sorted((ROOT / "harness").rglob("*.py"))}


def test_every_inner_import_of_harness_gives_its_reason():
    bare = [f"{path}:{line}" for path, source in _sources().items() for line in unexplained(source)]
    assert not bare, "imports inside functions with no reason comment (move them to the top, or say why): " + \
        ", ".join(bare)


def test_there_are_inner_imports_to_check():
    assert sum(len(_inner_imports(ast.parse(s))) for s in _sources().values()) > 10


PLANTED = '''\
import os


def plot():
    import matplotlib
    return matplotlib


def pair():
    # lazy: only this command's plots need it
    import numpy
    import scipy  # type: ignore[import-untyped]
    return numpy, scipy


def later():
    import json  # noqa: F401
    x = 1
    import csv
    return x, csv
'''


def test_a_bare_inner_import_is_caught():
    assert unexplained(PLANTED) == [5, 17, 19]


def test_a_pragma_alone_is_no_reason():
    assert unexplained("def f():\n    import x  # type: ignore[import-untyped]\n    return x\n") == [2]


def test_a_hash_in_a_string_is_no_comment():
    assert unexplained("def f():\n    import x; y = '# lazy'\n    return x, y\n") == [2]


NEAR_MISS = '''\
import os


def plot():
    import matplotlib  # lazy: only the report's plots need it (0.4 s to import)
    return matplotlib


def pair():
    # lazy: numpy and scipy only for the statistics
    import numpy
    from scipy.special import (  # type: ignore[import-untyped]
        chdtrc)
    return numpy, chdtrc


def first_line():
    from a import b  # lazy: a cycle (a imports this module)
    from a import c
    return b, c


async def typed():
    from x import y  # type: ignore[import-untyped]  # lazy: an optional package
    return y


class C:
    def method(self):
        if os.name:
            import z  # lazy: breaks the cycle z -> this module
            return z
'''


def test_inner_imports_with_their_reasons_pass():
    assert unexplained(NEAR_MISS) == []


def test_top_level_imports_need_no_reason():
    assert unexplained("import os\nif os.name:\n    import sys\n") == []
