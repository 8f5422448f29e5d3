"""Documentation that is generated from the code must be current."""
import re
from pathlib import Path

from harness.game.deviations import DEVIATIONS
from harness.game.findings import FINDINGS
from tools.write_deviations_doc import README_BEGIN, readme_table, readme_with_table, render

ROOT = Path(__file__).resolve().parents[1]


def test_deviations_doc_is_current():
    assert (ROOT / "docs" / "DEVIATIONS.md").read_text(encoding="utf-8") == render(), \
        "run: python tools/write_deviations_doc.py"


def test_readme_commands_are_the_makefiles():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "make run" in readme and "make test" in readme
    assert "\nrun:" in makefile and "\ntest:" in makefile
    assert "make test" in (ROOT / ".ci" / "run").read_text()


def test_the_readmes_table_of_deviations_is_current():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert README_BEGIN in readme and readme_with_table(readme) == readme, "run: python tools/write_deviations_doc.py"


def test_a_stale_readme_table_is_told_apart_and_rewritten():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    stale = readme.replace("| D5 | 8260 |", "| D5 | 8250 |")      # planted: one line number off
    assert stale != readme and readme_with_table(stale) == readme
    near_miss = readme.replace("## What was found", "## What was found ")  # outside the markers: kept as it is
    assert readme_with_table(near_miss) == near_miss


def test_the_readmes_table_names_every_deviation_and_finding_with_its_lines():
    table = readme_table()
    for d in DEVIATIONS.values():
        assert f"| {d.id} | {d.lines} | {d.brief} |" in table and d.brief and len(d.brief) < 110
    for f in FINDINGS:
        assert f"| {f.id} | {f.lines} |" in table and f.brief


def test_the_readme_is_a_front_door():
    """Short, with a table of contents, and every page it links to is in the checkout."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 200
    assert "## Contents" in readme
    anchors = re.findall(r"\]\(#([a-z0-9-]+)\)", readme)
    headings = {re.sub(r"[^a-z0-9 -]", "", h.lower()).replace(" ", "-")
                for h in re.findall(r"^#+ (.+)$", readme, re.M)}
    assert anchors and [a for a in anchors if a not in headings] == []
    links = re.findall(r"\]\(((?:docs|basic)/[^)#]+)\)", readme)
    assert links and [link for link in links if not (ROOT / link).exists()] == []
