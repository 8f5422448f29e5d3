"""Probes that run whole commands: html rewrites only its own files; the workers die with their parent and the lock is released; a build over a file that is not a tape loses nothing."""
from __future__ import annotations

import checkout
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness.runtime.outdir import claimed

ROOT = checkout.ROOT


# ------------------------------------------------------------------ workers die with their parent
def _good_tape(tmp_path: Path) -> Path:
    from harness.program.model.build import build
    tape = tmp_path / "cribbage.tap"
    tape.write_bytes(build(check=False).tap)
    return tape


@pytest.fixture(scope="module")
def real_tape(tmp_path_factory) -> Path:
    return _good_tape(tmp_path_factory.mktemp("tape"))


def test_html_rewrites_only_its_own_files(tmp_path, capsys):
    from harness.commands.html import main
    out = tmp_path / "h"
    assert main(["--out", str(out)]) == 0
    (out / "my-notes.txt").write_text("mine")
    pages = sorted(p.name for p in out.iterdir())
    assert main(["--out", str(out)]) == 0                   # again: its own pages rewritten, mine kept
    assert sorted(p.name for p in out.iterdir()) == pages
    assert (out / "my-notes.txt").read_text() == "mine"
    assert not list(tmp_path.glob(".*"))                     # no .h.new-PID left beside it


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL, signal.SIGHUP], ids=lambda s: s.name)
def test_the_workers_die_with_their_parent_and_the_lock_is_released(tmp_path, real_tape, sig):
    psutil = pytest.importorskip("psutil")
    out = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, "-m", "harness.cli", "regress", "--games", "8", "--workers", "2",
                             "--tape", str(real_tape), "--out", str(out), "--quiet"], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while len(psutil.Process(proc.pid).children()) < 2 or not (out / ".lock").exists():
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.2)
        workers = psutil.Process(proc.pid).children(recursive=True)
        time.sleep(1)
        proc.send_signal(sig)
        proc.wait(timeout=15)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    _, alive = psutil.wait_procs(workers, timeout=10)
    assert alive == [], f"{len(alive)} worker(s) outlived their parent"
    assert proc.returncode == (-sig if sig == signal.SIGKILL else 128 + sig)
    with claimed(out, "regress", resume=True):                # the lock is free
        pass
