"""Dask's overhead in `cribbage-zx bench`: the figures' arithmetic, the command's JSON and lines (with Dask and
with the extra missing), the quiet settings really in effect on the workers, and one real measurement.

The command's other figures (boot, the core, a game) are stood in by fakes here: they have their own tests
(tests/test_accelerate.py), and a whole bench costs minutes of CPU.
"""
import json
import sys

import pytest

from harness.bench import runner
from harness.commands import bench

FAKE_DASK = {"games": 2, "workers": 2, "repeats": 3, "pool_cpu_s": 10.5, "dask_cpu_s": 12.4, "dask_cpu_overhead": 0.181,
             "pool_games_cpu_s": 10.1, "dask_games_cpu_s": 10.0,
             "pool_runner_cpu_s": 0.4, "dask_runner_cpu_s": 2.4, "dask_overhead_cpu_s": 2.0, "dask_fixed_cpu_s": 1.6,
             "dask_per_game_cpu_s": 0.2, "game_cpu_s": 5.05, "dask_per_game_share": 0.04,
             "dask_overhead_share": 0.198, "dask_10_percent_from_games": 6, "load_average_1min": 3.0,
             "transcripts_identical": True}


def test_the_split_takes_the_games_own_cpu_out_run_by_run():
    """Worked by hand: runner CPU = total - games, median over runs; Dask's is 2.4 and the pool's 0.4, so 2.0
    over, 1.6 of it fixed, (2.0 - 1.6) / 2 = 0.2 per game of 10.1 / 2 = 5.05 CPU s; at most 10 % once
    1.6 + 0.2 n <= 0.505 n, first at n = 6 (5 gives 2.6 > 2.525)."""
    pool = runner.RunTimes(cpu_s=[10.0, 10.5, 11.0], jobs=[9.6, 10.1, 10.6])
    dask = runner.RunTimes(cpu_s=[12.0, 12.4, 13.0], jobs=[9.6, 10.0, 10.8])
    split = runner.dask_split(pool, dask, 1.6, 2)
    assert split["dask_overhead_cpu_s"] == 2.0 and split["dask_fixed_cpu_s"] == 1.6
    assert split["dask_per_game_cpu_s"] == 0.2 and split["game_cpu_s"] == 5.05
    assert split["dask_10_percent_from_games"] == 6


def test_a_per_game_cost_over_10_percent_never_reaches_it():
    pool = runner.RunTimes(cpu_s=[10.0], jobs=[10.0])                # 5 CPU s a game, nothing beside
    dask = runner.RunTimes(cpu_s=[13.0], jobs=[10.0])                # 3 over: 1 fixed, 1 per game (20 %)
    split = runner.dask_split(pool, dask, 1.0, 2)
    assert split["dask_per_game_share"] == 0.2 and split["dask_10_percent_from_games"] is None
    assert "over 10 % however many games" in runner.format_dask({**FAKE_DASK, **split})


@pytest.fixture
def fake_figures(monkeypatch):
    """The command with its other benchmarks stood in for; the Dask benchmark records its calls."""
    figure = {"emulated_s": 1.0, "wall_s": 0.1, "x_realtime": 10.0}
    monkeypatch.setattr(bench, "bench_boot", lambda: figure)
    monkeypatch.setattr(bench, "bench_basic", lambda: (figure, figure))
    monkeypatch.setattr(bench, "bench_core", lambda: 6e8)
    monkeypatch.setattr(bench, "bench_game", lambda core: {
        "game_cpu_s": 3.2, "accelerated_cpu_s": 2.9, "t_states": 1.8e9, "core_s": 3.0, "game_over_core": 1.07,
        "accelerator_gain": 0.09, "identical": True})
    monkeypatch.setattr(bench, "command_t_states", lambda games, seed: 3.6e9 if (games, seed) == (2, 1) else 0)
    monkeypatch.setattr(bench, "bench_command", lambda t_states, core_speed: {
        "games": 2, "core_s": t_states / core_speed(), "with_html_cpu_s": 7.5, "with_html_over_core": 2.5, "no_html_cpu_s": 4.2,
        "no_html_over_core": 1.4})
    calls = []

    def fake_dask(games, workers):
        calls.append((games, workers))
        return dict(FAKE_DASK, games=games, workers=workers)
    monkeypatch.setattr(bench, "bench_dask", fake_dask)
    return calls


