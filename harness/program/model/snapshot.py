"""The game run to a chosen line, as `cribbage-zx snapshot --at LINE [--answer TEXT ...] PATH.z80` saves it (the command: harness/commands/snapshot.py).

The tape (built first if it is missing or older than the listing or the
font) is loaded in a fresh 48K as a person would, LOAD "" typed in the editor;
the program's waits are answered in order with the --answer texts (an INPUT
gets the text and ENTER; a wait on INKEY$ or PAUSE 0 gets one key: the text
names it, "" is ENTER), and the machine stops at the start of LINE and is
saved as a version 3 .z80 that Fuse, SkoolKit and `z80snap` read.
"""
from __future__ import annotations

from collections import deque


from ...errors import InputError, MachineError, needing
from ...spectrum.machine import Spectrum48
from ...spectrum.typist import Typist

MAX_FRAMES = 250_000      # about 83 emulated minutes: a finite limit for the whole run
LOAD_COMMAND = b'\xef""\r'  # LOAD "" ENTER, as loading.load_tape types it


def _tap_watching(machine: Spectrum48, key: str, target: tuple[int, int | None],
                  hold: int = 2, gap: int = 6) -> bool:
    """Press *key* for *hold* frames and release it for *gap*, stopping at once if the program reaches *target*.

    Returns True if it did. (Machine.tap would run those frames blind, and a
    line reached while a key is still down would be missed.)
    """
    for down, frames in ((True, hold), (False, gap)):
        (machine.press if down else machine.release)(key)
        end = machine.frames + frames
        stop = machine.run(frames + 1, until_line=target, until=lambda m: m.frames >= end,
                           stop_on_report=False, what="the end of a key press")
        if stop.kind == "line":
            machine.release()
            return True
    return False


def run_to_line(machine: Spectrum48, line: int, statement: int | None, answers: list[str],
                max_frames: int = MAX_FRAMES) -> int:
    """Run the loaded program to LINE, answering its waits in order; returns how many answers were used.

    An INPUT answer is typed by the typist (no program runs while it types)
    but its ENTER is pressed here, watching for the line, as is a key for
    INKEY$ or PAUSE 0.
    """
    left = deque(answers)
    start = machine.frames
    target = (line, statement)
    where = f"line {line}" + (f":{statement}" if statement else "")
    while True:
        budget = max_frames - (machine.frames - start)
        if budget <= 0:
            raise MachineError(f"{where} not reached within {max_frames} frames")
        stop = machine.run(budget, until_line=target, until_wait=True, what=where)     # or a RunTimeout
        if stop.kind == "line":
            machine.release()
            return len(answers) - len(left)
        if stop.kind == "report":
            raise MachineError(f"the program stopped with report {stop.report} before {where}")
        wait = stop.wait
        if wait is None:
            raise MachineError(f"the program stopped ({stop.kind}) before {where}")
        if wait.kind == "editor":
            raise MachineError(f"the program is back in the editor at {wait.line}:{wait.statement} "
                                   f"before {where}")
        if not left:
            what = "INPUT" if wait.kind == "input" else "a key"
            raise needing(MachineError(f"the program waits for {what} at line {wait.line}:{wait.statement} "
                                       f"before {where}, and no answer is left ({len(answers)} given)"), "answers")
        answer = left.popleft()
        try:
            if wait.kind == "input":
                Typist(machine).type_codes(answer.encode("latin-1"))
                key = "ENTER"
            else:
                key = answer or "ENTER"
            if _tap_watching(machine, key, target):
                return len(answers) - len(left)
        except (InputError, MachineError, UnicodeEncodeError) as exc:
            raise MachineError(f"answer {answer!r} to the wait at line {wait.line}:{wait.statement}: {exc}") from exc
