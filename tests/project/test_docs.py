"""Documentation that is generated from the code must be current."""
import checkout
import re

from harness.program.judge.deviations import DEVIATIONS
from harness.program.model.findings import FINDINGS
from harness.program.runs.strength import read_report, summary_table
from tools.write_deviations_doc import README_BEGIN, readme_table, readme_with_table, render

ROOT = checkout.ROOT


def test_deviations_doc_is_current():
    assert (ROOT / "docs" / "DEVIATIONS.md").read_text(encoding="utf-8") == render(), \
        "run: python -m tools.write_deviations_doc"


def test_readme_commands_are_the_makefiles():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "make run" in readme and "make test" in readme
    assert "\nrun:" in makefile and "\ntest:" in makefile
    assert "make test" in (ROOT / ".ci" / "run").read_text()


def test_the_readmes_table_of_deviations_is_current():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert README_BEGIN in readme and readme_with_table(readme) == readme, "run: python -m tools.write_deviations_doc"


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


def _strength_tool():
    from tools import write_strength_doc
    return write_strength_doc


def test_the_strength_page_is_its_runs_own_summary():
    tool = _strength_tool()
    report = read_report(tool.DATA)
    page = tool.PAGE.read_text(encoding="utf-8")
    assert tool.page_with_block(page, report) == page, "run: python -m tools.write_strength_doc"
    assert report.plain_words in page and summary_table(report) in page


def test_a_strength_page_that_says_another_figure_is_told_apart():
    tool = _strength_tool()
    report = read_report(tool.DATA)
    page = tool.PAGE.read_text(encoding="utf-8")
    ev = report.figures["ev"].computer_wins
    said = f"{100 * ev.rate:5.1f} %"
    stale = page.replace(said, f"{100 * ev.rate + 1:5.1f} %", 1)     # planted: one figure a point off
    assert said in page and stale != page and tool.page_with_block(stale, report) == page
