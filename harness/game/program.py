"""What the driver knows of the BASIC program «КРИБЕДЖ»: its UDGs, codes, variables and line numbers.

Facts are taken from the listing (basic/cribbage.bas) and the magazine's
commentary; the emulator layer and the rules engine know none of them.
"""
from __future__ import annotations

ZX, MAN = 1, 2                       # line 7300: indexes of the computer and the player in S(), V(), G()

# UDGs defined by DATA 9600-9850, as a person sees them on screen (one character each).
UDG_TEXT = {
    144: "⁞",   # A: two pairs of board holes
    145: "⁚",   # B: one pair of board holes
    146: "♣",   # C: club
    147: "♦",   # D: diamond
    148: "·",   # E: single hole (start/end of the board)
    149: "▸",   # F: peg, upper half (player's side)
    150: "▹",   # G: peg, lower half
    151: "♥",   # H: heart
    152: "◂",   # I: peg, upper half (computer's side)
    153: "◃",   # J: peg, lower half
    154: "⚑",   # K: the winner's flag
    155: "В",   # L: face card ВАЛЕТ (jack)
    156: "Д",   # M: face card ДАМА (queen)
    157: "К",   # N: face card КОРОЛЬ (king)
    162: "♠",   # S: spade
    161: "⑩",   # R: the ten, "10" squeezed into one cell
}

# S$ = "\h\c\d\s" (line 7315): the suit number n is S$(n).
SUIT_CODES = (151, 146, 147, 162)
SUIT_TEXT = {1: "♥", 2: "♣", 3: "♦", 4: "♠"}
# R$ = "Т23456789\r\l\m\n" (line 7320): rank r is shown as R$(r); Т (ТУЗ) is the ace.
RANK_TEXT = {1: "Т", **{r: str(r) for r in range(2, 10)}, 10: "⑩", 11: "В", 12: "Д", 13: "К"}


def suit_number(code_or_char: int | str) -> int:
    """1-4 for a suit code of S$ (hearts, clubs, diamonds, spades)."""
    code = ord(code_or_char) if isinstance(code_or_char, str) else code_or_char
    try:
        return SUIT_CODES.index(code) + 1
    except ValueError:
        raise ValueError(f"{code:#04x} is not one of the suit codes of S$") from None
