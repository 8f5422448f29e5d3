"""regress on a Dask LocalCluster: the same transcripts as the local pool, byte for byte, even with a worker killed.

Each run is the real command in a child process with a hard timeout. The
worker to kill is found among that process's children (LocalCluster starts
its workers from a forkserver, its child) once the first game is on disk, and is
killed with SIGKILL: its games must run again elsewhere.
"""
import checkout
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness.errors import MachineError
from harness.program.judge.judgements import is_transcript_name

pytest.importorskip("distributed")
psutil = pytest.importorskip("psutil")

pytestmark = pytest.mark.slow   # an oracle: a Dask LocalCluster (pytest -m 'not slow' leaves it out)

from harness.program.model.build import build

ROOT = checkout.ROOT
GAMES = 3       # issue 37: 3, not 4: two workers, one game each and a third left when the first lands, so the
                # worker killed then always holds a game in flight (its game is played again elsewhere)


@pytest.fixture(scope="module")
def good_tape(tape_path) -> Path:
    return tape_path()              # the session's one built tape (tests/conftest.py)


def _regress(tape: Path, out: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "harness.cli", "regress", "--games", str(GAMES), "--seed", "5", "--workers", "2",
            "--tape", str(tape), "--out", str(out), "--quiet", "--no-html", *extra]   # records, not pages


def _transcripts(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(out.glob("game-*.jsonl")) if is_transcript_name(p.name)}


def _dask_workers(pid: int) -> list:
    """The LocalCluster's worker processes: children of the run that Dask names "dask worker [ADDRESS]"."""
    found = []
    for child in psutil.Process(pid).children(recursive=True):
        try:
            cmdline = " ".join(child.cmdline())
        except psutil.Error:
            continue
        if cmdline.startswith("dask worker"):
            found.append(child)
    return found


