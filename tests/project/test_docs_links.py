"""docs/ has no orphans: every page is reached by links from README.md (directly or through pages it links), and
every image under docs/ is shown or named by a page. The check runs on the checkout and on planted trees."""
from __future__ import annotations

import re
from pathlib import Path

from helpers import ROOT

IMAGES = (".png", ".gif", ".svg", ".jpg", ".jpeg")
_LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")            # [text](target) and ![alt](target), anchors dropped
_PATH = re.compile(r"(?<![\w/.-])(docs/[\w./-]+)")             # a repo-relative path named in the text


def targets(page: Path, root: Path) -> set[Path]:
    """The files under *root* a page links to or names (markdown targets relative to the page; docs/... paths
    relative to the checkout)."""
    text = page.read_text(encoding="utf-8")
    found = {(page.parent / t).resolve() for t in _LINK.findall(text) if "://" not in t}
    found |= {(root / p.rstrip(".")).resolve() for p in _PATH.findall(text)}
    return {f for f in found if f.is_file()}


def reached_pages(root: Path) -> set[Path]:
    """Every .md page reached from root/README.md by following links."""
    seen: set[Path] = set()
    todo = [(root / "README.md").resolve()]
    while todo:
        page = todo.pop()
        if page in seen:
            continue
        seen.add(page)
        todo += [t for t in targets(page, root) if t.suffix == ".md" and t not in seen]
    return seen


def orphans(root: Path) -> tuple[list[str], list[str]]:
    """(pages under docs/ no link reaches, images under docs/ no reached page shows or names), as docs-relative
    paths."""
    docs = root / "docs"
    pages = reached_pages(root)
    named = set().union(*(targets(p, root) for p in pages))
    unlinked = sorted(str(p.relative_to(docs)) for p in docs.rglob("*.md") if p.resolve() not in pages)
    unshown = sorted(str(p.relative_to(docs)) for p in docs.rglob("*") if p.suffix.lower() in IMAGES
                     and p.resolve() not in named)
    return unlinked, unshown


def test_every_page_of_docs_is_linked_and_every_image_shown():
    assert orphans(ROOT) == ([], [])


def _tree(tmp_path: Path) -> Path:
    (tmp_path / "docs" / "figures").mkdir(parents=True)
    (tmp_path / "README.md").write_text("See [the guide](docs/GUIDE.md).\n")
    (tmp_path / "docs" / "GUIDE.md").write_text("![a](figures/a.png) and [more](deeper/MORE.md#part)\n")
    (tmp_path / "docs" / "deeper").mkdir()
    (tmp_path / "docs" / "deeper" / "MORE.md").write_text("The plot: `docs/figures/b.png`.\n")
    for name in ("a.png", "b.png"):
        (tmp_path / "docs" / "figures" / name).write_bytes(b"\x89PNG")
    return tmp_path


def test_a_page_linked_through_another_and_an_image_named_by_path_are_no_orphans(tmp_path):
    assert orphans(_tree(tmp_path)) == ([], [])                 # near miss: reached two links deep, named in code


def test_a_planted_unlinked_page_and_unshown_image_are_named(tmp_path):
    root = _tree(tmp_path)
    (root / "docs" / "ALONE.md").write_text("[back](GUIDE.md)\n")           # links out, but nothing links to it
    (root / "docs" / "figures" / "c.png").write_bytes(b"\x89PNG")
    (root / "docs" / "figures" / "a-old.png").write_bytes(b"\x89PNG")       # a name that only contains a shown one
    assert orphans(root) == (["ALONE.md"], ["figures/a-old.png", "figures/c.png"])
    (root / "docs" / "GUIDE.md").write_text("![a](figures/a.png), [gone](figures/missing.png)\n")  # link lost
    assert orphans(root) == (["ALONE.md", "deeper/MORE.md"], ["figures/a-old.png", "figures/b.png", "figures/c.png"])
