"""bench's main job (a 2-game regress in a fresh process): the arithmetic by hand, the variants in turn, and a failed run named."""

import pytest

from harness.bench import command
from harness.errors import MachineError


def test_medians_and_ratios_are_the_runs_figures_over_the_cores_time():
    cpu = iter([5.0, 3.0, 7.0, 4.0, 6.0, 3.5])          # with, without, with, without, with, without
    order = []

    def fake(extra):
        order.append(tuple(extra))
        return next(cpu)
    got = command.bench_command(2.0, repeat=3, run=fake)
    assert order == [(), ("--no-html",)] * 3              # taken in turn, so a change of load falls on both
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
