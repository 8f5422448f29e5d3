"""Rewrite the table of docs/PACK.md (each file of the preservation pack with its size and checksums) from a
fresh `cribbage-zx build --pack` in a temporary folder; tests/commands/test_pack.py checks the page is current."""
from __future__ import annotations

import json
import tempfile
from pathlib import Path

from harness.cli import main as cli_main
from harness.program.runs import pack
from harness.runtime import atomic
from harness.errors import InputError
from harness.runtime.blocks import replace_block

ROOT = Path(__file__).resolve().parents[1]

PAGE = ROOT / "docs" / "PACK.md"
BEGIN = "<!-- pack: written by tools/write_pack_doc.py from a fresh `cribbage-zx build --pack` -->"
END = "<!-- end of pack -->"


def page_with_table(page: str, table: str) -> str:
    """*page* with the text between the markers replaced by *table* (the markers kept)."""
    try:
        return replace_block(page, BEGIN, END, table)
    except InputError as exc:
        raise SystemExit(f"{PAGE}: {exc}") from None


def table_of(folder: Path) -> str:
    entries = [pack.PackFile(**e) for e in json.loads((folder / "manifest.json").read_text())["files"]]
    return pack.readme_table(entries)


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        if cli_main(["build", "-o", str(Path(tmp) / "tape.tap"), "--pack", str(Path(tmp) / "pack")]) != 0:
            raise SystemExit("build --pack failed")
        table = table_of(Path(tmp) / "pack")
    atomic.write_text(PAGE, page_with_table(PAGE.read_text(encoding="utf-8"), table))
