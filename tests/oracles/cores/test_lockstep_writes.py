"""The lockstep given a core that makes the right number of writes with one of them wrong (issue 51): the
value of one byte written, or its address, changed in z80-python's write at instruction 5,000 of the workload
(the ROM's boot, writing RAM). The run stops there with "writes" and both lists, one entry apart; the near
miss, the same wrapper with nothing changed, runs the same instructions with no divergence.

Starts z80-python beside our core (an oracle): ~20,000 instructions, a few CPU-seconds."""
from __future__ import annotations

import pytest

from harness.oracle import lockstep

pytest.importorskip("z80_python", reason="the lockstep needs z80-python: pip install -e '.[oracle]'")
AT = 5000
BUDGET = 20_000


@pytest.fixture(scope="module")
def tap(build_of) -> bytes:
    return build_of().tap


def _writing(change):
    """z80-python whose first memory write from instruction AT on is changed by *change*(addr, value)."""
    from z80_python import Z80CPU

    class Writing(Z80CPU):
        steps = 0
        hit: int | None = None
        written: tuple[int, int] | None = None

        def __init__(self, read, write):
            def planted(addr, value):
                if Writing.hit is None and Writing.steps >= AT:
                    Writing.hit, Writing.written = Writing.steps, (addr, value)
                    addr, value = change(addr, value)
                write(addr, value)
            super().__init__(read, planted)

        def step(self):
            t = super().step()
            Writing.steps += 1
            return t
    return Writing


def _one_apart(ours: list, theirs: list) -> list[tuple]:
    assert len(ours) == len(theirs)                 # the right number of writes
    return [(a, b) for a, b in zip(ours, theirs) if a != b]


def test_a_wrong_value_in_the_right_number_of_writes_is_a_divergence(tap):
    core = _writing(lambda addr, value: (addr, value ^ 0x01))
    result = lockstep.run_workload(tap, budget=BUDGET, theirs=core)
    d = result.divergence
    assert d is not None and d.field == "writes", result.describe()
    # z80-python counts its step after the write, so the instruction that wrote is the one numbered `hit`
    assert d.instruction == core.hit and core.hit >= AT
    addr, value = core.written
    assert _one_apart(d.ours, d.theirs) == [((addr, value), (addr, value ^ 0x01))]


def test_a_write_to_the_wrong_address_in_the_right_number_of_writes_is_a_divergence(tap):
    core = _writing(lambda addr, value: (addr ^ 0x0100, value))
    result = lockstep.run_workload(tap, budget=BUDGET, theirs=core)
    d = result.divergence
    assert d is not None and d.field == "writes", result.describe()
    assert d.instruction == core.hit
    addr, value = core.written
    assert _one_apart(d.ours, d.theirs) == [((addr, value), (addr ^ 0x0100, value))]


def test_near_miss_the_same_writes_through_the_wrapper_do_not_diverge(tap):
    core = _writing(lambda addr, value: (addr, value))
    result = lockstep.run_workload(tap, budget=BUDGET, theirs=core)
    assert result.divergence is None and result.instructions == BUDGET, result.describe()
    assert core.hit is not None and core.hit >= AT           # the write was passed through, unchanged
