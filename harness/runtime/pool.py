"""The local pool: forked worker processes that fail fast and leave nothing behind.

Each worker is fed one job at a time through its own pipe (no shared queue
whose lock a killed worker could take with it). Workers ignore SIGINT; on
Ctrl-C, an error or an early close the parent terminates them, so nothing
outlives the run. A worker that dies mid-job is replaced and its job runs
again (*retries* times); a worker that cannot start ends the run with a
`MachineError`, since every other worker would fail the same way.
"""
from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import traceback
from collections import deque
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait as wait_for
from multiprocessing.context import ForkContext, ForkProcess
from typing import Callable, Generic, Sequence, Union

from .outcomes import JobT, Outcome, Outcomes, ResultT, Setup, one_line, timed
from .outdir import held_locks
from ..errors import MachineError

STOP_GRACE_S = 2.0          # how long a terminated worker gets before it is killed
POLL_S = 0.5                # the parent looks at its workers at least this often
PR_SET_PDEATHSIG = 1        # prctl's request: a signal for this process when its parent dies (Linux)


# ------------------------------------------------------------------------------------------ the pipe's messages
@dataclass(frozen=True)
class _Ready:
    """The worker ran the setup and waits for jobs."""


@dataclass(frozen=True)
class _NotStarted:
    """The setup raised: the whole run stops."""
    error: str


@dataclass(frozen=True)
class _Done(Generic[ResultT]):
    index: int
    value: ResultT
    cpu_s: float


@dataclass(frozen=True)
class _Failed:
    index: int
    error: str
    details: str


#: what a worker says; what it is told is a job with its index, or None: stop
_Said = Union[_Ready, _NotStarted, "_Done[ResultT]", _Failed]
_Told = Union[tuple[int, JobT], None]


# ------------------------------------------------------------------------------------------ in the worker
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
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:                        # it died before the request was made
        os._exit(1)


def _worker_main(conn: Connection[_Said[ResultT], _Told[JobT]], func: Callable[[JobT], ResultT], setup: Setup,
                 parent: int = 0, inherited: tuple[int, ...] = ()) -> None:
    """A pool worker: run the setup, say so, then run jobs until told to stop or the parent goes."""
    _die_with_parent(parent or os.getppid(), list(inherited))
    try:
        setup.run()
    except BaseException as exc:
        conn.send(_NotStarted(one_line(exc)))
        return
    conn.send(_Ready())
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        index, job = message
        reply: _Said[ResultT]
        try:
            reply = _Done(index, *timed(func, job))
        except Exception as exc:
            reply = _Failed(index, one_line(exc), traceback.format_exc())
        try:
            conn.send(reply)
        except Exception as exc:        # a result that cannot be pickled
            conn.send(_Failed(index, f"its result could not be sent back: {one_line(exc)}", ""))


