"""The same jobs on a Dask distributed cluster: a `LocalCluster` of worker processes, or a running scheduler.

``"local"`` starts a `LocalCluster` of *workers* processes (TLS on loopback, a temporary certificate, a
private scratch folder); an address connects to a running ``dask scheduler`` (scheduler.py checked it and
its TLS files). The setup goes with each job and is run once per worker process, on its first job
(cluster_worker.py); a worker killed mid-run costs only its jobs, which the scheduler runs again elsewhere.

Dask is heavy (about a second of imports) and optional: it is imported inside the functions that need it,
so a run without a scheduler never pays for it and this module imports without it. Dask's API is untyped:
the few calls made of it are declared here as Protocols, the one typed seam.
"""
from __future__ import annotations

import os
import signal
import tempfile
import threading
import time
import traceback
from contextlib import contextmanager
from multiprocessing import forkserver, resource_tracker
from multiprocessing.context import BaseContext
from typing import Callable, ContextManager, Iterable, Iterator, Mapping, Protocol, Sequence, cast

from .cluster_worker import StartFailed, dask_task, worker_plugin
from .outcomes import JobT, Outcome, Outcomes, ResultT, Setup, one_line
from .scheduler import SchedulerAddress, checked_scheduler
from ..errors import MachineError, UsageError

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


# ------------------------------------------------------------------------------------------ Dask's API, typed
class _Future(Protocol):
    key: str

    def result(self) -> object: ...
    def release(self) -> None: ...


class _Client(Protocol):
    def register_plugin(self, plugin: object, *, name: str) -> object: ...
    def submit(self, func: Callable[..., object], *args: object, key: str, pure: bool) -> _Future: ...
    def cancel(self, futures: Sequence[_Future]) -> object: ...
    def unregister_worker_plugin(self, name: str) -> object: ...
    def close(self, timeout: float) -> object: ...


class _Cluster(Protocol):
    def close(self, timeout: float | None = None) -> object: ...


class _Security(Protocol):
    tls_ca_file: str | None
    tls_client_cert: str | None


class _SecurityType(Protocol):
    def __call__(self, *, require_encryption: bool, tls_ca_file: str | None = None,
                 tls_client_cert: str | None = None, tls_client_key: str | None = None) -> _Security: ...
    def temporary(self) -> _Security: ...


class _Distributed(Protocol):
    """The parts of the `distributed` package the runner calls."""
    def Client(self, address: str | _Cluster, *, security: _Security | None, timeout: str = ...) -> _Client: ...
    def LocalCluster(self, **settings: object) -> _Cluster: ...
    def as_completed(self, futures: Sequence[_Future]) -> Iterable[_Future]: ...


def _distributed() -> _Distributed:
    """The `distributed` package, imported now, or UsageError: it is an optional dependency."""
    try:
        import distributed      # lazy: Dask is heavy (about a second), and only a run given a scheduler needs it
    except ImportError as exc:
        raise UsageError("--scheduler needs Dask: pip install 'cribbage-zx[dask]'") from exc
    return cast(_Distributed, distributed)


def _dask_settings(settings: Mapping[str, object]) -> ContextManager[object]:
    """Dask's configuration set to *settings* while the context lasts."""
    import dask.config      # lazy: Dask is heavy, and only a run given a scheduler needs it
    return cast(Callable[[Mapping[str, object]], ContextManager[object]], dask.config.set)(settings)


# ------------------------------------------------------------------------------------------ the forkserver
def preload_forkserver(setup: Setup) -> None:
    """What the forkserver imports before it forks a worker: first what ignores Ctrl-C there, then Dask's worker
    and the module of the set-up."""
    from distributed import utils      # lazy: Dask is heavy, and only a run given a scheduler needs it
    context = cast(Callable[[], BaseContext], utils.get_mp_context)()
    context.set_forkserver_preload([CTRL_C_IGNORED, "distributed", setup.func.__module__])


def _start_forkserver() -> None:
    """Start the forkserver that forks a LocalCluster's workers with SIGINT blocked in this thread: the server
    inherits the mask, so a Ctrl-C cannot reach it before its first import (ctrl_c_ignored, preloaded) ignores
    SIGINT for it and every worker it forks; Ctrl-C is the client's alone. This process keeps its own handler
    all along (the caller's, which holds a Ctrl-C): an ignored SIGINT here, even blocked in this thread, was
    lost about one start in thirty, delivered to another thread of the process (a native library's) and
    discarded there."""
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


