"""Direct commands: what a person types without a line number, e.g. ``GO SUB 4700`` or ``PRINT X``.

Used to call a program's subroutine on the machine as it stands (variables
set by name first): the ROM runs the command, the subroutine's RETURN comes
back to the command line, and the command ends with a report, where the run stops.
"""
from __future__ import annotations

from ..errors import HarnessError
from .basic import tokenise_line
from .machine import Spectrum48, StopReason
from .romcheck import clear_edit_line, submit
from .typist import edit_line, typed_form


class DirectCommandError(HarnessError):
    """The machine is not at the editor, the ROM rejected the command, or it ended in an error."""


def command_bytes(text: str) -> bytes:
    """The tokenised command as typed (no hidden numbers: the ROM adds them itself)."""
    _, record = tokenise_line("1 " + text)
    return typed_form(record)[1:]                # drop the dummy line number's digit


def run_direct(m: Spectrum48, text: str, max_frames: int = 5000, allow_error: bool = False) -> StopReason:
    """Type *text* as a direct command, ENTER, and run until its report (or until it waits for a key)."""
    wait = m.wait_state() or m.run(200, until_wait=True, stop_on_report=False, what="the editor").wait
    if wait is None or wait.kind != "editor":
        raise DirectCommandError(f"cannot run {text!r}: the machine is not waiting in the editor ({wait})")
    clear_edit_line(m)
    submit(m, command_bytes(text))
    stop = m.run(max_frames, until_wait=True, what=f"the end of {text!r}")
    if stop.wait is not None and stop.wait.kind == "editor" and edit_line(m):
        raise DirectCommandError(f"the ROM rejected {text!r} (syntax error)")
    if stop.report is not None:
        if stop.report.is_error and not allow_error:
            raise DirectCommandError(f"{text!r} ended with report {stop.report}")
        m.run(200, until_wait=True, stop_on_report=False, what="the editor after the report")
    return stop
