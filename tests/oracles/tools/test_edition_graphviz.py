"""The edition's call graphs drawn by Graphviz's dot: drawn in the program's parts, and those drawn in one run of dot are those drawn alone."""
from __future__ import annotations

import re
import shutil

import pytest

from harness.edition import callgraph


# ----------------------------------------------------------------------------- the site (tests/conftest.py)
@pytest.mark.skipif(not shutil.which("dot"), reason="Graphviz dot is not installed")
def test_graphs_drawn_in_one_run_of_dot_are_those_drawn_alone():
    graphs = ["digraph g { a -> b; }\n", 'digraph h { x [label="x y"]; x -> y -> z; }\n', "digraph g { p; }\n"]
    together = callgraph.render_svgs(graphs)
    assert together == [callgraph.render_svg(g) for g in graphs]
    assert all(svg and svg.startswith("<svg") and svg.endswith("</svg>\n") and why is None for svg, why in together)
    assert 'id="graph0"' in together[2][0] and "page0" not in together[2][0]
    # a graph dot refuses is told apart; the others are still drawn
    mixed = callgraph.render_svgs([graphs[0], "digraph g { a -> ; }\n", graphs[1]])
    assert mixed[0] == together[0] and mixed[2] == together[1]
    assert mixed[1][0] is None and mixed[1][1].startswith("`dot` failed:")
    assert callgraph.render_svgs([]) == []


def test_the_call_graph_is_drawn_in_the_programs_parts(site, tmp_path):
    if not shutil.which("dot"):
        pytest.skip("Graphviz dot is not installed (tools/install-system-deps.sh)")
    html = (site / "routines.html").read_text()
    assert html.count('class="cluster"') == 7 and "The play" in html
    width = float(re.search(r'<svg width="([\d.]+)pt"', html).group(1))
    assert width * 4 / 3 < 1500                # scaled down to the page by CSS, not a tangle 3000 px wide
    assert "<svg" in (site / "routine-4400.html").read_text()     # each routine: its callers and callees