def test_a_local_cluster_gives_the_local_pools_transcripts_and_survives_a_killed_worker(tmp_path, good_tape):
    local = subprocess.run(_regress(good_tape, tmp_path / "local"), cwd=ROOT, capture_output=True, text=True,
                           timeout=900)
    assert local.returncode in (0, 1), local.stderr
    expected = _transcripts(tmp_path / "local")
    assert len(expected) == GAMES

    out = tmp_path / "dask"
    proc = subprocess.Popen(_regress(good_tape, out, "--scheduler", "local"), cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    killed = None
    try:
        deadline = time.monotonic() + 600
        while not any(out.glob("game-*.jsonl")):
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "no game finished on the cluster"
            time.sleep(0.2)
        workers = _dask_workers(proc.pid)
        assert len(workers) == 2, [w.cmdline() for w in workers]
        finished_before = len(_transcripts(out))
        assert finished_before < GAMES, "the run ended before a worker could be killed: use more games"
        killed = workers[0]
        os.kill(killed.pid, signal.SIGKILL)
        stdout, stderr = proc.communicate(timeout=900)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert not killed.is_running()
    assert proc.returncode == local.returncode, stderr
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["played"] == GAMES and report["harness_failures"] == 0 and report["scheduler"] == "local"
    assert _transcripts(out) == expected                 # byte for byte, the killed worker's game included


def test_an_unreachable_scheduler_is_one_line_and_exit_2(tmp_path, good_tape):
    # a second of trying, not the default ten: the port refuses at once, the client tries again until its timeout
    done = subprocess.run(_regress(good_tape, tmp_path / "out", "--scheduler", "tcp://127.0.0.1:9",
                                   "--scheduler-timeout", "1"), cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    lines = [line for line in done.stderr.splitlines() if line.startswith("cribbage-zx")]
    assert len(lines) == 1 and "--scheduler tcp://127.0.0.1:9" in lines[0], done.stderr


def test_a_dask_worker_that_cannot_start_ends_the_run_with_its_error(tmp_path):
    listing = tmp_path / "stops.bas"
    listing.write_text("2 PRINT 1/0\n", encoding="utf-8")        # a good tape whose program stops when loaded
    bad = tmp_path / "stops.tap"
    bad.write_bytes(build(listing).tap)
    done = subprocess.run(_regress(bad, tmp_path / "out", "--scheduler", "local"), cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    assert "could not start: MachineError" in lines[0] and "«6 Number too big, 2:1»" in lines[0]


def test_on_dask_a_failing_job_is_one_outcome_and_the_others_are_kept():
    import math
    from harness.runtime.jobs import Setup, run_jobs
    with run_jobs(math.sqrt, [4, -1, 9], Setup(time.sleep, (0,)), 2, scheduler="local") as outcomes:
        got = {o.index: (o.value, o.error) for o in outcomes}
    assert got == {0: (2.0, None), 1: (None, "ValueError: math domain error"), 2: (3.0, None)}


def test_on_dask_a_setup_that_fails_ends_the_run_naming_the_worker():
    import math
    from harness.runtime.jobs import Setup, run_jobs
    with pytest.raises(MachineError, match=r"Dask worker( tls://127\.0\.0\.1:\d+)? could not start: "
                                               r"ValueError: math domain error"):
        with run_jobs(math.sqrt, [4, 9], Setup(math.sqrt, (-1,)), 2, scheduler="local") as outcomes:
            list(outcomes)


def test_ctrl_c_stops_a_dask_run_and_its_workers_within_10_s(tmp_path, good_tape):
    proc = subprocess.Popen(_regress(good_tape, tmp_path / "out", "--scheduler", "local"), cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while len(_dask_workers(proc.pid)) < 2:
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.2)
        time.sleep(2)                                     # the workers are set up and playing
        everything = psutil.Process(proc.pid).children(recursive=True)
        os.killpg(proc.pid, signal.SIGINT)                # as a terminal's Ctrl-C does: to every process
        _, err = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130 and err.strip().splitlines() == ["cribbage-zx: interrupted"], err
    gone, alive = psutil.wait_procs(everything, timeout=5)
    assert alive == []


def _forkserver_started(pid: int) -> bool:
    for child in psutil.Process(pid).children():
        try:
            if "multiprocessing.forkserver" in " ".join(child.cmdline()):
                return True
        except psutil.Error:
            continue
    return False


@pytest.mark.parametrize("after", [0.0, 2.5])
def test_ctrl_c_while_the_local_cluster_starts_stops_the_run_with_130(tmp_path, good_tape, after):
    """Issue 34, case 5: the cluster used to start with SIGINT ignored in this process too, so a Ctrl-C in its
    first second was lost and the run played every game and exited 0; 2-3 s in, Dask printed a traceback.
    Now the signal is held until the cluster is up, then the run stops: 130, one line, no process left."""
    proc = subprocess.Popen(_regress(good_tape, tmp_path / "out", "--scheduler", "local"), cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while not _forkserver_started(proc.pid):      # the earliest moment of the cluster's start
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.01)
        time.sleep(after)
        everything = psutil.Process(proc.pid).children(recursive=True)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=120)        # a budget for a hang: the run stops once the cluster is up
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130 and err.strip().splitlines() == ["cribbage-zx: interrupted"], err
    assert not _transcripts(tmp_path / "out") or len(_transcripts(tmp_path / "out")) < GAMES
    gone, alive = psutil.wait_procs(everything, timeout=5)
    assert alive == []


def test_a_local_clusters_scheduler_keeps_its_scratch_in_the_runs_private_folder(tmp_path, monkeypatch):
    """Dask's default scratch folder is dask-scratch-space/ in the system's temporary folder, shared by every
    user; the run's cluster, scheduler and workers alike, keeps its files in its own private folder."""
    import math
    import tempfile
    from harness.runtime.jobs import Setup, run_jobs
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    seen = []
    with run_jobs(math.sqrt, [4, 9], Setup(time.sleep, (0,)), 2, scheduler="local") as outcomes:
        for outcome in outcomes:
            seen.append(outcome.value)
            inside = sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("pymp-"))
            assert len(inside) == 1 and inside[0].startswith("cribbage-zx-dask-"), inside  # no dask-scratch-space
            scratch = tmp_path / inside[0]
            assert sorted(p.name for p in scratch.iterdir()) == ["dask-scratch-space"]
            assert any(p.name.startswith("scheduler-") for p in (scratch / "dask-scratch-space").iterdir())
    assert sorted(seen) == [2.0, 3.0]
    assert [p.name for p in tmp_path.iterdir() if not p.name.startswith("pymp-")] == []   # removed with the run


def test_a_sweep_on_a_local_cluster_writes_the_local_pools_chunks(tmp_path, good_tape):
    import dataclasses
    from harness.program.runs import sweep
    settings = sweep.SweepSettings(workers=2, chunk=10, progress=False, limit=40, tap=good_tape)
    local = sweep.run_sweep("show", tmp_path / "local", settings)
    on_dask = sweep.run_sweep("show", tmp_path / "dask", dataclasses.replace(settings, scheduler="local"))
    chunks = {p.name: p.read_bytes() for p in sorted((tmp_path / "local" / "show").glob("chunk-*.json"))}
    assert len(chunks) == 4 and local.cases_checked == on_dask.cases_checked == 40
    assert {p.name: p.read_bytes() for p in sorted((tmp_path / "dask" / "show").glob("chunk-*.json"))} == chunks


def test_a_play_sweep_on_a_local_cluster_computes_the_chunks_the_local_pool_does(tmp_path, good_tape):
    """Its jobs are ranges of the cached table, which the spawned Dask workers load and turn into cases."""
    from harness.program.runs import sweep
    from harness.program.runs.play_cases import PlayChoice
    runs = {}
    for name, scheduler in (("local", None), ("dask", "local")):
        report = sweep.run_sweep("play", tmp_path / name, sweep.SweepSettings(
            workers=2, chunk=10, progress=False, limit=30, tap=good_tape, scheduler=scheduler,
            play=PlayChoice(max_suffix=2, sample=0, seed=1)))
        assert report.cases_checked == 30 and report.harness_failures == 0
        runs[name] = {p.name: p.read_bytes() for p in sorted((tmp_path / name / "play").glob("chunk-*.json"))}
    assert len(runs["local"]) == 3 and runs["dask"] == runs["local"]


# ------------------------------------------------------------------ safe by default (issue 19)
def _where_am_i(job):
    """A job that says on which worker, talking to which scheduler, it ran."""
    from distributed import get_worker
    worker = get_worker()
    return worker.address, worker.scheduler.address


def test_the_local_cluster_listens_on_loopback_with_tls_and_starts_no_more_workers_than_jobs(monkeypatch):
    import cloudpickle
    import distributed
    from harness.runtime.jobs import Setup, run_jobs
    started = []
    real = distributed.LocalCluster

    def recording(*args, **kwargs):
        started.append(kwargs)
        return real(*args, **kwargs)
    monkeypatch.setattr(distributed, "LocalCluster", recording)
    cloudpickle.register_pickle_by_value(sys.modules[__name__])     # the workers cannot import this test file
    try:
        with run_jobs(_where_am_i, [0], Setup(time.sleep, (0,)), 8, scheduler="local") as outcomes:
            (outcome,) = list(outcomes)
    finally:
        cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
    assert outcome.ok, outcome.error
    worker, scheduler = outcome.value
    assert worker.startswith("tls://127.0.0.1:") and scheduler.startswith("tls://127.0.0.1:")
    assert started[0]["n_workers"] == 1 and started[0]["dashboard_address"] is None
    assert started[0]["security"].require_encryption


TLS_PROBE = """
from distributed import Client, LocalCluster
from distributed.security import Security

def refused(errors, **kw):
    try:
        Client(timeout="3s", **kw).close()
    except errors:
        return True
    return False

security = Security.temporary()
with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tls://", host="127.0.0.1",
                  security=security, dashboard_address=None) as cluster:
    address = cluster.scheduler_address
    assert address.startswith("tls://127.0.0.1:"), address
    assert refused((OSError, TimeoutError), address=address.replace("tls://", "tcp://")), "plain tcp got in"
    # TLS, but without the cluster's certificate
    assert refused((OSError, TimeoutError, TypeError, ValueError), address=address), "a client with no certificate got in"
    with Client(address, security=security, timeout="10s") as client:   # the run's own client gets in
        assert client.submit(sum, [1, 2]).result() == 3
print("refused, refused, admitted")
"""


def test_a_plain_connection_to_the_tls_local_cluster_is_refused():
    """What any local account could do to a run's LocalCluster before: attach with a plain client. In a process
    of its own, so no event loop of an earlier test's client is in the way."""
    done = subprocess.run([sys.executable, "-c", TLS_PROBE], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "refused, refused, admitted", done.stderr[-2000:]


@pytest.mark.parametrize("address, says", [
    ("tcp://192.0.2.1:8786", "a plain address off this machine"),
    ("127.0.0.1", "is not 'local', tcp://HOST:PORT or tls://HOST:PORT"),
    ("nosuch://x", "is not 'local', tcp://HOST:PORT or tls://HOST:PORT"),
])
def test_an_unsafe_or_malformed_scheduler_is_refused_in_one_line_before_anything_is_written(tmp_path, good_tape,
                                                                                            address, says):
    done = subprocess.run(_regress(good_tape, tmp_path / "out", "--scheduler", address), cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and says in done.stderr, done.stderr
    assert not (tmp_path / "out").exists()


def _note_setup_thread():
    """A setup that notes, in this worker process, whether it ran in the thread of the worker's event loop."""
    import threading
    os.environ["CRIBBAGE_ZX_TEST_SETUP_THREAD"] = "main" if threading.current_thread() is threading.main_thread() \
        else "other"


def _setup_thread(_):
    return os.environ.get("CRIBBAGE_ZX_TEST_SETUP_THREAD")


def test_the_setup_runs_beside_the_workers_event_loop_not_in_it():
    """A worker's event loop (its main thread) must stay free to answer the scheduler while the tape loads;
    run in it, the set-up would say 'main'."""
    import cloudpickle
    from harness.runtime.jobs import Setup, run_jobs
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    try:
        with run_jobs(_setup_thread, [0], Setup(_note_setup_thread), 1, scheduler="local") as outcomes:
            (outcome,) = list(outcomes)
    finally:
        cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
    assert outcome.ok and outcome.value == "other", (outcome.value, outcome.error)


def _parent_pid(_):
    return os.getppid()


def _parent_of_a_local_worker() -> int:
    import cloudpickle
    from harness.runtime.jobs import Setup, run_jobs
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    try:
        with run_jobs(_parent_pid, [0], Setup(time.sleep, (0,)), 1, scheduler="local") as outcomes:
            (outcome,) = list(outcomes)
    finally:
        cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
    assert outcome.ok, outcome.error
    return outcome.value


def test_local_workers_are_forked_by_a_server_that_stops_with_the_cluster(monkeypatch):
    """Forked from the forkserver (its imports done once), not spawned by this process; and no server is left
    behind. The twin: with Dask's default method the worker's parent is this process."""
    from harness.runtime import cluster
    assert _parent_of_a_local_worker() != os.getpid()
    # nothing outlives the run but multiprocessing's resource tracker (one per process, whatever the method)
    left = [" ".join(p.cmdline()) for p in psutil.Process().children(recursive=True)]
    assert not [c for c in left if "resource_tracker" not in c], left
    monkeypatch.setattr(cluster, "LOCAL_WORKERS", {})
    assert _parent_of_a_local_worker() == os.getpid()


def _run_a_trivial_local_job() -> list[str]:
    """The warnings a one-job LocalCluster run gives (from any thread: the scheduler runs in this process)."""
    import warnings
    from harness.runtime.jobs import Setup, run_jobs
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with run_jobs(len, [b"x"], Setup(time.sleep, (0,)), 1, scheduler="local") as outcomes:
            assert [o.ok for o in outcomes] == [True]
    return [str(w.message) for w in caught]


def test_a_second_local_run_says_nothing_of_dasks_dashboard_port(monkeypatch):
    """With Dask's port 8787 taken (by another run's cluster, here by this test), a run is silent; the twin: the
    scheduler on Dask's default port warns that the port is in use."""
    import socket
    import distributed
    holder = socket.socket()
    try:
        try:
            holder.bind(("127.0.0.1", 8787))
            holder.listen()
        except OSError:
            pass                                            # someone else holds it: taken all the same
        assert not [w for w in _run_a_trivial_local_job() if "8787" in w]
        real = distributed.LocalCluster

        def on_dasks_port(*args, scheduler_kwargs=None, **kwargs):
            return real(*args, **kwargs)
        monkeypatch.setattr(distributed, "LocalCluster", on_dasks_port)
        assert [w for w in _run_a_trivial_local_job() if "Port 8787 is already in use" in w]
    finally:
        holder.close()
