"""One job runner for `regress` and every sweep: here, on a local pool that fails fast, or on a Dask cluster.

Every job needs a machine with the tape loaded, so each worker process runs a
`Setup` once before its first job. Results come back as `Outcome`s in the
order jobs finish; a job that raises is an outcome with a one-line error (the
others go on), while a worker that cannot start ends the whole run at once
with `WorkerStartError`, since every other worker would fail the same way.

* ``workers == 1`` and no scheduler: the jobs run in this process, in order.
* ``workers >= 2``: a pool of forked processes, each fed one job at a time
  through its own pipe (no shared queue whose lock a killed worker could
  take with it). Workers ignore SIGINT; on Ctrl-C, an error or an early
  close the parent terminates them, so nothing outlives the run. A worker
  that dies mid-job is replaced and its job runs again, once.
* ``scheduler``: the same jobs on a Dask distributed cluster, ``"local"``
  for a `LocalCluster` of *workers* processes or the address of a running
  ``dask scheduler``. The setup goes with each job and is run once per
  worker process, on its first job; a worker killed mid-run costs only its
  jobs, which the scheduler runs again elsewhere.

Use it as ``with run_jobs(...) as outcomes: for outcome in outcomes: ...`` so
the workers are stopped however the loop ends.
"""
from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time
import traceback
from collections import deque
from contextlib import closing
from dataclasses import dataclass, field
from multiprocessing.connection import wait as wait_for
from typing import Any, Callable, Iterator

from .errors import HarnessError

STOP_GRACE_S = 2.0          # how long a terminated worker gets before it is killed
POLL_S = 0.5                # the parent looks at its workers at least this often


class WorkerStartError(HarnessError):
    """A worker could not run the setup (a missing ROM, a truncated tape...): no job can run."""


class SchedulerError(HarnessError):
    """The Dask scheduler could not be reached or started."""


@dataclass(frozen=True)
class Setup:
    """What a worker process runs once before its first job: a module-level function and its arguments
    (picklable, and small: on Dask it travels with every job)."""
    func: Callable[..., None]
    args: tuple = ()


@dataclass
class Outcome:
    """A finished job: its position in the job list, the job, and its value or its one-line error."""
    index: int
    job: Any
    value: Any = None
    error: str | None = None
    details: str = field(default="", repr=False)    # the traceback, for a failed job

    @property
    def ok(self) -> bool:
        return self.error is None


