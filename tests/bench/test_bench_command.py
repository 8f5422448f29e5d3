"""bench's main job (a 2-game regress in a fresh process): the arithmetic by hand, the variants in turn, and a failed run named."""

import pytest

from harness.bench import command
from harness.errors import MachineError


def test_medians_and_ratios_are_the_runs_figures_over_the_cores_time():
    cpu = iter([5.0, 3.0, 7.0, 4.0, 6.0, 3.5])          # with, without, with, without, with, without
    speeds = iter([1e9, 3e9, 2e9])                        # the core timed before each round: median 2e9
    order = []

    def fake(extra):
        order.append(tuple(extra))
        return next(cpu)

    def core():
        order.append("core")
        return next(speeds)
    got = command.bench_command(4_000_000_000, core, repeat=3, run=fake)
    assert order == ["core", (), ("--no-html",)] * 3      # taken in turn, so a change of load falls on all
    assert got == {"games": 2, "core_s": 2.0, "with_html_cpu_s": 6.0, "with_html_over_core": 3.0,
                   "no_html_cpu_s": 3.5, "no_html_over_core": 1.75}


def test_a_failed_or_stuck_run_is_one_line_naming_the_command(monkeypatch):
    monkeypatch.setattr(command, "COMMAND", ["-c", "import sys; sys.exit('regress: the tape is gone')"])
    with pytest.raises(MachineError, match=r"^bench: `cribbage-zx regress --games 2 --no-html`: regress: the tape is gone$"):
        command.run_once(["--no-html"])
    monkeypatch.setattr(command, "COMMAND", ["-c", "import time; time.sleep(5)"])
    monkeypatch.setattr(command, "BUDGET_S", 0.5)
    with pytest.raises(MachineError, match=r"^bench: `cribbage-zx regress --games 2` took more than 0.5 s$"):
        command.run_once([])


def test_a_run_counts_its_own_children_cpu(monkeypatch):
    # the near miss: a run that succeeds is timed, and what it burns is in the figure
    monkeypatch.setattr(command, "COMMAND", ["-c", "import sys, time\nt = time.process_time()\n"
                                                   "while time.process_time() - t < 0.3: pass"])
    assert 0.25 <= command.run_once([]) < 5


def test_the_command_is_the_two_game_regress_the_issue_names():
    assert command.COMMAND[command.COMMAND.index("--games") + 1] == "2" and "--no-html" not in command.COMMAND
    assert command.VARIANTS["with_html"] == []                  # the report is in the figure the issue asks for


def test_the_cores_time_is_for_the_t_states_of_every_game_the_command_plays(monkeypatch):
    from harness.bench import machine
    from harness.program.runs.regress import spread_seed
    seen = []

    def frames(tape, job):
        seen.append((job.index, job.seed, job.strategy))
        return 1000 + job.index
    monkeypatch.setattr(machine, "game_frames_run", frames)
    monkeypatch.setattr("harness.program.model.build.tape_bytes", lambda tap: b"tape")
    assert machine.command_t_states(2, 1) == (1000 + 1001) * 69888           # both games, not the first alone
    assert seen == [(0, spread_seed(1), "random"), (1, spread_seed(2), "greedy")]   # regress's own plan
