"""One job runner for `regress` and every sweep: here, on a local pool that fails fast, or on a Dask cluster.

Every job needs a machine with the tape loaded, so each worker process runs a
`Setup` once before its first job. Results come back as `Outcome`s in the
order jobs finish; a job that raises is an outcome with a one-line error (the
others go on), while a worker that cannot start ends the whole run at once
with a `MachineError` ("could not start"), since every other worker would fail the same way.

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
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait as wait_for
from typing import Any, Callable, Generator, Generic, Iterator, Sequence, TypeVar, cast

from ..errors import MachineError, UsageError

JobT = TypeVar("JobT")           # a job (picklable: a frozen dataclass of the run's)
ResultT = TypeVar("ResultT")     # its result (picklable too)

STOP_GRACE_S = 2.0          # how long a terminated worker gets before it is killed
POLL_S = 0.5                # the parent looks at its workers at least this often


@dataclass(frozen=True)
class Setup:
    """What a worker process runs once before its first job: a module-level function and its arguments
    (picklable, and small: on Dask it travels with every job)."""
    func: Callable[..., None]
    args: tuple[Any, ...] = ()


@dataclass
class Outcome(Generic[JobT, ResultT]):
    """A finished job: its position in the job list, the job, and its value or its one-line error; with its
    CPU seconds in its worker (the thread that ran it), so a caller can tell the jobs' cost from the runner's."""
    index: int
    job: JobT
    value: ResultT | None = None
    error: str | None = None
    details: str = field(default="", repr=False)    # the traceback, for a failed job
    cpu_s: float | None = None                      # the job's own CPU (time.thread_time), for a finished job

    @property
    def ok(self) -> bool:
        return self.error is None


def one_line(exc: BaseException) -> str:
    """An exception as one line: its type and the first line of its message."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


Outcomes = Generator[Outcome[JobT, ResultT], None, None]


def run_jobs(func: Callable[[JobT], ResultT], jobs: Sequence[JobT], setup: Setup, workers: int = 1,
             scheduler: str | None = None, retries: int = 1) -> closing[Outcomes[JobT, ResultT]]:
    """The outcomes of func(job) for every job, as they finish, in a context that stops the workers on exit."""
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    outcomes: Outcomes[JobT, ResultT]
    if scheduler:
        outcomes = _on_dask(func, list(jobs), setup, workers, scheduler)
    elif workers == 1:
        outcomes = _here(func, list(jobs), setup)
    else:
        outcomes = _local_pool(func, list(jobs), setup, workers, retries)
    return closing(outcomes)


# ------------------------------------------------------------------------------------------ here
def _here(func: Callable[[JobT], ResultT], jobs: list[JobT], setup: Setup) -> Outcomes[JobT, ResultT]:
    if not jobs:
        return
    try:
        setup.func(*setup.args)
    except Exception as exc:
        raise MachineError(f"the worker could not start: {one_line(exc)}") from exc
    for index, job in enumerate(jobs):
        try:
            value, cpu = _timed(func, job)
        except Exception as exc:
            yield Outcome(index, job, error=one_line(exc), details=traceback.format_exc())
        else:
            yield Outcome(index, job, value, cpu_s=cpu)


def _timed(func: Callable[[JobT], ResultT], job: JobT) -> tuple[ResultT, float]:
    """func(job) and the CPU seconds of this thread it took (the job's own cost, whatever else the process runs)."""
    started = time.thread_time()
    value = func(job)
    return value, time.thread_time() - started


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


def _worker_main(conn: Connection, func: Callable[[Any], Any], setup: Setup, parent: int = 0,
                 inherited: tuple[int, ...] = ()) -> None:
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
        reply: tuple[Any, ...]
        try:
            reply = ("done", index, *_timed(func, job))
        except Exception as exc:
            reply = ("failed", index, one_line(exc), traceback.format_exc())
        try:
            conn.send(reply)
        except Exception as exc:        # a result that cannot be pickled
            conn.send(("failed", index, f"its result could not be sent back: {one_line(exc)}", ""))


