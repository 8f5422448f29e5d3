"""zx's refusal of a damaged recording reaches the caller (issue 51): `emulators.zx_play_rzx` given an RZX cut
in half, a file with an RZX signature and nothing valid after it, and an empty file raises one MachineError
naming the file (not zx's own exception, not a quiet return of whatever memory zx had). The near miss: the
same recording whole is played to the end and zx's memory is the recorded machine's there (but for the return
address the interrupt after the last frame pushes, as with SkoolKit and our player).

Starts kosarev's zx (an oracle); the recording is six frames of a booted machine: under a CPU-second."""
from __future__ import annotations

import time

import pytest

from harness.errors import MachineError
from harness.oracle import emulators
from harness.spectrum import z80snap
from harness.spectrum.rzx import write_rzx
from helpers import machine_code_recording

pytest.importorskip("zx", reason="zx (kosarev's emulator) is not installed: pip install -e '.[oracle]'")


@pytest.fixture(scope="module")
def recorded(booted_snapshot):
    m, _, rzx = machine_code_recording(booted_snapshot, 6)
    return write_rzx(rzx), z80snap.from_machine(m)


@pytest.mark.parametrize("damage", ["cut in half", "signature only", "empty"])
def test_zx_refusing_a_damaged_recording_reaches_the_caller_naming_the_file(recorded, tmp_path, damage):
    rzx, _ = recorded
    data = {"cut in half": rzx[:len(rzx) // 2], "signature only": b"RZX!" + bytes(100), "empty": b""}[damage]
    path = tmp_path / "damaged.rzx"
    path.write_bytes(data)
    with pytest.raises(MachineError) as refused:
        emulators.zx_play_rzx(path)
    message = str(refused.value)
    # zx's own exception named by its class (zx raises its `Error`), then its words
    assert message.startswith(f"zx could not play {path}: Error: ") and "\n" not in message


def test_near_miss_the_recording_whole_is_played_to_the_recorded_machines_memory(recorded, tmp_path):
    rzx, ours = recorded
    path = tmp_path / "whole.rzx"
    path.write_bytes(rzx)
    before = time.process_time()
    theirs = emulators.zx_play_rzx(path)
    spent = time.process_time() - before
    assert 0 <= theirs.cpu_s <= spent                  # the play's own CPU time
    sp = ours.regs["sp"]
    differ = [hex(a) for a in range(0x4000, 0x10000) if theirs.memory[a] != ours.ram[a - 0x4000]]
    assert set(differ) <= {hex(sp - 2), hex(sp - 1)}, differ[:8]
    assert theirs.memory[0x8000:0x8008] == bytes([0xDD, 0x21, 0x00, 0x00, 0xDB, 0xFE, 0x18, 0xF8])


def test_zx_plays_headless_and_as_fast_as_it_can(recorded, tmp_path, monkeypatch):
    """No window (a machine with no display runs the oracle) and fast-forward (no real time), asked of zx."""
    rzx, _ = recorded
    path = tmp_path / "whole.rzx"
    path.write_bytes(rzx)
    import zx
    real = zx.Spectrum
    asked: list[tuple[str, object]] = []

    class Spy(real):
        def __init__(self, *args, **kwargs):
            asked.append(("headless", kwargs.get("headless")))
            super().__init__(*args, **kwargs)

        def _run_file(self, name, **kwargs):
            asked.append(("fast_forward", kwargs.get("fast_forward")))
            return super()._run_file(name, **kwargs)
    monkeypatch.setattr(zx, "Spectrum", Spy)                 # what emulators imports when it plays
    emulators.zx_play_rzx(path)
    assert asked == [("headless", True), ("fast_forward", True)]
