"""The report's plots: static SVG drawn by matplotlib, each with its alt text and the numbers behind it.

matplotlib is the well-kept standard for static plots in Python; drawn headless (the Agg/SVG
back-ends, no display, no browser script), with text kept as text (searchable, small) and no date
or random ids in the file, so the same run gives the same bytes. Each `Plot` carries what the page
needs beside the picture: a title, the alt text, and the table of values it was drawn from.
"""
from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.typing import RcKeyType

__all__ = ["Plot", "Marker", "Categories", "histogram", "distribution", "score_race"]

WIDTH_IN, HEIGHT_IN = 9.0, 3.2        # 864 x 307 px at 96 dpi: fits a 1280 px window beside nothing
#: the margins round the axes, in inches (left, right, top): what tight_layout measured for these plots, with
#: room on the left for five-digit counts; the bottom one is each plot's own (its tick labels and x label)
LEFT_IN, RIGHT_IN, TOP_IN = 0.66, 0.14, 0.33
BOTTOM_IN = {"plain": 0.36, "turned": 0.62, "suits": 0.58, "points": 0.53, "race": 0.55}
RC: dict[RcKeyType, object] = {"svg.fonttype": "none", "svg.hashsalt": "cribbage-zx", "font.size": 9, "font.family": "DejaVu Sans",
      "axes.spines.top": False, "axes.spines.right": False}
#: the players' lines of the score race, in this order
PLAYER_COLOURS = (("computer", "#0b3d91"), ("player", "#1b5e20"))
EXPECTED_COLOUR = "#b3261e"            # what a fair deck or the exact count expects
BARS_COLOUR = "#8a9bb0"                # what the program did


@dataclass
class Plot:
    name: str                        # file stem: plots/<name>.svg
    title: str
    alt: str
    svg: str
    columns: tuple[str, ...]         # the table behind the plot
    rows: Sequence[tuple[object, ...]] = field(default_factory=list)
    note: str = ""                   # a sentence under it: how to read it


@dataclass(frozen=True)
class Marker:
    """A point of a score race to mark: where (score event number), whose, and its label (a deviation id)."""
    x: int
    y: int
    who: str
    label: str


def _figure(bottom: str, height: float = HEIGHT_IN) -> tuple[Figure, Axes]:
    """A figure of its own (not pyplot's: importing pyplot costs about 0.4 CPU s and keeps a global list of
    figures), saved as SVG, its axes placed by fixed margins (*bottom*: a key of BOTTOM_IN). tight_layout
    measured every text with Agg before the drawing, a fifth of a plot's cost, to find the same margins."""
    import matplotlib  # lazy: matplotlib (0.25 s) only when a plot is drawn
    from matplotlib.figure import Figure
    matplotlib.rcParams.update(RC)
    fig = Figure(figsize=(WIDTH_IN, height), dpi=96)
    fig.subplots_adjust(left=LEFT_IN / WIDTH_IN, right=1 - RIGHT_IN / WIDTH_IN, top=1 - TOP_IN / height,
                        bottom=BOTTOM_IN[bottom] / height)
    return fig, fig.subplots()


def _svg(fig: Figure) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    text = buf.getvalue()
    return text[text.index("<svg"):]


def _whole_counts(ax: Axes, x: bool = False) -> None:
    """Ticks at whole numbers only: a count of 2.5 cards is no count."""
    from matplotlib.ticker import MaxNLocator  # lazy: as matplotlib in _figure
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    if x:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))


@dataclass(frozen=True)
class Categories:
    """The bars of a histogram: each category's tick label and count, in order.

    *groups*: consecutive runs of the categories, (label, how many), named once under their ticks with a
    line between runs (the 52 cards as four suits of 13 ranks: each tick a rank, upright and legible);
    *names*: each category's full name for the alt text and the table (default: *labels*)."""
    labels: list[str]
    observed: list[int]
    groups: list[tuple[str, int]] | None = None
    names: list[str] | None = None


def histogram(name: str, title: str, bars: Categories, p: float | None, what: str) -> Plot:
    """Counts per category (*bars*) against the uniform expectation (a line at n/k), with the chi-square
    p-value *p*; *what* the counts are of ("cards", "cuts")."""
    labels, observed, groups = bars.labels, bars.observed, bars.groups
    n, k = sum(observed), len(labels)
    fig, ax = _figure("suits" if groups else "turned" if k > 20 else "plain")
    names = bars.names or labels
    expected = n / k if k else 0
    ax.bar(range(k), observed, color=BARS_COLOUR, label="observed")
    ax.axhline(expected, color=EXPECTED_COLOUR, linewidth=1.2, label=f"uniform: {expected:.2f} each")
    if groups:
        ax.set_xticks(range(k), labels, fontsize=8)
        start = 0
        for label, size in groups:
            if start:
                ax.axvline(start - 0.5, color="#6b6b6b", linewidth=0.8, linestyle=":")
            ax.annotate(label, ((start + start + size - 1) / 2, 0), xycoords=("data", "axes fraction"),
                        xytext=(0, -22), textcoords="offset points", ha="center", va="top", fontsize=9,
                        color="#c00000" if label[:1] in "♥♦" else "#1d1d1d")
            start += size
        ax.set_xlim(-0.6, k - 0.4)
    else:
        ax.set_xticks(range(k), labels, fontsize=7 if k > 20 else 9, rotation=90 if k > 20 else 0)
    _whole_counts(ax)
    ax.set_ylabel("count")
    p_text = "no samples" if p is None else f"chi-square p = {p:.3g}"
    ax.set_title(f"{title}: {n} {what}, {p_text}", fontsize=10)
    ax.legend(loc="upper right", fontsize=8, frameon=False)
    never = [lab for lab, c in zip(names, observed) if c == 0]
    alt = (f"Bar chart of {title.lower()}: {n} {what} over {k} categories against a uniform {expected:.2f} "
           f"each; {p_text}; " + (f"never seen: {', '.join(never)}." if never and n >= k else
                                  f"highest {max(observed) if observed else 0}, lowest {min(observed) if observed else 0}."))
    rows = [(lab, c, round(expected, 3)) for lab, c in zip(names, observed)]
    return Plot(name, title, alt, _svg(fig), ("category", "observed", "expected if uniform"), rows)


