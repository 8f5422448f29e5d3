"""What the program did, as typed events: the observer's output and the comparison's input.

One frozen dataclass per kind of event, with enums where a field takes one of
a few values. They are turned into JSON only at the edge (transcript files,
JSON Lines, `SCHEMA_VERSION` in the header line), so the rest of the code
never handles loose dicts. Cards are the engine's two-letter strings ("TC").
"""
from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import ClassVar, Iterable, Mapping, Sequence, TextIO, TypeVar

from ...runtime import atomic
from ...runtime.validate import field, parse_json
from ...errors import InputError
from ...cribbage.cards import parse_card

SCHEMA_VERSION = 1

EventT = TypeVar("EventT", bound="Event")


class Who(StrEnum):
    COMPUTER = "computer"
    PLAYER = "player"


class ScoreContext(StrEnum):
    """Why the program pegged: found from the GO SUB return points on the stack."""
    PLAY = "play"
    GO = "go"
    RESET = "reset"          # the count reset at 4400 calls 2900 again with S unchanged
    HEELS = "heels"
    SHOW = "show"
    DEMO = "demo"            # the instructions' board demonstration
    UNKNOWN = "unknown"


class ShowHand(StrEnum):
    COMPUTER = "computer"
    PLAYER = "player"
    CRIB = "crib"
    UNKNOWN = "unknown"


class ChoiceKind(StrEnum):
    """A decision the automated player took (what a person would have chosen)."""
    DISCARD = "discard"
    PLAY = "play"
    GO = "go"
    BOARD_DEMO = "board demo"
    CANCEL_GO = "cancel go"          # chose a card at the go confirmation instead of the empty slot
    RESELECT = "reselect"            # chose the same card twice while discarding
    KEYS_WHILE_DRAWING = "keys while drawing"
    ANSWER = "answer"                # a typed answer at an INPUT (empty, a letter, out of range...)
    EMPTY_SLOT = "empty slot"        # an empty slot chosen with the count below 22 (2742 ignores it)
    SKIP_DEMO = "skip demo"          # a key other than SPACE at «ДЛЯ ДЕМОНСТРАЦИИ НАЖМИТЕ SPACE»
    REPEAT_DEMO = "repeat demo"      # SPACE at «ДЛЯ ПОВТОРА НАЖМИТЕ SPACE»


class EventKind(StrEnum):
    CUT = "cut"
    DEAL = "deal"
    DISCARD = "discard"
    CRIB = "crib"
    STARTER = "starter"
    PLAY = "play"
    GO = "go"
    RESET = "reset"
    SCORE = "score"
    SHOW = "show"
    CLAIM = "claim"
    REFUSED = "refused"
    WIN = "win"
    TALLY = "tally"
    OPTIONS = "options"
    CHOICE = "choice"
    MESSAGE = "message"
    RIGGED = "rigged"
    SCREEN = "screen"
    PICTURE = "picture"
    REPORT = "report"
    FAILURE = "failure"


@dataclass(frozen=True)
class Event:
    kind: ClassVar[EventKind]


@dataclass(frozen=True)
class Cut(Event):
    """The cut for deal (7430-7450): the player's card in S, the computer's in K."""
    kind: ClassVar[EventKind] = EventKind.CUT
    player_rank: int
    computer_rank: int


@dataclass(frozen=True)
class Deal(Event):
    """Both hands as dealt (7800): six cards each, and who deals."""
    kind: ClassVar[EventKind] = EventKind.DEAL
    n: int
    dealer: Who
    computer: tuple[str, ...]
    player: tuple[str, ...]


@dataclass(frozen=True)
class Discard(Event):
    """The two cards a player laid in the crib (7930)."""
    kind: ClassVar[EventKind] = EventKind.DISCARD
    who: Who
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Crib(Event):
    """The four cards of the crib (E(), E$() at 7930)."""
    kind: ClassVar[EventKind] = EventKind.CRIB
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Starter(Event):
    """The card cut for the starter (8020)."""
    kind: ClassVar[EventKind] = EventKind.STARTER
    card: str


@dataclass(frozen=True)
class Play(Event):
    """A card laid in the play: the player's at 2780 (count T after it), the computer's at 3580 (count SUM before it)."""
    kind: ClassVar[EventKind] = EventKind.PLAY
    who: Who
    card: str
    count: int


@dataclass(frozen=True)
class Go(Event):
    """A go (the player's at 2763/2710, the computer's at 3220/3550) at count SUM."""
    kind: ClassVar[EventKind] = EventKind.GO
    who: Who
    count: int


