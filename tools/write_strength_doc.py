"""Write the figures of docs/STRENGTH.md from docs/data/strength.json, a strength run's report.json kept in the
checkout (copy it there with --from RUN/report.json); tests/test_docs.py checks the page is current.

The block between the markers opens with one sentence for a cribbage player (`lead`: how strong, against
whom, how sure), then the run's own plain sentence and the summary `cribbage-zx strength` prints for it
(strength.summary_table), so the page cannot say what its run did not. docs/PLAYING.md opens with the same
sentence (tools/write_playing_guide.py)."""
from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from harness.program.runs.strength import StrengthReport, percent, read_report, summary_table
from harness.runtime import atomic
from harness.errors import InputError
from harness.runtime.blocks import replace_block

ROOT = Path(__file__).resolve().parents[1]

PAGE = ROOT / "docs" / "STRENGTH.md"
DATA = ROOT / "docs" / "data" / "strength.json"
BEGIN = "<!-- strength: written by tools/write_strength_doc.py from docs/data/strength.json (a strength run's report.json) -->"
END = "<!-- end of strength -->"


#: a rate in words, the nearest of these (a person reads "one game in three" more easily than 32 %)
IN_WORDS = ((0.1, "one game in ten"), (0.2, "one game in five"), (0.25, "one game in four"),
            (1 / 3, "one game in three"), (0.4, "two games in five"), (0.5, "one game in two"),
            (0.6, "three games in five"), (2 / 3, "two games in three"), (0.75, "three games in four"),
            (0.8, "four games in five"), (0.9, "nine games in ten"), (1.0, "every game"))


def in_words(rate: float) -> str:
    return min(IN_WORDS, key=lambda w: abs(w[0] - rate))[1]


def lead(report: StrengthReport) -> str:
    """One sentence a cribbage player understands: the computer's games won against the careful player (the
    exact expected value of every choice), with the 95 % interval and the number of games, beside what two
    careful players score against each other; then its wins against the greedy and the random player."""
    figures = report.figures
    ev = figures["ev"].computer_wins
    even = report.engine["ev vs ev"].player0_wins
    others = [f"{name} in {percent(figures[o].computer_wins.rate)} %"
              for o, name in (("greedy", "a greedy player (the most points now)"), ("random", "a random player"))
              if o in figures]
    beats = f", and beats {' and '.join(others)} of games" if others else ""
    return (f"Against a careful player, one who weighs the exact expected value of every discard and card, the "
            f"computer wins about {in_words(ev.rate)} ({ev.k} of {ev.n} games, {percent(ev.rate)} %; "
            f"95 % sure it is between {percent(ev.lo)} and {percent(ev.hi)} %, where two careful players "
            f"win {percent(even.rate)} % against each other){beats}.")



def block(report: StrengthReport) -> str:
    run = report.run
    matches = ", ".join(f"{f.completed} against {o}" for o, f in report.figures.items())
    total = sum(f.completed for f in report.figures.values())
    seed = f", the first game's seed {run['seed']}" if "seed" in run else ""
    made = (f"From {total} games of the program ({matches}) and {run.get('engine_games', '?')} engine "
            f"self-play games a pairing{seed}.")
    return "\n".join([lead(report), "", f"**{report.plain_words or report.verdict}**", "", made, "",
                      "What `cribbage-zx strength` printed for this run:", "", "```", summary_table(report), "```"])


def page_with_block(page: str, report: StrengthReport) -> str:
    try:
        return replace_block(page, BEGIN, END, block(report))
    except InputError as exc:
        raise SystemExit(f"{PAGE}: {exc}") from None


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="source", type=Path, help="a strength run's report.json to keep as docs/data/strength.json")
    args = parser.parse_args()
    if args.source:
        shutil.copyfile(args.source, DATA)
    report = read_report(DATA)
    atomic.write_text(PAGE, page_with_block(PAGE.read_text(encoding="utf-8"), report))
