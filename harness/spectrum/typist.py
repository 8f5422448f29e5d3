"""A typist at the 48K keyboard: enters BASIC lines and INPUT answers as a person would.

On a 48K every keyword is one keypress whose meaning depends on the cursor
mode: K (a letter gives a command), L/C (letters, with CAPS LOCK in C), E
(extended: CAPS SHIFT+SYMBOL SHIFT first) and G (graphics: CAPS SHIFT+9
toggles it). The typist reads the mode the ROM is in before every key and
presses what a person would, so the ROM itself tokenises the line.
"""
from __future__ import annotations

from ..errors import MachineError
from .machine import Spectrum48

# Token code -> how to type it: ('K', key) a command key in K mode; ('SS', key) symbol shift, any mode;
# ('E', key) extended mode then the key; ('ESS', key) extended mode then symbol shift + key.
TOKEN_KEYS: dict[int, tuple[str, str]] = {
    0xA5: ("E", "T"),    # RND
    0xA6: ("E", "N"),    # INKEY$
    0xA7: ("E", "M"),    # PI
    0xA8: ("ESS", "2"),  # FN
    0xA9: ("ESS", "8"),  # POINT
    0xAA: ("ESS", "K"),  # SCREEN$
    0xAB: ("ESS", "L"),  # ATTR
    0xAC: ("SS", "I"),   # AT
    0xAD: ("E", "P"),    # TAB
    0xAE: ("ESS", "J"),  # VAL$
    0xAF: ("E", "I"),    # CODE
    0xB0: ("E", "J"),    # VAL
    0xB1: ("E", "K"),    # LEN
    0xB2: ("E", "Q"),    # SIN
    0xB3: ("E", "W"),    # COS
    0xB4: ("E", "E"),    # TAN
    0xB5: ("ESS", "Q"),  # ASN
    0xB6: ("ESS", "W"),  # ACS
    0xB7: ("ESS", "E"),  # ATN
    0xB8: ("E", "Z"),    # LN
    0xB9: ("E", "X"),    # EXP
    0xBA: ("E", "R"),    # INT
    0xBB: ("E", "H"),    # SQR
    0xBC: ("E", "F"),    # SGN
    0xBD: ("E", "G"),    # ABS
    0xBE: ("E", "O"),    # PEEK
    0xBF: ("ESS", "I"),  # IN
    0xC0: ("E", "L"),    # USR
    0xC1: ("E", "Y"),    # STR$
    0xC2: ("E", "U"),    # CHR$
    0xC3: ("SS", "S"),   # NOT
    0xC4: ("E", "B"),    # BIN
    0xC5: ("SS", "U"),   # OR
    0xC6: ("SS", "Y"),   # AND
    0xC7: ("SS", "Q"),   # <=
    0xC8: ("SS", "E"),   # >=
    0xC9: ("SS", "W"),   # <>
    0xCA: ("ESS", "3"),  # LINE
    0xCB: ("SS", "G"),   # THEN
    0xCC: ("SS", "F"),   # TO
    0xCD: ("SS", "D"),   # STEP
    0xCE: ("ESS", "1"),  # DEF FN
    0xCF: ("ESS", "9"),  # CAT
    0xD0: ("ESS", "0"),  # FORMAT
    0xD1: ("ESS", "6"),  # MOVE
    0xD2: ("ESS", "7"),  # ERASE
    0xD3: ("ESS", "4"),  # OPEN #
    0xD4: ("ESS", "5"),  # CLOSE #
    0xD5: ("ESS", "T"),  # MERGE
    0xD6: ("ESS", "R"),  # VERIFY
    0xD7: ("ESS", "Z"),  # BEEP
    0xD8: ("ESS", "H"),  # CIRCLE
    0xD9: ("ESS", "X"),  # INK
    0xDA: ("ESS", "C"),  # PAPER
    0xDB: ("ESS", "V"),  # FLASH
    0xDC: ("ESS", "B"),  # BRIGHT
    0xDD: ("ESS", "M"),  # INVERSE
    0xDE: ("ESS", "N"),  # OVER
    0xDF: ("ESS", "O"),  # OUT
    0xE0: ("E", "C"),    # LPRINT
    0xE1: ("E", "V"),    # LLIST
    0xE2: ("SS", "A"),   # STOP
    0xE3: ("E", "A"),    # READ
    0xE4: ("E", "D"),    # DATA
    0xE5: ("E", "S"),    # RESTORE
    0xE6: ("K", "A"),    # NEW
    0xE7: ("K", "B"),    # BORDER
    0xE8: ("K", "C"),    # CONTINUE
    0xE9: ("K", "D"),    # DIM
    0xEA: ("K", "E"),    # REM
    0xEB: ("K", "F"),    # FOR
    0xEC: ("K", "G"),    # GO TO
    0xED: ("K", "H"),    # GO SUB
    0xEE: ("K", "I"),    # INPUT
    0xEF: ("K", "J"),    # LOAD
    0xF0: ("K", "K"),    # LIST
    0xF1: ("K", "L"),    # LET
    0xF2: ("K", "M"),    # PAUSE
    0xF3: ("K", "N"),    # NEXT
    0xF4: ("K", "O"),    # POKE
    0xF5: ("K", "P"),    # PRINT
    0xF6: ("K", "Q"),    # PLOT
    0xF7: ("K", "R"),    # RUN
    0xF8: ("K", "S"),    # SAVE
    0xF9: ("K", "T"),    # RANDOMIZE
    0xFA: ("K", "U"),    # IF
    0xFB: ("K", "V"),    # CLS
    0xFC: ("K", "W"),    # DRAW
    0xFD: ("K", "X"),    # CLEAR
    0xFE: ("K", "Y"),    # RETURN
    0xFF: ("K", "Z"),    # COPY
}

