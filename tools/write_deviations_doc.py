"""Write docs/DEVIATIONS.md from harness.program.judge.deviations (the one table of the original program's
deviations from the rules), and the README's short table of them and of the findings between its
markers; tests/test_docs.py checks that both are current."""
from __future__ import annotations

from pathlib import Path

from harness.runtime import atomic
from harness.errors import InputError
from harness.runtime.blocks import replace_block
from harness.program.model.rulesets import RULE_SOURCES
from harness.program.judge.deviations import DEVIATIONS, table_markdown
from harness.program.model.findings import FINDINGS

ROOT = Path(__file__).resolve().parents[1]

HEADER = """# The original program's deviations from the rules

Written by `python tools/write_deviations_doc.py` from `harness/program/judge/deviations.py`
(and the README's table beside it); do not edit by hand.

Every difference between «КРИБЕДЖ» as reconstructed and the reference
engine (`harness/cribbage`, run with the modern standard rules) is either
listed here, with the BASIC lines that cause it, or counted as unexplained by
`cribbage-zx regress` and `cribbage-zx sweep`. Each entry says what the seed
article and what the standard say on the point; where they differ from each
other, the second table quotes the article. Each listed
line reads as the OCR shows it, up to character-level OCR fixes. The
judgements `basic/RECONSTRUCTION.md` logs on these lines were revisited and
do not touch the logic: 2745 and 2755 (the spaces of the «ВАШ ХОД?» prompt),
4440 (`cgc` read as CGO, the only flag of that name; no reading of that row
clears S), 4790 (`ss-s+p…` read as `SS=S+P…`), 4795 (the message's spacing) and
7365 (`FOR Y-l TO .4` read as `FOR Y=.1 TO .4`, the dot lost: as printed the loop
would not run and D10's deck would hold no card) and 7880 (`Xt=Rt(A(X))`, `Yt-AS (X)`
read as `X$=R$(A(X))`, `Y$=A$(X)`: the card's face, which D11's 7885 then does not
draw, as every reading of 7885's `GO SUB 5350` says); every other cited line needs only
the character-level fixes of `tools/ocr_diff.py` (`tests/test_deviation_lines.py`).

"""


ARTICLE_HEADER = """

## Where the seed article's rules differ from the standard

The values the article states (the `ARTICLE` rules preset), quoted as the OCR
of the seed reads them, against the modern standard (ACC rules, Hoyle; the
`STANDARD` preset) and the BASIC listing (`PROGRAM`). Every scoring value and
what each source says of it: `RULE_SOURCES` in `harness/program/model/rulesets.py` (the engine's
sources with the listing's).

| rule | the article | the standard | the program |
| --- | --- | --- | --- |
"""


def article_table() -> str:
    rows = []
    for rule, by in RULE_SOURCES.items():
        art, std, prog = by["article"], by["standard"], by["program"]
        if art.value != std.value:
            rows.append(f"| {rule} | {art.value}: «{art.says}» | {std.value}: {std.says} | "
                        f"{prog.value}: `{prog.says}` |")
    return "\n".join(rows)


def render() -> str:
    return HEADER + table_markdown() + ARTICLE_HEADER + article_table() + "\n"


README_BEGIN = "<!-- deviations: written by tools/write_deviations_doc.py from harness/program/judge/deviations.py -->"
README_END = "<!-- end of deviations -->"


def readme_table() -> str:
    """The README's table: each deviation and finding in one line, with its lines."""
    rows = ["| id | lines | what the original does |", "| --- | --- | --- |"]
    rows += [f"| {d.id} | {d.lines} | {d.brief} |" for d in DEVIATIONS.values()]
    rows += [f"| {f.id} | {f.lines} | {f.brief} |" for f in FINDINGS]
    return "\n".join(rows)


def readme_with_table(readme: str) -> str:
    """*readme* with the text between the markers replaced by readme_table()."""
    try:
        return replace_block(readme, README_BEGIN, README_END, readme_table())
    except InputError as exc:
        raise SystemExit(f"README.md: {exc}") from None


if __name__ == "__main__":
    atomic.write_text(ROOT / "docs" / "DEVIATIONS.md", render())
    readme = ROOT / "README.md"
    atomic.write_text(readme, readme_with_table(readme.read_text(encoding="utf-8")))
