"""What the program waits for, in English, for the window's status line.

Each wait of the program model (`program` and the table `decisions.CHOICES`)
has a few words saying what a person is asked and which keys answer, and the
program's own prompt there in the English edition's words (`english`, from
basic/translation.tsv), so a person who reads no Russian knows what the
screen asks. Waits the window cannot tell apart by line alone (the card
selector 3700) are told apart by who called it, as the driver does.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..program.model import program as P
from ..program.model.english import english


@dataclass(frozen=True)
class Status:
    """What a person is asked (our words), the keys that answer, and the program's prompt (Russian, as listed)."""
    asked: str
    keys: str
    prompt: str | None = None


# wait line -> its status (the card selector is told apart by its caller, SELECTOR_CALLERS)
STATUS: dict[int, Status] = {
    P.ASK_INSTRUCTIONS: Status("instructions?", "type Y or N, then ENTER", "ВАМ НУЖНА ИНСТРУКЦИЯ? (Y/N):"),
    P.ASK_MUGGINS: Status("play with muggins (you count your own hand)?", "type Y or N, then ENTER",
                          "ИГРАЕМ С ПРАВИЛОМ МАГГИНЗ? "),
    P.ASK_CLAIM: Status("your count for this hand", "type the number, then ENTER", "ВВЕДИТЕ СВОЙ СЧЕТ: "),
    P.ASK_CONTINUE_INSTRUCTIONS: Status("more instructions?", "type Y or N, then ENTER",
                                        "ПРОДОЛЖАТЬ ИНСТРУКЦИЮ (Y/N)?"),
    P.ASK_AGAIN: Status("another game?", "type Y or N, then ENTER", "СЫГРАЕМ ЕЩЕ? (Y/N) : "),
    P.CUT_WAIT: Status("cut the pack", "any key", "СНИМИТЕ КОЛОДУ - ЛЮБОЙ КЛАВИШЕЙ"),
    P.NEXT_DEAL_WAIT: Status("next deal", "any key", "СЛЕДУЮЩИЙ ХОД? (ЛЮБАЯ КЛАВИША)"),
    P.SHOW_PAUSE: Status("turn up the crib", "any key", "ВСКРЫВАЮ КРИБ? (ЛЮБАЯ КЛАВИША)"),
    P.FINAL_BOARD_PAUSE: Status("the game is over: the final board", "any key"),
    P.INSTRUCTION_PAGE_WAITS[0]: Status("the instructions", "any key: the next page", "НАЖМИТЕ ЛЮБУЮ КЛАВИШУ"),
    P.DEMO_PAUSE: Status("the board demo", "SPACE shows it, another key skips it", "ДЛЯ ДЕМОНСТРАЦИИ НАЖМИТЕ SPACE"),
    P.DEMO_KEY_READ: Status("the board demo", "SPACE shows it, another key skips it", "ДЛЯ ДЕМОНСТРАЦИИ НАЖМИТЕ SPACE"),
    P.DEMO_REPEAT_PAUSE: Status("the board demo again?", "SPACE repeats it, another key goes on",
                                "ДЛЯ ПОВТОРА НАЖМИТЕ SPACE"),
    P.INSTRUCTION_PAGE_WAITS[1]: Status("the instructions", "any key: the next page"),
    P.INSTRUCTION_PAGE_WAITS[2]: Status("the instructions", "any key: the next page"),
}
SELECTOR_CALLERS: dict[int, Status] = {
    P.SELECT_FIRST_DISCARD: Status("choose 2 cards for the crib (the first)", "SPACE moves, ENTER chooses",
                                   "ВЫБЕРИТЕ 2 КАРТЫ"),
    P.SELECT_SECOND_DISCARD: Status("choose 2 cards for the crib (the second; the same card again takes "
                                    "the first back)", "SPACE moves, ENTER chooses", "ВЫБЕРИТЕ 2 КАРТЫ"),
    P.SELECT_PLAY: Status("your card to play", "SPACE moves, ENTER plays; an empty slot, twice, says go "
                          f"(from count {P.GO_THRESHOLD})", "ВЫБЕРИТЕ КАРТУ"),
    P.SELECT_GO_CONFIRM: Status("go?", "ENTER on the same empty slot says go; a card takes it back",
                                "ЕСЛИ НЕЧЕМ ХОДИТЬ, НАЖМИТЕ ENTER"),
}
RUNNING = "the program is busy (dealing, thinking, pegging): wait"
#: said when ENTER chose an empty slot with the count under 22: the original goes back to the selector (2742)
IGNORED_GO = ("ENTER on an empty slot was ignored: the count is {count}, and this program takes a go only "
              f"from {P.GO_THRESHOLD} (line {P.AT_EMPTY_SLOT_REFUSED[0]})")