def _stop_forkserver() -> None:
    """Stop the forkserver (if one runs) once its workers are gone: otherwise it outlives the cluster, until this
    process ends. Through multiprocessing's own stop, which its tests use; a later cluster starts another."""
    stop = getattr(getattr(forkserver, "_forkserver", None), "_stop", None)
    if stop is not None:
        stop()


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
    import logging      # lazy: see _logging_critical
    loggers = [logging.getLogger(n) for n in ("distributed", "tornado", "asyncio")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for lg, level in zip(loggers, levels):
            lg.setLevel(level)


def _logging_critical() -> int:
    """logging.CRITICAL. The logging module is imported only in a Dask run, never at the top of the runner:
    its at-fork hooks run in the parent after each fork of a pool worker, and a Ctrl-C landing in them is
    lost ("Exception ignored"), leaving the run waiting on its workers."""
    import logging      # lazy: its at-fork hooks would swallow a Ctrl-C during a pool worker's fork
    return logging.CRITICAL


# ------------------------------------------------------------------------------------------ the connection
def _security(scheduler: SchedulerAddress) -> _Security | None:
    """The TLS settings to connect with: a temporary certificate for a local cluster, the given files (or the Dask
    configuration's) for a tls:// scheduler, none for a plain tcp:// one; UsageError if they cannot be had."""
    from distributed import security as dask_security      # lazy: Dask is heavy
    security_type = cast(_SecurityType, dask_security.Security)
    if scheduler == "local":
        try:
            return security_type.temporary()
        except ImportError as exc:
            raise UsageError("--scheduler local needs the cryptography package for its TLS certificate: "
                                 "pip install 'cribbage-zx[dask]'") from exc
    if scheduler.scheme == "tls":
        if scheduler.tls_cert:
            return security_type(tls_ca_file=scheduler.tls_ca_file, tls_client_cert=scheduler.tls_cert,
                                 tls_client_key=scheduler.tls_key, require_encryption=True)
        security = security_type(require_encryption=True)           # the Dask configuration's files
        if not (security.tls_ca_file and security.tls_client_cert):
            raise UsageError(f"--scheduler {scheduler}: no TLS files: give --tls-ca-file, --tls-cert and "
                                 f"--tls-key (or set distributed.comm.tls in the Dask configuration)")
        return security
    return None


class _Connection:
    """A Dask client, and the LocalCluster it runs on when the scheduler is "local"; the Ctrl-C held while
    that cluster started."""

    def __init__(self, dask: _Distributed, address: SchedulerAddress, security: _Security | None,
                 scratch: str | None):
        self.dask, self.address, self.security, self.scratch = dask, address, security, scratch
        self.cluster: _Cluster | None = None
        self.interrupted: list[int] = []

    def open(self, setup: Setup, workers: int) -> _Client:
        """The client, connected; UsageError if the cluster could not start or be reached (half of it stopped)."""
        try:
            if self.address == "local":
                return self._start_local(setup, workers)
            return self.dask.Client(str(self.address), timeout=f"{self.address.connect_timeout}s",
                                    security=self.security)
        except BaseException as exc:     # a cluster that could not start, or a second Ctrl-C while it started
            with _quiet_logs():
                if self.cluster is not None:
                    self.cluster.close()
                if self.address == "local":
                    _stop_forkserver()
            if isinstance(exc, (OSError, TimeoutError, ValueError, TypeError)):
                raise UsageError(f"--scheduler {self.address}: {one_line(exc)}") from exc
            raise

    def _start_local(self, setup: Setup, workers: int) -> _Client:
        preload_forkserver(setup)
        from distributed import proctitle      # lazy: Dask is heavy
        # what a Nanny does, done before the forkserver starts: its workers call themselves "dask worker [ADDRESS]"
        cast(Callable[[], None], proctitle.enable_proctitle_on_children)()
        with _ctrl_c_held() as self.interrupted:      # a Ctrl-C now stops the run once the cluster is up
            _start_forkserver()      # the workers start with Ctrl-C ignored: the client stops them quietly
            self.cluster = self.dask.LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True,
                protocol="tls://", host="127.0.0.1", security=self.security,
                dashboard_address=None, worker_dashboard_address=None,
                # its pageless HTTP server on a free loopback port, not Dask's 8787
                # (taken by another run, Dask would warn in three lines and move on)
                scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                memory_limit=0,      # no memory manager polling (nothing to spill)
                local_directory=self.scratch,
                # a worker stopped mid-set-up (a Ctrl-C) logs its cancelled plugin
                # as an ERROR traceback; every failure the user needs reaches them
                # as a job's outcome or a MachineError
                silence_logs=_logging_critical())
            return self.dask.Client(self.cluster, security=self.security)

    def close(self, client: _Client) -> None:
        with _quiet_logs():
            client.close(timeout=5)
            if self.cluster is not None:
                self.cluster.close(timeout=5)
                _stop_forkserver()


