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
from typing import Sequence

DOT_TIMEOUT_S = 30


@dataclass(frozen=True)
class Edge:
    caller: int          # routine start line
    callee: int
    targets: tuple[int, ...]     # the lines called (the routine's first, or entries inside it)
    sources: tuple[int, ...]     # the lines that call


def dot_source(nodes: list[tuple[int, str, str]], edges: list[Edge],
               sections: Sequence[tuple[str, tuple[int, ...]]] = (), highlight: int | None = None) -> str:
    """*nodes*: (routine line, label, page file); *sections*: (title, routine lines) drawn as boxes.

    Left to right with the titles wrapped, so the whole graph fits the width of a page."""
    out = ["digraph calls {", '  graph [rankdir=LR, fontname="DejaVu Sans", fontsize=11, nodesep=0.12, '
           'ranksep=0.35, bgcolor="transparent", newrank=true];',
           '  node [shape=box, style="rounded,filled", fillcolor="#f4f0e6", fontname="DejaVu Sans", '
           'fontsize=10, height=0.3];',
           '  edge [color="#555555", arrowsize=0.6, fontname="DejaVu Sans", fontsize=8];']
    called = {e.callee for e in edges} | {e.caller for e in edges}
    shown = {line: (label, page) for line, label, page in nodes if line in called}

    def node(line: int) -> str:
        label, page = shown[line]
        fill = ', fillcolor="#ffd54f"' if line == highlight else ""
        return (f'r{line} [label="{line} {_wrap(label)}", href="{page}", target="_top", '
                f'tooltip="{_quote(label)}"{fill}];')

    placed = set()
    for k, (title, lines) in enumerate(sections):
        inside = [n for n in lines if n in shown]
        if not inside:
            continue
        out.append(f'  subgraph cluster_{k} {{ label="{_quote(title)}"; style="rounded"; color="#b9b2a0"; '
                   'fontcolor="#6b6b6b";')
        out += [f"    {node(n)}" for n in inside]
        out.append("  }")
        placed.update(inside)
    out += [f"  {node(n)}" for n in shown if n not in placed]
    for e in edges:
        lines_called = ", ".join(map(str, e.targets))
        attrs = [f'tooltip="GO SUB {lines_called} from {", ".join(map(str, e.sources))}"']
        if e.targets != (e.callee,):
            attrs.append(f'label="{lines_called}"')
        out.append(f"  r{e.caller} -> r{e.callee} [{', '.join(attrs)}];")
    out.append("}")
    return "\n".join(out) + "\n"


def _wrap(label: str, width: int = 18) -> str:
    """A routine's title on lines of about *width* characters (dot's \\n), to keep the boxes narrow."""
    rows: list[str] = []
    for word in label.split():
        if rows and len(rows[-1]) + 1 + len(word) <= width:
            rows[-1] += " " + word
        else:
            rows.append(word)
    return "\\n".join(_quote(r) for r in rows)


def _quote(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def render_svg(source: str) -> tuple[str | None, str | None]:
    """(svg text for inlining, None) or (None, why it could not be drawn)."""
    return render_svgs([source])[0]


def render_svgs(sources: list[str]) -> list[tuple[str | None, str | None]]:
    """render_svg for each of *sources*, in one run of `dot` (it draws every graph of its input in turn;
    a run per graph cost the site about 50 ms of CPU each, 35 of them); if that run fails, each graph is
    drawn alone, so a failure is told for the graph it belongs to."""
    if not sources:
        return []
    dot = shutil.which("dot")
    if dot is None:
        missing = "Graphviz `dot` is not installed (Debian package graphviz): the call graph is not drawn."
        return [(None, missing)] * len(sources)
    svgs, why = _run_dot(dot, sources)
    if why is None:
        return [(svg, None) for svg in svgs]
    if len(sources) == 1:
        return [(None, why)]
    return [render_svg(source) for source in sources]


def _run_dot(dot: str, sources: list[str]) -> tuple[list[str], str | None]:
    """(one SVG per source, None) from a single run of dot, or ([], why that run drew nothing usable)."""
    try:
        done = subprocess.run([dot, "-Tsvg"], input="".join(sources), capture_output=True, text=True,
                              timeout=DOT_TIMEOUT_S * len(sources), check=False)
    except subprocess.TimeoutExpired:
        return [], f"`dot` took more than {DOT_TIMEOUT_S * len(sources)} s: the call graph is not drawn."
    if done.returncode != 0:
        return [], f"`dot` failed: {done.stderr.strip().splitlines()[-1] if done.stderr.strip() else done.returncode}"
    parts = done.stdout.split("</svg>")[:-1]
    starts = [part.find("<svg") for part in parts]
    if len(parts) != len(sources) or min(starts, default=-1) < 0:
        return [], "`dot` wrote no SVG."
    svgs = []
    for part, start in zip(parts, starts):
        svg = re.sub(r"<!--.*?-->", "", part[start:] + "</svg>\n", flags=re.S)
        # dot names the later graphs of one run apart ("page0,1_graph0"): each page inlines one, as drawn alone
        svgs.append(re.sub(r'id="page\d+,\d+_', 'id="', svg))
    return svgs, None