# Character code -> how to type it (letters and digits are handled by rule).
CHAR_KEYS: dict[int, tuple[str, str]] = {
    0x20: ("", "SPACE"),   # space
    0x21: ("SS", "1"),     # !
    0x22: ("SS", "P"),     # "
    0x23: ("SS", "3"),     # #
    0x24: ("SS", "4"),     # $
    0x25: ("SS", "5"),     # %
    0x26: ("SS", "6"),     # &
    0x27: ("SS", "7"),     # '
    0x28: ("SS", "8"),     # (
    0x29: ("SS", "9"),     # )
    0x2A: ("SS", "B"),     # *
    0x2B: ("SS", "K"),     # +
    0x2C: ("SS", "N"),     # ,
    0x2D: ("SS", "J"),     # -
    0x2E: ("SS", "M"),     # .
    0x2F: ("SS", "V"),     # /
    0x3A: ("SS", "Z"),     # :
    0x3B: ("SS", "O"),     # ;
    0x3C: ("SS", "R"),     # <
    0x3D: ("SS", "L"),     # =
    0x3E: ("SS", "T"),     # >
    0x3F: ("SS", "C"),     # ?
    0x40: ("SS", "2"),     # @
    0x5B: ("ESS", "Y"),    # [
    0x5C: ("ESS", "D"),    # backslash
    0x5D: ("ESS", "U"),    # ]
    0x5E: ("SS", "H"),     # up arrow
    0x5F: ("SS", "0"),     # _
    0x60: ("SS", "X"),     # pound sign (KOI-7: Ю)
    0x7B: ("ESS", "F"),    # { (KOI-7: Ш)
    0x7C: ("ESS", "S"),    # | (KOI-7: Э)
    0x7D: ("ESS", "G"),    # } (KOI-7: Щ)
    0x7E: ("ESS", "A"),    # ~ (KOI-7: Ч)
    0x7F: ("ESS", "P"),    # copyright
}


