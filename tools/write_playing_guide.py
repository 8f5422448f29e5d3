"""Write docs/PLAYING.md, the player's guide: the prose below joined with tables generated from the listing,
the translation table (basic/translation.tsv), the deviations table and the ROM's own report texts.

tests/test_playing_guide.py regenerates the guide and compares, so it cannot drift from the program:
    .venv/bin/python -m tools.write_playing_guide
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

from harness.program.model import english
from harness import resources
from harness.runtime import atomic
from harness.edition.text import as_words
from harness.program.judge.deviations import DEVIATIONS, table_markdown
from harness.program.runs.strength import read_report as read_strength_report
from harness.spectrum import charset
from harness.play.keymap import TOGGLES, WINDOW_KEYS
from harness.play.translate import RANK_LEGEND
from harness.spectrum.basic import split_program, tokenise_program
from tools import write_strength_doc

ROOT = Path(__file__).resolve().parents[1]

GUIDE = ROOT / "docs" / "PLAYING.md"
REPORTS_AT = 0x1391            # the ROM's report messages, each ending with bit 7 set (0x1391 "OK" after a 0x80)
RANK_NAMES = ("ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")
SUIT_NAMES = ("hearts", "clubs", "diamonds", "spades")
UDG_SHOWN = {"\\a": "⁞", "\\b": "⁚", "\\c": "♣", "\\d": "♦", "\\e": "·", "\\h": "♥", "\\s": "♠",
             "\\r": "10 in one cell", "\\l": "В", "\\m": "Д", "\\n": "К"}
TOKENS = {0xEE: "INPUT", 0xF5: "PRINT", 0xF1: "LET", 0xE4: "DATA", 0xEF: "LOAD", 0xF8: "SAVE"}
# What the messages and prompts are for, by BASIC line: a note for the player where the text alone does not say.
NOTES = {
    510: "flashes while the computer chooses its two discards (about 17 s at real speed)",
    690: "the computer has discarded",
    2710: "shown where the score of a card goes: you have no cards left",
    2745: "you chose an empty slot: choose it again to say go, or a card to play it",
    2747: "the same: ENTER on the empty slot says go",
    2775: "the card you chose would take the count past 31: choose another",
    2920: "the count of the play, then the points just pegged",
    3550: "the computer says go",
    4660: "press any key to see the crib counted",
    4780: "muggins only: type your hand's total and ENTER (0 to 50)",
    4790: "your claim was exactly right",
    4795: "any other claim: the computer pegs your hand's whole total (deviation D3)",
    4830: "the show's breakdown: fifteens, pairs, flush, runs, his nobs, total",
    4885: "after a wrong muggins claim the points are the computer's",
    4920: "press any key to cut",
    5710: "the heads of the board's two tracks: yours on the left, the computer's on the right",
    5780: "written down the middle of the board",
    7060: "Y shows the rules pages, the board demonstration and lessons during the first deals",
    7320: "R$, the ranks as the cards show them (position = rank)",
    7405: "Y: you count your own hands (see below)",
    7410: "the cut for deal: the lower card deals",
    7810: "the computer is choosing its discards",
    7840: "choose two cards for the crib: SPACE moves the pointer, ENTER takes the card",
    8020: "the starter is a jack: the dealer pegs 2",
    8100: "any key deals the next hand",
    8140: "Y keeps the lesson pages coming in the next deal",
    8290: "games won so far in this session",
    8320: "Y starts a new game (the tally is kept); N stops the program",
    9090: "SPACE runs a demonstration of the pegs moving round the board; any other key skips it",
    9160: "SPACE repeats the demonstration",
    9900: "while the UDGs are being set up after loading",
}
# Russian texts that have the same meaning wherever they appear are listed once.


def program_bytes() -> bytes:
    return tokenise_program(resources.LISTING.read_text(encoding="utf-8"), path=str(resources.LISTING))


def statement_of(body: bytes, start: int) -> str:
    """The keyword (and for LET the variable) of the statement that holds the literal at *start*."""
    begin, in_string, i = 0, False, 0
    while i < start - 1:
        b = body[i]
        if b == 0x22:
            in_string = not in_string
        elif not in_string and b == 0x0E:
            i += 6
            continue
        elif not in_string and b in (0x3A, 0xCB):       # ':' or THEN
            begin = i + 1
        i += 1
    word = TOKENS.get(body[begin], "")
    if word == "LET":
        name = re.match(rb"[A-Z][A-Z0-9]*\$?", body[begin + 1:])
        word += " " + (name.group().decode() if name else "?")
    elif word == "PRINT" and body[begin + 1:begin + 3] in (b"#1", b"#0"):
        word += " " + body[begin + 1:begin + 3].decode()
    return word


WHERE = {5780: "the board", 7320: "the cards"}    # texts kept in a variable that is not printed as a message


def where_shown(statement: str) -> str:
    if statement in ("LET M$", "LET O$"):
        return "message line"
    if statement.startswith("PRINT #"):
        return "bottom lines"
    if statement == "INPUT":
        return "question"
    if statement == "PRINT":
        return "screen"
    return statement


def cell(text: str, kind: str = "string") -> str:
    """A table cell: the text as one line of words (its 32-column layout undone: harness/edition/text.py),
    UDGs named, pipes escaped."""
    marks = {code: chr(0xE000 + i) for i, code in enumerate(UDG_SHOWN)}     # one cell each, as on screen
    for code, mark in marks.items():
        text = text.replace(code, mark)
    text = as_words(text, kind)
    for code, mark in marks.items():
        text = text.replace(mark, f"[{UDG_SHOWN[code]}]")
    return text.replace("|", "\\|") or "(spaces)"


def text_table(program: bytes) -> str:
    rows = {(t.line, t.russian): t.english for t in english.read_table()}
    out = ["| line | where | Russian on screen | English edition | note |", "| --- | --- | --- | --- | --- |"]
    for number, body in split_program(program):
        for lit in english.line_literals(number, body):
            if lit.kind != "string" or not english.needs_translation(lit):
                continue
            where = WHERE.get(number) or where_shown(statement_of(body, lit.start))
            out.append(f"| {number} | {where} | {cell(lit.text)} | {cell(rows[(number, lit.text)])} "
                       f"| {NOTES.get(number, '')} |")
    return "\n".join(out)


def window_key_table() -> str:
    """The play window's keys (harness/play/keymap.py), a toggle marked."""
    out = ["| key | what it does | toggle |", "| --- | --- | --- |"]
    for key, what in WINDOW_KEYS:
        out.append(f"| {key} | {what} | {'yes: again undoes it' if key in TOGGLES else ''} |")
    return "\n".join(out)


