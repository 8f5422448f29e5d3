"""The job runner (harness/runtime/jobs.py) on its own: results, failing jobs, workers that cannot start or die, Ctrl-C.

Each case that could hang runs the runner in a child process with a hard
timeout, so a regression shows up as a failed test, never a stuck suite.
"""
import checkout
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from harness.errors import MachineError
from harness.runtime.jobs import Setup, one_line, run_jobs

ROOT = checkout.ROOT

_state = {}


def _setup(value):
    _state["offset"] = value


def _failing_setup(path):
    raise FileNotFoundError(f"{path}: no such ROM")


def _add_offset(x):
    return x + _state["offset"]


def _fail_on_three(x):
    if x == 3:
        raise ValueError("three is not allowed\nsecond line of the message")
    return x + _state["offset"]


def _die_once(job):
    """Kill this worker the first time job 2 runs (a marker file remembers), then succeed."""
    x, marker = job
    if x == 2 and not os.path.exists(marker):
        Path(marker).write_text("died")
        os.kill(os.getpid(), signal.SIGKILL)
    return x * 10


def _always_die(x):
    if x == 1:
        os.kill(os.getpid(), signal.SIGKILL)
    return x


def _pid(_):
    return os.getpid()


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_every_job_gives_its_result_once(workers):
    with run_jobs(_add_offset, list(range(10)), Setup(_setup, (100,)), workers) as outcomes:
        got = {o.index: o.value for o in outcomes}
    assert got == {i: 100 + i for i in range(10)}


def test_the_setup_runs_in_the_worker_processes_not_here():
    _state.pop("offset", None)
    with run_jobs(_pid, list(range(6)), Setup(_setup, (1,)), 2) as outcomes:
        pids = {o.value for o in outcomes}
    assert os.getpid() not in pids and 1 <= len(pids) <= 2
    assert "offset" not in _state


@pytest.mark.parametrize("workers", [1, 2])
def test_a_failing_job_is_reported_in_one_line_and_the_others_are_kept(workers):
    with run_jobs(_fail_on_three, list(range(6)), Setup(_setup, (0,)), workers) as outcomes:
        outcomes = list(outcomes)
    failed = [o for o in outcomes if not o.ok]
    assert [o.index for o in failed] == [3]
    assert failed[0].error == "ValueError: three is not allowed"
    assert "Traceback" in failed[0].details
    assert sorted(o.value for o in outcomes if o.ok) == [0, 1, 2, 4, 5]


@pytest.mark.parametrize("workers", [1, 2])
def test_a_worker_that_cannot_start_ends_the_run_with_its_error(workers):
    with pytest.raises(MachineError, match="could not start: FileNotFoundError: roms/none.rom: no such ROM"):
        with run_jobs(_add_offset, list(range(4)), Setup(_failing_setup, ("roms/none.rom",)), workers) as outcomes:
            list(outcomes)


def test_a_job_whose_worker_dies_runs_again_on_a_new_worker(tmp_path, capsys):
    jobs = [(x, str(tmp_path / "died")) for x in range(5)]
    with run_jobs(_die_once, jobs, Setup(_setup, (0,)), 2) as outcomes:
        got = {o.index: (o.value, o.error) for o in outcomes}
    assert got == {i: (i * 10, None) for i in range(5)}
    assert (tmp_path / "died").exists()                       # the fault was really planted
    assert "was killed by SIGKILL while running job 2; running it again" in capsys.readouterr().err


def test_a_job_that_kills_every_worker_it_runs_on_is_a_failure_not_a_loop():
    with run_jobs(_always_die, list(range(4)), Setup(_setup, (0,)), 2, retries=1) as outcomes:
        got = {o.index: (o.value, o.error) for o in outcomes}
    assert got[1] == (None, "its worker process was killed by SIGKILL, 2 times")
    assert {i: got[i] for i in (0, 2, 3)} == {0: (0, None), 2: (2, None), 3: (3, None)}


def test_leaving_the_loop_early_stops_the_workers():
    import psutil
    me = psutil.Process()
    before = {p.pid for p in me.children()}       # helpers of earlier tests (a resource tracker) stay
    with run_jobs(_add_offset, list(range(50)), Setup(_setup, (0,)), 2) as outcomes:
        next(iter(outcomes))
        workers = [p for p in me.children() if p.pid not in before]
        assert len(workers) == 2
    gone, alive = psutil.wait_procs(workers, timeout=5)
    assert alive == [] and [p for p in me.children() if p.pid not in before] == []


def test_one_line_keeps_the_type_and_the_first_line():
    assert one_line(KeyError("x")) == "KeyError: 'x'"
    assert one_line(RuntimeError("a\nb")) == "RuntimeError: a"
    assert one_line(RuntimeError()) == "RuntimeError"


SLOW_POOL = textwrap.dedent("""
    import sys, time
    from harness.runtime.jobs import Setup, run_jobs

    def nothing():
        pass

    def slow(x):
        time.sleep(60)
        return x

    with run_jobs(slow, list(range(8)), Setup(nothing), 2) as outcomes:
        print("started", flush=True)
        for o in outcomes:
            print(o)
""")


def test_ctrl_c_stops_the_pool_and_its_workers_promptly(tmp_path):
    """SIGINT to the parent alone (as a test can send it): the parent must stop its workers itself."""
    import psutil
    script = tmp_path / "pool.py"
    script.write_text(SLOW_POOL)
    proc = subprocess.Popen([sys.executable, str(script)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        assert proc.stdout.readline().strip() == "started"
        deadline = time.monotonic() + 20
        while len(psutil.Process(proc.pid).children()) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        workers = psutil.Process(proc.pid).children()
        assert len(workers) == 2
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=10)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode != 0 and "KeyboardInterrupt" in proc.stderr.read()
    gone, alive = psutil.wait_procs(workers, timeout=5)
    assert alive == []


def _busy_or_idle(job):
    """('busy', n): n rounds of arithmetic; ('idle', s): s seconds asleep (wall time, no CPU)."""
    kind, amount = job
    if kind == "idle":
        time.sleep(amount)
        return 0
    return sum(i * i % 7 for i in range(amount))


@pytest.mark.parametrize("workers", [1, 2])
def test_each_outcome_carries_its_jobs_cpu_not_its_wall_time(workers):
    """The sleeper takes longer by the clock but no CPU; the busy job's CPU is counted (a wall-clock measure
    would rank them the other way round)."""
    jobs = [("idle", 0.6), ("busy", 3_000_000)]
    with run_jobs(_busy_or_idle, jobs, Setup(_setup, (0,)), workers) as outcomes:
        cpu = {o.job[0]: o.cpu_s for o in outcomes}
    assert cpu["idle"] < 0.05 < cpu["busy"], cpu


def test_a_failed_job_carries_no_cpu_figure():
    with run_jobs(_fail_on_three, [3], Setup(_setup, (0,)), 1) as outcomes:
        (outcome,) = list(outcomes)
    assert not outcome.ok and outcome.cpu_s is None
