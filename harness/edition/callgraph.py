"""The GO SUB call graph of the routines, drawn by Graphviz `dot` as SVG.

Nodes are the routines of `basic/subroutines.toml`, each linked to its page;
an edge A -> B means lines of A do GO SUB to lines of B (labelled with the
lines called when they are not just B's first). Without `dot` on the PATH the page says so.
"""
from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass

DOT_TIMEOUT_S = 30


@dataclass(frozen=True)
class Edge:
    caller: int          # routine start line
    callee: int
    targets: tuple[int, ...]     # the lines called (the routine's first, or entries inside it)
    sources: tuple[int, ...]     # the lines that call


def dot_source(nodes: list[tuple[int, str, str]], edges: list[Edge]) -> str:
    """*nodes*: (routine line, label, page file)."""
    out = ["digraph calls {", '  graph [rankdir=LR, fontname="DejaVu Sans", fontsize=10, nodesep=0.15, '
           'ranksep=0.5, bgcolor="transparent"];',
           '  node [shape=box, style="rounded,filled", fillcolor="#f4f0e6", fontname="DejaVu Sans", '
           'fontsize=10, height=0.3];',
           '  edge [color="#555555", arrowsize=0.6, fontname="DejaVu Sans", fontsize=8];']
    called = {e.callee for e in edges} | {e.caller for e in edges}
    for line, label, page in nodes:
        if line not in called:
            continue
        out.append(f'  r{line} [label="{_quote(f"{line} {label}")}", href="{page}", target="_top", '
                   f'tooltip="{_quote(label)}"];')
    for e in edges:
        called = ", ".join(map(str, e.targets))
        attrs = [f'tooltip="GO SUB {called} from {", ".join(map(str, e.sources))}"']
        if e.targets != (e.callee,):
            attrs.append(f'label="{called}"')
        out.append(f"  r{e.caller} -> r{e.callee} [{', '.join(attrs)}];")
    out.append("}")
    return "\n".join(out) + "\n"


def _quote(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def render_svg(source: str) -> tuple[str | None, str | None]:
    """(svg text for inlining, None) or (None, why it could not be drawn)."""
    dot = shutil.which("dot")
    if dot is None:
        return None, "Graphviz `dot` is not installed (Debian package graphviz): the call graph is not drawn."
    try:
        done = subprocess.run([dot, "-Tsvg"], input=source, capture_output=True, text=True,
                              timeout=DOT_TIMEOUT_S, check=False)
    except subprocess.TimeoutExpired:
        return None, f"`dot` took more than {DOT_TIMEOUT_S} s: the call graph is not drawn."
    if done.returncode != 0:
        return None, f"`dot` failed: {done.stderr.strip().splitlines()[-1] if done.stderr.strip() else done.returncode}"
    svg = done.stdout
    start = svg.find("<svg")
    if start < 0:
        return None, "`dot` wrote no SVG."
    svg = re.sub(r"<!--.*?-->", "", svg[start:], flags=re.S)
    return svg, None
