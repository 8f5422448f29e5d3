"""Issue 48: every page of the report, the edition and the web pages has a viewport for a phone.

Each template that opens a document's <head> (the others extend base.html) declares the viewport; a page
whose head lacks it is named (planted), and a head that has it among other tags passes (the near miss).
"""
from __future__ import annotations

import re
from pathlib import Path

HARNESS = Path(__file__).resolve().parents[2] / "harness"
VIEWPORT = re.compile(r'<meta name="viewport" content="width=device-width, initial-scale=1">')


def heads_without_viewport(pages: dict[str, str]) -> list[str]:
    out = []
    for name, text in pages.items():
        head = re.search(r"<head>(.*?)</head>", text, re.S)
        if head is not None and not VIEWPORT.search(head.group(1)):
            out.append(name)
    return out


def _templates() -> dict[str, str]:
    return {str(p.relative_to(HARNESS)): p.read_text(encoding="utf-8") for p in sorted(HARNESS.glob("*/templates/*.html"))}


def test_every_template_with_a_head_declares_the_phones_viewport():
    pages = _templates()
    with_head = [n for n, t in pages.items() if "<head>" in t]
    assert {"edition/templates/base.html", "edition/templates/strength.html", "web/templates/play.html"} <= set(with_head)
    assert heads_without_viewport(pages) == []


def test_a_head_without_the_viewport_is_named_and_one_with_it_is_not():
    planted = {"a.html": '<html><head>\n<meta charset="utf-8">\n<title>x</title>\n</head><body></body></html>'}
    assert heads_without_viewport(planted) == ["a.html"]
    near = {"b.html": '<html><head>\n<meta charset="utf-8">\n'
                      '<meta name="viewport" content="width=device-width, initial-scale=1">\n</head></html>'}
    assert heads_without_viewport(near) == []
