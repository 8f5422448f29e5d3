"""Signals, generated: each command that runs longer than a second, started as a person starts it and stopped at
1, 3 and 10 s by Ctrl-C (SIGINT to its process group, as a terminal sends it), and once at 3 s by `kill`
(SIGTERM to the command): it exits 130 (143), says so in one line last on stderr, leaves no process of its
own behind, and no partial output (no temporary file, no JSON cut short, no pack or edition half made).

The commands start with SIGINT and SIGTERM at their defaults: a shell's `cmd &` starts a child with SIGINT
ignored, and Python keeps an ignored SIGINT ignored, so the child resets them before it runs (preexec_fn). A
command that ends before its moment is told apart (status 0, its output whole) and counted, not failed.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers import ROOT

MOMENTS = (1.0, 3.0, 10.0)
#: the commands whose output folder is made whole beside it and swapped in (outdir.claimed_whole)
WHOLE = ("build --pack", "html")
OUTCOMES: list[str] = []


def _commands(t: Path, tape: Path) -> dict[str, list[str]]:
    return {
        "regress": ["regress", "--games", "40", "--workers", "2", "--tape", str(tape), "--out", str(t / "out"),
                    "--quiet", "--no-html"],
        "sweep": ["sweep", "show", "--workers", "2", "--tape", str(tape), "--out", str(t / "out"), "--quiet"],
        "readings": ["readings", "--games", "1", "--workers", "2", "--out", str(t / "readings.json"), "--quiet"],
        "conformance": ["conformance", "--lockstep", "--opcodes", str(t / "opcodes.json")],
        "strength": ["strength", "--games", "20", "--engine-games", "200", "--workers", "2", "--tape", str(tape),
                     "--out", str(t / "out"), "--quiet"],
        "fairness": ["fairness", "--games", "400", "--workers", "2", "--out", str(t / "out"), "--quiet"],
        "html": ["html", "--out", str(t / "out")],
        "build --pack": ["build", "-o", str(t / "t.tap"), "--pack", str(t / "out")],
        "bench": ["bench", "--no-dask", "--no-command"],
    }


CASES = [(name, moment, signal.SIGINT) for name in _commands(Path("."), Path(".")) for moment in MOMENTS] + \
        [(name, 3.0, signal.SIGTERM) for name in _commands(Path("."), Path("."))]


@pytest.fixture(scope="module")
def tape(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("tape") / "cribbage.tap"
    subprocess.run([sys.executable, "-m", "harness.cli", "build", "-o", str(path)], cwd=ROOT, check=True,
                   capture_output=True, timeout=300)
    return path


def _defaults() -> None:
    """In the child, before it runs: SIGINT and SIGTERM at their defaults, whatever the parent had."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _session(sid: int) -> list[str]:
    """The processes still in session *sid* (the command's: it was started as a session of its own)."""
    left = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[3]) == sid and fields[0] != "Z":          # field 6 of stat: the session
            left.append(f"{entry.name} {stat.split(')')[0].split('(')[1]}")
    return left


def _partial(folder: Path) -> list[str]:
    """What in *folder* is half made: a temporary file or folder, or JSON (Lines) cut short."""
    found = []
    for path in folder.rglob("*"):
        name = path.name
        if name.endswith(".part") or ".new-" in name or ".old-" in name:
            found.append(str(path.relative_to(folder)))
        elif path.is_file() and path.suffix in (".json", ".jsonl") and path.name != "none.json":
            text = path.read_text(encoding="utf-8")
            try:
                for line in (text.splitlines() if path.suffix == ".jsonl" else [text]):
                    if line.strip():
                        json.loads(line)
            except ValueError:
                found.append(f"{path.relative_to(folder)}: not whole JSON")
    return found


@pytest.mark.parametrize("name, moment, signum", CASES,
                         ids=[f"{n} {signal.Signals(s).name} at {m:g}s" for n, m, s in CASES])
def test_a_signal_stops_the_command_in_one_line_with_nothing_half_made(name, moment, signum, tape, tmp_path,
                                                                      record_property):
    """(status, the one line, no process left, nothing half made)"""
    argv = _commands(tmp_path, tape)[name]
    proc = subprocess.Popen([sys.executable, "-m", "harness.cli", *argv], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=_defaults, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=moment)
        finished = True
    except subprocess.TimeoutExpired:
        finished = False
        if signum == signal.SIGINT:
            os.killpg(proc.pid, signal.SIGINT)                  # Ctrl-C: the terminal's whole foreground group
        else:
            os.kill(proc.pid, signal.SIGTERM)                   # kill PID: the command alone
        try:
            out, err = proc.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
            pytest.fail(f"{name}: still running 120 s after {signal.Signals(signum).name}: {err[-500:]}")
    deadline = time.monotonic() + 10
    while _session(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _session(proc.pid) == [], f"{name}: processes left behind"
    assert "Traceback" not in err, err[-3000:]
    record_property("outcome", "finished first" if finished else "stopped")
    if finished:                                                # it ended before its moment: whole, status 0 or 1
        assert proc.returncode in (0, 1), err[-2000:]
    else:
        status = 128 + signum
        said = "interrupted" if signum == signal.SIGINT else "terminated by SIGTERM"
        lines = [line for line in err.splitlines() if line.strip()]
        assert (proc.returncode, lines[-1:] and lines[-1].split(";")[0]) == (status, f"cribbage-zx: {said}"), \
            err[-2000:]
        assert [line for line in lines if line.startswith("cribbage-zx")] == lines[-1:], err[-2000:]
    assert _partial(tmp_path) == [], f"{name}: half-made output"
    if name in WHOLE and not finished:
        assert not (tmp_path / "out").exists(), f"{name}: stopped half way, its new folder stands"
    OUTCOMES.append("finished first" if finished else "stopped")


def test_the_size_of_the_signal_test(capsys):
    with capsys.disabled():
        print(f"\nsignals: {len(_commands(Path('.'), Path('.')))} commands x {len(MOMENTS)} SIGINT moments "
              f"({', '.join(f'{m:g}' for m in MOMENTS)} s) + SIGTERM at 3 s = {len(CASES)} runs; "
              f"{OUTCOMES.count('stopped')} stopped, {OUTCOMES.count('finished first')} finished first")