@dataclass(frozen=True)
class Reset(Event):
    """The count set back to 0 (4405): a series ended."""
    kind: ClassVar[EventKind] = EventKind.RESET
    count: int


@dataclass(frozen=True)
class Score(Event):
    """Points pegged at 6050 (S added to S(PLAYER)); *before* is the total before."""
    kind: ClassVar[EventKind] = EventKind.SCORE
    who: Who
    points: int
    context: ScoreContext
    before: int


@dataclass(frozen=True)
class Show(Event):
    """A hand counted by 4700 (at 4765): its parts; ranks as 2400 sorted H(), suits in H$()'s own order."""
    kind: ClassVar[EventKind] = EventKind.SHOW
    hand: ShowHand
    fifteens: int
    pairs: int
    runs: int
    flush: int
    nobs: int
    ranks: tuple[int, ...]
    suits: tuple[int, ...]


@dataclass(frozen=True)
class Claim(Event):
    """The count the player typed under muggins (4780)."""
    kind: ClassVar[EventKind] = EventKind.CLAIM
    claimed: int


@dataclass(frozen=True)
class Refused(Event):
    """A card the program would not let the player lay (2775: past 31)."""
    kind: ClassVar[EventKind] = EventKind.REFUSED
    who: Who
    card: str
    count: int


@dataclass(frozen=True)
class Win(Event):
    """The program declares a winner (8210) with both pegging totals."""
    kind: ClassVar[EventKind] = EventKind.WIN
    who: Who
    computer: int
    player: int
    credited: Who | None = None      # whose G() the program increments at 8260


@dataclass(frozen=True)
class Tally(Event):
    """The games tally the program keeps in G() and shows under «СЧЕТ» (8290-8310)."""
    kind: ClassVar[EventKind] = EventKind.TALLY
    computer: int
    player: int


@dataclass(frozen=True)
class Options(Event):
    """The muggins answer at 7405."""
    kind: ClassVar[EventKind] = EventKind.OPTIONS
    muggins: bool


@dataclass(frozen=True)
class Choice(Event):
    """A decision the automated player took, as a person would have (what the keys pressed mean)."""
    kind: ClassVar[EventKind] = EventKind.CHOICE
    what: ChoiceKind
    slot: int | None = None
    slots: tuple[int, ...] | None = None
    count: int | None = None
    text: str | None = None


@dataclass(frozen=True)
class Message(Event):
    """The message row after a refused card."""
    kind: ClassVar[EventKind] = EventKind.MESSAGE
    text: str


@dataclass(frozen=True)
class Rigged(Event):
    """A test scenario chose the dealer (the cut did not)."""
    kind: ClassVar[EventKind] = EventKind.RIGGED
    dealer: Who


@dataclass(frozen=True)
class Screen(Event):
    """Screen text read at a moment where it must agree with the variables it was printed from.

    *what* names the check (see `program.ScreenCheck`); *rows* are the screen
    rows that matter (row index, text); *variables* the values read at the same
    moment. The comparison stage judges them; the observer only records.
    """
    kind: ClassVar[EventKind] = EventKind.SCREEN
    what: str
    rows: tuple[tuple[int, str], ...]
    variables: dict[str, object]


@dataclass(frozen=True)
class Picture(Event):
    """What the screen shows at a wait for a person (or another moment the program model names), as
    `picture.py` reads it, beside the program's variables it was drawn from; the comparison judges it.

    *moment*: the wait's kind and line ("select 2720" names the card selector by its caller, "pause 4661")
    or a named moment ("cut"); *line*: where the program stood (in a polling loop of several lines, the
    loop's head: the selector's 3730-3750 is 3730, program.WAIT_LOOP_HEAD). *slots*: slot name -> what it shows
    (`picture.SlotView.code`; an empty slot is left out); *pegs*: "computer"/"player" -> the holes (1..60) their pegs are in;
    *rows*: the message line ("message", row 23), the dealer/winner line ("line 22"), the board's figures
    ("figures"), and any non-blank stretch of the table ("table r:c"); *board*/*flag*: the board and the
    winner's flag are drawn; *drawing*: taken while a drawing routine ran (a picture half made, not judged).
    """
    kind: ClassVar[EventKind] = EventKind.PICTURE
    moment: str
    line: int
    slots: dict[str, str]
    pegs: Mapping[str, Sequence[int]]
    rows: dict[str, str]
    board: bool
    flag: bool
    variables: dict[str, object]
    drawing: bool = False