class _Worker:
    def __init__(self, ctx: Any, number: int, func: Callable[[Any], Any], setup: Setup,
                 others: Sequence["_Worker"] = ()):
        from .outdir import held_locks
        self.process: Any
        self.number = number
        self.conn: Connection
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


def _local_pool(func: Callable[[JobT], ResultT], jobs: list[JobT], setup: Setup, workers: int, retries: int) -> Outcomes[JobT, ResultT]:
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
                messages: list[tuple[Any, ...]] = []
                dead = False
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
                        raise MachineError(f"worker {w.number} could not start: {message[1]}")
                    if kind == "ready":
                        w.ready = True
                        if not dead:
                            feed(w)
                    elif kind == "done":
                        w.running = None
                        if not dead:
                            feed(w)
                        yield Outcome(message[1], jobs[message[1]], message[2], cpu_s=message[3])
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
                    raise MachineError(f"worker {w.number} {how} while starting")
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
class SchedulerAddress(str):
    """``--scheduler``'s value: ``local`` or a checked ``tcp://HOST:PORT`` / ``tls://HOST:PORT``, with the
    TLS files to connect with and whether a plain address off this machine was allowed (``--insecure``), and
    how long the client tries to reach it (``--scheduler-timeout``).
    A str, so reports and callers that only pass it on see the address."""
    tls_ca_file: str | None = None
    tls_cert: str | None = None
    tls_key: str | None = None
    insecure: bool = False
    connect_timeout: float = 10.0       # seconds before an address that does not answer is given up

    @property
    def scheme(self) -> str:
        return self.split("://", 1)[0] if "://" in self else self

    @property
    def host(self) -> str:
        return self.split("://", 1)[1].rsplit(":", 1)[0].strip("[]") if "://" in self else ""

    @property
    def loopback(self) -> bool:
        if self == "local" or self.host == "localhost":
            return True
        import ipaddress
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return False


_ADDRESS = r"(tcp|tls)://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)(?::([0-9]{1,5}))?"


def parse_scheduler(text: str) -> SchedulerAddress:
    """``local``, or a scheduler's address (the port defaults to Dask's 8786); ValueError in one line."""
    import re
    if text == "local":
        return SchedulerAddress("local")
    m = re.fullmatch(_ADDRESS, text)
    if not m:
        raise ValueError(f"{text!r} is not 'local', tcp://HOST:PORT or tls://HOST:PORT")
    port = int(m[3] or 8786)
    if not 1 <= port <= 65535:
        raise ValueError(f"{text!r}: port {port} is not in 1..65535")
    return SchedulerAddress(f"{m[1]}://{m[2]}:{port}")


def checked_scheduler(address: str | None, tls_ca_file: str | None = None, tls_cert: str | None = None,
                      tls_key: str | None = None, insecure: bool = False) -> SchedulerAddress | None:
    """The address with its security settings, or ValueError saying in one line what is missing or unsafe.

    A plain tcp:// address off this machine is refused unless *insecure*: the jobs (pickled code) and
    their results would cross the network unauthenticated, so whoever reaches the scheduler could run
    code on its workers and in this process."""
    tls = {"--tls-ca-file": tls_ca_file, "--tls-cert": tls_cert, "--tls-key": tls_key}
    given = [k for k, v in tls.items() if v]
    if address is None:
        if given or insecure:
            raise ValueError(f"{(given or ['--insecure'])[0]} is for a Dask scheduler: give --scheduler too")
        return None
    s = parse_scheduler(str(address))
    if s == "local" and given:
        raise ValueError(f"{given[0]}: --scheduler local makes its own temporary certificate; "
                         f"TLS files are for a tls:// scheduler")
    if s.scheme == "tcp" and given:
        raise ValueError(f"{given[0]}: a tcp:// scheduler is plain; use a tls:// address with TLS files")
    if s.scheme == "tcp" and not s.loopback and not insecure:
        raise ValueError(f"--scheduler {s}: a plain address off this machine (anyone who reaches it runs code "
                         f"on its workers and in this process); use tls:// with --tls-ca-file/--tls-cert/"
                         f"--tls-key, or say --insecure")
    if s.scheme == "tls":
        if given and len(given) < 3:
            missing = [k for k in tls if k not in given]
            raise ValueError(f"--scheduler {s}: give {', '.join(missing)} too (or none of the three, "
                             f"to use the Dask configuration's distributed.comm.tls settings)")
        for option, path in tls.items():
            if path and not os.path.isfile(path):
                raise ValueError(f"{option} {path}: no such file")
        if tls_ca_file and tls_cert and tls_key:           # all three given (checked just above)
            _check_pem_files(tls_ca_file, tls_cert, tls_key)
    s.tls_ca_file, s.tls_cert, s.tls_key, s.insecure = tls_ca_file, tls_cert, tls_key, insecure
    return s


