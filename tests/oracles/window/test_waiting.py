"""tests/waiting.py: the outside processes' waits, by event, with budgets that grow with the machine's load."""
from __future__ import annotations

import shutil
import subprocess
import sys
import time

import pytest

import waiting
from waiting import Budget, Exited, read_line, wait_until, window_appears


def loaded(monkeypatch, load: float, cores: int = 2) -> None:
    monkeypatch.setattr(waiting.os, "getloadavg", lambda: (load, load, load))
    monkeypatch.setattr(waiting.os, "cpu_count", lambda: cores)


def test_an_idle_machine_has_the_base_budget_a_busy_one_a_longer(monkeypatch):
    loaded(monkeypatch, 2.0)                     # one process a core: the base, not stretched (the near miss)
    assert Budget(30, "x").seconds() == 30
    loaded(monkeypatch, 0.3)
    assert Budget(30, "x").seconds() == 30       # never shorter than on an idle machine
    loaded(monkeypatch, 12.0)                    # load 12 on 2 cores (seen failing at 6 with a fixed 30 s)
    assert Budget(30, "x").seconds() == 180


def test_the_load_is_read_again_at_every_check(monkeypatch):
    loaded(monkeypatch, 1.0)
    budget = Budget(0.05, "the event")
    time.sleep(0.1)
    assert budget.expired()
    loaded(monkeypatch, 200.0)                   # the machine got busy meanwhile: the wait may go on
    assert not budget.expired() and budget.left() > 4


def test_a_spent_budget_says_what_it_waited_for_and_the_load(monkeypatch):
    loaded(monkeypatch, 6.0)
    with pytest.raises(AssertionError, match=r"the window appearing within 1 s \(0 s on an idle machine, "
                                             r"stretched by the load: 6.0 on 2 cores\)"):
        wait_until(lambda: False, 0.3, "the window appearing", poll=0.01)


def test_a_wait_that_is_met_returns_and_one_given_up_stops_at_once(monkeypatch):
    loaded(monkeypatch, 0.0)
    calls = iter([False, False, True])
    wait_until(lambda: next(calls), 5, "three calls", poll=0.01)
    start = time.monotonic()
    with pytest.raises(AssertionError, match="^Fuse: it exited$"):
        wait_until(lambda: False, 60, "Fuse", poll=0.01, gave_up=lambda: "it exited")
    assert time.monotonic() - start < 5


def test_a_line_from_a_pipe_by_select_and_no_line_within_the_budget(monkeypatch):
    loaded(monkeypatch, 0.0)
    late = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(0.3); print(':42', flush=True)"],
                            stdout=subprocess.PIPE)
    assert read_line(late.stdout, 30, "the display") == b":42\n"
    late.wait()
    silent = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"], stdout=subprocess.PIPE)
    try:
        with pytest.raises(AssertionError, match="the display within 0 s"):
            read_line(silent.stdout, 0.2, "the display")
    finally:
        silent.kill()
        silent.wait()


@pytest.mark.skipif(not (shutil.which("Xvfb") and shutil.which("xdotool")), reason="Xvfb or xdotool missing")
def test_a_window_that_never_appears_or_whose_program_exits_first(monkeypatch):
    loaded(monkeypatch, 0.0)
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", "1", "-screen", "0", "64x64x24", "-nolisten", "tcp"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        env = {"DISPLAY": ":" + read_line(xvfb.stdout, 30, "Xvfb").decode().strip(), "PATH": waiting.os.environ["PATH"]}
        gone = subprocess.Popen(["true"])
        gone.wait()
        with pytest.raises(Exited, match="the program exited"):
            window_appears(["--name", "^nothing$"], env, 30, "a window", process=gone)
        with pytest.raises(AssertionError, match="a window within 0 s") as raised:
            window_appears(["--name", "^nothing$"], env, 0.3, "a window")
        assert not isinstance(raised.value, Exited)
    finally:
        xvfb.terminate()
        xvfb.wait(timeout=20)
