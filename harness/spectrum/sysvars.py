"""48K system variables: name -> (address, size), from "The Complete Spectrum ROM Disassembly".

Kept as data so that code names what it reads (``sysvar(m, "PPC")``) instead of
carrying magic addresses.
"""
from __future__ import annotations

SYSVARS: dict[str, tuple[int, int]] = {
    "KSTATE": (23552, 8),   # keyboard state sets used by the ROM's debounce
    "LAST_K": (23560, 1),   # the last key pressed, as the editor will see it
    "REPDEL": (23561, 1),   # frames before a held key repeats
    "REPPER": (23562, 1),   # frames between repeats
    "DEFADD": (23563, 2),   # arguments of a user-defined function being evaluated
    "K_DATA": (23565, 1),   # second byte of a colour control typed at the keyboard
    "TVDATA": (23566, 2),   # colour/AT/TAB control bytes waiting for the screen
    "STRMS": (23568, 38),   # channel offsets of streams -3..15
    "CHARS": (23606, 2),    # address of the character set minus 256
    "RASP": (23608, 1),     # length of the warning buzz
    "PIP": (23609, 1),      # length of the keyboard click
    "ERR_NR": (23610, 1),   # report code minus one; 255 = no report
    "FLAGS": (23611, 1),    # bit 5: a new key has been pressed
    "TV_FLAG": (23612, 1),  # bit 0: the lower screen is in use
    "ERR_SP": (23613, 2),   # where the error handler's return address sits
    "LIST_SP": (23615, 2),  # return address for automatic listing
    "MODE": (23617, 1),     # K/L/C/E/G cursor mode
    "NEWPPC": (23618, 2),   # line to be jumped to
    "NSPPC": (23620, 1),    # statement within NEWPPC; 255 = none
    "PPC": (23621, 2),      # line being interpreted
    "SUBPPC": (23623, 1),   # statement within PPC being interpreted
    "BORDCR": (23624, 1),   # border colour * 8 and lower-screen attributes
    "E_PPC": (23625, 2),    # current line of the listing (the > cursor)
    "VARS": (23627, 2),     # start of the BASIC variables
    "DEST": (23629, 2),     # variable being assigned to
    "CHANS": (23631, 2),    # channel information
    "CURCHL": (23633, 2),   # current channel
    "PROG": (23635, 2),     # start of the BASIC program
    "NXTLIN": (23637, 2),   # next line of the program
    "DATADD": (23639, 2),   # end of the last DATA item read
    "E_LINE": (23641, 2),   # the line being edited (or INPUT being typed)
    "K_CUR": (23643, 2),    # the cursor in the edit line
    "CH_ADD": (23645, 2),   # the next character to be interpreted
    "X_PTR": (23647, 2),    # where a syntax error was found
    "WORKSP": (23649, 2),   # temporary workspace
    "STKBOT": (23651, 2),   # bottom of the calculator stack
    "STKEND": (23653, 2),   # top of the calculator stack (start of free space)
    "BREG": (23655, 1),     # calculator's B register
    "MEM": (23656, 2),      # calculator memory area
    "FLAGS2": (23658, 1),   # bit 3: CAPS LOCK
    "DF_SZ": (23659, 1),    # lines in the lower screen
    "S_TOP": (23660, 2),    # top line of an automatic listing
    "OLDPPC": (23662, 2),   # line CONTINUE goes to
    "OSPPC": (23664, 1),    # statement CONTINUE goes to
    "FLAGX": (23665, 1),    # bit 5: INPUT mode
    "STRLEN": (23666, 2),   # length of a string being assigned
    "T_ADDR": (23668, 2),   # next item in the syntax table
    "SEED": (23670, 2),     # the seed of RND; set by RANDOMIZE
    "FRAMES": (23672, 3),   # frames counted by the interrupt since power-on
    "UDG": (23675, 2),      # address of the first user-defined graphic
    "COORDS": (23677, 2),   # last point plotted
    "P_POSN": (23679, 1),   # printer column
    "PR_CC": (23680, 2),    # printer buffer position
    "ECHO_E": (23682, 2),   # INPUT buffer end position
    "DF_CC": (23684, 2),    # PRINT position in the display file
    "DFCCL": (23686, 2),    # PRINT position in the lower screen
    "S_POSN": (23688, 2),   # column and line of the PRINT position
    "SPOSNL": (23690, 2),   # column and line in the lower screen
    "SCR_CT": (23692, 1),   # scrolls left before "scroll?"
    "ATTR_P": (23693, 1),   # permanent colours
    "MASK_P": (23694, 1),   # permanent transparent colours
    "ATTR_T": (23695, 1),   # temporary colours
    "MASK_T": (23696, 1),   # temporary transparent colours
    "P_FLAG": (23697, 1),   # OVER/INVERSE/INK 9/PAPER 9 flags
    "MEMBOT": (23698, 30),  # calculator memory
    "RAMTOP": (23730, 2),   # last byte of the BASIC system area (CLEAR)
    "P_RAMT": (23732, 2),   # last byte of physical RAM
}

REPORTS = {
    "0": "OK", "1": "NEXT without FOR", "2": "Variable not found", "3": "Subscript wrong",
    "4": "Out of memory", "5": "Out of screen", "6": "Number too big",
    "7": "RETURN without GO SUB", "8": "End of file", "9": "STOP statement",
    "A": "Invalid argument", "B": "Integer out of range", "C": "Nonsense in BASIC",
    "D": "BREAK - CONT repeats", "E": "Out of DATA", "F": "Invalid file name",
    "G": "No room for line", "H": "STOP in INPUT", "I": "FOR without NEXT",
    "J": "Invalid I/O device", "K": "Invalid colour", "L": "BREAK into program",
    "M": "RAMTOP no good", "N": "Statement lost", "O": "Invalid stream",
    "P": "FN without DEF", "Q": "Parameter error", "R": "Tape loading error",
}


def report_code(err_nr: int) -> str:
    """The report character ('0'-'9', 'A'-'R') for an ERR_NR value (code minus one)."""
    n = (err_nr + 1) & 0xFF
    return str(n) if n < 10 else chr(ord("A") + n - 10)


def print_row(s_posn: int) -> int:
    """The upper screen's row (0-23) of the PRINT position held in S_POSN.

    S_POSN's low byte is 33 minus the column and its high byte 24 minus the line of the PRINT position
    (the system variables, chapter 25 of the Spectrum's BASIC manual; the ROM's CL-SET at 0DD9 makes the
    display address from that pair), so the top row is 24 and the bottom one 1."""
    return 24 - (s_posn >> 8)
