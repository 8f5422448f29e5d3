"""Write docs/DEVIATIONS.md from harness.game.deviations (the one table of the original program's
deviations from the rules); tests/test_docs.py checks that the file is current."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from harness.game.deviations import table_markdown  # noqa: E402

HEADER = """# The original program's deviations from the rules

Every difference between «КРИБЕДЖ» as reconstructed and the reference
engine (`harness/cribbage`, the rules of the seed article and the Cadenza
manual) is either listed here, with the BASIC lines that cause it, or counted
as unexplained by `cribbage-zx regress` and `cribbage-zx sweep`. Each listed
line reads as the OCR shows it, up to character-level OCR fixes. The
judgements `basic/RECONSTRUCTION.md` logs on these lines were revisited and
do not touch the logic: 2745 and 2755 (the spaces of the «ВАШ ХОД?» prompt),
4440 (`cgc` read as CGO, the only flag of that name; no reading of that row
clears S), 4790 (`ss-s+p…` read as `SS=S+P…`) and 4795 (the message's spacing).

"""


def render() -> str:
    return HEADER + table_markdown() + "\n"


if __name__ == "__main__":
    (ROOT / "docs" / "DEVIATIONS.md").write_text(render(), encoding="utf-8")
