"""A local Dask cluster's forkserver ignores Ctrl-C from its first import (harness/runtime/ctrl_c_ignored.py), and
the command that starts it keeps its own handler: an ignored SIGINT in the command was lost about one start in
thirty (delivered to a native thread and discarded), and the run played on and exited 0."""
from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

from harness.runtime import jobs


def test_the_forkservers_first_import_is_the_one_that_ignores_ctrl_c():
    pytest.importorskip("distributed", reason="Dask is not installed (the dask extra)")
    from multiprocessing import forkserver
    before = signal.getsignal(signal.SIGINT)
    saved = list(forkserver._forkserver._preload_modules)
    try:
        jobs.preload_forkserver(jobs.Setup(time.sleep, (0,)))
        preload = list(forkserver._forkserver._preload_modules)
    finally:
        forkserver._forkserver._preload_modules = saved
    assert preload[0] == jobs.CTRL_C_IGNORED == "harness.runtime.ctrl_c_ignored"
    assert signal.getsignal(signal.SIGINT) is before        # named for the server, not imported here


def _handler_after(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code + "\nimport signal; h = signal.getsignal(signal.SIGINT); "
                           "print('ignored' if h == signal.SIG_IGN else getattr(h, '__name__', repr(h)))"],
                          capture_output=True, text=True, timeout=60, check=True)
    return done.stdout.strip()


def test_importing_it_ignores_ctrl_c_and_nothing_else_does():
    assert _handler_after("import harness.runtime.ctrl_c_ignored") == "ignored"
    assert _handler_after("import harness.runtime.jobs") == "default_int_handler"    # near miss