def _check_pem_files(ca_file: str, cert: str, key: str) -> None:
    """Each TLS file read as the connection will read it (Python's ssl), ValueError naming the one that is not
    what its option says: Dask's own error, "[SSL] PEM lib", names none."""
    import ssl

    def no_password() -> bytes:            # an encrypted key: refused here, not a password prompt mid-run
        return b""

    for option, path, what in (("--tls-ca-file", ca_file, "certificate"), ("--tls-cert", cert, "certificate")):
        try:
            ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT).load_verify_locations(cafile=path)
        except (ssl.SSLError, OSError) as exc:
            raise ValueError(f"{option} {path}: holds no PEM {what} that can be read ({_ssl_reason(exc)})") from None
    try:
        ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT).load_cert_chain(cert, key, password=no_password)
    except (ssl.SSLError, OSError) as exc:
        if getattr(exc, "reason", None) == "KEY_VALUES_MISMATCH":
            raise ValueError(f"--tls-key {key}: is not the key of --tls-cert {cert}") from None
        raise ValueError(f"--tls-key {key}: holds no PEM private key that can be read without a password "
                         f"({_ssl_reason(exc)})") from None


def _ssl_reason(exc: Exception) -> str:
    """OpenSSL's reason in words ("no certificate or crl found"), or what a reasonless "PEM lib" means."""
    import ssl
    reason = getattr(exc, "reason", None)
    if isinstance(reason, str):
        return reason.lower().replace("_", " ")
    if isinstance(exc, OSError) and not isinstance(exc, ssl.SSLError) and exc.strerror:
        return exc.strerror                    # the file itself cannot be read
    return "its PEM text does not decode"


@dataclass(frozen=True)
class _StartFailed:
    """What a Dask task returns when its worker could not run the setup (it is not a job failure)."""
    worker: str
    error: str


_dask_lock = threading.Lock()
_dask_setup: str | None = None            # the name of the last setup this worker process ran
_dask_failed: str | None = None           # ... and how it failed, if it did


class _SetupPlugin:
    """Runs a run's `Setup` once in each Dask worker process, when registered and on every worker that
    joins later (Client.register_plugin): the tape travels once per worker, not with every job."""

    idempotent = False

    def __init__(self, name: str, setup: Setup):
        self.name, self.setup_spec = name, setup

    def setup(self, worker: Any = None) -> Any:
        """Dask calls this in the worker's event loop and awaits what it returns: the set-up itself (a second
        or more of CPU) runs in a thread, so the loop goes on answering the scheduler meanwhile (blocked, a
        worker set up while the cluster closed logged heartbeat errors and held the close up)."""
        import asyncio
        _quiet_worker()
        return asyncio.get_running_loop().run_in_executor(None, self.run_setup)

    def run_setup(self) -> None:
        """The run's set-up, once per process (the first caller runs it, in any thread). Never raises (Dask
        would log the traceback on the worker): a failure is kept, and the run's first task here returns it."""
        global _dask_setup, _dask_failed
        with _dask_lock:
            if _dask_setup != self.name:
                _dask_setup, _dask_failed = self.name, None
                try:
                    self.setup_spec.func(*self.setup_spec.args)
                except Exception as exc:
                    _dask_failed = one_line(exc)

    def teardown(self, worker: Any = None) -> None:
        pass

    def transition(self, key: Any, start: Any, finish: Any, **kwargs: Any) -> None:
        pass