@contextmanager
def _settings(local: bool) -> Iterator[str | None]:
    """Dask's configuration for the run, and for a LocalCluster the run's private scratch folder (yielded), for
    the scheduler as well as the workers (Dask's default is a dask-scratch-space/ shared by every user of the
    system's temporary folder)."""
    scratch = tempfile.TemporaryDirectory(prefix="cribbage-zx-dask-") if local else None
    config = _dask_settings({**QUIET_WORKERS, **(LOCAL_WORKERS if local else {}),
                             **({"temporary-directory": scratch.name} if scratch is not None else {})})
    try:
        with config:
            yield scratch.name if scratch is not None else None
    finally:
        if scratch is not None:
            scratch.cleanup()


# ------------------------------------------------------------------------------------------ the run
def _address(scheduler: str) -> SchedulerAddress:
    """*scheduler* as checked by `checked_scheduler` (it is already, from the command line)."""
    if isinstance(scheduler, SchedulerAddress):
        return scheduler
    try:
        checked = checked_scheduler(scheduler)
    except ValueError as exc:
        raise UsageError(f"--scheduler: {exc}") from None
    assert checked is not None                  # a given address is checked, never None
    return checked


def on_dask(func: Callable[[JobT], ResultT], jobs: list[JobT], setup: Setup, workers: int,
            scheduler: str) -> Outcomes[JobT, ResultT]:
    """The outcomes of func(job) for every job on the cluster *scheduler* names, as they finish."""
    dask = _distributed()
    address = _address(scheduler)
    if not jobs:
        return
    security = _security(address)
    with _settings(address == "local") as scratch:
        connection = _Connection(dask, address, security, scratch)
        client = connection.open(setup, min(workers, len(jobs)))
        try:
            yield from _submitted(dask, client, func, jobs, setup, connection.interrupted)
        finally:
            connection.close(client)


def _submitted(dask: _Distributed, client: _Client, func: Callable[[JobT], ResultT], jobs: list[JobT],
               setup: Setup, interrupted: list[int]) -> Outcomes[JobT, ResultT]:
    """The jobs submitted to *client* with the setup's plugin registered, their outcomes as they finish; the
    futures cancelled and the plugin unregistered however the loop ends. *interrupted*: a Ctrl-C came while
    the cluster started."""
    futures: list[_Future] = []
    name = f"cribbage-zx-setup-{os.getpid()}-{time.monotonic_ns()}"
    try:
        if interrupted:
            raise KeyboardInterrupt          # held while the cluster started: it is taken down below, quietly
        try:
            client.register_plugin(worker_plugin(name, setup), name=name)
        except Exception as exc:
            raise MachineError(f"a Dask worker could not start: {one_line(exc)}") from None
        futures = [client.submit(dask_task, func, name, job, key=f"{name}-{i}", pure=False)
                   for i, job in enumerate(jobs)]
        index_of = {f.key: i for i, f in enumerate(futures)}
        for future in dask.as_completed(futures):
            index = index_of[future.key]
            try:
                # the job's value (dask_task's), or its error, KilledWorker or CancelledError raised
                value = cast("StartFailed | tuple[ResultT, float]", future.result())
            except Exception as exc:
                yield Outcome(index, jobs[index], error=one_line(exc), details=traceback.format_exc())
            else:
                if isinstance(value, StartFailed):
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
