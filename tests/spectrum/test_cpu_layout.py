"""The CPU adapter reads internals of the z80 package: a release laid out differently is refused at
start-up in one line, never run with wrong timings."""
from __future__ import annotations

import pytest
import z80

from harness.errors import HarnessError, MachineError
from harness.spectrum import cpu


@pytest.fixture
def fresh_check():
    """The check runs once per process: forget its result before and after the test."""
    cpu.check_core_layout.cache_clear()
    yield
    cpu.check_core_layout.cache_clear()


def _alter_state_view(monkeypatch, alter) -> None:
    """Every state view asked for after the core's own constructor is passed through *alter*."""
    real_view, real_init = z80.Z80Machine.get_state_view, z80.Z80Machine.__init__
    constructing = [False]

    def init(self, *args, **kwargs):
        constructing[0] = True
        try:
            real_init(self, *args, **kwargs)
        finally:
            constructing[0] = False

    monkeypatch.setattr(z80.Z80Machine, "__init__", init)
    monkeypatch.setattr(z80.Z80Machine, "get_state_view",
                        lambda self: real_view(self) if constructing[0] else alter(real_view(self)))


def _one_line_refusal(match: str) -> str:
    with pytest.raises(MachineError, match=match) as err:
        cpu.Z80Core()
    message = str(err.value)
    assert "\n" not in message and isinstance(err.value, HarnessError)
    assert message.startswith("z80 ") and cpu.CHECKED_RANGE in message
    return message


def test_the_installed_core_has_the_layout(fresh_check):
    cpu.check_core_layout()
    core = cpu.Z80Core()
    core.memory[0] = 0x00                   # NOP
    assert core.run(4) == (4, False)


def test_a_missing_internal_is_refused_naming_it(fresh_check, monkeypatch):
    owner = next(c for c in z80.Z80Machine.__mro__ if "_BREAKPOINT_HIT" in vars(c))
    monkeypatch.delattr(owner, "_BREAKPOINT_HIT")
    _one_line_refusal("Z80Machine has no _BREAKPOINT_HIT")


def test_a_state_of_another_size_is_refused(fresh_check, monkeypatch):
    _alter_state_view(monkeypatch, lambda view: view[:-4])
    _one_line_refusal("its state is 65576 bytes, not 65580")


def test_counters_elsewhere_in_the_state_are_refused(fresh_check, monkeypatch):
    # the same size, but bytes 16-23 are no longer the live counters the adapter writes and reads
    _alter_state_view(monkeypatch, lambda view: memoryview(bytearray(view)))
    _one_line_refusal("ticks_to_stop is not the u32 at byte 16")


def test_a_frame_counter_that_does_not_wrap_at_100000_is_refused(fresh_check, monkeypatch):
    monkeypatch.setattr(cpu, "CORE_FRAME_WRAP", 70_000)
    _one_line_refusal("frame_tick is not the u32 at byte 20 counting T-states modulo 70000")