def _quiet_worker() -> None:
    """In a Dask worker process: Ctrl-C is the client's to handle (the worker is stopped by it)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def _dask_task(func: Callable[[JobT], ResultT], name: str, job: JobT) -> "_StartFailed | tuple[ResultT, float]":
    """Run on a Dask worker: the job, on the machine the run's setup plugin made (run here first if the
    plugin has not, as on a worker that joined while the plugin was being registered), with the CPU
    seconds it took in this thread.

    One job at a time per process: the emulator is pure Python under the GIL,
    so threads would not run faster, and the set-up machine is not shared.
    """
    from distributed import get_worker
    worker = get_worker()
    if _dask_setup != name:
        plugin = worker.plugins.get(name)
        if plugin is None:
            return _StartFailed(worker.address, "the run's setup plugin is not on this worker")
        cast(_SetupPlugin, plugin).run_setup()
    with _dask_lock:                       # after a set-up still running in the plugin's thread, if any
        if _dask_failed is not None:
            return _StartFailed(worker.address, _dask_failed)
        return _timed(func, job)


#: the Dask settings of our clusters' workers: no profiler, no GIL sampling, slower health ticks, no
#: (de)serialisation thread: a worker runs one pure-Python job at a time, so these only cost CPU
QUIET_WORKERS = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.system-monitor.gil.enabled": False,
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.admin.tick.interval": "500ms",
    "distributed.comm.offload": False,
    "distributed.worker.use-file-locking": False,
    "distributed.scheduler.work-stealing": False,
    # the HTTP servers Dask starts beside every scheduler and worker (on loopback here) serve no pages:
    # the plain-HTTP info, metrics and JSON routes would show the cluster to any local account
    "distributed.scheduler.http.routes": [],
    "distributed.worker.http.routes": [],
}


#: a LocalCluster's worker processes are forked from one server process that imported Dask and the run's
#: set-up module once (multiprocessing's forkserver), instead of each starting afresh and importing them
#: ("spawn", Dask's default: about 0.8 CPU s apiece); the server is stopped with the cluster
LOCAL_WORKERS = {"distributed.worker.multiprocessing-method": "forkserver"}


#: the forkserver's first import, which ignores Ctrl-C there (named, never imported here: its import is the act)
CTRL_C_IGNORED = "harness.runtime.ctrl_c_ignored"


def preload_forkserver(setup: Setup) -> None:
    """What the forkserver imports before it forks a worker: first what ignores Ctrl-C there, then Dask's worker
    and the module of the set-up."""
    from distributed import utils
    dask_utils: Any = utils                         # untyped in Dask
    context: Any = dask_utils.get_mp_context()
    context.set_forkserver_preload([CTRL_C_IGNORED, "distributed", setup.func.__module__])


def _stop_forkserver() -> None:
    """Stop the forkserver (if one runs) once its workers are gone: otherwise it outlives the cluster, until this
    process ends. Through multiprocessing's own stop, which its tests use; a later cluster starts another."""
    from multiprocessing import forkserver
    stop = getattr(getattr(forkserver, "_forkserver", None), "_stop", None)
    if stop is not None:
        stop()


