"""docs/ has no orphans: every page is reached by links from README.md (directly or through pages it links), and
every image under docs/ is shown or named by a page. And docs/ is what docs/README.md declares: each page by hand,
by a tool (which names it where the page opens) or by hand with a block by a tool (named beside its marker); each
picture and record with its writer (a tool that names it, or by hand and how), pictures in figures/ and golden/
only, records in data/ only; no link to nothing. The checks run on the checkout and on planted trees."""
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


# docs/README.md declares each page's kind (by hand, by a tool, or by hand with a block by a tool) and each picture's
# and record's writer; the folder is held to it.

SOURCE = re.compile(r"`((?:tools|harness|tests)/[\w/.-]+\.py)`")
IMAGE_PLACES = ("figures/", "golden/")
OPENING = 6          # the lines a page by a tool names its tool in


def tool_words(source: str) -> str:
    """How a page names the tool in *source*: `cribbage-zx X` for harness/commands/X.py, else its path."""
    m = re.fullmatch(r"harness/commands/(\w+)\.py", source)
    return f"cribbage-zx {m[1]}" if m else source


def declared(root: Path) -> tuple[dict[str, tuple[str, str | None]], list[tuple[list[str], str]]]:
    """docs/README.md's two tables: {page: (how written, its tool's source or None)} and [(files, written by)]."""
    text = (root / "docs" / "README.md").read_text(encoding="utf-8")
    pages_part, _, files_part = text.partition("## Pictures and records")
    pages = {}
    for link, how, by in re.findall(r"^\| \[[^]]+\]\(([^)]+)\) \| ([^|]+) \|\s*([^|]*?)\s*\|$", pages_part, re.M):
        source = SOURCE.search(by)
        pages[link] = (how.strip(), source[1] if source else None)
    files = [(re.findall(r"`([^`]+)`", names), by.strip())
             for names, by in re.findall(r"^\| ((?:`[^`]+`(?:, )?)+) \| (.+) \|$", files_part, re.M)]
    return pages, files


def matches(pattern: str, name: str) -> bool:
    return re.fullmatch(re.escape(pattern).replace(r"\*", r"[^/]+"), name) is not None


def declaration_problems(root: Path) -> list[str]:
    """What in docs/ disagrees with docs/README.md: a page or a file it does not declare (or declares and is not
    there), a page by a tool that does not name it where it opens (or beside its block), a page by hand that
    says a tool wrote it, a tool that does not name what it is said to write, a picture outside figures/ and
    golden/, a record outside data/, a link in a page to nothing."""
    docs = root / "docs"
    pages, files = declared(root)
    out = []
    on_disk = {str(p.relative_to(docs)) for p in docs.rglob("*.md")}
    out += [f"{p}: not in docs/README.md" for p in sorted(on_disk - set(pages))]
    out += [f"docs/README.md: {p} is no page" for p in sorted(set(pages) - on_disk)]
    for page, (how, source) in sorted(pages.items()):
        if page not in on_disk:
            continue
        lines = (docs / page).read_text(encoding="utf-8").splitlines()
        opening = "\n".join(lines[:OPENING])
        says_written = re.search(r"(?i)\b(written|generated) by\W+(python |\.venv/bin/python )?(tools/|cribbage-zx)",
                                 opening)
        if how.startswith("by a tool"):
            if source is None or tool_words(source) not in opening or not re.search(r"(?i)\b(written|generated)\b",
                                                                                  opening):
                out.append(f"{page}: by a tool, but its first {OPENING} lines do not say {source} writes it")
        elif "by a tool" in how:                                   # by hand, one block by a tool
            near = [i for i, line in enumerate(lines) if line.startswith("<!--")]
            if source is None or not any(tool_words(source) in "\n".join(lines[max(0, i - OPENING):i + 1])
                                         for i in near):
                out.append(f"{page}: its block by a tool, but no <!-- --> marker names {source} beside it")
        elif says_written:
            out.append(f"{page}: by hand, but it opens saying a tool writes it")
        if source is not None and (not (root / source).is_file()
                                   or Path(page).name not in (root / source).read_text(encoding="utf-8")):
            out.append(f"{page}: {source} does not name it")
    rest = sorted(str(p.relative_to(docs)) for p in docs.rglob("*") if p.is_file() and p.suffix != ".md")
    for name in rest:
        rows = [by for names, by in files if any(matches(n, name) for n in names)]
        if not rows:
            out.append(f"{name}: not in docs/README.md")
        if name.lower().endswith(IMAGES) and not name.startswith(IMAGE_PLACES):
            out.append(f"{name}: a picture outside {' and '.join(IMAGE_PLACES)}")
        if name.endswith(".json") and not name.startswith("data/"):
            out.append(f"{name}: a record outside data/")
        for by in rows:
            source = SOURCE.match(by)
            if source is None and not by.startswith("by hand: "):
                out.append(f"{name}: written by {by!r}: neither a tool's source nor 'by hand: how'")
            elif source is not None:
                stem = re.split(r"[*.]", [n for n in sum((r for r, b in files if b == by), [])
                                          if matches(n, name)][0])[0].rstrip("/").rsplit("/", 1)[-1]
                if not (root / source[1]).is_file() or stem not in (root / source[1]).read_text(encoding="utf-8"):
                    out.append(f"{name}: {source[1]} does not name {stem}")
    out += [f"docs/README.md: {n} is no file" for names, _ in files for n in names
            if not any(matches(n, f) for f in rest)]
    for page in reached_pages(root):
        text = page.read_text(encoding="utf-8")
        out += [f"{page.relative_to(root)}: links to {t}, which is not there" for t in _LINK.findall(text)
                if "://" not in t and not t.startswith("mailto:") and not (page.parent / t).exists()]
    return out