@dataclass(frozen=True)
class Report(Event):
    """A BASIC report the program stopped with (OK, STOP or an error)."""
    kind: ClassVar[EventKind] = EventKind.REPORT
    code: str
    message: str
    line: int
    statement: int


@dataclass(frozen=True)
class Failure(Event):
    """The harness could not go on with this game (budget exceeded, driver error)."""
    kind: ClassVar[EventKind] = EventKind.FAILURE
    reason: str


EVENT_TYPES: dict[EventKind, type[Event]] = {
    cls.kind: cls for cls in (Cut, Deal, Discard, Crib, Starter, Play, Go, Reset, Score, Show, Claim, Refused,
                              Win, Tally, Options, Choice, Message, Rigged, Screen, Picture, Report, Failure)
}
_ENUMS = {cls.__name__: cls for cls in (Who, ScoreContext, ShowHand, ChoiceKind)}


def _enum_of(annotation: str) -> type[Enum] | None:
    """The enum a field's annotation names ("Who", "Who | None"), if any."""
    return _ENUMS.get(annotation.split(" |")[0])


def _plain(value: object) -> object:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _tupled(value: object) -> object:
    if isinstance(value, list):
        return tuple(_tupled(v) for v in value)
    return value


def event_to_json(ev: Event) -> dict[str, object]:
    """A plain dict: ``kind`` first, then every field that is not None."""
    out: dict[str, object] = {"kind": ev.kind.value}
    for f in dataclasses.fields(ev):
        value = getattr(ev, f.name)
        if value is not None:
            out[f.name] = _plain(value)
    return out


def event_from_json(data: object) -> Event:
    """The typed event of a dict written by `event_to_json` (or by schema 0, whose key was ``t``).

    Every field is checked against its annotation (a card is a card, a count a whole number), so a
    transcript of the wrong form is an InputError naming the field, never a wrong result further on."""
    if not isinstance(data, dict):
        raise InputError(f"expected an event object, found {type(data).__name__}: {_sample(data)}")
    data = dict(data)
    kind_name = data.pop("kind", None) or data.pop("t", None)
    try:
        cls = EVENT_TYPES[EventKind(kind_name)]
    except (ValueError, TypeError):
        raise InputError(f"unknown event kind {_sample(kind_name)}") from None
    args: dict[str, object] = {}
    for f in dataclasses.fields(cls):
        if f.name not in data:
            continue
        value = data.pop(f.name)
        annotation = str(f.type)
        enum = _enum_of(annotation)
        if enum is not None and value is not None:
            try:
                value = enum(value)
            except (ValueError, TypeError):
                raise InputError(f"{kind_name} event: {f.name}={_sample(value)} is not one of "
                                  f"{[e.value for e in enum]}") from None
        elif not (value is None and annotation.endswith("| None")):
            problem = _wrong_form(value, annotation.removesuffix(" | None"), f.name)
            if problem:
                raise InputError(f"{kind_name} event: {f.name}={_sample(value)}: {problem}")
        if f.name != "variables":
            value = _tupled(value)
        args[f.name] = value
    if data:
        raise InputError(f"{kind_name} event has unknown fields {sorted(data)}")
    try:
        return cls(**args)
    except TypeError as exc:
        raise InputError(f"{kind_name} event: {exc}") from None


