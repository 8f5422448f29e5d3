"""strength.html: the figures of `cribbage-zx strength` as a standalone page with its plots.

One page beside report.json (its own template, strength.html, and its own
small stylesheet inline, so it opens from file:// with nothing else), and the
PNG plots matplotlib draws from the report: the ladder of players (games
won against the careful player), the win rates with their intervals, the points per deal by kind, the crib table beside the published
ones, and the discards' losses.
"""
from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from ..program.runs.strength import StrengthReport
from ..program.runs.study import MatchFigures, Mean, Rate
from ..runtime import atomic
from .site import template_env

if TYPE_CHECKING:
    from matplotlib.figure import Figure

PLOTS = ("ladder.png", "win-rates.png", "points-per-deal.png", "crib-table.png", "discard-loss.png")


def _figure_png(fig: Figure) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    import matplotlib.pyplot as plt  # lazy: pyplot (0.36 s) only after plots() chose Agg
    plt.close(fig)
    return buf.getvalue()


def _value(ci: Rate | Mean) -> float:
    """A rate's or a mean's value (a figure drawn always has one; None fails as float(None) does)."""
    value = ci.rate if isinstance(ci, Rate) else ci.mean
    if value is None:
        raise TypeError("float() argument must be a string or a real number, not 'NoneType'")
    return float(value)


def _err(ci: Rate | Mean, scale: float = 1.0) -> tuple[float, float, float]:
    """(value, below, above) of a rate or mean for an error bar (no bar where a bound is open: n = 1)."""
    v = _value(ci)
    lo = v if ci.lo is None else float(ci.lo)
    hi = v if ci.hi is None else float(ci.hi)
    return v * scale, (v - lo) * scale, (hi - v) * scale


#: the ladder's players as the chart names them (harness/program/runs/strength.py LADDER has them in words)
LADDER_LABELS = {"random": "random", "highest": "two highest", "greedy": "greedy", "program": "the program",
                 "ev": "careful (ev)"}


def ladder_plot(report: StrengthReport) -> Figure | None:
    """The ladder: each player's games won against the careful (expected-value) player, weakest first,
    the program's rung marked; None when there is no rung."""
    import matplotlib.pyplot as plt  # lazy: pyplot (0.36 s) only after plots() chose Agg
    rungs = [r for r in report.ladder if r.wins_vs_ev.rate is not None]
    if not rungs:
        return None
    fig, ax = plt.subplots(figsize=(7.5, 0.55 * len(rungs) + 1.0))
    values: list[float] = []
    lows: list[float] = []
    highs: list[float] = []
    labels: list[str] = []
    colours: list[str] = []
    for r in rungs:
        v, lo, hi = _err(r.wins_vs_ev, 100)
        values.append(v)
        lows.append(lo)
        highs.append(hi)
        labels.append(f"{LADDER_LABELS.get(r.player, r.player)}  (n = {r.wins_vs_ev.n})")
        colours.append("#b3261e" if r.player == "program" else "#20303f")
    y = list(range(len(rungs)))
    ax.barh(y, values, xerr=[lows, highs], color=colours, capsize=3)
    for yy, v, above in zip(y, values, highs):
        ax.text(min(v + above + 1.5, 92), yy, f"{v:.0f} %", va="center", fontsize=8)
    ax.axvline(50, color="#888", lw=0.8)
    ax.set_yticks(y, labels, fontsize=9)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("games won against the careful (expected-value) player, % (95 % Wilson interval)")
    ax.set_title("The ladder of players, weakest at the top; the program in red", fontsize=10)
    return fig