def distribution(name: str, title: str, observed: list[int], exact: list[int], what: str) -> Plot:
    """The program's show scores (counts per score) against the exact distribution, scaled to as many."""
    fig, ax = _figure("points")
    n, total = sum(observed), sum(exact)
    scores = list(range(len(exact)))
    expected = [n * e / total if total else 0 for e in exact]
    ax.bar(scores, observed, color=BARS_COLOUR, label=f"the program's {what} ({n})")
    ax.plot(scores, expected, color=EXPECTED_COLOUR, marker=".", linewidth=1.2,
            label="exact distribution, scaled to as many")
    ax.set_xticks(scores, [str(s) for s in scores], fontsize=8)
    ax.set_xlabel("points")
    _whole_counts(ax)
    ax.set_ylabel("count")
    ax.set_title(f"{title}: {n} {what}", fontsize=10)
    ax.legend(loc="upper right", fontsize=8, frameon=False)
    mean = sum(s * c for s, c in zip(scores, observed)) / n if n else 0
    exact_mean = sum(s * e for s, e in zip(scores, exact)) / total if total else 0
    alt = (f"Bar chart of {title.lower()}: {n} {what} by points, mean {mean:.2f}, against the exact "
           f"distribution over every hand and starter (mean {exact_mean:.2f}) drawn as a line.")
    rows = [(s, c, round(x, 2)) for s, c, x in zip(scores, observed, expected) if c or x >= 0.005]
    return Plot(name, title, alt, _svg(fig), ("points", "observed", "expected"), rows)


def score_race(name: str, title: str, points: dict[str, list[tuple[int, int]]], deal_starts: list[tuple[int, int]],
               markers: list[Marker]) -> Plot:
    """Each player's total after each score (x: the score's number in the game), deals shaded, deviations
    marked where they happened."""
    fig, ax = _figure("race", 3.0)
    for who, colour in PLAYER_COLOURS:
        xs = [0] + [x for x, _ in points.get(who, [])]
        ys = [0] + [y for _, y in points.get(who, [])]
        ax.step(xs, ys, where="post", color=colour, linewidth=1.4, label=who)
    for k, (x, deal) in enumerate(deal_starts):
        if k % 2:
            end = deal_starts[k + 1][0] if k + 1 < len(deal_starts) else None
            ax.axvspan(x, end if end is not None else ax.get_xlim()[1], color="#efece3", zorder=0)
        ax.text(x, 1, str(deal), fontsize=7, color="#6b6b6b", va="bottom")
    ax.axhline(121, color="#6b6b6b", linewidth=0.8, linestyle=":")
    if markers:         # one line of markers, not a line each
        ax.plot([m.x for m in markers], [m.y for m in markers], linestyle="none", marker="v",
                color=EXPECTED_COLOUR, markersize=6)
    for m in markers:
        ax.annotate(m.label, (m.x, m.y), textcoords="offset points", xytext=(0, 6), ha="center", fontsize=7,
                    color=EXPECTED_COLOUR)
    _whole_counts(ax, x=True)
    ax.set_xlabel("score pegged, in order (the small numbers: where each deal begins)")
    ax.set_ylabel("points")
    ax.set_title(title, fontsize=10)
    ax.legend(loc="upper left", fontsize=8, frameon=False)
    finals = {who: (pts[-1][1] if pts else 0) for who, pts in points.items()}
    alt = (f"Line chart of {title.lower()}: the computer's and the player's totals after each of "
           f"{sum(len(p) for p in points.values())} scores over {len(deal_starts)} deals, ending "
           f"{finals.get('computer', 0)} to {finals.get('player', 0)}; "
           + (f"{len(markers)} documented deviation{'s' if len(markers) != 1 else ''} marked "
              f"({', '.join(sorted({m.label for m in markers}))})." if markers else "no deviation marked."))
    rows = sorted([(x, who, y) for who, pts in points.items() for x, y in pts])
    return Plot(name, title, alt, _svg(fig), ("score number", "who", "total after it"), rows)