# ------------------------------------------------------------------------------------------ in the parent
class _Worker(Generic[JobT, ResultT]):
    """One forked worker, its pipe, and the job it runs (None: idle)."""

    def __init__(self, ctx: ForkContext, number: int, func: Callable[[JobT], ResultT], setup: Setup,
                 others: Sequence[_Worker[JobT, ResultT]] = ()):
        self.number = number
        self.conn: Connection[_Told[JobT], _Said[ResultT]]
        self.conn, child = ctx.Pipe()
        inherited = tuple(held_locks()) + tuple(fd for w in others for fd in (w.conn.fileno(), w.process.sentinel))
        self.process: ForkProcess = ctx.Process(target=_worker_main, args=(child, func, setup, os.getpid(), inherited),
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

    def read(self, readable: Sequence[object]) -> tuple[list[_Said[ResultT]], bool]:
        """What the worker said since last time, and whether it is dead."""
        messages: list[_Said[ResultT]] = []
        dead = False
        if self.conn in readable or self.process.sentinel in readable:
            try:
                while self.conn.poll():
                    messages.append(self.conn.recv())
            except (EOFError, OSError):
                dead = True
            dead = dead or not self.process.is_alive()
        return messages, dead

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


class _Pool(Generic[JobT, ResultT]):
    """The workers of one run, the jobs not yet given out, and how often each job's worker died."""

    def __init__(self, func: Callable[[JobT], ResultT], jobs: list[JobT], setup: Setup, size: int, retries: int):
        self.ctx = multiprocessing.get_context("fork")
        self.func, self.jobs, self.setup, self.size, self.retries = func, jobs, setup, size, retries
        self.pending = deque(range(len(jobs)))
        self.deaths: dict[int, int] = {}
        self.started = 0
        self.workers: list[_Worker[JobT, ResultT]] = []

    def outcomes(self) -> Outcomes[JobT, ResultT]:
        for _ in range(min(self.size, len(self.jobs))):
            self.start_worker()
        finished = False
        try:
            while self.pending or any(w.running is not None for w in self.workers):
                for w in self.workers:
                    self.feed(w)
                readable = wait_for([w.conn for w in self.workers] + [w.process.sentinel for w in self.workers],
                                    POLL_S)
                for w in list(self.workers):
                    yield from self.serve(w, readable)
                if self.pending and not self.workers:
                    self.start_worker()
            finished = True
        finally:
            for w in self.workers:
                w.stop(gently=finished)

    def start_worker(self) -> None:
        self.started += 1
        self.workers.append(_Worker(self.ctx, self.started, self.func, self.setup, self.workers))

    def feed(self, w: _Worker[JobT, ResultT]) -> None:
        """Give an idle worker the next job (before its last result is handed on, so it never waits for us)."""
        if w.ready and w.running is None and self.pending:
            index = self.pending.popleft()
            w.running = index
            try:
                w.conn.send((index, self.jobs[index]))
            except OSError:
                pass                                  # it died: its sentinel says so below

    def serve(self, w: _Worker[JobT, ResultT], readable: Sequence[object]) -> Outcomes[JobT, ResultT]:
        """The outcomes a worker sent, its next job given; and, if it died, its job again or its failure."""
        messages, dead = w.read(readable)
        for message in messages:
            if isinstance(message, _NotStarted):
                raise MachineError(f"worker {w.number} could not start: {message.error}")
            if isinstance(message, _Ready):
                w.ready = True
            else:
                w.running = None
            if not dead:
                self.feed(w)
            if isinstance(message, _Done):
                yield Outcome(message.index, self.jobs[message.index], message.value, cpu_s=message.cpu_s)
            elif isinstance(message, _Failed):
                yield Outcome(message.index, self.jobs[message.index], error=message.error, details=message.details)
        if dead:
            yield from self.bury(w)

    def bury(self, w: _Worker[JobT, ResultT]) -> Outcomes[JobT, ResultT]:
        """A dead worker gone from the pool: its job back in the queue (or failed, past its retries), another
        worker started while there are jobs; a MachineError if it died while starting."""
        self.workers.remove(w)
        how = w.describe_exit()
        w.stop(gently=False)
        if not w.ready:
            raise MachineError(f"worker {w.number} {how} while starting")
        if w.running is not None:
            index = w.running
            self.deaths[index] = self.deaths.get(index, 0) + 1
            if self.deaths[index] > self.retries:
                yield Outcome(index, self.jobs[index], error=f"its worker process {how}, {self.deaths[index]} times")
            else:
                print(f"worker {w.number} {how} while running job {index}; running it again", file=sys.stderr)
                self.pending.appendleft(index)
        if self.pending and len(self.workers) < self.size:
            self.start_worker()


def local_pool(func: Callable[[JobT], ResultT], jobs: list[JobT], setup: Setup, workers: int,
               retries: int) -> Outcomes[JobT, ResultT]:
    """The outcomes of func(job) for every job on *workers* forked processes, as they finish."""
    return _Pool(func, jobs, setup, workers, retries).outcomes()
