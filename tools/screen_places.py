"""Write docs/SCREEN_PLACES.md: every screen place the program model names × the picture fault planted there
(tests/screen_faults.py); exits 1 when a place has no fault caught."""
from __future__ import annotations

import sys
from pathlib import Path

from harness.runtime.atomic import write_text
from tests.screen_faults import plant_all, table

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    rows = plant_all()
    write_text(ROOT / "docs" / "SCREEN_PLACES.md", table(rows))
    empty = [r.place for r in rows if not r.caught]
    print(f"docs/SCREEN_PLACES.md: {len(rows)} places, {len(empty)} without a caught fault")
    return 1 if empty else 0


if __name__ == "__main__":
    sys.exit(main())