def _security(scheduler: SchedulerAddress) -> Any:
    from distributed import security as dask_security
    Security: Any = dask_security.Security          # untyped in Dask
    if scheduler == "local":
        try:
            return Security.temporary()
        except ImportError as exc:
            raise UsageError("--scheduler local needs the cryptography package for its TLS certificate: "
                                 "pip install 'cribbage-zx[dask]'") from exc
    if scheduler.scheme == "tls":
        if scheduler.tls_cert:
            return Security(tls_ca_file=scheduler.tls_ca_file, tls_client_cert=scheduler.tls_cert,
                            tls_client_key=scheduler.tls_key, require_encryption=True)
        security = Security(require_encryption=True)           # the Dask configuration's files
        if not (security.tls_ca_file and security.tls_client_cert):
            raise UsageError(f"--scheduler {scheduler}: no TLS files: give --tls-ca-file, --tls-cert and "
                                 f"--tls-key (or set distributed.comm.tls in the Dask configuration)")
        return security
    return None


def _on_dask(func: Callable[[JobT], ResultT], jobs: list[JobT], setup: Setup, workers: int, scheduler: str) -> Outcomes[JobT, ResultT]:
    import logging
    import tempfile

    try:
        import dask as dask_module
        import distributed
    except ImportError as exc:
        raise UsageError("--scheduler needs Dask: pip install 'cribbage-zx[dask]'") from exc
    dask: Any = dask_module                         # untyped in Dask
    untyped: Any = distributed
    Client, LocalCluster, as_completed = untyped.Client, untyped.LocalCluster, untyped.as_completed
    if isinstance(scheduler, SchedulerAddress):
        address = scheduler
    else:
        try:
            checked = checked_scheduler(scheduler)
        except ValueError as exc:
            raise UsageError(f"--scheduler: {exc}") from None
        assert checked is not None                  # a given address is checked, never None
        address = checked
    scheduler = address
    if not jobs:
        return
    security = _security(scheduler)
    cluster = client = None
    scratch = None
    interrupted: list[int] = []
    if scheduler == "local":
        # the run's private scratch folder, for the scheduler as well as the workers (Dask's default is a
        # dask-scratch-space/ shared by every user of the system's temporary folder)
        scratch = tempfile.TemporaryDirectory(prefix="cribbage-zx-dask-")
    config = dask.config.set({**QUIET_WORKERS, **(LOCAL_WORKERS if scheduler == "local" else {}),
                              **({"temporary-directory": scratch.name} if scratch is not None else {})})
    try:
        if scheduler == "local":
            preload_forkserver(setup)
            from distributed import proctitle
            titles: Any = proctitle          # untyped in Dask
            titles.enable_proctitle_on_children()    # what a Nanny does, done before the forkserver starts:
            #                                          its workers call themselves "dask worker [ADDRESS]" in ps
            assert scratch is not None
            with _ctrl_c_held() as interrupted:      # a Ctrl-C now stops the run once the cluster is up
                _start_forkserver()      # the workers start with Ctrl-C ignored: the client stops them quietly
                cluster = LocalCluster(n_workers=min(workers, len(jobs)), threads_per_worker=1, processes=True,
                                       protocol="tls://", host="127.0.0.1", security=security,
                                       dashboard_address=None, worker_dashboard_address=None,
                                       # its pageless HTTP server on a free loopback port, not Dask's 8787
                                       # (taken by another run, Dask would warn in three lines and move on)
                                       scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                                       memory_limit=0,      # no memory manager polling (nothing to spill)
                                       local_directory=scratch.name,
                                       # a worker stopped mid-set-up (a Ctrl-C) logs its cancelled plugin
                                       # as an ERROR traceback; every failure the user needs reaches them
                                       # as a job's outcome or a MachineError
                                       silence_logs=logging.CRITICAL)
                client = Client(cluster, security=security)
        else:
            client = Client(str(scheduler), timeout=f"{scheduler.connect_timeout}s", security=security)
    except BaseException as exc:         # a cluster that could not start, or a second Ctrl-C while it started
        with _quiet_logs():
            if cluster is not None:
                cluster.close()
            if scheduler == "local":
                _stop_forkserver()
        config.__exit__(None, None, None)
        if scratch is not None:
            scratch.cleanup()
        if isinstance(exc, (OSError, TimeoutError, ValueError, TypeError)):
            raise UsageError(f"--scheduler {scheduler}: {one_line(exc)}") from exc
        raise
    futures = []
    name = f"cribbage-zx-setup-{os.getpid()}-{time.monotonic_ns()}"
    try:
        if interrupted:
            raise KeyboardInterrupt          # held while the cluster started: it is taken down below, quietly
        try:
            client.register_plugin(_worker_plugin(name, setup), name=name)
        except Exception as exc:
            raise MachineError(f"a Dask worker could not start: {one_line(exc)}") from None
        futures = [client.submit(_dask_task, func, name, job, key=f"{name}-{i}", pure=False)
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
                    raise MachineError(f"Dask worker {value.worker} could not start: {value.error}")
                yield Outcome(index, jobs[index], value[0], cpu_s=value[1])
            future.release()
    finally:
        with _quiet_logs():
            if futures:
                client.cancel(futures)
            try:
                client.unregister_worker_plugin(name)
            except Exception:
                pass                         # never registered, or the cluster is going anyway
            client.close(timeout=5)
            if cluster is not None:
                cluster.close(timeout=5)
                _stop_forkserver()
        config.__exit__(None, None, None)
        if scratch is not None:
            scratch.cleanup()


def _worker_plugin(name: str, setup: Setup) -> Any:
    """A `distributed.WorkerPlugin` running *setup*."""
    return _plugin_class()(name, setup)


_PLUGIN_CLASS: list[type] = []


def _plugin_class() -> type:
    """`_SetupPlugin` as a WorkerPlugin, made on first use so that this module imports without Dask; found
    by name through the module's __getattr__, so it pickles by reference."""
    if not _PLUGIN_CLASS:
        from distributed import WorkerPlugin
        _PLUGIN_CLASS.append(type("DaskSetupPlugin", (_SetupPlugin, WorkerPlugin),
                                  {"__module__": __name__, "__qualname__": "DaskSetupPlugin"}))
    return _PLUGIN_CLASS[0]


def __getattr__(name: str) -> type:
    if name == "DaskSetupPlugin":
        return _plugin_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _start_forkserver() -> None:
    """Start the forkserver that forks a LocalCluster's workers with SIGINT blocked in this thread: the server
    inherits the mask, so a Ctrl-C cannot reach it before its first import (ctrl_c_ignored, preloaded) ignores
    SIGINT for it and every worker it forks; Ctrl-C is the client's alone. This process keeps its own handler
    all along (the caller's, which holds a Ctrl-C): an ignored SIGINT here, even blocked in this thread, was
    lost about one start in thirty, delivered to another thread of the process (a native library's) and
    discarded there."""
    from multiprocessing import forkserver, resource_tracker
    if threading.current_thread() is not threading.main_thread():
        forkserver.ensure_running()
        return
    # the forkserver starts the resource tracker first, which blocks and then unblocks SIGINT around its own
    # start: done inside the window below, that unblocking would end the window early
    resource_tracker.ensure_running()
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        forkserver.ensure_running()
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@contextmanager
def _ctrl_c_held() -> Iterator[list[int]]:
    """A Ctrl-C while a LocalCluster starts is held, not raised inside Dask's start-up (which would leave
    half a cluster and print its traceback): the list yielded says one came, and the caller stops once the
    cluster is whole and can be taken down. A second Ctrl-C raises at once."""
    held: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield held
        return

    def hold(signum: int, frame: object) -> None:
        if held:
            raise KeyboardInterrupt
        held.append(signum)

    before = signal.signal(signal.SIGINT, hold)
    try:
        yield held
    finally:
        signal.signal(signal.SIGINT, before)


@contextmanager
def _quiet_logs() -> Iterator[None]:
    """Dask's logs while a cluster is taken down (cancelled tasks, closing comms) say nothing to a user."""
    import logging
    loggers = [logging.getLogger(n) for n in ("distributed", "tornado", "asyncio")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for lg, level in zip(loggers, levels):
            lg.setLevel(level)


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
