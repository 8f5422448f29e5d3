"""LOOK-VARS (0x28B2), the other quarter of a game's T-states after LINE-ADDR's (accelerate.py), has its walk
over the variables answered (V-RUN, 0x28FD, to V-EACH, 0x2900, at the last variable before the one sought): each pass over a variable not sought costs what the
ROM's instructions cost for its type (`skip_cost`), and the walk is kept while no byte it read is written
(first bytes, string and array lengths, longer names' letters, the area's end, VARS: marked in the core;
a write cuts the walk back to the variables before it). The pass over that last variable is the ROM's
own, and it rewrites all that the skipped passes left and the answer does not (A, F, DE, MEMPTR, the
last address read, the six stack bytes), so the machine is the plain ROM's when it ends; it must end
before the frame's end. The name's reading before the walk and the match after it are the ROM's (they
read the program's text at CH_ADD and write CH_ADD and FLAGS). RZX recordings count instruction fetches
per frame; they run on the plain ROM (`LoadedTape.machine`).

accelerate.py answers the walk; here is what each pass over a variable costs, and how far the walk has got.
"""
from __future__ import annotations

from .core import Memory

VARS = 23627                  # the system variable VARS: where the variables area starts
V_RUN = 0x28FD                # LOOK-VARS at run time: LD HL,(VARS), then its walk over the variables
V_EACH = 0x2900               # the walk's loop: LD A,(HL); AND 7F; JR Z end; CP C; JR NZ next (NEXT-ONE)


def skip_cost(mem: Memory, a: int) -> tuple[int, int, int, int] | None:
    """One pass of LOOK-VARS's walk (V-EACH, 0x2900, to V-EACH) over the variable at *a* that is not the
    one sought: (T-states, R steps, the next variable's address, the bytes from *a* the pass reads that
    decide it), from the ROM's instructions (V-EACH's test, V-NEXT's PUSH BC, CALL NEXT-ONE, EX DE,HL,
    POP BC, JR, and NEXT-ONE's path for the variable's type); None for a byte below 0x40 (NEXT-ONE
    takes it for a line). Every pass writes the same six stack bytes and leaves BC as it was.

    Common to every type: V-EACH's test 37 T (5 R), V-NEXT 54 T (5 R), NEXT-ONE's head (PUSH HL, LD A,(HL),
    CP 40, JR C, BIT 5,A) 40 T (6 R) and its tail from 0x19DB 73 T (10 R): 204 T, 26 R. Then by type:
    a string or an array (bit 5 clear) reads its length: 44 T, 6 R; a one-letter number 79 T, 10 R; a FOR
    control 81 T, 11 R; a number of a longer name of L letters reads them all: 54 + 29L T, 7 + 4L R."""
    b = mem[a]
    if b < 0x40:
        return None
    if not b & 0x20:                                     # 010 string, 100 / 110 array: a length word
        n = mem[a + 1] | mem[a + 2] << 8
        return 248, 32, a + 3 + n, 3
    kind = b & 0xE0
    if kind == 0x60:                                     # one letter: 5 bytes of value
        return 283, 36, a + 6, 1
    if kind == 0xE0:                                     # a FOR control: 18 bytes
        return 285, 37, a + 19, 1
    last = 1                                             # 101: the name's letters, the last with bit 7
    while not mem[a + last] & 0x80:
        last += 1
        if a + last > 0xFFFF:
            return None
    length = last + 1
    return 258 + 29 * length, 33 + 4 * length, a + length + 5, length


class Walk:
    """LOOK-VARS's walk over the variables area as far as it has been asked: each variable's address, the
    last byte its pass reads, and the T-states and R steps from V-RUN (LD HL,(VARS): 16 T, 1 R) to V-EACH
    at it. Valid while no byte it read was written: a write cuts it back to the variables before it."""

    __slots__ = ("start", "addrs", "tops", "land_t", "land_r", "fin_t", "first", "cursor", "t", "r", "end")

    def __init__(self, start: int):
        self.start = start
        self.addrs: list[int] = []
        self.tops: list[int] = []         # the last byte of variable j its pass reads
        self.land_t: list[int] = []       # T-states from V-RUN to V-EACH at variable j
        self.land_r: list[int] = []       # R steps likewise
        self.fin_t: list[int] = []        # ... to the end of its pass (V-EACH at the next)
        self.first: dict[int, int] = {}   # a variable's first byte (bit 7 off) -> the first one walked
        self.cursor, self.t, self.r = start, 16, 1
        self.end = False                  # the byte at the cursor ends the walk (0x80, or one it cannot skip)

    def cut(self, i: int) -> None:
        """Keep variables 0 .. i-1; the walk goes on from variable i's address."""
        if i < len(self.addrs):
            self.cursor, self.t, self.r = self.addrs[i], self.land_t[i], self.land_r[i]
            for lst in (self.addrs, self.tops, self.land_t, self.land_r, self.fin_t):
                del lst[i:]
            self.first = {k: v for k, v in self.first.items() if v < i}
        self.end = False
