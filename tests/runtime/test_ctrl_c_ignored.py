"""A local Dask cluster's forkserver ignores Ctrl-C from its first import (harness/runtime/ctrl_c_ignored.py), and
the command that starts it keeps its own handler: an ignored SIGINT in the command was lost about one start in
thirty (delivered to a native thread and discarded), and the run played on and exited 0."""
from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from harness.runtime import cluster, jobs


def test_the_forkservers_first_import_is_the_one_that_ignores_ctrl_c():
    pytest.importorskip("distributed", reason="Dask is not installed (the dask extra)")
    from multiprocessing import forkserver
    before = signal.getsignal(signal.SIGINT)
    saved = list(forkserver._forkserver._preload_modules)
    try:
        cluster.preload_forkserver(jobs.Setup(time.sleep, (0,)))
        preload = list(forkserver._forkserver._preload_modules)
    finally:
        forkserver._forkserver._preload_modules = saved
    assert preload[0] == cluster.CTRL_C_IGNORED == "harness.runtime.ctrl_c_ignored"
    assert signal.getsignal(signal.SIGINT) is before        # named for the server, not imported here


def _handler_in(folder: Path, code: str) -> str:
    """What a fresh Python running *code* (as a script: a forkserver's child imports its __main__) prints, started
    with SIGINT at its default (an xdist worker or a script's `cmd &` may have it ignored, and a child would
    inherit that)."""
    script = folder / "script.py"
    script.write_text(textwrap.dedent(code), encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


NAME = "def name(h):\n    import signal\n    return 'ignored' if h == signal.SIG_IGN else getattr(h, '__name__', repr(h))\n"


def _in_a_forked_child(folder: Path, preload: list[str]) -> str:
    """SIGINT's handler in a child of a forkserver that preloaded *preload*."""
    return _handler_in(folder, NAME + f"""
import multiprocessing, signal
def report(queue):
    queue.put(name(signal.getsignal(signal.SIGINT)))
if __name__ == "__main__":
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload({preload!r})
    queue = context.Queue()
    child = context.Process(target=report, args=(queue,))
    child.start()
    print(queue.get(timeout=30))
    child.join()
""")


def test_a_child_of_the_forkserver_ignores_ctrl_c_with_it_preloaded_and_not_without(tmp_path):
    assert _in_a_forked_child(tmp_path, ["harness.runtime.ctrl_c_ignored"]) == "ignored"
    assert _in_a_forked_child(tmp_path, []) == "default_int_handler"                          # near miss


def test_imported_anywhere_else_it_changes_nothing(tmp_path):
    """A test run that imports every module, or a reader of the package, must keep Ctrl-C: a process ignoring
    SIGINT hands that on to every command it starts."""
    assert _handler_in(tmp_path, NAME + "import harness.runtime.ctrl_c_ignored, signal\n"
                              "print(name(signal.getsignal(signal.SIGINT)))") == "default_int_handler"
