"""The 48K keyboard matrix, kept as data, and the port-0xFE read it produces.

Eight half-rows of five keys; a half-row is selected by a low address line
A8..A15 and a pressed key pulls its bit low. A read with several address lines
low ANDs every selected half-row, as the hardware does.
"""
from __future__ import annotations

from typing import Callable

from ..errors import HarnessError

# (address line, keys from bit 0 to bit 4) -- the documented hardware map.
HALF_ROWS: tuple[tuple[int, tuple[str, ...]], ...] = (
    (8, ("CAPS SHIFT", "Z", "X", "C", "V")),      # port 0xFEFE
    (9, ("A", "S", "D", "F", "G")),               # port 0xFDFE
    (10, ("Q", "W", "E", "R", "T")),              # port 0xFBFE
    (11, ("1", "2", "3", "4", "5")),              # port 0xF7FE
    (12, ("0", "9", "8", "7", "6")),              # port 0xEFFE
    (13, ("P", "O", "I", "U", "Y")),              # port 0xDFFE
    (14, ("ENTER", "L", "K", "J", "H")),          # port 0xBFFE
    (15, ("SPACE", "SYMBOL SHIFT", "M", "N", "B")),  # port 0x7FFE
)

#: key name -> (half-row index 0..7, bit 0..4)
KEY_POSITIONS: dict[str, tuple[int, int]] = {
    key: (row, bit) for row, (_, keys) in enumerate(HALF_ROWS) for bit, key in enumerate(keys)
}

ALIASES = {"CAPS": "CAPS SHIFT", "CS": "CAPS SHIFT", "SHIFT": "CAPS SHIFT",
           "SYMBOL": "SYMBOL SHIFT", "SS": "SYMBOL SHIFT", "SYM": "SYMBOL SHIFT",
           "RETURN": "ENTER", "CR": "ENTER", " ": "SPACE", "BREAK": "SPACE"}


class KeyError_(HarnessError, ValueError):
    """A key name that the 48K keyboard does not have."""


def key_name(name: str) -> str:
    """Canonical name of a key ('q' -> 'Q', 'ss' -> 'SYMBOL SHIFT'); unknown names raise."""
    if name == " ":
        return "SPACE"
    canon = " ".join(name.strip().upper().replace("_", " ").split())
    canon = ALIASES.get(canon, canon)
    if canon not in KEY_POSITIONS:
        known = ", ".join(sorted(KEY_POSITIONS))
        raise KeyError_(f"unknown key {name!r}; the 48K keys are: {known}")
    return canon


def parse_combo(combo: str | list[str] | tuple[str, ...]) -> frozenset[str]:
    """'CAPS SHIFT+2' or ['SS', 'P'] -> the set of canonical key names pressed together."""
    if isinstance(combo, str):
        parts = [p for p in combo.split("+")] if combo != "+" else ["+"]
    else:
        parts = list(combo)
    if not parts or any(not p.strip() and p != " " for p in parts):
        raise KeyError_(f"empty key name in {combo!r}")
    return frozenset(key_name(p) for p in parts)


IDLE = [0x1F] * 8


class Keyboard:
    """Which keys are down, and the byte a port-0xFE read sees for them."""

    def __init__(self) -> None:
        self.rows = [0x1F] * 8  # active-low bits per half-row
        #: called after every press or release (the machine rebuilds its port table); assigning
        #: ``rows`` directly does not call it
        self.on_change: Callable[[], None] = lambda: None

    def press(self, *names: str) -> None:
        for name in names:
            row, bit = KEY_POSITIONS[key_name(name)]
            self.rows[row] &= ~(1 << bit) & 0x1F
        self.on_change()

    def release(self, *names: str) -> None:
        for name in names:
            row, bit = KEY_POSITIONS[key_name(name)]
            self.rows[row] |= 1 << bit
        self.on_change()

    def release_all(self) -> None:
        self.rows = [0x1F] * 8
        self.on_change()

    def pressed(self) -> set[str]:
        return {k for k, (row, bit) in KEY_POSITIONS.items() if not self.rows[row] & (1 << bit)}

    def any_pressed(self) -> bool:
        return any(r != 0x1F for r in self.rows)

    def read(self, port: int) -> int:
        """Low five bits of a read of *port*: the AND of every half-row whose address line is low."""
        rows = self.rows
        if rows == IDLE:
            return 0x1F
        high = port >> 8
        value = 0x1F
        for row in range(8):
            if not high & (1 << row):
                value &= rows[row]
        return value