def _win_rates_plot(report: StrengthReport, figures: dict[str, MatchFigures]) -> Figure:
    """The win rates: the computer's against each opponent, the first dealer's, and the engine's self-play."""
    import matplotlib.pyplot as plt  # lazy: pyplot (0.36 s) only after plots() chose Agg
    fig, ax = plt.subplots(figsize=(7.5, 3.6))
    bars = _Bars()
    for o, f in figures.items():
        for name, rate, colour in (("computer vs " + o, f.computer_wins, "#20303f"),
                                   ("first dealer, vs " + o + " (unequal players)", f.first_dealer_wins, "#8a4b00")):
            bars.add(name, _err(rate, 100), colour)
    for name, e in report.engine.items():
        by_dealer = name == "ev vs ev"
        bars.add(f"engine {name}" + (" (first dealer)" if by_dealer else ""),
                 _err(e.first_dealer_wins if by_dealer else e.player0_wins, 100), "#5b2a86")
    y = range(len(bars.labels))
    ax.barh(list(y), bars.values, xerr=[bars.lows, bars.highs], color=bars.colours, capsize=3)
    band = report.validation.first_dealer.band
    ax.axvspan(100 * band[0], 100 * band[1], color="#ffd54f", alpha=0.5, label="published first-dealer band")
    ax.axvline(50, color="#888", lw=0.8)
    ax.set_yticks(list(y), bars.labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("games won, % (95 % Wilson interval)")
    ax.legend(fontsize=8, loc="lower right")
    return fig


def _points_plot(figures: dict[str, MatchFigures]) -> Figure:
    """Points per deal, by kind, for both sides of every match."""
    import matplotlib.pyplot as plt  # lazy: pyplot (0.36 s) only after plots() chose Agg
    fig, ax = plt.subplots(figsize=(7.5, 3.2))
    kinds = ("hand", "crib", "pegging")
    width = 0.38
    for k, (o, f) in enumerate(figures.items()):
        for s, (side, points) in enumerate((("computer", f.points_per_deal.computer),
                                            ("player", f.points_per_deal.player))):
            bottom = 0.0
            x = k + (s - 0.5) * width
            for kind, colour in zip(kinds, ("#0b3d91", "#2e7d32", "#c28a00")):
                v = _value(points.of(kind))
                ax.bar(x, v, width * 0.95, bottom=bottom, color=colour, label=kind if k == 0 and s == 0 else None)
                bottom += v
            v, below, above = _err(points.total)
            ax.errorbar(x, v, yerr=[[below], [above]], color="k", capsize=3)
            ax.text(x, 0.3, "program" if side == "computer" else o, rotation=90, color="white", fontsize=8,
                    ha="center", va="bottom")
    ax.set_xticks(range(len(figures)), [f"vs {o}" for o in figures])
    ax.set_ylabel("points per deal")
    ax.legend(fontsize=8, ncols=3, loc="upper left")
    return fig


def _crib_table_plot(report: StrengthReport) -> Figure:
    """The crib table: the engine's (uniform opponent) against Schell's own and opponent's, and the program's
    cribs."""
    import matplotlib.pyplot as plt  # lazy: pyplot (0.36 s) only after plots() chose Agg
    rows = report.validation.crib_table.rows
    fig, ax = plt.subplots(figsize=(9, 3.4))
    x = list(range(len(rows)))
    order = sorted(x, key=lambda i: rows[i].engine)
    ax.plot(x, [rows[i].schell_own for i in order], ".", color="#2e7d32", label="Schell: own crib")
    ax.plot(x, [rows[i].schell_opponent for i in order], ".", color="#b3261e", label="Schell: opponent's crib")
    ax.plot(x, [rows[i].engine for i in order], "-", color="#20303f", label="engine: uniform opponent (exact)")
    seen = report.crib_by_pair
    for role, marker, colour in (("own", "^", "#2e7d32"), ("opponent", "v", "#b3261e")):
        xs: list[int] = []
        ys: list[float] = []
        for pos, i in enumerate(order):
            cribs = seen.get(rows[i].pair)
            n, mean = (0, None) if cribs is None else cribs.own if role == "own" else cribs.opponent
            if n >= 10 and mean is not None:
                xs.append(pos)
                ys.append(mean)
        if xs:
            ax.plot(xs, ys, marker, mfc="none", color=colour, label=f"program's cribs ({role}, n >= 10)")
    step = max(1, len(rows) // 30)
    ax.set_xticks(x[::step], [rows[i].pair for i in order][::step], rotation=90, fontsize=7)
    ax.set_ylabel("crib points")
    ax.legend(fontsize=7, ncols=2)
    return fig


def _discard_plot(figures: dict[str, MatchFigures]) -> Figure:
    """The discards' expected losses: the program against each opponent's, own crib and the opponent's."""
    import matplotlib.pyplot as plt  # lazy: pyplot (0.36 s) only after plots() chose Agg
    fig, ax = plt.subplots(figsize=(7.5, 2.8))
    bars = _Bars()
    for o, f in figures.items():
        for side, discards in (("computer", f.discards.computer), ("player", f.discards.player)):
            for role, ci in (("own_crib", discards.own_crib.loss), ("opponent_crib", discards.opponent_crib.loss)):
                if ci.mean is None:
                    continue
                bars.add(f"{'program' if side == 'computer' else o} (vs {o}), {role.replace('_', ' ')}", _err(ci))
    y = range(len(bars.labels))
    ax.barh(list(y), bars.values, xerr=[bars.lows, bars.highs], color="#0b3d91", capsize=3)
    ax.set_yticks(list(y), bars.labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("expected points given away per discard (vs the best, 95 % interval)")
    return fig


@dataclass
class _Bars:
    """Horizontal bars with error bars, one added at a time: label, (value, below, above), colour."""
    labels: list[str] = field(default_factory=list)
    values: list[float] = field(default_factory=list)
    lows: list[float] = field(default_factory=list)
    highs: list[float] = field(default_factory=list)
    colours: list[str] = field(default_factory=list)

    def add(self, label: str, interval: tuple[float, float, float], colour: str = "") -> None:
        v, lo, hi = interval
        self.labels.append(label)
        self.values.append(v)
        self.lows.append(lo)
        self.highs.append(hi)
        self.colours.append(colour)


def plots(report: StrengthReport) -> dict[str, bytes]:
    """The page's plots as PNG bytes, by file name."""
    import matplotlib  # lazy: matplotlib (0.25 s) only when the page's plots are drawn
    matplotlib.use("Agg")
    figures = {o: f for o, f in report.figures.items() if f.completed}
    drawers: tuple[tuple[str, Callable[[], Figure | None]], ...] = (
        ("ladder.png", lambda: ladder_plot(report)), ("win-rates.png", lambda: _win_rates_plot(report, figures)),
        ("points-per-deal.png", lambda: _points_plot(figures)), ("crib-table.png", lambda: _crib_table_plot(report)),
        ("discard-loss.png", lambda: _discard_plot(figures)))
    out: dict[str, bytes] = {}
    for name, draw in drawers:                 # one at a time: each figure drawn, written and closed
        fig = draw()
        if fig is not None:                    # no ladder without a rung
            out[name] = _figure_png(fig)
    return out


def write_strength_page(folder: Path, report: StrengthReport) -> Path:
    """Write folder/strength.html and its PNG plots; return the page's path."""
    folder = Path(folder)
    drawn = plots(report)
    for name, data in drawn.items():
        atomic.write_bytes(folder / name, data)
    html = template_env().get_template("strength.html").render(r=report, plots=drawn)
    path = folder / "strength.html"
    atomic.write_text(path, html)
    return path