def one_line(exc: BaseException) -> str:
    """An exception as one line: its type and the first line of its message."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def run_jobs(func: Callable[[Any], Any], jobs: list, setup: Setup, workers: int = 1,
             scheduler: str | None = None, retries: int = 1) -> closing:
    """The outcomes of func(job) for every job, as they finish, in a context that stops the workers on exit."""
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    if scheduler:
        outcomes = _on_dask(func, list(jobs), setup, workers, scheduler)
    elif workers == 1:
        outcomes = _here(func, list(jobs), setup)
    else:
        outcomes = _local_pool(func, list(jobs), setup, workers, retries)
    return closing(outcomes)


# ------------------------------------------------------------------------------------------ here
def _here(func, jobs: list, setup: Setup) -> Iterator[Outcome]:
    if not jobs:
        return
    try:
        setup.func(*setup.args)
    except Exception as exc:
        raise WorkerStartError(f"the worker could not start: {one_line(exc)}") from exc
    for index, job in enumerate(jobs):
        try:
            value = func(job)
        except Exception as exc:
            yield Outcome(index, job, error=one_line(exc), details=traceback.format_exc())
        else:
            yield Outcome(index, job, value)


# ------------------------------------------------------------------------------------------ local pool
def _die_with_parent(parent: int, inherited: list[int]) -> None:
    """In a forked worker: exit when the parent does, however it ends.

    The worker closes what it inherited and does not need (the output folder's
    lock, the other workers' pipes: while a worker holds them the lock outlives
    the parent and the others never see their pipe's end), and on Linux asks
    the kernel for SIGKILL when the parent dies (prctl PR_SET_PDEATHSIG);
    elsewhere the end of its pipe, read between jobs, tells it.
    """
    for sig in (signal.SIGTERM, signal.SIGHUP):       # the parent's handlers are not the worker's
        signal.signal(sig, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)      # Ctrl-C is the parent's to handle
    for fd in inherited:
        try:
            os.close(fd)
        except OSError:
            pass
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:                        # it died before the request was made
        os._exit(1)


PR_SET_PDEATHSIG = 1


def _worker_main(conn, func, setup: Setup, parent: int = 0, inherited: tuple[int, ...] = ()) -> None:
    """A pool worker: run the setup, say so, then run jobs until told to stop or the parent goes."""
    _die_with_parent(parent or os.getppid(), list(inherited))
    try:
        setup.func(*setup.args)
    except BaseException as exc:
        conn.send(("start-failed", one_line(exc)))
        return
    conn.send(("ready",))
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        index, job = message
        try:
            reply = ("done", index, func(job))
        except Exception as exc:
            reply = ("failed", index, one_line(exc), traceback.format_exc())
        try:
            conn.send(reply)
        except Exception as exc:        # a result that cannot be pickled
            conn.send(("failed", index, f"its result could not be sent back: {one_line(exc)}", ""))


class _Worker:
    def __init__(self, ctx, number: int, func, setup: Setup, others: list["_Worker"] = ()):
        from .outdir import held_locks
        self.number = number
        self.conn, child = ctx.Pipe()
        inherited = tuple(held_locks()) + tuple(fd for w in others for fd in (w.conn.fileno(), w.process.sentinel))
        self.process = ctx.Process(target=_worker_main, args=(child, func, setup, os.getpid(), inherited),
                                   daemon=True, name=f"cribbage-zx worker {number}")
        self.process.start()
        child.close()
        self.ready = False
        self.running: int | None = None

    def describe_exit(self) -> str:
        self.process.join(STOP_GRACE_S)
        code = self.process.exitcode
        if code is None:
            return "stopped answering"
        if code < 0:
            try:
                return f"was killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"was killed by signal {-code}"
        return f"exited with status {code}"

    def stop(self, gently: bool) -> None:
        if gently and self.process.is_alive():
            try:
                self.conn.send(None)
            except OSError:
                pass
            self.process.join(STOP_GRACE_S)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(STOP_GRACE_S)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()


def _local_pool(func, jobs: list, setup: Setup, workers: int, retries: int) -> Iterator[Outcome]:
    ctx = multiprocessing.get_context("fork")
    pending = deque(range(len(jobs)))
    deaths: dict[int, int] = {}
    started = 0
    pool: list[_Worker] = []

    def start_worker() -> None:
        nonlocal started
        started += 1
        pool.append(_Worker(ctx, started, func, setup, pool))

    def feed(w: _Worker) -> None:
        """Give an idle worker the next job (before its last result is handed on, so it never waits for us)."""
        if w.ready and w.running is None and pending:
            index = pending.popleft()
            w.running = index
            try:
                w.conn.send((index, jobs[index]))
            except OSError:
                pass                                  # it died: its sentinel says so below

    for _ in range(min(workers, len(jobs))):
        start_worker()
    finished = False
    try:
        while pending or any(w.running is not None for w in pool):
            for w in pool:
                feed(w)
            readable = wait_for([w.conn for w in pool] + [w.process.sentinel for w in pool], POLL_S)
            for w in list(pool):
                messages, dead = [], False
                if w.conn in readable or w.process.sentinel in readable:
                    try:
                        while w.conn.poll():
                            messages.append(w.conn.recv())
                    except (EOFError, OSError):
                        dead = True
                    dead = dead or not w.process.is_alive()
                for message in messages:
                    kind = message[0]
                    if kind == "start-failed":
                        raise WorkerStartError(f"worker {w.number} could not start: {message[1]}")
                    if kind == "ready":
                        w.ready = True
                        if not dead:
                            feed(w)
                    elif kind == "done":
                        w.running = None
                        if not dead:
                            feed(w)
                        yield Outcome(message[1], jobs[message[1]], message[2])
                    elif kind == "failed":
                        w.running = None
                        if not dead:
                            feed(w)
                        yield Outcome(message[1], jobs[message[1]], error=message[2], details=message[3])
                if not dead:
                    continue
                pool.remove(w)
                how = w.describe_exit()
                w.stop(gently=False)
                if not w.ready:
                    raise WorkerStartError(f"worker {w.number} {how} while starting")
                if w.running is not None:
                    index = w.running
                    deaths[index] = deaths.get(index, 0) + 1
                    if deaths[index] > retries:
                        yield Outcome(index, jobs[index],
                                      error=f"its worker process {how}, {deaths[index]} times")
                    else:
                        print(f"worker {w.number} {how} while running job {index}; running it again",
                              file=sys.stderr)
                        pending.appendleft(index)
                if pending and len(pool) < workers:
                    start_worker()
            if pending and not pool:
                start_worker()
        finished = True
    finally:
        for w in pool:
            w.stop(gently=finished)


# ------------------------------------------------------------------------------------------ Dask
@dataclass(frozen=True)
class _StartFailed:
    """What a Dask task returns when its worker could not run the setup (it is not a job failure)."""
    worker: str
    error: str


_dask_lock = threading.Lock()
_dask_setup: Setup | None = None


def _dask_task(func, setup: Setup, job):
    """Run on a Dask worker: the setup once per process (again if another run's setup arrives), then the job.

    One job at a time per process: the emulator is pure Python under the GIL,
    so threads would not run faster, and the set-up machine is not shared.
    """
    global _dask_setup
    with _dask_lock:
        if _dask_setup != setup:
            try:
                setup.func(*setup.args)
            except Exception as exc:
                from distributed import get_worker
                return _StartFailed(get_worker().address, one_line(exc))
            _dask_setup = setup
        return func(job)


def _on_dask(func, jobs: list, setup: Setup, workers: int, scheduler: str) -> Iterator[Outcome]:
    import logging

    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError as exc:
        raise SchedulerError("--scheduler needs Dask: pip install 'cribbage-zx[dask]'") from exc
    cluster = None
    try:
        if scheduler == "local":
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                   dashboard_address=None, silence_logs=logging.ERROR)
            client = Client(cluster)
        else:
            client = Client(scheduler, timeout="10s")
    except (OSError, TimeoutError) as exc:
        if cluster is not None:
            cluster.close()
        raise SchedulerError(f"--scheduler {scheduler}: {one_line(exc)}") from exc
    futures = []
    try:
        if not jobs:
            return
        run_id = f"{os.getpid()}-{time.monotonic_ns()}"
        # the setup goes with every task, by value (a tape is about 20 KB): as shared data it would pull
        # every task to the worker that holds it, and be lost with the workers that hold it
        futures = [client.submit(_dask_task, func, setup, job, key=f"cribbage-zx-{run_id}-{i}", pure=False)
                   for i, job in enumerate(jobs)]
        index_of = {f.key: i for i, f in enumerate(futures)}
        for future in as_completed(futures):
            index = index_of[future.key]
            try:
                value = future.result()     # raises the job's error, KilledWorker, or CancelledError
            except Exception as exc:
                    yield Outcome(index, jobs[index], error=one_line(exc), details=traceback.format_exc())
            else:
                if isinstance(value, _StartFailed):
                    raise WorkerStartError(f"Dask worker {value.worker} could not start: {value.error}")
                yield Outcome(index, jobs[index], value)
            future.release()
    finally:
        if futures:
            client.cancel(futures)
        client.close(timeout=5)
        if cluster is not None:
            cluster.close(timeout=5)


# ------------------------------------------------------------------------------------------ progress
class Progress:
    """A one-line progress bar on stderr."""

    def __init__(self, total: int, what: str, enabled: bool = True, done: int = 0):
        self.total, self.what, self.enabled, self.done = total, what, enabled, done
        self.started = time.perf_counter()

    def step(self) -> None:
        self.done += 1
        if self.enabled:
            width = 30
            filled = width * self.done // max(1, self.total)
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} {self.what}, "
                             f"{time.perf_counter() - self.started:.1f} s")
            sys.stderr.flush()

    def note(self, text: str) -> None:
        """A line of its own above the bar (a failure reported as it happens)."""
        if self.enabled:
            sys.stderr.write("\r\033[K")
        sys.stderr.write(text + "\n")
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.started
