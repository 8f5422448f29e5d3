"""The bench's accelerator figures as text (issue 46): the game accelerated and plain against the bare core,
the share of its T-states answered, x real time per CPU s, and the plain game's profile of the ROM's list
walks. Figures made by hand; the lines they must print."""
from __future__ import annotations

from harness.bench.figures import format_bench

RUN = {"emulated_s": 10.0, "wall_s": 0.5, "x_realtime": 20.0}
GAME = {"game_cpu_s": 2.5, "plain_cpu_s": 3.0, "t_states": 1_800_000_000, "core_s": 2.4, "game_over_core": 1.04,
        "plain_over_core": 1.25, "accelerated_cpu_s": 2.5, "accelerator_gain": 0.167, "identical": True,
        "answered_share": 0.265, "x_realtime_per_cpu_s": 205.7,
        "routines": {"LINE-ADDR": {"calls": 11048, "t_states": 486_000_000, "share": 0.27, "nested_t": 0,
                                   "cpu_share": 0.2},
                     "NEXT-ONE": {"calls": 3473540, "t_states": 597_000_000, "share": 0.3317,
                                  "nested_t": 597_000_000, "cpu_share": 0.25},
                     "LOOK-VARS": {"calls": 90778, "t_states": 540_000_000, "share": 0.3, "nested_t": 0,
                                   "cpu_share": 0.24, "answered_t": 367_000_000, "share_after": 0.1321},
                     "total_t": 1_800_000_000}}
FIGURES = {"boot": RUN, "basic": RUN, "raw_core": RUN, "core_t_per_cpu_s": 750_000_000, "game": GAME,
           "command": None, "dask": None, "dask_left_out": "--no-dask"}


def test_the_accelerator_figures_print_as_the_bench_prints_them():
    lines = format_bench(FIGURES).splitlines()
    assert ("game: 2.50 CPU s for 1.800 G T-states, which the bare core runs in 2.40 s: 1.04x the core (median of 3); "
            "206x real time per CPU s; 26.5% of its T-states answered by the accelerator") in lines
    assert "  LINE-ADDR    11,048 calls     486 M T-states: 27.0% of a plain game's T-states, ~20.0% of its CPU" in lines
    assert ("  LOOK-VARS    90,778 calls     540 M T-states: 30.0% of a plain game's T-states, ~24.0% of its CPU; "
            "accelerated: 367 M answered (68% of its), 13.2% of the T-states the game still runs") in lines
    assert ("  NEXT-ONE  3,473,540 calls     597 M T-states: 33.2% of a plain game's T-states, ~25.0% of its CPU "
            "(all inside LINE-ADDR and LOOK-VARS)") in lines
    assert lines[-2] == ("accelerator: the plain ROM 3.00 CPU s (1.25x the core), accelerated 2.50 CPU s, 16.7% less; "
                         "results identical (transcript, frames, profile, screens)")


def test_a_routine_called_on_its_own_too_is_not_said_to_be_only_inside_the_others():
    part = dict(GAME["routines"]["NEXT-ONE"], nested_t=500_000_000)        # the near miss: some calls outside
    text = format_bench(dict(FIGURES, game=dict(GAME, routines={"NEXT-ONE": part})))
    assert "NEXT-ONE" in text and "all inside" not in text
