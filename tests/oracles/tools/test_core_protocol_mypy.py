"""mypy checks a core passed to the machine and the calls into the z80 package (the protocol itself: tests/spectrum/test_core_protocol.py)."""
from __future__ import annotations

import checkout
import subprocess
import sys



ROOT = checkout.ROOT


def test_mypy_checks_a_core_passed_to_the_machine_and_the_calls_into_the_z80_package(tmp_path, mypy_cache):
    """A class with only part of a core is refused where it is passed; the real cores are not; a z80
    method outside our stub (stubs/z80) is an error, and on_handle_active_int is a bool, as the stub says."""
    caller = tmp_path / "caller.py"
    caller.write_text(
        "import z80\n"
        "from harness.spectrum.cpu import Z80Core\n"
        "from harness.spectrum.machine import Spectrum48\n"
        "from harness.spectrum.recording import CountingCore\n"
        "from harness.spectrum.skoolcore import SkoolKitCore\n"
        "class Half:\n"
        "    name, memory = 'half', bytearray(0x10000)\n"
        "    def run(self, ticks: int) -> tuple[int, bool]: return 0, False\n"
        "Spectrum48(core=Z80Core); Spectrum48(core=CountingCore); Spectrum48(core=SkoolKitCore)\n"
        "Spectrum48(core=Half)\n"                                      # line 10: not a Core
        "taken: bool = z80.Z80Machine().on_handle_active_int()\n"
        "z80.Z80Machine().set_reti_callback(lambda: None)\n",          # line 12: not in our stub
        encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(mypy_cache), str(caller)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert [e.split(":")[1] for e in errors] == ["10", "12"], done.stdout
