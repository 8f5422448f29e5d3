"""Making and reclaiming room in the BASIC areas, as the ROM's MAKE-ROOM/RECLAIM and POINTERS do.

Everything from VARS up to STKEND moves when a variable grows or the edit
line is filled; the ROM's fourteen pointers above the change must follow, or
the interpreter loses its place.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import MachineError

if TYPE_CHECKING:                      # machine.py's BasicVariables users import this module
    from .machine import Spectrum48

POINTERS = ("VARS", "DEST", "CHANS", "CURCHL", "PROG", "NXTLIN", "DATADD", "E_LINE",
            "K_CUR", "CH_ADD", "X_PTR", "WORKSP", "STKBOT", "STKEND")  # the ROM's POINTERS list (0x1664)


class NoRoom(MachineError, MemoryError):
    """4 Out of memory: the change would run into the machine stack."""


def resize(machine: Spectrum48, at: int, old: int, new: int) -> None:
    """Replace *old* bytes at *at* by room for *new* bytes, moving what lies above and its pointers."""
    delta = new - old
    if delta == 0:
        return
    stkend = machine.peek("STKEND")
    if delta > 0 and stkend + delta + 80 > machine.cpu.get("sp"):
        raise NoRoom("4 Out of memory: no room to grow by %d bytes" % delta)
    tail = bytes(machine.mem[at + old:stkend])
    machine.write(at + new, tail)                # through the machine: its watchers see the move
    for ptr in POINTERS:
        p = machine.peek(ptr)
        if p > at:
            machine.poke(ptr, p + delta)
