"""The golden screens (docs/golden/, when the checkout has them) for the edition: each moment's picture
and what it shows, read from the folder's README index table.

The table's rows are ``| moment | CRC32 | what it shows | ![name](file.png) |``; a row whose picture is
missing is an error naming the file, not a gap on the page.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError

__all__ = ["GoldenScreen", "read_golden"]

_ROW = re.compile(r"^\|\s*(?P<moment>[^|]+?)\s*\|\s*`?(?P<crc>[0-9a-f]{8})`?\s*\|\s*(?P<what>[^|]+?)\s*\|"
                  r"\s*!\[[^\]]*\]\((?P<file>[^)]+\.png)\)\s*\|\s*$")


@dataclass(frozen=True)
class GoldenScreen:
    moment: str
    crc: str
    what: str
    path: Path


def read_golden(folder: Path) -> list[GoldenScreen]:
    index = folder / "README.md"
    try:
        text = index.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{index}: {exc.strerror}") from None
    out = []
    for k, line in enumerate(text.splitlines(), 1):
        m = _ROW.match(line)
        if not m:
            continue
        path = folder / m.group("file")
        if not path.is_file():
            raise InputError(f"{index}:{k}: no picture {m.group('file')}")
        out.append(GoldenScreen(m.group("moment").replace("`", ""), m.group("crc"), m.group("what").replace("`", ""),
                                path))
    return out
