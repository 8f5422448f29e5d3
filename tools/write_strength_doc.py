"""Write the figures of docs/STRENGTH.md from docs/strength.json, a strength run's report.json kept in the
checkout (copy it there with --from RUN/report.json); tests/test_docs.py checks the page is current.

The block between the markers is the run's own plain sentence and the summary `cribbage-zx strength` prints
for it (game/strength.summary_table), so the page cannot say what its run did not."""
from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from harness.program.runs.strength import summary_table  # noqa: E402
from harness.runtime import atomic  # noqa: E402
from harness.errors import InputError  # noqa: E402
from harness.runtime.blocks import replace_block  # noqa: E402

PAGE = ROOT / "docs" / "STRENGTH.md"
DATA = ROOT / "docs" / "strength.json"
BEGIN = "<!-- strength: written by tools/write_strength_doc.py from docs/strength.json (a strength run's report.json) -->"
END = "<!-- end of strength -->"


def block(report: dict) -> str:
    run = report.get("run", {})
    matches = ", ".join(f"{f['completed']} against {o}" for o, f in report["figures"].items())
    total = sum(f["completed"] for f in report["figures"].values())
    seed = f", the first game's seed {run['seed']}" if "seed" in run else ""
    made = (f"From {total} games of the program ({matches}) and {run.get('engine_games', '?')} engine "
            f"self-play games a pairing{seed}.")
    return "\n".join([f"**{report.get('plain_words') or report['verdict']}**", "", made, "",
                      "What `cribbage-zx strength` printed for this run:", "", "```", summary_table(report), "```"])


def page_with_block(page: str, report: dict) -> str:
    try:
        return replace_block(page, BEGIN, END, block(report))
    except InputError as exc:
        raise SystemExit(f"{PAGE}: {exc}") from None


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="source", type=Path, help="a strength run's report.json to keep as docs/strength.json")
    args = parser.parse_args()
    if args.source:
        shutil.copyfile(args.source, DATA)
    report = json.loads(DATA.read_text(encoding="utf-8"))
    atomic.write_text(PAGE, page_with_block(PAGE.read_text(encoding="utf-8"), report))
