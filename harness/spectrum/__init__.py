"""The embedded ZX Spectrum 48K (knows nothing of cribbage): the library's public face.

    from harness.spectrum import Spectrum48, load_tape, read_screen, koi7_char, BasicVariables

`__all__` names what a user of the library may rely on: the machine, the tape, the keyboard (and a typist
who enters lines and answers as a person would), the screen read as text, and BASIC's variables.
docs/LIBRARY.md shows each in use and examples/ runs them. The other modules of this package are the
machine's own parts; they may change between versions.

The names are imported when first used (PEP 562), so ``import harness.spectrum.tape`` does not pay for
the CPU core, numpy and the screen reader.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

#: each public name -> the module of this package that defines it
_WHERE = {
    # the machine
    "Spectrum48": "machine", "StopReason": "machine", "WaitState": "machine", "Report": "machine",
    "RunTimeout": "machine", "load_rom": "rom",
    # the tape
    "TapeBlock": "tape", "read_tap": "tape", "write_tap": "tape", "program_header": "tape",
    "code_header": "tape", "load_tape": "loading", "tokenise_program": "basic", "detokenise": "basic",
    # the keyboard
    "Keyboard": "keyboard", "Typist": "typist",
    # the screen reader
    "read_screen": "screen", "ScreenText": "screen", "save_png": "screen", "koi7_char": "charset",
    "rom_char": "charset",
    # BASIC's variables
    "BasicVariables": "variables", "Variable": "variables", "VariableError": "variables",
}

__all__ = list(_WHERE)


def __getattr__(name: str) -> object:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:
    from .basic import detokenise, tokenise_program
    from .charset import koi7_char, rom_char
    from .keyboard import Keyboard
    from .loading import load_tape
    from .machine import Report, RunTimeout, Spectrum48, StopReason, WaitState
    from .rom import load_rom
    from .screen import ScreenText, read_screen, save_png
    from .tape import TapeBlock, code_header, program_header, read_tap, write_tap
    from .typist import Typist
    from .variables import BasicVariables, Variable, VariableError
