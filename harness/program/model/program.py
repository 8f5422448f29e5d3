"""The program model: everything the harness knows of «КРИБЕДЖ», as a map of the listing.

Line numbers and what happens there, the GO SUB return points that tell who
called a routine, where the program waits for a person, where it prints what
on screen, which variables hold what, and how it encodes cards. Facts are
taken from the listing (basic/cribbage.bas) and the magazine's commentary;
the emulator layer and the rules engine know none of them, and the driver,
the observer, the comparison and the sweeps import them from here.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

from ...cribbage.cards import Card, make
from ...spectrum.charset import encode, koi7_char
from ..records.events import ScoreContext, ShowHand, Who
from .english import english

# ------------------------------------------------------------------ the tape and its text (lines 2-10)
PROGRAM_NAME = "CRIBBAGE"       # 5 SAVE "CRIBBAGE" LINE 2
AUTOSTART_LINE = 2              # 2 CLEAR 64599: LOAD "chr"CODE 64600
FONT_NAME, FONT_ADDRESS, FONT_LENGTH = "chr", 64600, 768   # 96 glyphs of 8 bytes, codes 32-127
CHARS_VALUE = FONT_ADDRESS - 256                           # 8 POKE 23606,88: POKE 23607,251 (CHARS)
# Its Russian text is KOI-7 N1: the Cyrillic capitals sit at the codes of the Latin lowercase letters,
# 0x60-0x7E, drawn by the chr font; Latin capitals, digits and punctuation keep their ASCII codes
# (harness/spectrum/charset.py reads and writes that convention, as Russian Spectrum programs used it).
TEXT_CONVENTION = "KOI-7 N1"
SCREEN_CHARSET = koi7_char      # the chr font's codes read as that convention (the screen reader's font_text)

# ------------------------------------------------------------------ players (line 7300)
ZX, MAN = 1, 2                       # indexes of the computer and the player in S(), V(), G()
WHO = {ZX: Who.COMPUTER, MAN: Who.PLAYER}
INDEX = {Who.COMPUTER: ZX, Who.PLAYER: MAN}

# ------------------------------------------------------------------ cards
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

# S$ = "\h\c\d\s" (line 7315): the suit number n is S$(n), in the engine's suit order H, C, D, S.
SUIT_CODES = (151, 146, 147, 162)
SUIT_TEXT = {1: "♥", 2: "♣", 3: "♦", 4: "♠"}
# R$ = "Т23456789\r\l\m\n" (line 7320): rank r is shown as R$(r); Т (ТУЗ) is the ace.
RANK_TEXT = {1: "Т", **{r: str(r) for r in range(2, 10)}, 10: "⑩", 11: "В", 12: "Д", 13: "К"}
RANK_CODES = tuple(encode("Т23456789\\r\\l\\m\\n"))   # R$'s bytes on the tape: Т in KOI-7, the UDGs R, L, M, N
JACK = 11


def suit_number(code_or_char: int | str, codes: tuple[int, ...] = SUIT_CODES) -> int:
    """1-4 for a suit code of S$ (hearts, clubs, diamonds, spades); *codes*: S$ as the program in the machine
    has it, when another reading of 7315 made it other than ours (`suit_codes_of`)."""
    code = ord(code_or_char) if isinstance(code_or_char, str) else code_or_char
    try:
        return codes.index(code) + 1
    except ValueError:
        raise ValueError(f"{code:#04x} is not one of the suit codes of S$") from None


def card_from_numbers(rank: float, suit_no: float) -> Card:
    """The card of a rank 1..13 and a suit number 1..4 as the arrays hold them (A(), C(), H()...)."""
    suit = int(suit_no)
    if not 1 <= suit <= 4:
        raise ValueError(f"suit number {suit_no} out of range 1..4")
    return make(int(rank), suit - 1)


def card_of(rank: float, suit_code: int | str, codes: tuple[int, ...] = SUIT_CODES) -> Card:
    """The card of a rank array element and a suit character of A$(), C$(), H$()... (*codes*: S$'s)."""
    return card_from_numbers(rank, suit_number(suit_code, codes))


def suit_codes_of(s: object) -> tuple[int, ...]:
    """The suit codes of S$'s value as the program holds it: four distinct characters, or ours (7315) when the
    program has not made S$ yet or holds something else (a variant tape's S$ = "HCDS" holds its letters)."""
    if isinstance(s, str) and len(s) == len(SUIT_CODES) and len(set(s)) == len(s):
        return tuple(ord(c) for c in s)
    return SUIT_CODES


def card_text(card: Card, ranks: tuple[str, ...] | None = None) -> str:
    """The two cells a card takes on screen: R$(rank) over S$(suit) (*ranks*: another edition's R$)."""
    return (ranks[card.rank - 1] if ranks else RANK_TEXT[card.rank]) + SUIT_TEXT[card.suit + 1]


def deck_number(card: Card) -> float:
    """P() = rank + suit/10 (7360-7370: FOR X=1 TO 13: FOR Y=.1 TO .4 STEP .1), e.g. 5.3 for the 5♦."""
    return round(card.rank + (card.suit + 1) / 10, 1)


def card_of_deck_number(p: float) -> Card:
    """Inverse of `deck_number`, rounding the tenths as the Spectrum rounds a subscript."""
    rank = int(p)
    return card_from_numbers(rank, round((p - rank) * 10))


# ------------------------------------------------------------------ where the program waits for a person
ASK_INSTRUCTIONS = 7060         # INPUT «ВАМ НУЖНА ИНСТРУКЦИЯ? (Y/N):» I$; RANDOMIZE at 7005 just ran
ASK_MUGGINS = 7405              # INPUT «ИГРАЕМ С ПРАВИЛОМ МАГГИНЗ?» M$ (MUG=1 only for "Y")
ASK_CLAIM = 4780                # INPUT «ВВЕДИТЕ СВОЙ СЧЕТ:» SS under muggins
CLAIM_RANGE_CHECK = 4785        # the claim asked again only below 0 or above 50
ASK_CONTINUE_INSTRUCTIONS = 8140  # INPUT «ПРОДОЛЖАТЬ ИНСТРУКЦИЮ (Y/N)?» I$
ASK_AGAIN = 8320                # INPUT «СЫГРАЕМ ЕЩЕ? (Y/N) :» M$ (STOP at 8330 on "N")
SELECTOR_LINE = 3700            # REM ВЫБОР КАРТЫ: the card selector, GO SUB 3700 from each SELECT_* line below
SELECTOR_KEYS_HELD = 3725       # IF INKEY$<>"" THEN GO TO 3725: keys held from before are waited out
SELECTOR_ENTER = 3730           # IF CODE INKEY$=13 THEN GO TO 3800: the head of the polling loop
SELECTOR_SPACE = 3750           # IF INKEY$<>" " THEN GO TO 3730: the loop's other line
SELECTOR_WAITS = (SELECTOR_KEYS_HELD, SELECTOR_ENTER, SELECTOR_SPACE)   # the card selector 3700: INKEY$ loops
# A wait caught in a polling loop of several lines is named by the loop's head: which of its lines a frame
# end catches depends on timing alone (the fast machine skips BEEP and PAUSE; an RZX run keeps real timing).
WAIT_LOOP_HEAD = {line: SELECTOR_ENTER for line in (SELECTOR_ENTER, SELECTOR_SPACE)}   # 3730-3750
SELECTOR_MOVED = 3760           # SPACE moved the pointer (X)
SELECTOR_CHOSEN = 3800          # ENTER chose slot X
CUT_WAIT = 4925                 # «СНИМИТЕ КОЛОДУ»: INKEY$ loop until a key cuts
CUT_TAKEN = 4930
DEAL_START = 7700               # "7700 REM ******* СДАЧА": the deal routine, reached once the first cut is made
NEXT_DEAL_WAIT = 8105           # «СЛЕДУЮЩИЙ ХОД? (ЛЮБАЯ КЛАВИША)»: IF INKEY$="" THEN GO TO 8105
NEXT_DEAL_TAKEN = 8110
SHOW_PAUSE = 4661               # PAUSE 0 after each show
FINAL_BOARD_PAUSE = 8270        # PAUSE 0 under the final board
DEMO_PAUSE = 9090               # «ДЛЯ ДЕМОНСТРАЦИИ НАЖМИТЕ SPACE»: SPACE shows it, any other key skips
DEMO_STARTED = 9100
DEMO_SKIPPED = 9180             # 9095 GO TO 9175, a line that does not exist: the ROM goes on at 9180
DEMO_REPEAT_PAUSE = 9160        # «ДЛЯ ПОВТОРА НАЖМИТЕ SPACE»: SPACE repeats the demo
DEMO_KEY_READ = 9095            # IF INKEY$<>" " THEN GO TO 9175: INKEY$ read once, which key ended 9090's PAUSE 0
INSTRUCTION_PAGE_WAITS = (9065, 9250, 9540)   # PAUSE 0 between the instruction pages (9060 «НАЖМИТЕ ЛЮБУЮ КЛАВИШУ»)
INSTRUCTIONS_TESTED = 7070      # IF I$(1)="Y" THEN GO SUB 9000: the first answer's first character
DEMO_LINES = (9100, 9160)       # the board demo runs from 9100 to the question at 9160 (GO SUB 6015 from 9130)
AT_MESSAGE = (5510, 1)          # 5500: PRINT #1;AT 1,0;N$;AT 1,0;M$, every message of the program (then BEEP)

# Who called the card selector 3700 (its GO SUB return line):
SELECT_FIRST_DISCARD = 7860
SELECT_SECOND_DISCARD = 7870
SELECT_PLAY = 2720              # «ВАШ ХОД»: lay a card, or an empty slot to say go
SELECT_GO_CONFIRM = 2755        # the empty slot again confirms the go; a card cancels it
SELECTOR_SLOTS = {SELECT_FIRST_DISCARD: 6, SELECT_SECOND_DISCARD: 6, SELECT_PLAY: 4, SELECT_GO_CONFIRM: 4}

# ------------------------------------------------------------------ where the observer looks (line, statement)
AT_PEG = (6050, 1)              # LET S(PLAYER)=S(PLAYER)+S
AT_DEALT = (7800, 1)            # both hands in A()/A$(), C()/C$()
AT_DISCARDS = (7930, 1)         # T(1..2) the computer's, T(3..4) the player's; the crib in E()/E$()
AT_STARTER = (8020, 1)          # the starter in K/K$
AT_PLAYER_CARD = (2780, 1)      # the player's card K laid, count T
AT_COMPUTER_CARD = (3580, 1)    # the computer's card X1 laid, count SUM
AT_PLAYER_GO = ((2763, 1), (2710, 2))
AT_COMPUTER_GO = ((3220, 2), (3550, 2))
AT_RESET = (4405, 1)            # the count reset
AT_SHOW = (4765, 1)             # F, P, S (runs), FL, NOB of the hand in H()/H$()
AT_CLAIM = (4790, 1)            # SS typed
AT_CUT_FOR_DEAL = (7450, 1)     # S the player's card, K the computer's
AT_WIN = (8210, 1)              # WIN, S()
AT_SHUFFLED = (7640, 1)         # P() shuffled
AT_CARD_CUT = (4935, 1)         # P(R) is the card cut
AT_REFUSED = (2775, 2)          # «ЭТА КАРТА НЕ ПОДХОДИТ»
AT_DEALING = (7510, 1)          # DIR set for this deal
AT_SHOW_DONE = (4895, 1)
AT_BREAKDOWN = (4890, 1)        # the breakdown 4830-4885 printed
STARTER_CUT_CALLER = 8010       # 4900 called for the starter (not the cut for deal)

# GO SUB return points on the stack -> why a score at 6050 was pegged
SCORE_CONTEXT = {
    4890: ScoreContext.SHOW, 8020: ScoreContext.HEELS, 4160: ScoreContext.GO, 4260: ScoreContext.GO,
    9130: ScoreContext.DEMO, 4450: ScoreContext.RESET,
}
PLAY_SCORER_CALLER = 2955       # 2900 called 2000 for the card just laid
SHOW_OF = {4580: ShowHand.COMPUTER, 4640: ShowHand.PLAYER, 4680: ShowHand.CRIB}   # who called 4700

GO_THRESHOLD = 22               # 2745: an empty slot chosen twice says go when SUM>=22 (deviation D2)
AT_EMPTY_SLOT_REFUSED = (2742, 1)   # 2742 IF SUM<22 THEN GO TO 2720: an empty slot chosen under the threshold
GAME_LENGTH = 121               # 6060: IF S(PLAYER)>120 THEN LET WIN=PLAYER

# ------------------------------------------------------------------ variables (what each holds: basic/variables.toml)
V_PLAYER, V_POINTS, V_TOTALS, V_GAMES = "PLAYER", "S", "S()", "G()"   # 6050 LET S(PLAYER)=S(PLAYER)+S; 8260 G()
V_DEALER, V_WINNER, V_MUGGINS = "DIR", "WIN", "MUG"                  # 7450/8110 DIR; 6060 WIN; 7405 MUG
SHOW_PARTS = {"fifteens": "F", "pairs": "P", "runs": "S", "flush": "FL", "nobs": "NOB"}   # 4765: 1000's parts
# A hand as the program keeps it: ranks 1-13 in one array, suits (characters of S$) in the other.
HAND_PLAYER = ("A()", "A$()")        # 7800 the player's six cards (A(5)/A$(5) the starter after 7950)
HAND_COMPUTER = ("C()", "C$()")      # 7800 the computer's six
HAND_CRIB = ("E()", "E$()")          # 7930 the crib's four
HAND_COUNTED = ("H()", "H$()")       # 4700-4765: the hand 1000 counts
V_HELD = "B()"                       # 2785 LET B(K)=0: 1 while the player's card K is in hand
V_SERIES, V_SERIES_LENGTH = "T()", "N"   # T(1..N) the series on the table; at 7930 T(1..2) the computer's
                                         # discarded slots, T(3..4) the player's
V_COUNT = "SUM"                      # 2785/3580 LET SUM=T: the count of the play
V_COUNT_AFTER = "T"                  # 2020 LET T=SUM+CT: the count with the card just laid (read at 2780)
V_LAID_SLOT = "K"                    # 2765 LET K=X: the slot of the card the player lays
V_COMPUTER_LAID = "X1"               # 3580 S=I(X1): the slot of the computer's card laid
V_POINTER = "X"                      # 3720 PRINT AT 21,X*4-3: the selector's slot under the pointer
V_GO_SLOT = "HGO"                    # 2750 LET HGO=X: the empty slot chosen for go
V_CLAIM = "SS"                       # 4780 INPUT SS
V_CUT_RANK, V_CUT_SUIT = "K", "K$"   # 4935 LET K=INT P(R), 4945 LET K$=S$(...): the card cut (the starter at 8020)
V_FIRST_CUT = "S"                    # 7430 GO SUB 4900: LET S=K: the player's cut for deal, kept before 7440 cuts K
V_CUT_AT, V_DECK = "R", "P()"        # 4930 LET R=RND*40+12.5: where the deck P() (7370, 7620) is cut
V_LAID_PLAYER, V_LAID_COMPUTER = "NH", "NC"   # 2780 LET NH=NH+1: the cards each has laid in this deal
V_PREVIOUS_SCORES = "V()"            # 6020-6040: each player's previous score (the peg lifted)
V_MESSAGE, V_INSTRUCTIONS = "M$", "I$"   # 5510 PRINT #1;...;M$; 7060 INPUT ...;I$
V_RANKS, V_SUITS = "R$", "S$"        # 7320 R$, 7315 S$: the letters the cards are drawn with
RANKS_LINE = 7320                    # LET R$="Т23456789\r\l\m\n": the ranks, drawn on the cards one letter at a time
YES, NO = "Y", "N"                   # the answers the program tests for: 7070 I$(1)="Y", 7405 M$="Y", 8330 M$="N"


# ------------------------------------------------------------------ routines the sweeps call on their own
@dataclass(frozen=True)
class RoutineCall:
    """How to call one of the program's subroutines from a direct GO SUB: where it starts, the statements
    where it is done (its RETURNs), and the variables (and FOR loops, whose NEXT it uses) it expects set."""
    line: int
    returns: frozenset[tuple[int, int]]
    setup: str
    max_frames: int = 2000


SHOW_ROUTINE = RoutineCall(   # 4700: a hand's show (with 1000 and 2400), done at 4765 with F, P, S, FL, NOB
    4700, frozenset({(4765, 1)}),
    "LET NOB=0: LET SUM=0: LET L=5: LET C=5: LET P=0: LET F=0: LET FL=0: LET T=0: LET R=0: "
    "LET D=0: LET RLEN=2: LET CR=0: LET S=0: FOR Z=1 TO 1: NEXT Z: FOR X=1 TO 1: NEXT X: "
    "FOR Y=1 TO 1: NEXT Y")
PLAY_ROUTINE = RoutineCall(   # 2000: the points of the card just laid (T(), N, SUM before it), every RETURN
    2000, frozenset({(2010, 3), (2022, 2), (2025, 2), (2120, 2), (2200, 2), (2390, 1)}),
    "LET P=0: LET S=0: LET CT=0: LET N=0: LET SUM=0: LET T=0: LET C=1: LET L=3: LET R=0: "
    "LET Z=0: FOR X=1 TO 1: NEXT X: FOR Y=1 TO 1: NEXT Y: FOR L=3 TO 3: NEXT L")
DISCARD_ROUTINE = RoutineCall(  # 500: the computer's discard from C()/C$()/D(), chosen into T(1), T(2) by 675
    500, frozenset({(675, 1)}),
    "LET CRIB=0: LET RLEN=1: LET C=4: LET MAX=-99: LET DIR=1: LET S=0: LET F5=0: LET SUM=0: "
    "LET P=0: LET F=0: LET FL=0: LET CR=0: LET NOB=0: LET T=0: LET R=0: LET D=0: LET L=5: "
    "FOR J=1 TO 1: NEXT J: FOR I=1 TO 1: NEXT I: FOR X=1 TO 1: NEXT X: FOR Y=1 TO 1: NEXT Y: "
    "FOR Z=1 TO 1: NEXT Z", max_frames=20000)

# What the sweeps set before each routine and read after it (harness/program/runs/sweep.py):
# 4700: the five cards' ranks H(1..5) and suits H$(1..5) (4710-4720), the starter's suit E$(5) (4715 his nobs),
# CR=1 for a crib (1310), V_PLAYER whose show it is; after it SHOW_PARTS (F, P, S, FL, NOB at 4765).
SHOW_RANKS, SHOW_SUITS, SHOW_STARTER_SUIT, SHOW_CRIB = "H()", "H$()", "E$()", "CR"
SHOW_STARTER_AT = 5                 # 4715 H$(X)=E$(5): the starter's suit is the fifth of E$()
# 2000: the cards laid before in T(1..N) (2015 lays C at T(N+1)), N their number, SUM their count (2010),
# C the card laid (2008 LET CT=FN T(C)); after it S, its points (-1 when it does not fit, 2010).
PLAY_LAID, PLAY_LAID_COUNT, PLAY_SUM, PLAY_CARD, PLAY_POINTS = "T()", "N", "SUM", "C", "S"
# 500: the six cards' ranks C(), suits C$() and values D() (590), V_DEALER (655: 1 when the crib is the
# computer's), MAX the best so far (665); after it T(1), T(2), the two cards it discards (665).
DISCARD_RANKS, DISCARD_SUITS, DISCARD_VALUES, DISCARD_BEST, DISCARD_CHOSEN = "C()", "C$()", "D()", "MAX", "T()"


# ------------------------------------------------------------------ the screen
@dataclass(frozen=True)
class ScreenWords:
    """The words the program prints where the harness reads the screen, in one language."""
    total: str                   # 2920: «ВСЕГО n», the count of the play
    show_total: str              # 4880: «ВСЕГО = n»
    fifteens: str                # 4830: «15-ТЬ -n»
    pairs: str                   # 4840: «ПАРЫ -n»
    flush: str                   # 4850: «ФЛЕШЬ -n»
    runs: str                    # 4860: «СЕКАНС-n»
    nobs: str                    # 4870: «ЕГО БЛАГОРОДИЕ -1»
    you: str                     # 8300: «ВЫ : g» (the label before the colon)
    me: str                      # 8310: «Я : g»
    ranks: tuple[str, ...] = tuple(RANK_TEXT[r] for r in range(1, 14))   # R$ (7320), as the screen shows it


RUSSIAN = ScreenWords(total="ВСЕГО", show_total="ВСЕГО = ", fifteens="15-ТЬ -", pairs="ПАРЫ -",
                      flush="ФЛЕШЬ -", runs="СЕКАНС-", nobs="ЕГО БЛАГОРОДИЕ -1", you="ВЫ", me="Я")
# The English edition's R$ = "A23456789\r" + "JQK": the ace and the faces in Latin letters, the one-cell ten kept.
ENGLISH_RANKS = ("A", *RUSSIAN.ranks[1:10], "J", "Q", "K")


def english_words() -> ScreenWords:
    """RUSSIAN's words as the English edition (`build --lang en`) prints them, from basic/translation.tsv."""
    return ScreenWords(**{name: english(text) for name, text in vars(RUSSIAN).items() if name != "ranks"},
                       ranks=ENGLISH_RANKS)


def words_of_program(program: bytes) -> ScreenWords:
    """The screen words of a tape's program: the English edition's when its count label is not «ВСЕГО»."""
    return RUSSIAN if encode(RUSSIAN.total) in program else english_words()


#: the screen checks the observer makes (a transcript read back may name others: events.Screen.what is text)
ScreenCheckKind = Literal["board scores", "count", "hand", "show breakdown", "games tally"]


class ScreenCheck:
    """Names of the screen observations (events.Screen.what) and where they read."""
    BOARD: Final = "board scores"       # 6085/6090: S(MAN) at row 20 col 25, S(ZX) right-aligned to col 31
    COUNT: Final = "count"              # 2920: «ВСЕГО n» at row 6, columns 0-8
    HAND: Final = "hand"                # 5400: the player's four cards, rank at row 16, suit at row 17, column 4*i
    BREAKDOWN: Final = "show breakdown" # 4830-4885: the show's breakdown above «ВСЕГО = n»
    TALLY: Final = "games tally"        # 8290-8310: «СЧЕТ:» ВЫ/Я


BOARD_ROW, BOARD_COL = 20, 25
COUNT_ROW, COUNT_COLS = 6, 9
HAND_ROWS, HAND_COL_STEP, HAND_SLOTS = (16, 17), 4, 4
MESSAGE_ROW = 23
TALLY_ROWS = (7, 9)


def breakdown_numbers(block: str, total_row: str, words: ScreenWords = RUSSIAN) -> dict[str, int]:
    """The numbers of a printed show breakdown (absent parts are 0)."""
    def number(label: str, text: str) -> int:
        m = re.search(re.escape(label) + r"(\d+)", text)
        return int(m.group(1)) if m else 0
    return {"fifteens": number(words.fifteens, block), "pairs": number(words.pairs, block),
            "flush": number(words.flush, block), "runs": number(words.runs, block),
            "nobs": int(words.nobs in block), "total": number(words.show_total, total_row)}


# ------------------------------------------------------------------ the pictures: where and how each is drawn
# A card (5400-5470, 5350-5370, 5300-5310) is 3 cells wide and 5 rows high, its top left at row Y,
# column X1 (5420 LET X1=4*X-4). Face up (5440-5460): R$ at its top left, S$ under it, S$ and R$ again at
# its bottom right, every other cell a space; PAPER 7 (5410), INK 2 for S$(1) hearts and S$(3) diamonds
# (5410) and INK 0 for the others (5470 and 7010 leave INK 0). Face down (5360): spaces on PAPER 2.
# Erased (5310): spaces on PAPER 4, the table.
CARD_HEIGHT, CARD_WIDTH = 5, 3
CARD_FACE_CELLS = {(0, 0): "rank", (1, 0): "suit", (3, 2): "suit", (4, 2): "rank"}   # (row, column) in the card
PAPER_FACE_UP, PAPER_FACE_DOWN, PAPER_TABLE, PAPER_BOARD = 7, 2, 4, 6   # 5410, 5360, 5310/5630/7010, 5710-5775
INK_RED, INK_BLACK = 2, 0                                              # 5410; 5470 (and 7010)
RED_SUITS = (1, 3)                                                     # 5410: S$(1) hearts, S$(3) diamonds


def card_column(x: float) -> int:
    """5420 LET X1=4*X-4: the first column of the card the program draws at slot X (X may be 5.75)."""
    return int(4 * x - 4)


@dataclass(frozen=True)
class Slot:
    """A place where the program draws a card: a name, its top row Y and its slot number X."""
    name: str
    y: int
    x: float

    @property
    def column(self) -> int:
        return card_column(self.x)


ROW_COMPUTER = 0        # 7740/7770 the deal (face down), 3600 Y=0 its cards laid, 5110 its hand and 5210 its crib at the show
ROW_PLAYED = 8          # 2820 Y=8 the player's cards laid (4300-4370 turn them over at the end of a series)
ROW_HAND = 16           # 7800 and 8040 Y=16: the player's hand (2790 erases a card laid)
ROW_SHOWN = 11          # 4625 Y=11 the player's hand at the show; 5210 Y=11 the player's crib
DECK = Slot("deck", 8, 6)                 # 8010 X=6, 4905 Y=8 GO SUB 5350: the pack, face down
STARTER = Slot("starter", 7, 5.75)        # 4955 LET X=X-.25: LET Y=7: the card cut, face up over the pack
CUT_PLAYER = Slot("cut player", 7, 1.75)      # 7430 X=2: the player's cut (4955 X-.25)
CUT_COMPUTER = Slot("cut computer", 7, 4.75)  # 7440 X=5: the computer's cut
CUT_DECKS = (Slot("cut pack 1", 8, 2), Slot("cut pack 2", 8, 5))   # 4905 the pack under each cut


def slots(name: str, y: int, n: int) -> tuple[Slot, ...]:
    return tuple(Slot(f"{name} {x}", y, x) for x in range(1, n + 1))


HAND_SLOTS_DEALT = slots("hand", ROW_HAND, 6)              # 7800 C=6: the six dealt cards
COMPUTER_SLOTS_DEALT = slots("computer", ROW_COMPUTER, 6)  # 7740 or 7770: face down
# The computer's cards laid (3600 Y=0), its hand (5110) and its crib (5210) at the show take the places of its dealt hand.
PLAYED_SLOTS = {Who.COMPUTER: COMPUTER_SLOTS_DEALT[:4], Who.PLAYER: slots("laid player", ROW_PLAYED, 4)}

# The board (5700-5820, 6400-6490). Each player pegs in two columns of holes, one peg glyph a half cell:
# 6400-6420 X=25 (the player's first 30 points, going up) and X=27 (31-60, going down); the computer X=31 and
# X=29. 6460 PRINT OVER 1 puts the peg V$(V) on the blank board cell, so a second PRINT takes it off.
PEG_COLUMNS = {25: Who.PLAYER, 27: Who.PLAYER, 29: Who.COMPUTER, 31: Who.COMPUTER}
PEG_ROWS = range(2, 20)              # 6440 Y=1+(SS+INT((SS-1)/5))/2 for SS 1..30: rows 2..19
PEG_LAP = 60                          # 6410 IF SS>60 THEN LET SS=SS-60: the second lap uses the same holes
# V$ = "\g\f\j\i\k" (7310): the lower and upper half of a peg pointing right (G, F: 0,0,0,0,240,255,240,0
# and 240,255,240,0,...) and pointing left (J, I: 15,255,15); K the flag (8240).
PEG_HALF_RIGHT, PEG_HALF_LEFT = bytes([240, 255, 240, 0]), bytes([15, 255, 15, 0])
FLAG_ROW, FLAG_COL = 18, 28           # 8240 PRINT PAPER 6;AT 18,28; FLASH 1;V$(5)


def peg_place(who: Who, score: int) -> tuple[int, int, str]:
    """6400-6450: the (row, column, "upper"/"lower") of the peg the program draws for *score* (1..120)."""
    ss = score
    x, v = (31, 3) if who == Who.COMPUTER else (25, 1)            # 6400-6405
    if ss > 60:                                                    # 6410
        ss -= 60
    if ss < 31:                                                    # 6415
        ss = 31 - ss
    else:                                                          # 6420
        ss, x, v = ss - 30, 27, 3
        if who == Who.COMPUTER:
            x, v = 29, 1
    y = 1 + (ss + (ss - 1) // 5) / 2                               # 6440
    if y != int(y):                                                # 6450
        y, v = int(y) + 1, v + 1
    return int(y), x, "upper" if v % 2 == 0 else "lower"


PEG_HOLE = {(who, *peg_place(who, s)): s for who in Who for s in range(1, PEG_LAP + 1)}   # place -> 1..60


def peg_shape(col: int) -> bytes:
    """The half-cell peg glyph of a board column: pointing right at 25 and 29 (V$(1), V$(2)), left at 27 and 31."""
    return PEG_HALF_RIGHT if col in (25, 29) else PEG_HALF_LEFT


# The message lines (the lower screen): 5510 PRINT #1;AT 1,0;N$;AT 1,0;M$ prints M$ on row 23; the dealer
# (7510-7530, PRINT #0;AT 0,0) and the winner (8210-8230, PRINT #1;AT 0,0) on row 22.
DEALER_ROW = 22
DEALER_TEXT = {Who.COMPUTER: "Я СДАЮ", Who.PLAYER: "ВЫ СДАЕТЕ"}                       # 7510, 7520
WINNER_TEXT = {Who.PLAYER: "ПРИМИТЕ ПОЗДРАВЛЕНИЯ С ПОБЕДОЙ!", Who.COMPUTER: "ВАМ НЕ ПОВЕЗЛО - МОЯ ПОБЕДА!"}  # 8210, 8220
CUT_TEXT = "МЛАДШАЯ КАРТА СДАЕТ"                                                      # 7410
GO_TEXT = " ХОД! "                  # 2710, 3550 at 6,9; 2940 prints the points « n » over its first cells

SHOWN_SLOTS = slots("shown", ROW_SHOWN, 4)               # 4625 the player's hand, 5210 the player's crib
SHOWN_COMPUTER_SLOTS = COMPUTER_SLOTS_DEALT[:4]          # 5110 its hand, 5210 its crib
ALL_SLOTS = (HAND_SLOTS_DEALT + COMPUTER_SLOTS_DEALT + PLAYED_SLOTS[Who.PLAYER] + SHOWN_SLOTS
             + (DECK, STARTER, CUT_PLAYER, CUT_COMPUTER) + CUT_DECKS)
TABLE_ROWS, TABLE_COLUMNS = range(0, 22), range(0, 25)   # 5600 clears rows 0-21 up to column X (18..25)
# Text the program prints on the table, as (row, first column, end column):
TEXT_COUNT = (6, 0, 15)        # 2920 «ВСЕГО n», 2940 the points, 2710/3550 « ХОД! » at 6,9
TEXT_THINKING = (7, 8, 15)     # 510 «Я ДУМАЮ» (FLASH 1), 690 « ГОТОВ » at 7,8
TEXT_POINTER = (21, 0, 25)     # 3720 the selector's pointer at 21,4X-3; 2745 «ВАШ ХОД?» at 21,4X-4
# Every drawing routine: a picture taken while one runs is half made (not judged).
DRAWING_LINES = ((5000, 5050), (5100, 5170), (5200, 5270), (5300, 5470), (5600, 5690), (5700, 5820), (6400, 6490),
                 (4300, 4370))
