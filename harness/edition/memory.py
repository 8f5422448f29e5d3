"""The variables page's model: the 48K's memory at a named moment, and each variable's value as a reader reads it.

The moments are basic/variable_values.json's (tools/write_variable_values.py reads them off a game): the
system variables give the map of memory, low to high; the values are shown in the listing's own spelling.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..runtime.validate import JsonValue
from ..program.model.program import FONT_ADDRESS, FONT_LENGTH, FONT_NAME, UDG_TEXT
from . import glyphs
from .analysis import Variable
from .notes import ForLoop, Moment

__all__ = ["Area", "memory_map", "shown_value", "variable_groups"]


@dataclass(frozen=True)
class Area:
    """One stretch of the 48K's memory at a moment: [start, end) and what it holds."""
    name: str
    what: str
    start: int
    end: int

    @property
    def size(self) -> int:
        return self.end - self.start


# the fixed part of the map (the ZX Spectrum manual, chapter 24)
FIXED_AREAS = (("ROM", "the 16K ROM: BASIC itself", 0, 16384),
               ("screen", "the display file and its attributes", 16384, 23296),
               ("printer buffer", "the ZX Printer's buffer", 23296, 23552),
               ("system variables", "the ROM's system variables (PROG, VARS, E_LINE...)", 23552, 23734))


def memory_map(moment: Moment, udgs: int) -> list[Area]:
    """The memory at a moment, low to high, from the system variables tools/write_variable_values.py read
    (an empty list for a moment without them); *udgs*: how many UDGs the program defines (8 bytes each)."""
    a = moment.system
    if a is None:
        return []
    out = [Area(*f) for f in FIXED_AREAS]
    out += [Area("channels", "the channel information, from CHANS", 23734, a.prog),
            Area("program", "the BASIC program, line by line, from PROG", a.prog, a.vars),
            Area("variables", "the variables area, from VARS (each variable's place is in the table below), "
                 "and its 0x80 end marker", a.vars, a.e_line),
            Area("workspace", "the edit line, INPUT's workspace and the calculator's stack, E_LINE to STKEND",
                 a.e_line, a.stkend),
            Area("free and stacks", "free memory, then the machine stack and the GO SUB stack under RAMTOP",
                 a.stkend, a.ramtop + 1)]
    if a.ramtop + 1 < FONT_ADDRESS:
        out.append(Area("above RAMTOP", "kept by CLEAR, unused", a.ramtop + 1, FONT_ADDRESS))
    out.append(Area(f"the {FONT_NAME} font", f'the font line 2 loads (LOAD "{FONT_NAME}" CODE {FONT_ADDRESS}), '
                    f"codes 32-127; CHARS = {'?' if a.chars is None else a.chars}, 256 below it", FONT_ADDRESS,
                    FONT_ADDRESS + FONT_LENGTH))
    if FONT_ADDRESS + FONT_LENGTH < a.udg:
        out.append(Area("unused", "between the font and the UDGs", FONT_ADDRESS + FONT_LENGTH, a.udg))
    out.append(Area("UDGs", f"the user-defined graphics from UDG: the {udgs} the program defines (the cards' "
                    f"letters, suits and the ten)", a.udg, a.udg + 8 * udgs))
    if a.udg + 8 * udgs < 65536:
        out.append(Area("top", "above the UDGs", a.udg + 8 * udgs, 65536))
    return out


def shown_value(value: JsonValue | ForLoop, kind: str) -> str:
    """A value of tools/write_variable_values.py as a reader reads it: text in quotes, arrays in brackets."""
    if isinstance(value, ForLoop):                 # a FOR loop's control variable
        return f"{value.value} (FOR to {value.limit}, step {value.step}, loop at {value.line})"
    if isinstance(value, list):
        if kind.startswith("string") or kind == "string array":
            codes = [v for v in value if isinstance(v, int)]
            if value and len(codes) == len(value):
                return '"' + "".join(glyphs.readable(c, UDG_TEXT) for c in codes) + '"'
        return "[" + ", ".join(shown_value(v, kind) for v in value) + "]"
    return str(value)


def variable_groups(variables: dict[str, Variable]) -> list[tuple[str, str, list[Variable]]]:
    """(token name, anchor, [Variable...]) with X and X() side by side."""
    groups: dict[str, list[Variable]] = {}
    for name, var in variables.items():
        base = name[:-2] if name.endswith("()") else name
        groups.setdefault(base, []).append(var)
    return [(base, vars_[0].anchor_group, vars_) for base, vars_ in
            sorted(groups.items(), key=lambda kv: (kv[0].startswith("FN"), kv[0]))]