def rem_table(program: bytes) -> str:
    rows = {(t.line, t.russian): t.english for t in english.read_table()}
    out = ["| line | REM | in English |", "| --- | --- | --- |"]
    for lit in english.literals(program):
        if lit.kind == "rem" and english.needs_translation(lit):
            out.append(f"| {lit.line} | {cell(lit.text.strip('* '), 'rem')} "
                       f"| {cell(rows[(lit.line, lit.text)].strip('* '), 'rem')} |")
    return "\n".join(out)


def rank_table(program: bytes) -> str:
    r_ru = next(lit for lit in english.literals(program) if lit.line == 7320)
    r_en = english.english(r_ru.text)
    ru_cells = [charset.source_char(b) for b in r_ru.data]
    en_cells = [charset.source_char(b) for b in charset.encode(r_en)]
    out = ["| rank | Russian tape | English tape | counts |", "| --- | --- | --- | --- |"]
    for n, (name, ru, en) in enumerate(zip(RANK_NAMES, ru_cells, en_cells), start=1):
        shown_ru = UDG_SHOWN.get(ru, ru) + (" (a UDG)" if ru in UDG_SHOWN else "")
        shown_en = UDG_SHOWN.get(en, en) + (" (a UDG)" if en in UDG_SHOWN else "")
        out.append(f"| {name} | {shown_ru} | {shown_en} | {min(n, 10)} |")
    return "\n".join(out)


