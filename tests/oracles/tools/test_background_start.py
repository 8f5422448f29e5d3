"""`make test &` from a script: the shell starts the job with SIGINT ignored, and every child inherits that, so a
test that stops a command with Ctrl-C would see it ignored. tests/conftest.py puts SIGINT and SIGTERM back at
their defaults in every pytest process (the controller and each xdist worker), and a child started by a test
then starts with them at their defaults too.

Planted: a pytest started with SIGINT ignored, as `cmd &` starts one. Its test sees SIGINT taken in its own
process and in a child it starts; the near miss, the same start without tests/conftest.py, sees it ignored in
both (so the planted condition is real)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys

CHILD = "import signal, sys; sys.exit(1 if signal.getsignal(signal.SIGINT) == signal.SIG_IGN else 0)"


def test_sigint_is_taken_here_and_in_a_child():
    """Run by the tests below in a pytest started with SIGINT ignored (and on its own, as any test)."""
    if os.environ.get("CRIBBAGE_ZX_BACKGROUND_PROBE") == "expect-ignored":
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
        assert subprocess.run([sys.executable, "-c", CHILD]).returncode == 1      # ignored in the child too
        return
    assert signal.getsignal(signal.SIGINT) not in (signal.SIG_IGN, signal.SIG_DFL)
    assert subprocess.run([sys.executable, "-c", CHILD]).returncode == 0


def _started_like_a_background_job(*options: str, expect: str) -> subprocess.CompletedProcess:
    def ignore_sigint() -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "-q", *options,
                           f"{__file__}::test_sigint_is_taken_here_and_in_a_child"],
                          preexec_fn=ignore_sigint, capture_output=True, text=True, timeout=120,
                          env={**{k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"},   # not the outer run's
                               "CRIBBAGE_ZX_BACKGROUND_PROBE": expect})


def test_a_suite_started_with_sigint_ignored_puts_it_back_for_its_tests_and_their_children():
    done = _started_like_a_background_job(expect="expect-taken")
    assert done.returncode == 0, done.stdout + done.stderr


def test_near_miss_without_the_conftest_the_ignored_sigint_stays_ignored():
    done = _started_like_a_background_job("--noconftest", "-o", "addopts=", expect="expect-ignored")
    assert done.returncode == 0, done.stdout + done.stderr
