"""Write docs/COMPARE_PLACES.md: every hand and tally check of the comparison × the fault planted there
(tests/compare_faults.py); exits 1 when a fault is not caught."""
from __future__ import annotations

import sys
from pathlib import Path

from harness.runtime.atomic import write_text
from tests.compare_faults import caught, rows, table

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    rs = rows()
    write_text(ROOT / "docs" / "COMPARE_PLACES.md", table(rs))
    empty = [f"{r.kind} {r.who}" for r in rs if not caught(r)]
    print(f"docs/COMPARE_PLACES.md: {len(rs)} places, {len(empty)} without a caught fault")
    return 1 if empty else 0


if __name__ == "__main__":
    sys.exit(main())
