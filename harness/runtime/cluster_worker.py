"""What runs inside a Dask worker process: the run's setup, once per process, and each job, timed.

A module of its own because Dask pickles `dask_task` and the setup plugin by reference: a worker imports
this module (and no more of the runner) to run them.
"""
from __future__ import annotations

import signal
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Awaitable, Callable, cast

from .outcomes import JobT, ResultT, Setup, one_line, timed

if TYPE_CHECKING:
    from distributed import Worker


@dataclass(frozen=True)
class StartFailed:
    """What a Dask task returns when its worker could not run the setup (it is not a job failure)."""
    worker: str
    error: str


_dask_lock = threading.Lock()
_dask_setup: str | None = None            # the name of the last setup this worker process ran
_dask_failed: str | None = None           # ... and how it failed, if it did


class SetupPlugin:
    """Runs a run's `Setup` once in each Dask worker process, when registered and on every worker that
    joins later (Client.register_plugin): the tape travels once per worker, not with every job."""

    idempotent = False

    def __init__(self, name: str, setup: Setup):
        self.name, self.setup_spec = name, setup

    def setup(self, worker: Worker | None = None) -> Awaitable[None]:
        """Dask calls this in the worker's event loop and awaits what it returns: the set-up itself (a second
        or more of CPU) runs in a thread, so the loop goes on answering the scheduler meanwhile (blocked, a
        worker set up while the cluster closed logged heartbeat errors and held the close up)."""
        import asyncio      # lazy: 12 ms of start-up that only a Dask worker needs
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
                    self.setup_spec.run()
                except Exception as exc:
                    _dask_failed = one_line(exc)

    def teardown(self, worker: Worker | None = None) -> None:
        pass

    def transition(self, key: object, start: str, finish: str, **kwargs: object) -> None:
        pass


def _quiet_worker() -> None:
    """In a Dask worker process: Ctrl-C is the client's to handle (the worker is stopped by it)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def dask_task(func: Callable[[JobT], ResultT], name: str, job: JobT) -> StartFailed | tuple[ResultT, float]:
    """Run on a Dask worker: the job, on the machine the run's setup plugin made (run here first if the
    plugin has not, as on a worker that joined while the plugin was being registered), with the CPU
    seconds it took in this thread.

    One job at a time per process: the emulator is pure Python under the GIL,
    so threads would not run faster, and the set-up machine is not shared.
    """
    from distributed import get_worker      # lazy: Dask is heavy, and this module is imported without it
    worker = get_worker()
    if _dask_setup != name:
        plugin = worker.plugins.get(name)
        if plugin is None:
            return StartFailed(worker.address, "the run's setup plugin is not on this worker")
        cast(SetupPlugin, plugin).run_setup()
    with _dask_lock:                       # after a set-up still running in the plugin's thread, if any
        if _dask_failed is not None:
            return StartFailed(worker.address, _dask_failed)
        return timed(func, job)


def worker_plugin(name: str, setup: Setup) -> SetupPlugin:
    """A `distributed.WorkerPlugin` running *setup*."""
    return cast(SetupPlugin, _plugin_class()(name, setup))


_PLUGIN_CLASS: list[type] = []


def _plugin_class() -> type:
    """`SetupPlugin` as a WorkerPlugin, made on first use so that this module imports without Dask; found
    by name through the module's __getattr__, so it pickles by reference."""
    if not _PLUGIN_CLASS:
        from distributed import WorkerPlugin      # lazy: Dask is heavy, and this module is imported without it
        _PLUGIN_CLASS.append(type("DaskSetupPlugin", (SetupPlugin, WorkerPlugin),
                                  {"__module__": __name__, "__qualname__": "DaskSetupPlugin"}))
    return _PLUGIN_CLASS[0]


def __getattr__(name: str) -> type:
    if name == "DaskSetupPlugin":
        return _plugin_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
