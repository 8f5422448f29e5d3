"""Write basic/variable_values.json: the program's variables at named moments of a game, for the memory map.

The tape built from the listing is loaded in a fresh 48K, as `cribbage-zx snapshot` loads it; the
program's waits are answered in order (`snapshot_cmd.run_to_line`) until each moment's line, and at
that line every BASIC variable is read from the machine's VARS area (harness/spectrum/variables.py),
with its place (address and bytes), and the system variables that bound the memory's areas (AREAS):
the same memory a .z80 snapshot of that moment holds. The HTML edition shows the values beside each
variable's meaning (basic/variables.toml). Deterministic: the same listing gives the same file, and
tests/test_variables_map.py checks that the file is current.

    .venv/bin/python -m tools.write_variable_values          # rewrite the file
    .venv/bin/python -m tools.write_variable_values --check  # exit 1 if it is stale
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from harness.runtime import atomic
from harness.program.model.build import build
from harness.program.model.snapshot import LOAD_COMMAND, run_to_line
from harness.spectrum.machine import Spectrum48
from harness.spectrum.tape import read_tap
from harness.spectrum.typist import Typist
from harness.spectrum.variables import BasicVariables, ForLoop

ROOT = Path(__file__).resolve().parents[1]

OUT = ROOT / "basic" / "variable_values.json"
#: the system variables that bound the memory map's areas (the ZX Spectrum manual, chapter 24): the program
#: from PROG, the variables from VARS to the 0x80 before E_LINE, the workspace and calculator stack to STKEND,
#: free memory up to the machine stack under RAMTOP, then what CLEAR kept above it (the chr font, the UDGs)
AREAS = ("PROG", "VARS", "E_LINE", "WORKSP", "STKBOT", "STKEND", "RAMTOP", "UDG", "CHARS", "P_RAMT")
MAX_FRAMES = 200_000
# (id, what the moment is, the line it stops at, the answers to the waits before it). The answers:
# no instructions, no muggins, any key to cut for deal; the player discards the cards in slots 1 and 2
# (ENTER, then SPACE to move and ENTER).
MOMENTS = (
    ("setup", "set-up done, before the first game (7400)", 7400, ["N"]),
    ("dealt", "the first deal made, before the discards (7800)", 7800, ["N", "N", ""]),
    ("discarded", "the computer's discards chosen (7840)", 7840, ["N", "N", ""]),
    ("play", "the play of the first deal begins (4040)", 4040, ["N", "N", "", "", " ", ""]),
)


def value_of(value):
    """A variable's value as JSON: numbers rounded as BASIC prints them, a FOR loop's counter and limit."""
    if isinstance(value, ForLoop):
        return {"for": _number(value.value), "to": _number(value.limit), "step": _number(value.step),
                "line": value.line}
    if isinstance(value, list):
        return [value_of(v) for v in value]
    if isinstance(value, str):
        return [ord(c) for c in value]              # codes: the edition draws them with the program's font
    return _number(value)


def _number(x):
    return int(x) if float(x).is_integer() else round(float(x), 6)


def moments() -> dict:
    tap = build().tap
    out = {"about": "Values of the BASIC variables at named moments of one game (tools/write_variable_values.py);"
                     " strings and character arrays as character codes.", "moments": []}
    for ident, what, line, answers in MOMENTS:
        machine = Spectrum48(fast=True)
        machine.boot()
        machine.insert_tape(read_tap(tap))
        Typist(machine).type_codes(LOAD_COMMAND)
        run_to_line(machine, line, None, answers, MAX_FRAMES)
        basic = BasicVariables(machine)
        values, places = {}, {}
        for v in basic.all():
            values[v.name] = value_of(basic.get(v.name))
            places[v.name] = [v.addr, v.size]
        out["moments"].append({"id": ident, "what": what, "line": line, "answers": answers,
                               "frames": machine.frames, "values": values,
                               "areas": {name: machine.peek(name) for name in AREAS}, "places": places})
    return out


def render() -> str:
    return json.dumps(moments(), ensure_ascii=False, indent=1, sort_keys=False) + "\n"


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        current = OUT.read_text(encoding="utf-8") if OUT.exists() else ""
        if current != text:
            print(f"{OUT.relative_to(ROOT)} is stale: run tools/write_variable_values.py")
            return 1
        return 0
    atomic.write_text(OUT, text)
    print(f"{OUT.relative_to(ROOT)}: {len(MOMENTS)} moments")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
