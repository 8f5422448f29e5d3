"""Calling a program's subroutine from a direct command, with its inputs set by name."""
import pytest

from harness.errors import MachineError
from harness.spectrum.basic import tokenise_program
from harness.spectrum.direct import run_direct
from harness.spectrum.romcheck import enter_program
from harness.spectrum.variables import BasicVariables

PROGRAM = (
    "10 DIM H(5): LET S=0: STOP\n"
    "100 LET S=0: FOR X=1 TO 5: LET S=S+H(X)*X: NEXT X: RETURN\n"
)


def test_gosub_from_a_direct_command_returns_with_its_outputs(fast_machine):
    verdicts, m = enter_program(tokenise_program(PROGRAM), fast_machine)
    assert all(v.accepted for v in verdicts)
    stop = run_direct(m, "RUN")
    assert stop.report.code == "9"                      # STOP statement, variables in place
    v = BasicVariables(m)
    v.set("H()", [1, 2, 3, 4, 5])
    stop = run_direct(m, "GO SUB 100")
    assert stop.kind == "report" and stop.report.code == "0"
    assert v.get("S") == 1 * 1 + 2 * 2 + 3 * 3 + 4 * 4 + 5 * 5


def test_a_rejected_or_failing_command_is_an_error(fast_machine):
    verdicts, m = enter_program(tokenise_program(PROGRAM), fast_machine)
    with pytest.raises(MachineError, match="rejected"):
        run_direct(m, "PRINT 1+")
    with pytest.raises(MachineError, match="2 Variable not found"):
        run_direct(m, "PRINT Q")


def test_gosub_stack_reads_the_return_points_innermost_first(fast_machine):
    src = "10 PRINT 1: GO SUB 100: STOP\n100 GO SUB 200: RETURN\n200 PAUSE 0: RETURN\n"
    verdicts, m = enter_program(tokenise_program(src), fast_machine)
    stop = run_direct(m, "RUN")
    assert stop.kind == "wait" and stop.wait.kind == "pause" and stop.wait.line == 200
    assert m.gosub_stack() == [(100, 2), (10, 3)]