PAUSED_TEXT = "PAUSED: P goes on"


@lru_cache(maxsize=None)
def _english(prompt: str) -> str:
    return " ".join(english(prompt).split())


def status_of(line: int | None, caller: int | None = None) -> Status | None:
    """The status of the wait at *line* (the card selector's by *caller*, its GO SUB return line)."""
    if line is None:
        return None
    if line in P.SELECTOR_WAITS:
        return SELECTOR_CALLERS.get(caller) if caller is not None else None
    return STATUS.get(line)


def ignored_go_text(count: int) -> str:
    """Why ENTER on an empty slot did nothing: the count under GO_THRESHOLD (the page says the same)."""
    return IGNORED_GO.format(count=count)


def status_text(line: int | None, caller: int | None = None, ignored_go: int | None = None) -> str:
    """One line of English: what the program waits for and the keys, with its prompt as the English edition
    says it; with *ignored_go* (the count) first why the last ENTER on an empty slot was ignored."""
    if ignored_go is not None:
        return f"{ignored_go_text(ignored_go)} | {status_text(line, caller)}"
    st = status_of(line, caller)
    if st is None:
        return RUNNING if line is None else f"waiting at line {line}"
    text = f"{st.asked}: {st.keys}"
    if st.prompt:
        text += f"  [screen: {_english(st.prompt)}]"
    return text


# ---------------------------------------------------------------------------- the keys a wait reads
#: a touch key's label (the Spectrum's own key name) -> the Spectrum keys it holds (parse_combo syntax)
TOUCH_COMBOS: dict[str, str] = {
    **{d: d for d in "0123456789"}, "Y": "Y", "N": "N", "ENTER": "ENTER", "SPACE": "SPACE",
    "DELETE": "CAPS SHIFT+0", "ANY KEY": "ENTER",
}
_YES_NO = ("Y", "N", "DELETE", "ENTER")
_ANY = ("ANY KEY",)
_SELECTOR = ("SPACE", "ENTER")
_DEMO = ("SPACE", "ENTER")
#: wait line -> the touch keys a person needs there, in the row's order (every wait of decisions.CHOICES)
TOUCH_KEYS: dict[int, tuple[str, ...]] = {
    P.ASK_INSTRUCTIONS: _YES_NO, P.ASK_MUGGINS: _YES_NO, P.ASK_CONTINUE_INSTRUCTIONS: _YES_NO,
    P.ASK_AGAIN: _YES_NO,
    P.ASK_CLAIM: (*"1234567890", "DELETE", "ENTER"),
    **{line: _SELECTOR for line in P.SELECTOR_WAITS},
    **{line: _SELECTOR for line in SELECTOR_CALLERS},
    P.CUT_WAIT: _ANY, P.NEXT_DEAL_WAIT: _ANY, P.SHOW_PAUSE: _ANY, P.FINAL_BOARD_PAUSE: _ANY,
    **{line: _ANY for line in P.INSTRUCTION_PAGE_WAITS},
    P.DEMO_PAUSE: _DEMO, P.DEMO_KEY_READ: _DEMO, P.DEMO_REPEAT_PAUSE: _DEMO,
}
#: a wait the table does not name, by its kind (machine.py's wait kinds): the INPUT row, or any key
TOUCH_BY_KIND: dict[str, tuple[str, ...]] = {"input": (*_YES_NO, *"1234567890"), "editor": ("ENTER", "DELETE"),
                                             "pause": _ANY, "inkey": ("SPACE", "ENTER")}


def touch_keys(line: int | None, kind: str | None = None) -> tuple[str, ...]:
    """The touch keys of the wait at *line* (of its *kind* when the table has no row for it); () while running."""
    if line is None:
        return ()
    return TOUCH_KEYS.get(line) or TOUCH_BY_KIND.get(kind or "", ())


def missing_touch_keys(waits: list[int] | tuple[int, ...] | set[int],
                       table: dict[int, tuple[str, ...]] | None = None) -> list[int]:
    """The wait lines of *waits* the touch table has no keys for (every wait must have a row: a phone has no keyboard)."""
    table = TOUCH_KEYS if table is None else table
    return sorted(line for line in waits if not table.get(line))