def suit_table(program: bytes) -> str:
    s = next(lit for lit in english.literals(program) if lit.line == 7315)
    out = ["| S$ position | suit | drawn as | colour |", "| --- | --- | --- | --- |"]
    for n, code in enumerate(charset.decode(s.data).split("\\")[1:], start=1):
        colour = "red" if n in (1, 3) else "black"           # 5410: IF Y$=S$(1) OR Y$=S$(3) THEN INK 2
        shown = UDG_SHOWN["\\" + code]
        out.append(f"| {n} | {SUIT_NAMES[n - 1]} | {shown} (UDG {code.upper()}) | {colour} |")
    return "\n".join(out)


def rom_reports() -> list[tuple[str, str]]:
    """(code, message) of the 48K ROM's reports 0-9 and A-R, read from the ROM image."""
    rom = resources.ROM.read_bytes()
    messages, text, a = [], "", REPORTS_AT + 1
    while len(messages) < 28:
        b = rom[a]
        text += chr(b & 0x7F)
        a += 1
        if b & 0x80:
            messages.append(text)
            text = ""
    codes = "0123456789ABCDEFGHIJKLMNOPQR"
    return list(zip(codes, messages))


def as_russian_font(text: str) -> str:
    """How a ROM report looks in the Russian tape's chr font: Latin lowercase shows as Cyrillic capitals."""
    return "".join(charset.koi7_char(ord(c)) for c in text)


REPORT_HELP = {
    "9": "you answered N to «СЫГРАЕМ ЕЩЕ?» / ANOTHER GAME?: the program has ended. CONTINUE (or GO TO 7400) starts "
         "a new game with the tally kept; RUN starts afresh",
    "D": "BREAK (CAPS SHIFT + SPACE) during a BEEP or the tape: CONTINUE goes on",
    "L": "BREAK (CAPS SHIFT + SPACE) while the program runs or waits for a key: CONTINUE goes on where it stopped",
    "H": "STOP (SYMBOL SHIFT + A) typed at the muggins question (ENTER YOUR SCORE): CONTINUE asks again",
    "2": "a letter typed at the muggins question is read as a BASIC variable; one the program does not use (Q) "
         "gives this report: CONTINUE asks again",
    "R": "the tape did not load: rewind it and LOAD \"\" again",
}


def report_table() -> str:
    out = ["| report | in the Russian tape's font | in the English tape | what to do |", "| --- | --- | --- | --- |"]
    for code, message in rom_reports():
        if code in REPORT_HELP:
            out.append(f"| {code} | `{code} {as_russian_font(message)}` | `{code} {message}` | {REPORT_HELP[code]} |")
    return "\n".join(out)


SHOTS = [
    ("welcome", "the first question: the instructions?"),
    ("instructions", "the first rules page (Y to the first question)"),
    ("board-demo", "the board: your track on the left, the computer's on the right; SPACE shows the pegs moving"),
    ("muggins", "the muggins question, under the last rules page"),
    ("cut", "the cut for deal"),
    ("discard", "choosing two cards for the crib (a lesson page over it)"),
    ("play", "the play: your cards at the bottom, the count in the middle"),
    ("go", "an empty slot chosen: choose it again to say go"),
    ("claim", "muggins: type your hand's total"),
    ("show", "the show: the computer's hand and yours, each counted"),
    ("next-deal", "after the shows: any key deals the next hand"),
    ("final-board", "the end of a game: the winner's flag on the board"),
    ("again", "the tally of games won, and another game?"),
]


def screenshots() -> str:
    out = ["| English edition | the original | |", "| --- | --- | --- |"]
    for stem, caption in SHOTS:
        out.append(f"| ![{caption}](figures/screens/en-{stem}.png) | ![{caption}, Russian](figures/screens/ru-{stem}.png) | {caption} |")
    return "\n".join(out)


def deviation_id(lines: str) -> str:
    """The id of the documented deviation whose BASIC lines start with *lines* (KeyError if none: the prose is stale)."""
    found = [k for k, d in DEVIATIONS.items() if d.lines.startswith(lines)]
    if len(found) != 1:
        raise KeyError(f"no single deviation at lines {lines}: {found}")
    return found[0]


