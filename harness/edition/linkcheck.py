"""Check that every internal link of a generated site resolves: the file exists and so does the anchor.

Reads each .html file under a folder with the standard library's HTML parser,
collects its ids and every href / src / xlink:href (and url(...) in a linked
CSS file), and reports each link whose target file or #anchor is missing.
External links (with a scheme) are reported too: the edition must work offline.
"""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

__all__ = ["broken_links"]

_LINK_ATTRS = {"href", "src", "xlink:href"}
_CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]+)['\"]?\s*\)")


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name in ("id", "name"):
                self.ids.add(value)
            elif name in _LINK_ATTRS:
                self.links.append(value)

    handle_startendtag = handle_starttag


def broken_links(root: Path) -> list[str]:
    """'page: link (why)' for every link under *root* that does not resolve; empty when all do."""
    root = Path(root)
    pages: dict[Path, _Page] = {}
    for path in sorted(root.rglob("*.html")):
        parser = _Page()
        parser.feed(path.read_text(encoding="utf-8"))
        pages[path.resolve()] = parser
    problems = []
    for path, parser in pages.items():
        for link in parser.links:
            why = _check(path, link, pages)
            if why:
                problems.append(f"{path.relative_to(root.resolve())}: {link} ({why})")
    for css in sorted(root.rglob("*.css")):
        for link in _CSS_URL.findall(css.read_text(encoding="utf-8")):
            if not (css.parent / unquote(link)).exists():
                problems.append(f"{css.relative_to(root)}: url({link}) (no such file)")
    return problems


def _check(page: Path, link: str, pages: dict[Path, _Page]) -> str | None:
    parts = urlsplit(link)
    if parts.scheme == "data":                   # inside the page itself (the empty icon): nothing fetched
        return None
    if parts.scheme or parts.netloc:
        return "external link: the site must work offline"
    target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
    if not target.exists():
        return "no such file"
    if parts.fragment and target.suffix == ".html":
        ids = pages[target].ids if target in pages else set()
        if unquote(parts.fragment) not in ids:
            return "no such anchor"
    return None
