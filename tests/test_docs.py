"""Documentation that is generated from the code must be current."""
from pathlib import Path

from tools.write_deviations_doc import render

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
