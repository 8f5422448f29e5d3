"""Calling one of the program's subroutines on the emulated machine, many times over, fast.

The program is loaded and started as a person would (LOAD "", N, N), then
BREAK is pressed at the first INKEY$ wait, which leaves every array the
program DIMensioned in place and the editor ready for direct commands. A
direct command ``GO SUB n`` is entered and the machine is stopped on the
subroutine's first statement; that state is kept. Each call then restores
it, writes the inputs straight into the variables (their addresses do not
move, since every write keeps its size), runs the ROM until a chosen
statement (a RETURN, or the point where the outputs are complete) and reads
the outputs back. The listing is not changed.
"""
from __future__ import annotations

from typing import Callable, Sequence

from ...errors import MachineError
from ...spectrum.direct import command_bytes, run_direct
from ...spectrum.floats import encode
from ...spectrum.loading import load_tape
from ...spectrum.core import Core
from ...spectrum.machine import Spectrum48
from ...spectrum.romcheck import submit
from ...spectrum.typist import Typist
from ...spectrum.tape import TapeBlock
from ...spectrum.variables import BasicVariables, Variable
from . import program as P
from .program import CUT_WAIT


def program_at_editor(tape: bytes | list[TapeBlock], core: Callable[[], Core] | None = None) -> Spectrum48:
    """The program loaded, answered N and N, and broken into at the cut for deal (CUT_WAIT) with BREAK
    (on *core*, a CPU core adapter class, if given: the second-core test runs a sweep chunk on SkoolKit)."""
    m = Spectrum48(fast=True) if core is None else Spectrum48(fast=True, core=core)
    m.boot()
    load_tape(m, tape)
    for _ in range(2):
        Typist(m).answer(P.NO)
        stop = m.run_until_wait(3000)
    if stop.wait is None or stop.wait.line != CUT_WAIT:           # kind "wait" sets it
        raise MachineError(f"expected the cut for deal at {CUT_WAIT}, got {stop}")
    m.press("CAPS SHIFT+SPACE")
    stop = m.run_until_report(200)
    m.release()
    if stop.report is None or stop.report.code != "L":
        raise MachineError(f"BREAK gave report {stop.report}, not L BREAK into program")
    m.run(200, until_wait=True, stop_on_report=False, what="the editor after BREAK")
    return m


class Subroutine:
    """GO SUB *line* from a direct command, stopped at its first statement; begin(), set the
    inputs, run(), read the outputs."""

    def __init__(self, machine: Spectrum48, line: int, stops: set[tuple[int, int]], setup: str = "",
                 max_frames: int = 2000):
        self.m = machine
        self.stops = stops
        self.max_frames = max_frames
        if setup:
            run_direct(machine, setup)               # create the scalar variables the routine uses
        submit(machine, command_bytes(f"GO SUB {line}"))
        stop = machine.run(200, until_line=(line, None), what=f"line {line}")
        if stop.kind != "line":
            raise MachineError(f"GO SUB {line} did not reach its first statement: {stop}")
        self.v = BasicVariables(machine)
        self._addr = {v.name: v for v in self.v.all()}
        self.snapshot = machine.snapshot()

        def at_stop(line_: int, stmt: int) -> bool:
            return (line_, stmt) in self.stops
        self._hook = at_stop

    def _var(self, name: str) -> Variable:
        try:
            return self._addr[name]
        except KeyError:
            raise MachineError(f"the program has no variable {name} at this point") from None

    def set_number(self, name: str, value: float) -> None:
        v = self._var(name)
        self.m.write(v.value_addr, encode(value))

    def set_array(self, name: str, values: Sequence[float], start: int = 1) -> None:
        """Elements start.. of a one-dimensional numeric array."""
        v = self._var(name)
        a = v.value_addr + 5 * (start - 1)
        data = b"".join(encode(x) for x in values)
        if start - 1 + len(values) > v.dims[0]:
            raise MachineError(f"{name} has only {v.dims[0]} elements")
        self.m.write(a, data)

    def set_chars(self, name: str, codes: bytes, start: int = 1) -> None:
        """Characters start.. of a DIM X$(n) string."""
        v = self._var(name)
        a = v.value_addr + start - 1
        self.m.write(a, codes)

    def output(self, name: str) -> int | float:
        """A numeric variable after the run (read afresh: a FOR inside the routine may have moved variables)."""
        return self.v.number(name)

    def output_array(self, name: str) -> list[float]:
        """A numeric array of one dimension after the run (read afresh, as `output`)."""
        value: object = self.v.get(name)
        if not isinstance(value, list):
            raise MachineError(f"{name} is not a numeric array of one dimension")
        numbers = [x for x in value if isinstance(x, (int, float)) and not isinstance(x, bool)]
        if len(numbers) != len(value):
            raise MachineError(f"{name} is not a numeric array of one dimension")
        return numbers

    def begin(self) -> None:
        """Restore the machine to the subroutine's first statement, before the inputs are written."""
        self.m.restore(self.snapshot)

    def run(self) -> tuple[int, int]:
        """Run from the first statement until one of the stop statements; returns where it stopped."""
        m = self.m
        m.add_statement_hook(self._hook)
        try:
            stop = m.run(self.max_frames, stop_on_report=True, what="the end of the subroutine")
        finally:
            m.remove_statement_hook(self._hook)
        if stop.kind == "report":
            raise MachineError(f"the subroutine stopped with report {stop.report}")
        return m.ppc, m.subppc