def test_docs_is_as_its_readme_declares():
    assert declaration_problems(ROOT) == []


def _declared_tree(tmp_path: Path) -> Path:
    root = _tree(tmp_path)
    (root / "tools").mkdir()
    (root / "tools" / "shots.py").write_text("'''Writes docs/figures/a.png and b.png.'''\n")
    (root / "tools" / "guide.py").write_text("'''Writes docs/deeper/MORE.md; docs/data/runs/*.json.'''\n")
    (root / "docs" / "data" / "runs").mkdir(parents=True)
    (root / "docs" / "data" / "runs" / "one.json").write_text("{}\n")
    (root / "README.md").write_text("See [the guide](docs/GUIDE.md) and [the index](docs/README.md).\n")
    (root / "docs" / "deeper" / "MORE.md").write_text("# More\n\n<!-- Written by tools/guide.py -->\n"
                                                       "The plot: `docs/figures/b.png`.\n")
    (root / "docs" / "README.md").write_text(
        "## Pages\n\n| page | written | by |\n| --- | --- | --- |\n"
        "| [GUIDE.md](GUIDE.md) | by hand | |\n| [README.md](README.md) | by hand | |\n"
        "| [deeper/MORE.md](deeper/MORE.md) | by a tool | `tools/guide.py` |\n\n"
        "## Pictures and records\n\n| file | written by |\n| --- | --- |\n"
        "| `figures/a.png`, `figures/b.png` | `tools/shots.py` |\n| `data/runs/*.json` | `tools/guide.py` |\n")
    return root


def test_a_declared_tree_passes_a_glob_and_a_tool_named_in_a_comment_being_near_misses(tmp_path):
    assert declaration_problems(_declared_tree(tmp_path)) == []


def test_each_planted_breach_of_the_declaration_is_named(tmp_path):
    root = _declared_tree(tmp_path)
    docs = root / "docs"
    (docs / "figures" / "c.png").write_bytes(b"\x89PNG")                      # a picture nobody declares
    (docs / "loose.png").write_bytes(b"\x89PNG")                              # ... and one outside figures/
    (docs / "figures" / "run.json").write_text("{}\n")                        # a record outside data/
    (docs / "GUIDE.md").write_text("Written by tools/guide.py.\n\n![a](figures/a.png) [more](deeper/MORE.md) "
                                   "[gone](figures/gone.png)\n")              # by hand, says a tool; a dead link
    (docs / "deeper" / "MORE.md").write_text("# More\n\nThe plot: `docs/figures/b.png`.\n")   # its tool unnamed
    (root / "tools" / "shots.py").write_text("'''Writes docs/figures/a.png.'''\n")            # b.png no longer
    assert declaration_problems(root) == [
        "GUIDE.md: by hand, but it opens saying a tool writes it",
        "deeper/MORE.md: by a tool, but its first 6 lines do not say tools/guide.py writes it",
        "figures/b.png: tools/shots.py does not name b",
        "figures/c.png: not in docs/README.md",
        "figures/run.json: not in docs/README.md", "figures/run.json: a record outside data/",
        "loose.png: not in docs/README.md", "loose.png: a picture outside figures/ and golden/",
        "docs/GUIDE.md: links to figures/gone.png, which is not there"]


def test_a_block_by_a_tool_is_held_to_its_marker_and_the_tool_to_the_page(tmp_path):
    root = _declared_tree(tmp_path)
    index = root / "docs" / "README.md"
    row = "| [GUIDE.md](GUIDE.md) | by hand, its table by a tool | `tools/table.py` |"
    index.write_text(index.read_text().replace("| [GUIDE.md](GUIDE.md) | by hand | |", row))
    (root / "tools" / "table.py").write_text("'''Rewrites the block of docs/GUIDE.md.'''\n")
    guide = root / "docs" / "GUIDE.md"
    guide.write_text("# Guide\n\n`python tools/table.py` rewrites the table:\n\n<!-- table: begin -->\n|a|\n"
                     "<!-- table: end -->\n![a](figures/a.png) [more](deeper/MORE.md)\n")
    assert declaration_problems(root) == []                              # near miss: the tool named above its marker
    guide.write_text(guide.read_text().replace("`python tools/table.py` rewrites the table:", "The table:"))
    (root / "tools" / "table.py").write_text("'''Rewrites a block.'''\n")
    assert declaration_problems(root) == ["GUIDE.md: its block by a tool, but no <!-- --> marker names "
                                          "tools/table.py beside it", "GUIDE.md: tools/table.py does not name it"]