def _sample(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _wrong_form(value: object, annotation: str, name: str) -> str | None:
    """Why *value* is not of the field's annotation (as events.py spells them), or None if it is."""

    def card_problem(v: object) -> str | None:
        if not isinstance(v, str):
            return f"bad card token {v!r}: not a string"        # as parse_card says it
        try:
            parse_card(v)
        except InputError as exc:
            return str(exc)
        return None

    if annotation == "int":
        if not isinstance(value, int) or isinstance(value, bool):
            return "expected a whole number"
        if name.endswith("_rank") and not 1 <= value <= 13:
            return "expected a rank 1..13"
        return None
    if annotation == "bool":
        return None if isinstance(value, bool) else "expected true or false"
    if annotation == "str":
        if not isinstance(value, str):
            return "expected a string"
        return card_problem(value) if name == "card" else None
    if annotation == "tuple[int, ...]":
        return None if isinstance(value, list) and all(_is_int(v) for v in value) else "expected a list of whole numbers"
    if annotation == "tuple[str, ...]":                     # every such field holds cards
        if not isinstance(value, list):
            return "expected a list of cards"
        return next((p for p in map(card_problem, value) if p), None)
    if annotation == "tuple[tuple[int, str], ...]":
        ok = isinstance(value, list) and all(isinstance(r, list) and len(r) == 2 and _is_int(r[0])
                                             and isinstance(r[1], str) for r in value)
        return None if ok else "expected a list of [row, text] pairs"
    if annotation == "dict[str, object]":
        return None if isinstance(value, dict) else "expected an object"
    if annotation == "Mapping[str, Sequence[int]]":
        ok = isinstance(value, dict) and all(isinstance(v, list) and all(_is_int(n) for n in v) for v in value.values())
        return None if ok else "expected an object of lists of whole numbers"
    return None


def header(**info: object) -> dict[str, object]:
    """The first line of a transcript file."""
    return {"kind": "header", "schema": SCHEMA_VERSION, **info}


def transcript_records(events: Iterable[Event], **info: object) -> list[dict[str, object]]:
    """A transcript's lines as JSON objects: the header, then one per event (what a worker hands back)."""
    return [header(**info)] + [event_to_json(ev) for ev in events]


def write_transcript(path: str | os.PathLike[str], records: Iterable[Mapping[str, object]]) -> None:
    """A transcript file from its records (transcript_records), written atomically as JSON Lines."""
    atomic.write_json_lines(path, records)


def write_jsonl(f: TextIO, events: Iterable[Event], **info: object) -> None:
    """A transcript as JSON Lines into an open text file: the header, then one event per line."""
    f.write(atomic.json_lines(transcript_records(events, **info)))


@dataclass(frozen=True)
class Header:
    """What a transcript's header line names that its readers use: the game's seed, the automated player's
    strategy and the game's number in its run (None: the writer named none; schema 0: no header line)."""
    schema: int = 0
    seed: int | None = None
    player: str | None = None
    game: int | None = None


@dataclass(frozen=True)
class GameHeader:
    """The header of a played game's transcript (read_game): all three of what names the game."""
    seed: int
    player: str
    game: int


def read_header(data: Mapping[str, object], where: str) -> Header:
    """A header line's JSON as a Header, or InputError naming *where* and the field of a wrong kind."""
    schema = data.get("schema")
    if schema != SCHEMA_VERSION:
        raise InputError(f"{where}: schema {schema}, this reader knows {SCHEMA_VERSION}")
    return Header(SCHEMA_VERSION, field(data, "seed", int, f"{where}: header", None),
                  field(data, "player", str, f"{where}: header", None),
                  field(data, "game", int, f"{where}: header", None))


def read_game(path: str | os.PathLike[str], written_by: str) -> tuple[GameHeader, list[Event]]:
    """A played game's transcript file: its header (naming its seed, player and game) and its events, or
    InputError naming the file: unreadable, no header (*written_by*: the runs that write such transcripts),
    no events."""
    try:
        with open(path, encoding="utf-8") as f:
            head, events = read_jsonl(f)
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: {exc}") from None
    if head.schema == 0:
        raise InputError(f"{path}: no header line: not a transcript of {written_by}")
    if head.seed is None or head.player is None or head.game is None:
        missing = [k for k, v in (("seed", head.seed), ("player", head.player), ("game", head.game)) if v is None]
        raise InputError(f"{path}: its header names no {', '.join(missing)}: not a transcript of {written_by}")
    if not events:
        raise InputError(f"{path}: a header and no events: the game was not played")
    return GameHeader(head.seed, head.player, head.game), events


def read_jsonl(f: TextIO) -> tuple[Header, list[Event]]:
    """The header and the events of a transcript file (schema 0 files have no header)."""
    head = Header()
    events: list[Event] = []
    for number, line in _lines(f):
        if not line.strip():
            continue
        data = parse_json(line, f"line {number}", one_line=True)
        if not isinstance(data, dict):
            raise InputError(f"line {number}: expected an event object, found {_sample(data)}")
        if data.get("kind") == "header":
            head = read_header(data, f"line {number}")
            continue
        try:
            events.append(event_from_json(data))
        except InputError as exc:
            raise InputError(f"line {number}: {exc}") from None
    return head, events


def _lines(f: TextIO) -> Iterable[tuple[int, str]]:
    """The file's numbered lines; bytes that are not UTF-8 are an InputError naming the line."""
    number = 0
    while True:
        try:
            line = f.readline()
        except UnicodeDecodeError:
            raise InputError(f"line {number + 1}: not UTF-8 text") from None
        if not line:
            return
        number += 1
        yield number, line


def of_kind(events: Iterable[Event], cls: type[EventT]) -> list[EventT]:
    """The events of one class, in order."""
    return [e for e in events if isinstance(e, cls)]