class Typist:
    """Types codes into the ROM's editor through the keyboard matrix."""

    def __init__(self, machine: Spectrum48, hold: int = 2, gap: int = 5):
        self.m = machine
        self.hold, self.gap = hold, gap
        self.keys_pressed = 0

    # -- the ROM's view of the cursor ---------------------------------------
    def mode(self) -> str:
        """'K', 'L', 'C', 'E' or 'G' as the editor's cursor would show it."""
        mode = self.m.peek("MODE")
        if mode == 1:
            return "E"
        if mode == 2:
            return "G"
        if not self.m.peek("FLAGS") & 0x08:
            return "K"
        return "C" if self.m.peek("FLAGS2") & 0x08 else "L"

    def key(self, combo: str) -> None:
        """Press and release one combination, then wait until the editor has taken the key."""
        self.m.tap(combo, self.hold, self.gap)
        self.keys_pressed += 1
        for _ in range(100):
            if not self.m.peek("FLAGS") & 0x20:
                return
            self.m.run_frame()
        raise MachineError(f"the ROM did not take the key {combo} (LAST_K={self.m.peek('LAST_K')})")

    def _extended(self) -> None:
        if self.mode() != "E":
            self.key("CAPS SHIFT+SYMBOL SHIFT")

    def _leave_graphics(self) -> None:
        if self.mode() == "G":
            self.key("CAPS SHIFT+9")

    def type_code(self, code: int) -> None:
        """Type one code: a token, a character or a UDG."""
        if 0x90 <= code <= 0xA4:                          # UDG A-U in graphics mode
            if self.mode() != "G":
                self.key("CAPS SHIFT+9")
            self.key(chr(ord("A") + code - 0x90))
            return
        self._leave_graphics()
        if code >= 0xA5:
            how, key = TOKEN_KEYS[code]
            if how == "K" and self.mode() != "K":
                raise MachineError(f"token {code:#04x} is typed in K mode but the cursor is in {self.mode()} mode")
        elif 0x30 <= code <= 0x39:
            how, key = "", chr(code)
        elif 0x41 <= code <= 0x5A or 0x61 <= code <= 0x7A:
            self._letter(code)
            return
        elif code == 0x0D:
            how, key = "", "ENTER"
        elif code in CHAR_KEYS:
            how, key = CHAR_KEYS[code]
        else:
            raise MachineError(f"code {code:#04x} cannot be typed on the 48K keyboard")
        if how in ("E", "ESS"):
            self._extended()
        self.key(("SYMBOL SHIFT+" if how in ("SS", "ESS") else "") + key)

    def _letter(self, code: int) -> None:
        mode = self.mode()
        if mode == "K":
            raise MachineError(f"letter {chr(code)!r} where the cursor is in K mode (a statement must start with a keyword)")
        upper = code < 0x60
        caps_lock = bool(self.m.peek("FLAGS2") & 0x08)
        if not upper and caps_lock:
            self.key("CAPS SHIFT+2")                      # CAPS LOCK off for a small letter
        if upper and not caps_lock:
            self.key("CAPS SHIFT+" + chr(code))
        else:
            self.key(chr(code).upper())

    def type_codes(self, codes: bytes) -> None:
        for code in codes:
            self.type_code(code)

    def enter_line(self, body: bytes, check: bool = True) -> None:
        """Type a program line (its number's digits and tokenised body, no hidden numbers) and ENTER.

        With *check*, the edit line is compared with what was meant before ENTER,
        and the ROM must accept it (the edit line is empty afterwards).
        """
        self.type_codes(body)
        if check:
            typed = edit_line(self.m)
            if typed != body:
                raise MachineError(f"typed {body!r} but the edit line holds {typed!r}")
        self.type_code(0x0D)
        self.m.run(500, until_wait=True, stop_on_report=False, what="the editor after ENTER")
        left = edit_line(self.m)
        if left:
            raise MachineError(f"the ROM rejected the line (syntax error near offset "
                              f"{self.m.peek('X_PTR') - self.m.peek('E_LINE')}): {left!r}")

    def answer(self, text: bytes | str) -> None:
        """Type an answer into INPUT and press ENTER."""
        codes = text.encode("latin-1") if isinstance(text, str) else text
        self.type_codes(codes + b"\r")


def edit_line(machine: Spectrum48) -> bytes:
    """The contents of the edit line (without its ENTER), hidden numbers included."""
    start = machine.peek("E_LINE")
    end = machine.peek("WORKSP")
    data = machine.read(start, max(0, end - start))
    cut = data.find(b"\x0d")
    return data[:cut] if cut >= 0 else data


def typed_form(record: bytes) -> bytes:
    """What a person types for a stored program line: its number's digits and the body
    without the hidden 0x0E + 5-byte numbers (and DEF FN slots) that the ROM adds itself."""
    number = int.from_bytes(record[:2], "big")
    body = record[4:]
    out, i, in_string = bytearray(str(number).encode()), 0, False
    while i < len(body):
        b = body[i]
        if b == 0x0D and not in_string:
            break
        if b == 0x22:
            in_string = not in_string
        elif b == 0x0E and not in_string:
            i += 6
            continue
        elif b == 0xEA and not in_string:          # REM: the rest of the line is text
            out += body[i:body.rindex(0x0D)]
            break
        out.append(b)
        i += 1
    return bytes(out)