def test_the_default_bench_prints_and_carries_dasks_overhead(fake_figures, capsys):
    assert bench.main(["--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["dask"] == FAKE_DASK and "dask_left_out" not in out and fake_figures == [(2, 2)]
    assert bench.main(["--dask-games", "4"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2] == ("dask: 12.40 CPU s against the local pool's 10.50 on 4 games, 2 workers (+18.1%; the games' "
                         "own 10.00 and 10.10)")
    assert lines[-1].startswith("  beside the games: +2.00 CPU s (+19.8% of the games' CPU)"), lines[-1]
    assert "a fixed 1.60 CPU s" in lines[-1] and "+0.200 CPU s per game" in lines[-1]
    assert "at most 10 % from 6 games; transcripts identical" in lines[-1]


def test_different_transcripts_on_dask_fail_the_bench(fake_figures, monkeypatch, capsys):
    monkeypatch.setattr(bench, "bench_dask", lambda games, workers: dict(FAKE_DASK, transcripts_identical=False))
    assert bench.main([]) == 1
    assert "transcripts DIFFERENT" in capsys.readouterr().out


def test_without_the_dask_extra_the_bench_says_so_in_one_line_and_measures_the_rest(fake_figures, monkeypatch,
                                                                                    capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)          # as if it were not installed
    assert bench.main([]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines()[-1] == ("dask: left out (the dask extra is not installed (no distributed): "
                                            "pip install 'cribbage-zx[dask]')")
    assert captured.out.splitlines()[-2].startswith("accelerator:") and not captured.err
    assert bench.main(["--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["dask"] is None and "no distributed" in out["dask_left_out"] and out["game"]["identical"]
    assert fake_figures == []                                      # never tried


def test_no_dask_leaves_it_out_by_request(fake_figures, capsys):
    assert bench.main(["--no-dask"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "dask: left out (--no-dask)"
    assert fake_figures == []


def test_bench_runner_without_the_dask_extra_runs_the_pool_alone_and_says_why(monkeypatch, capsys):
    asked = []

    def fake_runner(games, workers, dask):
        asked.append(dask)
        return {"transcripts_identical": True}
    monkeypatch.setattr(runner, "bench_runner", fake_runner)
    monkeypatch.setattr(runner, "format_result", lambda result: "pool figures")
    monkeypatch.setitem(sys.modules, "distributed", None)
    assert bench.main(["--runner", "--games", "2"]) == 0
    assert capsys.readouterr().out.splitlines() == ["pool figures", "dask: left out (the dask extra is not installed "
                                                    "(no distributed): pip install 'cribbage-zx[dask]')"]
    assert asked == [False]


def _worker_settings(_):
    """On a Dask worker: the quiet settings as its configuration has them, and its event loop's callbacks."""
    import dask
    from distributed import get_worker
    from harness.runtime.cluster import QUIET_WORKERS
    worker = get_worker()
    return ({key: dask.config.get(key) for key in QUIET_WORKERS},
            {name: pc.callback_time for name, pc in worker.periodic_callbacks.items()})


def _settings_on_a_worker():
    import cloudpickle
    from harness.runtime.jobs import Setup, run_jobs
    cloudpickle.register_pickle_by_value(sys.modules[__name__])     # the workers cannot import this test file
    try:
        with run_jobs(_worker_settings, [0], Setup(len, (b"",)), 1, scheduler="local") as outcomes:
            (outcome,) = list(outcomes)
    finally:
        cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
    assert outcome.ok, outcome.error
    return outcome.value


@pytest.mark.slow
def test_the_quiet_settings_are_in_effect_on_the_workers_and_a_setting_left_out_is_seen_missing(monkeypatch):
    pytest.importorskip("distributed")
    from harness.runtime import cluster
    config, callbacks = _settings_on_a_worker()
    assert config == cluster.QUIET_WORKERS
    assert "profile" not in callbacks and "profile-cycle" not in callbacks
    assert callbacks["tick"] == 500 and callbacks["monitor"] == 2000          # ms: the intervals set
    # the planted twin: without two of the settings the worker runs Dask's defaults, and the probe sees them
    quieter = {k: v for k, v in cluster.QUIET_WORKERS.items()
               if k not in ("distributed.worker.profile.enabled", "distributed.admin.tick.interval")}
    monkeypatch.setattr(cluster, "QUIET_WORKERS", quieter)
    config, callbacks = _settings_on_a_worker()
    assert config["distributed.worker.profile.enabled"] is True and "profile" in callbacks
    assert callbacks["tick"] == 20 and callbacks["monitor"] == 2000


@pytest.mark.slow
def test_a_real_measurement_of_dasks_overhead_on_two_games():
    """One round (not three: this checks the measurement, the figures are bench's): the same transcripts, the
    games' CPU taken out, and Dask costing more beside the games than the pool does (its cluster's start)."""
    pytest.importorskip("distributed")
    result = runner.bench_dask(games=2, workers=2, repeats=1)
    assert result["transcripts_identical"]
    assert result["pool_cpu_s"] > 2 * result["game_cpu_s"] * 0.9 > 1.0
    assert result["pool_runner_cpu_s"] < result["dask_runner_cpu_s"]
    assert result["dask_overhead_cpu_s"] == pytest.approx(result["dask_runner_cpu_s"] - result["pool_runner_cpu_s"],
                                                          abs=0.011)    # each figure rounded to 0.01


def test_the_accelerators_identity_check_ignores_the_timings_and_nothing_else():
    """The plain and accelerated games differ in how long they took (wall_s, cpu_s, screen_s), never in what
    they did: bench said DIFFERENT for every run once the records carried their CPU seconds."""
    import dataclasses
    from harness.bench.machine import what_it_did
    from harness.program.runs.regress import GameResult
    plain = GameResult(index=0, seed=1, strategy="random", winner="computer", scores={"computer": 121, "player": 90},
                       games_played=1, wins=[], completed=True, deals=10, actions=80, judgements="",
                       basic_errors=[], findings={}, timeout=None, failure=None, failure_kind=None,
                       emulated_s=300.0, wall_s=1.0, transcript=[{"kind": "deal"}], screens=None, profile={},
                       adversarial_tries=[], choices={}, pictures_at={}, cpu_s=0.9, screen_s=0.1)
    faster = dataclasses.replace(plain, wall_s=0.8, cpu_s=0.7, screen_s=0.05)
    assert what_it_did(plain) == what_it_did(faster)
    assert what_it_did(plain) != what_it_did(dataclasses.replace(faster, deals=11))      # the near miss: a result differs


def test_the_default_bench_prints_and_carries_the_two_game_command(fake_figures, capsys):
    assert bench.main([]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert ("command: `regress --games 2`: 7.50 CPU s where the bare core needs 6.00: 2.50x the core (40% of its "
            "speed); with --no-html 4.20 CPU s, 1.40x (a fresh process each, start-up and children included, "
            "median of 3)") in lines
    assert bench.main(["--json"]) == 0
    assert json.loads(capsys.readouterr().out)["command"]["core_s"] == 6.0     # the two games' T-states / core speed
    assert bench.main(["--no-command"]) == 0
    assert not [line for line in capsys.readouterr().out.splitlines() if line.startswith("command:")]
