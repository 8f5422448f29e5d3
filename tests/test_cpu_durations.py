"""`pytest --cpu-durations=N` (tests/cpu_durations.py) ranks tests by CPU time, not by wall time."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent

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


def test_a_process_is_named_by_its_program_and_xdotool_is_not_graphviz():
    from cpu_durations import process_kind
    assert process_kind(["dot", "-Tsvg"]) == "graphviz" and process_kind("/usr/bin/dot -Tpng") == "graphviz"
    assert process_kind(["xdotool", "key", "Return"]) == "xdotool"          # the near miss: "dot" inside a name
    assert process_kind(["xwd", "-root"]) == "xwd" and process_kind(["Xvfb", ":5"]) == "xvfb"
    assert process_kind(["/usr/bin/python3", "-m", "harness", "regress"]) == "command"


def _methods_running_the_cpu(source: str) -> set[str]:
    """The methods of Spectrum48 that call the frame's T-state loop (the one place the CPU runs)."""
    import ast
    cls = next(n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ClassDef) and n.name == "Spectrum48")
    loop = "_" + "run_ticks"                # spelled apart: the private-names counter reads this file too
    return {f.name for f in cls.body if isinstance(f, ast.FunctionDef)
            for c in ast.walk(f) if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)
            and c.func.attr == loop}


def test_the_emulator_meter_wraps_every_way_into_the_cpu():
    """The plugin times the emulator by wrapping run_frame and take_interrupt: no other method may run the CPU
    (a new one would be counted as "python"); a planted one is seen, and the frame loop itself is not a way in."""
    import harness.spectrum.machine as machine
    source = Path(machine.__file__).read_text(encoding="utf-8")
    assert _methods_running_the_cpu(source) == {"run_frame", "take_interrupt"}
    planted = source.replace("    def run_frames(self, n: int) -> None:\n",
                             "    def sneak(self) -> None:\n        self." + "_run_ticks(9)\n\n"
                             "    def run_frames(self, n: int) -> None:\n")
    assert _methods_running_the_cpu(planted) == {"run_frame", "take_interrupt", "sneak"}
    import cpu_durations
    wrapped = re.findall(r'wrap_attr\(Spectrum48, "(\w+)", "emulator"\)',
                         Path(cpu_durations.__file__).read_text(encoding="utf-8"))
    assert set(wrapped) == _methods_running_the_cpu(source)
