"""The handful of errors the package raises on purpose, by what a caller does about them.

A failure the user can act on is a `HarnessError`: the command line
(harness/cli.py) prints its message as one line and exits with status 2.
Anything else is a bug and keeps its traceback. Every message names the
option, file (file:line) or place at fault; the class says which kind of
fault it is, so a caller that wants to act catches the kind, not a module's
private class.

==============  ==========================================  ==========================================
class           raised by                                   what a caller does
==============  ==========================================  ==========================================
UsageError      the commands and their option checks (cli,  show it and stop: the command line must
                regress, fairness, html, play, readings,    change (an option, a value, a missing
                conformance, bench); what a run cannot be   optional package or display it needs)
                set up with: the job runner's Dask side
                (runtime/cluster.py: no Dask, no TLS
                files, a scheduler that cannot be
                reached; runtime/scheduler.py's checks
                are ValueErrors the command line words),
                a CPU core (runs/loaded,
                spectrum/skoolcore), the choices of
                regress and strength, the oracles
                (emulators, lockstep, conformance: a
                program or package not installed), the
                benchmarks (bench, web/bench), the play
                window's display and session
InputError      every reader: listing, tape, TZX, WAV,      show it and stop: the file named at
                .z80, RZX, ROM, font, translation, notes,   file:line must be fixed or replaced
                transcripts, judgements, frames,
                report.json, sweep chunks, strength and
                readings records, any typed record
                (runtime/records.py), a page's generated
                block, cards, keys, saved sessions,
                links, package data; the ROM's refusal
                of a listing line (acceptance); a
                ValueError too, for callers of the
                parsers
OutputError     runtime/atomic.py (a file that cannot be    show it and stop: choose another --out,
                written), runtime/outdir.py (a folder in    free space, remove what is in the way;
                use, foreign or unwritable), and the        OSError handlers still see it
                writers that check a target first (pack,
                sweep, play's key record, web's page and
                server); an OSError too
MachineError    the emulated Spectrum (machine, typist,     show it; in a run, the game is recorded as
                direct commands, recording, cores), the     failed (the driver) and the run goes on; a
                program model's probes (subroutine,         timeout is told apart (RunTimeout)
                snapshot), the runs (regress, sweep,
                fairness, strength, pack, loaded tapes),
                the driver, the play session, bench, the
                oracles (emulators, lockstep), the job
                runner (runtime/jobs.py, pool.py,
                cluster.py: a worker that cannot start)
==============  ==========================================  ==========================================

Subclasses kept because some caller catches them apart from their kind (each defined where it is raised):

- ``RunTimeout(MachineError)`` (spectrum/machine.py): a run-until condition not met in its frames; the
  driver records the game as a "timeout", romcheck turns it into the literal's ValueError.
- ``DriverError(MachineError)`` and ``BudgetExceeded(DriverError)`` (program/observe/driver.py): the program did
  what the driver does not know, or the game outran its budget; the driver ends the game as failed
  ("driver", "budget") instead of stopping the run.
- ``VariableError(MachineError, KeyError)`` (spectrum/variables.py): the program has no such variable
  (yet); `in` and `set` catch it to answer False or create the variable. ``NoRoom(MachineError,
  MemoryError)`` (spectrum/workspace.py): no memory to grow one; becomes a VariableError.
- ``CharsetError(InputError)`` (spectrum/charset.py): carries ``reason`` and ``column``, which the
  tokeniser, the English edition and the listing reader put into their own file:line messages.
- ``StudyError(InputError)`` (program/runs/study.py): a transcript the strength study cannot follow; strength
  records that game as failed and studies the others.
- ``IllegalAction(HarnessError, ValueError)`` (cribbage/game.py): the rules engine refuses an action;
  the comparison records it as a difference (the program did something illegal), never a stop.
- ``RefusedVerdict(MachineError)`` (program/runs/readings.py): a reading would be called identical although its line
  ran in none of its games; `readings` refuses the verdict rather than write it.
- ``Diverged(MachineError)`` (oracle/lockstep.py): our core and z80-python part at an instruction; the
  lockstep run stops naming it.
- ``BudgetSpent(MachineError)`` (oracle/lockstep.py): the lockstep's instruction budget is used up; caught
  by the run itself (the suite's form), a MachineError only should it escape.
"""
from __future__ import annotations

from typing import TypeVar

__all__ = ["HarnessError", "UsageError", "InputError", "OutputError", "MachineError", "needing"]


class HarnessError(Exception):
    """A domain error: its message names the file, line or option at fault."""

    #: what would resolve it, in the library's own terms (`needing`); None: nothing the caller can give
    fix: str | None = None


_Error = TypeVar("_Error", bound=HarnessError)


def needing(exc: _Error, fix: str) -> _Error:
    """*exc* marked with what would resolve it, in the library's own terms: the parameter to give or change
    ("replace", "entries", "answers"). Library code names no command-line option; the command that took
    that parameter from a flag words the fix with the flag (harness/commands/cliargs.py `naming_flags`)."""
    exc.fix = fix
    return exc


class UsageError(HarnessError):
    """A command line, an option value or a set-up the command cannot run with: the user changes the command."""


class InputError(HarnessError, ValueError):
    """A file or value we read is missing or malformed; the message names it (file:line where there is one)."""


class OutputError(HarnessError, OSError):
    """A folder refused or a file that cannot be written; names it. Also an OSError, so code that handled
    the system's error still does."""

    def __str__(self) -> str:
        return str(self.strerror) if self.strerror is not None else super().__str__()


class MachineError(HarnessError):
    """The emulated Spectrum, the program on it or the machinery running it stopped, timed out or did
    what was not expected."""
