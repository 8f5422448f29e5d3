"""The default bench's figures as text, and a docs page's block of figures rewritten by the bench itself.

A page's figures are written by the run that measured them (`bench --write-doc`), between the page's markers,
with the command and the time, so a page cannot say what no run printed."""
from __future__ import annotations

import time
from pathlib import Path
from typing import NotRequired, TypedDict

from ..errors import InputError, UsageError
from ..runtime import atomic
from ..runtime.blocks import replace_block
from .machine import GameFigures
from .runner import DaskFigures, format_dask

#: the markers of docs/PERFORMANCE.md's block of the default bench's figures
BENCH_BEGIN, BENCH_END = "<!-- bench: begin -->", "<!-- bench: end -->"


class BenchFigures(TypedDict):
    """The default bench's figures, in the order `bench --json` prints them."""
    boot: dict[str, float]
    basic: dict[str, float]
    raw_core: dict[str, float]
    core_t_per_cpu_s: int
    game: GameFigures
    command: dict[str, float] | None
    dask: DaskFigures | None
    dask_left_out: NotRequired[str]


def bench_figures(fig: BenchFigures, dask_left_out: str | None) -> BenchFigures:
    """The default bench's figures with why Dask's are missing (None: they are not): the last key of
    `bench --json`, the last line of the text."""
    if dask_left_out:
        fig["dask_left_out"] = dask_left_out
    return fig


def figures_agree(fig: BenchFigures) -> bool:
    """The default bench's verdict: the accelerated game's results are the plain game's, and the Dask runs'
    transcripts (where they ran) the local pool's."""
    dask = fig["dask"]
    return fig["game"]["identical"] and (dask is None or dask["transcripts_identical"])


def format_bench(fig: BenchFigures) -> str:
    """The default bench's figures (as `bench --json` prints them) as the lines `bench` prints."""
    lines = [f"{name:9} {f['emulated_s']:8.2f} emulated s  {f['wall_s']:8.4f} wall s  "
             f"{f['x_realtime']:7.1f}x real time"
             for name, f in (("boot", fig["boot"]), ("basic", fig["basic"]), ("raw_core", fig["raw_core"]))]
    game, command, dask = fig["game"], fig.get("command"), fig.get("dask")
    lines.append(f"harness/raw core on BASIC: {fig['basic']['x_realtime'] / fig['raw_core']['x_realtime']:.1%}")
    lines.append(f"core: {fig['core_t_per_cpu_s'] / 1e6:.0f} M T-states per CPU second (bare core, BASIC benchmark, "
                 "median of 3)")
    lines.append(f"game: {game['game_cpu_s']:.2f} CPU s for {game['t_states'] / 1e9:.3f} G T-states, which the bare "
                 f"core runs in {game['core_s']:.2f} s: {game['game_over_core']:.2f}x the core (median of 3)"
                 + (f"; {game['x_realtime_per_cpu_s']:.0f}x real time per CPU s; {game['answered_share']:.1%} of its "
                    f"T-states answered by the accelerator" if "answered_share" in game else ""))
    for name, r in game.get("routines", {}).items():
        if not isinstance(r, int):                     # "total_t": the game's T-states
            lines.append(f"  {name:9} {r['calls']:>9,} calls {r['t_states'] / 1e6:7.0f} M T-states: {r['share']:5.1%} "
                         f"of a plain game's T-states, ~{r['cpu_share']:5.1%} of its CPU"
                         + (" (all inside LINE-ADDR and LOOK-VARS)" if r["nested_t"] == r["t_states"] else "")
                         + (f"; accelerated: {r['answered_t'] / 1e6:.0f} M answered "
                            f"({r['answered_t'] / r['t_states'] if r['t_states'] else 0:.0%} of its), "
                            f"{r['share_after']:.1%} of the T-states the game still runs"
                            if "answered_t" in r else ""))
    if command is not None:
        lines.append(f"command: `regress --games {command['games']}`: {command['with_html_cpu_s']:.2f} CPU s where the "
                     f"bare core needs {command['core_s']:.2f}: {command['with_html_over_core']:.2f}x the core "
                     f"({1 / command['with_html_over_core']:.0%} of its speed); with --no-html "
                     f"{command['no_html_cpu_s']:.2f} CPU s, {command['no_html_over_core']:.2f}x (a fresh process each, "
                     "start-up and children included, median of 3)")
    plain = (f"accelerator: the plain ROM {game['plain_cpu_s']:.2f} CPU s ({game['plain_over_core']:.2f}x the core), "
             "accelerated " if "plain_cpu_s" in game else "accelerator: ")
    lines.append(f"{plain}{game['accelerated_cpu_s']:.2f} CPU s, {game['accelerator_gain']:.1%} less; "
                 f"results {'identical' if game['identical'] else 'DIFFERENT'} (transcript, frames, profile, screens)")
    lines.append(format_dask(dask) if dask is not None else f"dask: left out ({fig.get('dask_left_out')})")
    return "\n".join(lines)


def write_figures(doc: Path, command: str, text: str, begin: str = BENCH_BEGIN, end: str = BENCH_END) -> None:
    """Replace what stands between *begin* and *end* in *doc* with *text*, as *command* printed it (atomically)."""
    try:
        page = doc.read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"--write-doc {doc}: {exc.strerror or exc}") from None
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    try:
        page = replace_block(page, begin, end, f"```\n$ {command}   # {when}\n{text}\n```")
    except InputError:
        raise UsageError(f"--write-doc {doc}: no {begin} ... {end} block for the figures") from None
    atomic.write_text(doc, page)
