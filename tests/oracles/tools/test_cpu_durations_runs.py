"""pytest --cpu-durations and --cpu-table, run in a pytest of their own (under xdist too)."""
from __future__ import annotations

import checkout
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = checkout.TESTS

SAMPLE = '''
import time

def test_burns():
    end = time.process_time() + 0.3
    while time.process_time() < end:
        pass

def test_sleeps():
    time.sleep(0.6)          # twice the wall time of test_burns, next to no CPU

def test_burns_in_a_child():
    import subprocess, sys
    subprocess.run([sys.executable, "-c", "import time\\nend = time.process_time() + 0.3\\n"
                    "while time.process_time() < end: pass"], check=True)
'''


def run(tmp_path: Path, *args: str) -> str:
    (tmp_path / "test_sample.py").write_text(SAMPLE)
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "cpu_durations", "-p", "no:cacheprovider",
                           "-q", *args, str(tmp_path / "test_sample.py")],
                          cwd=tmp_path, env={"PYTHONPATH": str(TESTS), "PATH": ""}, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_the_costliest_tests_by_cpu_time_own_and_childrens(tmp_path):
    out = run(tmp_path, "--cpu-durations=3")
    rows = re.findall(r"^\s*([\d.]+)s cpu  \S+::(\w+)$", out, re.M)
    assert [name for _, name in rows][2] == "test_sleeps", out        # last, though the longest in wall time
    assert {name for _, name in rows[:2]} == {"test_burns", "test_burns_in_a_child"}, out
    assert all(float(s) >= 0.29 for s, _ in rows[:2]) and float(rows[2][0]) < 0.2, out
    assert re.search(r"3 costliest tests by CPU time \(of [\d.]+ CPU-s in 3 tests\)", out), out


def test_no_table_unless_asked(tmp_path):
    assert "CPU time" not in run(tmp_path)


def test_where_the_cpu_went_by_kind_and_as_json(tmp_path):
    out = run(tmp_path, "--cpu-table", f"--cpu-json={tmp_path / 'run.json'}")
    assert re.search(r"where the CPU went \([\d.]+ CPU-s in 3 tests", out), out
    child = re.search(r"^\s*([\d.]+)s cpu\s+[\d.]+ %  subprocess: python$", out, re.M)
    assert child and float(child.group(1)) >= 0.29, out          # the child's burn, under the kind it started
    data = json.loads((tmp_path / "run.json").read_text())
    tests = {k.split("::")[1]: v for k, v in data["tests"].items()}
    assert tests["test_burns_in_a_child"]["counts"] == {"python": 1}
    assert tests["test_burns"]["by_kind"]["python"] >= 0.29 and "subprocess: python" not in tests["test_burns"]["by_kind"]
    assert tests["test_sleeps"]["cpu"] < 0.2 and tests["test_sleeps"]["wall"] >= 0.6      # the near miss
    assert data["summary"]["tests"] == 3 and data["summary"]["outcomes"]["passed"] == 3


def test_under_xdist_the_controller_prints_every_workers_tests(tmp_path):
    pytest.importorskip("xdist")
    out = run(tmp_path, "-n", "2", "-p", "xdist", "--cpu-durations=0", "--cpu-table")
    rows = re.findall(r"^\s*([\d.]+)s cpu  \S+::(\w+)$", out, re.M)
    assert {name for _, name in rows} == {"test_burns", "test_sleeps", "test_burns_in_a_child"}, out
    assert re.search(r"wall \d+ s with 2 xdist workers", out), out