def render() -> str:
    program = program_bytes()
    return TEMPLATE.format(
        ranks=rank_table(program), suits=suit_table(program), texts=text_table(program), rems=rem_table(program),
        deviations=table_markdown(), reports=report_table(), screenshots=screenshots(),
        d_repeat=deviation_id("4400-4450"), d_go=deviation_id("2740-2763"), d_muggins=deviation_id("4780-4800"),
        window_keys=window_key_table(), legend=f"`{RANK_LEGEND}`",
        strength=write_strength_doc.lead(read_strength_report(write_strength_doc.DATA)),
        n_texts=sum(1 for lit in english.literals(program) if lit.kind == "string" and english.needs_translation(lit)),
    )


TEMPLATE = """# Playing «КРИБЕДЖ» (KRIBEDZH, Cribbage)

<!-- Generated by tools/write_playing_guide.py from the listing, basic/translation.tsv, harness/program/judge/deviations.py,
     the ROM and the strength run (docs/STRENGTH.md); tests/test_playing_guide.py checks that it is current. Edit the
     tool, not this file. -->

{strength} How that is measured: [STRENGTH.md](STRENGTH.md).

Two tapes are built from one listing:

| tape | built by | what you see |
| --- | --- | --- |
| `build/cribbage.tap` | `cribbage-zx build` | the original, in Russian, drawn in the game's own Cyrillic font |
| `build/cribbage-en.tap` | `cribbage-zx build --lang en` | the English edition: every Russian text translated in place (`basic/translation.tsv`), the same program otherwise |

The English edition differs from the original only inside its strings and REMs (`tests/test_english.py` proves
it byte by byte and plays whole games on both: the same cards, scores and winners). Its texts are in capitals as
the original's; its "chr" font is the ROM's own, so the machine's reports and anything typed without CAPS LOCK
read normally. The English keeps every text's width (a shorter translation is padded with spaces), so every screen
is laid out as in the original.

## Loading

### Fuse (Debian: `fuse-emulator-sdl`, installed by `tools/install-system-deps.sh`)

Debian's Fuse ships no Sinclair ROM: started plainly it says `48.rom not found, using OpenSE` and will not load
the tape by itself. Give it the project's ROM **by its own name, from its own folder**, and Fuse loads the tape at
once:

```
cd roms
fuse-sdl --machine 48 --rom-48 48.rom --auto-load --tape ../build/cribbage-en.tap
```

(`../build/cribbage.tap` for the original.) With the ROM given by a path (`--rom-48 roms/48.rom`) Fuse 1.6
counts it as a custom ROM and does not auto-load: the tape is inserted but the machine stays at
`© 1982 Sinclair Research Ltd`; type `LOAD ""` yourself (J, then SYMBOL SHIFT + P twice, ENTER) and it loads.
Fuse's keys: F1 menu, F4 options (Emulation speed, see below), F5 reset, F10 quit; the PC's Shift is CAPS SHIFT
(Shift + Space is BREAK), Ctrl or Alt is SYMBOL SHIFT.

### SkoolKit

```
.venv/bin/tap2sna.py build/cribbage-en.tap cribbage-en.z80
```

loads the tape in SkoolKit's own machine and writes a snapshot a second after the tape ends, while the program
sets up its graphics («ПОЖАЛУЙСТА, ПОДОЖДИТЕ» / `PLEASE WAIT`); opened in an emulator it goes on to the first
question. A snapshot holds the RAM only, so the emulator still needs the Sinclair ROM:
`cd roms && fuse-sdl --machine 48 --rom-48 48.rom --snapshot ../cribbage-en.z80`.

### Any other emulator, or a snapshot at a chosen moment

Every 48K emulator with the Sinclair ROM reads the TAP (choose a 48K machine, not 128K BASIC).
`cribbage-zx snapshot --at LINE [--answer TEXT ...] PATH.z80` saves the game at a line of your choice, e.g.
`cribbage-zx snapshot --tape build/cribbage-en.tap --at 7700 --answer N --answer N --answer M deal.z80` stops at
the first deal (no instructions, no muggins, M cuts the deck).

### The play window (`cribbage-zx play`)

`cribbage-zx play` runs the tape in a window of its own: the machine's screen, a panel beside it and a status
line under both saying in English what the program waits for. `--lang en` plays the English edition
(`build/cribbage-en.tap`, built when missing or stale); without it the original. `--referee` adds the engine's
view of the deal (honest: the computer's cards and the crib hidden until shown).

* **The Russian tape in English.** The panel's first lines are the card letters' legend ({legend}) and the English
  edition's words for every Russian text on the screen now («ВЫ СДАЕТЕ» YOU DEAL, «МОИ!» MINE, «- НЕВЕРНО. Я
  ПОЛУЧАЮ ОЧКИ!» WRONG! I TAKE THE POINTS, each rules page as a whole), with or without `--referee`.
* **Each verdict when its score is pegged.** With `--referee` the show's verdict is on the panel at «ВСКРЫВАЮ
  КРИБ?», the crib's (and a muggins D3) at «СЛЕДУЮЩИЙ ХОД?», the computer's card at your next choice.
* **Save slots** (F2/F3 and a digit) go to `$XDG_DATA_HOME/cribbage-zx` (else `~/.local/share/cribbage-zx`) as
  `cribbage-1.z80` ... `cribbage-9.z80`; the panel and F1 say where, `--save PATH.z80` names them elsewhere.
* **Records.** `--record FILE` keeps the game's keys, `--replay FILE` plays them again to the same screens;
  `--replay-to end` runs the replay at full speed to its last key, `--replay-to N` until deal N is dealt, then at
  real speed (the status line says which frame and deal). `--record-rzx FILE.rzx` writes the game as RZX from the
  first question; Fuse plays it back to the same screen
  (`cd roms && fuse-sdl --machine 48 --rom-48 48.rom --playback /path/to/FILE.rzx`).
* **Turbo.** `--turbo` runs at full speed while the program computes (the shuffle, the deal, its thinking) and
  at real time while a key is awaited or held, a message was just printed (1.5 s to read it), a timed PAUSE runs
  or the board demo plays. `--no-reading-time` (turbo and more) runs the timed PAUSEs and the messages' reading
  time at full speed too, for a player who reads fast: the game is the same frame for frame, only the waiting
  goes. The page's *No reading time* box does the same.
* **Pause** (P, or Pause at a question) is a red banner across the screen; the same key goes on.

The window's own keys (every other key goes to the Spectrum):

{window_keys}

![the Russian tape in the window: «ВЫ СДАЕТЕ», «ГОТОВ», «ВЫБЕРИТЕ 2 КАРТЫ» and the board's title in English on the panel, the card legend above them](figures/play-translated-message.png)

![the referee's verdict on the player's show already on the panel at «ВСКРЫВАЮ КРИБ?», the wait after the show was pegged](figures/play-verdict-moment.png)

(Both photographed in Xvfb by `tools/play_xvfb_shots.py`.)

The status line under the screen says what the program waits for and the keys that answer it, and says why a key
did nothing where the original ignores it: ENTER on an empty slot while the count is under 22 (line 2742 goes back
to the card selector without a word; go is taken only from 22, deviation {d_go} above it).

![the status line after ENTER on an empty slot at a count of 0: why it was ignored, then the turn's keys](figures/play-ignored-go.png)

![the status line at the cut, at --scale 1](figures/play-status.png)

![F1: every key, the window's and the game's](figures/play-help.png)

![H: the engine's value of each discard](figures/play-hint.png)

![the English tape with the honest referee beside it, at the muggins claim](figures/play-referee-en.png)

(All five by `tools/play_shots.py`.)

## Screens

{screenshots}

## The cards

Each card shows its rank at the top left and bottom right, its suit under and above them. The ranks:

{ranks}

The suits are UDGs (user-defined graphics, DATA 9600-9850):

{suits}

The card in the middle of the table is the starter (cut after the discards); the red card under it is the deck.
Face-down cards are red.

## The keys

* The program switches CAPS LOCK on for every question (`POKE 23658,8`); answer `Y` or `N` and ENTER.
* **Choosing a card** (the discards, each card of the play): a flashing pointer sits under the first card;
  **SPACE** moves it one card to the right (round to the first again), **ENTER** takes the card it points at.
  For the crib choose two different cards; choosing the same card twice starts the choice of both again.
* **Saying go**: when no card you hold fits under 31, move the pointer to an empty slot (where a card you
  already played was) and press ENTER: «ВАШ ХОД?» / `YOUR GO?` appears; press ENTER on the same slot again.
  A card chosen instead cancels the go. At a count under 22 the program ignores an empty slot (2742).
* «ЛЮБАЯ КЛАВИША» / `ANY KEY` and «НАЖМИТЕ ЛЮБУЮ КЛАВИШУ» / `PRESS ANY KEY`: any key goes on.
* **Muggins** («ИГРАЕМ С ПРАВИЛОМ МАГГИНЗ?» / `PLAY THE MUGGINS RULE?`, Y): you count your own hand at each show.
  The computer lays your cards out and asks «ВВЕДИТЕ СВОЙ СЧЕТ:» / `ENTER YOUR SCORE:`; type the total
  (fifteens, pairs, runs, flush and his nobs together) in digits and ENTER. A letter there is read as a BASIC
  variable: X, Y, S and the like hold the program's own numbers and count as your claim. Exactly right: «Я СОГЛАСЕН» / `I AGREE`.
  Anything else, too low or too high: «НЕВЕРНО. Я ПОЛУЧАЮ ОЧКИ!» / `WRONG! I TAKE THE POINTS` and the computer
  pegs your hand's whole total (not, as the rule has it, only what you missed). Without muggins the computer
  counts for you.

## Every text on the screen

All {n_texts} Russian texts of the program that can appear on the screen, in the order of the listing, with the
English edition's text. "message line" is the last line (subroutine 5500 prints M$ there), "bottom lines"
the two lines at the foot of the screen, "question" an INPUT. Padding spaces are shown as one.

{texts}

## What the original does that the rules do not

The reconstruction keeps the magazine's program as printed. Where it departs from the rules (those of the article
it was printed with, and the standard ones), `cribbage-zx regress` finds it in whole games; the table is
`docs/DEVIATIONS.md`'s:

{deviations}

What surprises a cribbage player most: a go or last card pegs 2, a thirty-one 4 ({d_repeat}); you may say go at a
count of 22 or more even with a card that fits ({d_go}); and under muggins any wrong claim, even one too high,
costs you the whole hand ({d_muggins}).

## When the machine prints a report

A report is the ROM's one-line message at the bottom: a code, a text, the line and statement
(`L BREAK into program, 3730:1`). In the Russian tape it is drawn in the game's font, where the codes of the
Latin lowercase letters hold Cyrillic capitals, so its lowercase reads as Cyrillic nonsense; the first column
shows what you see there.

{reports}

* **CONTINUE** (the C key, then ENTER) resumes at the statement that stopped; the game's state is kept.
* **GO TO 7400** starts a new game and keeps the tally of games; **RUN** starts afresh (the tally is lost; the
  font and the UDGs stay in memory, so no reloading is needed).
* Do not type `CLEAR` or `NEW`: they lose the game (and `NEW` the program).
* BREAK does not stop an INPUT question; there, answer it.

## Why the computer takes long, and how to hurry it

The program is interpreted BASIC on a 3.5 MHz machine. Choosing its two discards, the computer scores each of
the 15 ways to keep four of its six cards with the whole show routine: about 17 seconds at real speed while
«Я ДУМАЮ» / `I THINK` flashes (16.2-17.0 s in `tools/playing_screens.py --think`, which does not emulate
contended memory: a real 48K is about 2 % slower). Each card it plays takes 0.6-6 seconds.

To hurry it, run the emulator faster while the computer thinks and at normal speed when it is your turn:
in Fuse press F4 (Options, General) and set *Emulation speed* to 1000 % (Fuse is silent above 500 %), or start
it with `--speed 1000`. The game
waits for your keys in loops, so it plays the same at any speed; only the BEEPs and the pauses between
messages get shorter. SkoolKit users can also play from a snapshot at any moment (`cribbage-zx snapshot`).

## Reading the listing

The REMs of `basic/cribbage.bas` name its subroutines; in English:

{rems}
"""


def main() -> int:
    atomic.write_text(GUIDE, render())
    print(GUIDE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
