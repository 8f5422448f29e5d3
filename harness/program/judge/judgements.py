"""What the comparison decided, as typed records: written once per game, read by every view.

A `Judgement` is one action of the program judged under one rule set: the
action it closes (a transcript event and its index), what the engine expected
of it (`Expectation`s, a show with its `Breakdown`), what the program pegged
(its `Score` events) and its `Difference`s. A difference says what differed
(`Kind`), for whom (`Who`, or None when it is no one player's), the two
values, and why in typed form: a `Cause` member with that cause's frozen
dataclass of facts (`FACTS`), never prose; the deviation rules
(`deviations.py`) match causes and facts, and `describe` is the only place a
difference becomes words. The records go to JSON Lines through one writer and
one reader (`write_judgements`, `read_judgements`), a header with
`SCHEMA_VERSION` first, like the transcripts of `events.py`; docs/JUDGEMENTS.md
is generated from this module.

`comparison_setup` is the one place that chooses what a comparison of a tape
needs (the screen words of its edition, the rule sets it is judged under).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path
from typing import Any, Iterable

from ...runtime import atomic
from ...runtime.records import Codec, Codecs, plain, record
from ...runtime.validate import parse_json
from ...cribbage.rules import ARTICLE, STANDARD, Rules
from ...errors import InputError
from ..model import program as P
from ..records.events import Event, EventKind, Picture, Score, ScoreContext, ShowHand, Who, event_from_json, event_to_json

SCHEMA_VERSION = 1
FILE_KIND = "judgements"
VERDICT_RULES = "standard"          # the rule set whose unexplained differences fail a run
JUDGED_UNDER: tuple[Rules, ...] = (STANDARD, ARTICLE)

WHO_OF_INDEX = (Who.COMPUTER, Who.PLAYER)       # the engine's player index 0, 1


def who_of(index: int) -> Who:
    """The `Who` of the engine's player index (the one edge where an index becomes a player)."""
    return WHO_OF_INDEX[index]


def index_of(who: Who) -> int:
    """The engine's player index of a `Who`."""
    return WHO_OF_INDEX.index(Who(who))


# ------------------------------------------------------------------ what differed and what was judged
class Kind(StrEnum):
    """What differed (the part of the game or the check)."""
    PLAY = "play"                    # points pegged for a card in the play
    GO = "go"                        # a go or last card, judged at the end of the series
    RESET = "reset"                  # a peg at the count reset (4400)
    HEELS = "heels"
    SHOW = "show"                    # the points a show pegged
    SHOW_FIFTEENS = "show:fifteens"  # one part of a show as 4700 counted it
    SHOW_PAIRS = "show:pairs"
    SHOW_RUNS = "show:runs"
    SHOW_FLUSH = "show:flush"
    SHOW_NOBS = "show:nobs"
    UNKNOWN = "unknown"              # a peg whose reason the observer could not tell
    LEGALITY = "legality"
    FLOW = "flow"
    OUTCOME = "outcome"
    SCREEN = "screen"
    HARNESS = "harness"
    FAIRNESS = "fairness"

    @staticmethod
    def show_part(part: str) -> "Kind":
        return Kind("show:" + part)

    @staticmethod
    def of_peg(context: ScoreContext) -> "Kind":
        """The kind of a peg the program made for *context* (a score event's context)."""
        return Kind(context.value)


class Cause(StrEnum):
    """Why a difference was found; each member has its facts class in `FACTS`."""
    PEGGED = "pegged"                        # an action's pegs against the engine's points
    GO_PEGGED = "go pegged"                  # a series' go / last card against the engine's
    UNMATCHED_PEG = "unmatched peg"          # a peg with no action of its kind open
    SHOW_PART = "show part"                  # one part of a show's count
    BEFORE_GAME = "before game"              # an action before the cut for deal
    ENGINE_REFUSED = "engine refused"        # the engine found the action illegal
    AFTER_WIN = "after win"                  # anything after the program declared a winner
    SCORED_AFTER_121 = "scored after 121"
    PLAYED_AFTER_121 = "played after 121"
    DEALER_AFTER_CUT = "dealer after cut"
    OUT_OF_TURN = "out of turn"              # a card laid when it was the other player's turn
    GO_WITH_A_CARD = "go with a card"        # a go by a player who could play
    GO_OUT_OF_TURN = "go out of turn"
    CARD_REFUSED = "card refused"            # the program refused a card that fits under 31
    TURN_SKIPPED = "turn skipped"            # the series ended with a player still able to play
    SHOW_PHASE = "show phase"                # a show outside the show
    SHOW_ORDER = "show order"
    WINNER = "winner"
    FINAL_SCORES = "final scores"
    GAME_CREDITED = "game credited"
    GAMES_TALLY = "games tally"
    SCREEN_CHECK_UNKNOWN = "screen check unknown"
    SCREEN_BOARD = "screen board"
    SCREEN_COUNT = "screen count"
    SCREEN_HAND = "screen hand"
    SCREEN_SHOW = "screen show"
    SCREEN_TALLY = "screen tally"
    SCREEN_CARD = "screen card"              # a slot shows another card than the hand holds there
    SCREEN_FACE = "screen face"              # a slot face up, face down or empty other than it should be
    SCREEN_COLOUR = "screen colour"          # a card drawn with other paper or ink than 5410 gives its suit
    SCREEN_PEGS = "screen pegs"              # pegs in other holes than the scores give
    SCREEN_LINE = "screen line"              # a message line, the figures, the count's tail, the flag
    SCREEN_STALE = "screen stale"            # something left on the table from an earlier picture
    SCREEN_LEFT = "screen left"              # a slot that should be empty still shows a card (or part of one)
    SCREEN_DEAL = "screen deal"              # the hand on screen with the cards laid is not the hand kept
    HARNESS_ERROR = "harness error"
    FAIRNESS_FLAG = "fairness flag"


class Judged(StrEnum):
    """What kind of action a judgement judges."""
    PLAY = "play"
    GO = "go"
    HEELS = "heels"
    SHOW = "show"
    PEG = "peg"                  # a peg with no matching action, judged alone
    DEALER = "dealer"
    REFUSED = "refused"
    WIN = "win"
    TALLY = "tally"
    SCREEN = "screen"
    HARNESS = "harness"
    STOPPED = "stopped"          # the program stopped before the action's pegs were in: not judged
    END = "end"                  # differences left at the end of the transcript


# ------------------------------------------------------------------ the facts of each cause
@dataclass(frozen=True)
class NoFacts:
    """A cause whose difference's values say it all."""


@dataclass(frozen=True)
class Pegged:
    """An action's pegs: *judged* play/heels/show; the card and table of a play, the starter of his
    heels, the hand, its owner, the claim and the true total of a show; both players' pegs."""
    judged: Judged
    pegged: tuple[int, int]          # (computer, player)
    card: str | None = None
    table: tuple[str, ...] = ()
    count: int | None = None
    starter: str | None = None
    hand: ShowHand | None = None
    owner: Who | None = None
    claim: int | None = None
    true_total: int | None = None


@dataclass(frozen=True)
class GoPegged:
    """The engine's last go event of the series: its reason ('go', 'last card') and the rule field that
    set its value (None: the engine expected nothing)."""
    reason: str | None = None
    rule: str | None = None


@dataclass(frozen=True)
class PreviousPeg:
    who: Who
    points: int
    context: ScoreContext


@dataclass(frozen=True)
class UnmatchedPeg:
    context: ScoreContext
    previous: PreviousPeg | None = None      # the peg just before it


@dataclass(frozen=True)
class ShowPart:
    part: str                                # one of program.SHOW_PARTS
    hand: ShowHand
    cards: tuple[str, ...]                   # the hand, then the starter
    crib: bool


@dataclass(frozen=True)
class BeforeGame:
    action: str


@dataclass(frozen=True)
class EngineRefused:
    action: str                              # the engine's method: deal, discard, starter, play, go, show
    arguments: str
    reason: str


@dataclass(frozen=True)
class AfterWin:
    event: EventKind
    winner: Who


@dataclass(frozen=True)
class AfterGameOver:
    """A peg or a card after a score reached 121: what the last peg before was for."""
    won_by: ScoreContext | None
    card: str | None = None


@dataclass(frozen=True)
class OutOfTurn:
    card: str
    count: int
    go_taken_back: bool                      # the series before this one had a go taken back (D8)


@dataclass(frozen=True)
class GoAt:
    """A go, or a series that ended, with the player's hand and the cards of it that fit under 31."""
    count: int
    hand: tuple[str, ...]
    playable: tuple[str, ...]
    go_taken_back: bool


@dataclass(frozen=True)
class Refusal:
    card: str
    count: int


@dataclass(frozen=True)
class ShowPhase:
    hand: ShowHand
    phase: str


@dataclass(frozen=True)
class Scores:
    scores: tuple[int, int]                  # (computer, player) as the program pegged them


@dataclass(frozen=True)
class Credit:
    won_by: ScoreContext | None              # what the last peg was for
    muggins: bool                            # ... and it was a show's points pegged to the other player


@dataclass(frozen=True)
class GameWon:
    winner: Who
    loser_score: int


@dataclass(frozen=True)
class TallyFacts:
    games: tuple[GameWon, ...]               # every game won so far, in order
    one_per_game: tuple[int, int]            # (computer, player), one per game won
    as_credited: tuple[int, int]             # one per game, to whom the program credited it
    game_points: str                         # the rule set's scheme (rules.game_points)
    credit_deviations: tuple[str, ...]       # deviations that credited a game to its loser


@dataclass(frozen=True)
class ScreenCheckName:
    check: str


@dataclass(frozen=True)
class HandSlot:
    slot: int                                # 1..4


@dataclass(frozen=True)
class ShowLine:
    part: str                                # fifteens, pairs, flush, runs, nobs, total


@dataclass(frozen=True)
class TallyLine:
    whose: Who


@dataclass(frozen=True)
class SlotSeen:
    """A card slot judged at a picture: its name (program.Slot), the moment, and why it should show what it
    should (held, chosen, taken back, discarded, hidden, laid, series over, starter, pack, shown, crib, cut)."""
    slot: str
    moment: str
    reason: str


@dataclass(frozen=True)
class PegsSeen:
    whose: Who
    moment: str


@dataclass(frozen=True)
class LineSeen:
    """A line of text judged at a picture: message (row 23), line 22, figures, count tail, flag."""
    line: str
    moment: str


@dataclass(frozen=True)
class StaleSeen:
    """Cells of the table outside every slot that hold something no statement of this moment prints."""
    place: str                               # "table r:c"
    moment: str


@dataclass(frozen=True)
class HarnessFault:
    error: str
    event: EventKind


@dataclass(frozen=True)
class FairnessFlag:
    distribution: str
    group: str
    never: tuple[str, ...]                   # the values that never came up


FACTS: dict[Cause, type] = {
    Cause.PEGGED: Pegged, Cause.GO_PEGGED: GoPegged, Cause.UNMATCHED_PEG: UnmatchedPeg,
    Cause.SHOW_PART: ShowPart, Cause.BEFORE_GAME: BeforeGame, Cause.ENGINE_REFUSED: EngineRefused,
    Cause.AFTER_WIN: AfterWin, Cause.SCORED_AFTER_121: AfterGameOver, Cause.PLAYED_AFTER_121: AfterGameOver,
    Cause.DEALER_AFTER_CUT: NoFacts, Cause.OUT_OF_TURN: OutOfTurn, Cause.GO_WITH_A_CARD: GoAt,
    Cause.GO_OUT_OF_TURN: GoAt, Cause.CARD_REFUSED: Refusal, Cause.TURN_SKIPPED: GoAt,
    Cause.SHOW_PHASE: ShowPhase, Cause.SHOW_ORDER: NoFacts, Cause.WINNER: Scores, Cause.FINAL_SCORES: NoFacts,
    Cause.GAME_CREDITED: Credit, Cause.GAMES_TALLY: TallyFacts, Cause.SCREEN_CHECK_UNKNOWN: ScreenCheckName,
    Cause.SCREEN_BOARD: NoFacts, Cause.SCREEN_COUNT: NoFacts, Cause.SCREEN_HAND: HandSlot,
    Cause.SCREEN_SHOW: ShowLine, Cause.SCREEN_TALLY: TallyLine, Cause.SCREEN_CARD: SlotSeen,
    Cause.SCREEN_FACE: SlotSeen, Cause.SCREEN_COLOUR: SlotSeen, Cause.SCREEN_PEGS: PegsSeen,
    Cause.SCREEN_LINE: LineSeen, Cause.SCREEN_STALE: StaleSeen, Cause.SCREEN_LEFT: SlotSeen, Cause.SCREEN_DEAL: NoFacts, Cause.HARNESS_ERROR: HarnessFault,
    Cause.FAIRNESS_FLAG: FairnessFlag,
}

# A few words for each cause, for views (the facts add the particulars: see `describe`).
CAUSE_WORDS: dict[Cause, str] = {
    Cause.PEGGED: "points pegged", Cause.GO_PEGGED: "go / last card pegged",
    Cause.UNMATCHED_PEG: "peg with no matching action", Cause.SHOW_PART: "show part",
    Cause.BEFORE_GAME: "action before the game began", Cause.ENGINE_REFUSED: "illegal action",
    Cause.AFTER_WIN: "after the win", Cause.SCORED_AFTER_121: "scored after 121",
    Cause.PLAYED_AFTER_121: "played after 121", Cause.DEALER_AFTER_CUT: "dealer after the cut",
    Cause.OUT_OF_TURN: "out of turn", Cause.GO_WITH_A_CARD: "go with a card to play",
    Cause.GO_OUT_OF_TURN: "go out of turn", Cause.CARD_REFUSED: "card refused",
    Cause.TURN_SKIPPED: "turn skipped at the reset", Cause.SHOW_PHASE: "show outside the show",
    Cause.SHOW_ORDER: "show order", Cause.WINNER: "winner", Cause.FINAL_SCORES: "final scores",
    Cause.GAME_CREDITED: "game credited to", Cause.GAMES_TALLY: "games tally",
    Cause.SCREEN_CHECK_UNKNOWN: "unknown screen check", Cause.SCREEN_BOARD: "board scores on the screen",
    Cause.SCREEN_COUNT: "count on the screen", Cause.SCREEN_HAND: "hand on the screen",
    Cause.SCREEN_SHOW: "show breakdown on the screen", Cause.SCREEN_TALLY: "games tally on the screen",
    Cause.SCREEN_CARD: "another card on the screen", Cause.SCREEN_FACE: "card face up, down or gone wrongly",
    Cause.SCREEN_COLOUR: "card colours", Cause.SCREEN_PEGS: "pegs on the board",
    Cause.SCREEN_LINE: "text line on the screen", Cause.SCREEN_STALE: "left over on the table",
    Cause.SCREEN_LEFT: "card left in an empty slot",
    Cause.SCREEN_DEAL: "hand on the screen is not the hand kept",
    Cause.HARNESS_ERROR: "harness error", Cause.FAIRNESS_FLAG: "not a fair distribution",
}


@dataclass(frozen=True)
class Difference:
    """One way the program departed from the engine (or from its own variables, on the screen)."""
    kind: Kind
    who: Who | None                  # None: no one player's (a harness error, a distribution, the board)
    expected: Any                    # JSON values: what the engine (or the variables) say
    observed: Any                    # ... and what the program did (or the screen shows)
    cause: Cause
    facts: Any                       # an instance of FACTS[cause]
    deviation: str | None = None     # id of the documented deviation, None = unexplained
    at: int | None = None            # index of the event being judged when it was found

    def __post_init__(self) -> None:
        want = FACTS[self.cause]
        if type(self.facts) is not want:
            raise TypeError(f"{self.cause.value} difference: facts {type(self.facts).__name__}, not {want.__name__}")


def describe(d: Difference) -> str:
    """The difference's cause in a few words, with the one fact that tells it apart."""
    words = CAUSE_WORDS[d.cause]
    f = d.facts
    if isinstance(f, HandSlot):
        return f"{words}: slot {f.slot}"
    if isinstance(f, SlotSeen):
        return f"{words}: {f.slot} at {f.moment}"
    if isinstance(f, (LineSeen, StaleSeen)):
        return f"{words}: {f.line if isinstance(f, LineSeen) else f.place} at {f.moment}"
    if isinstance(f, ShowLine):
        return f"{words}: {f.part}"
    if isinstance(f, (ShowPart, ScreenCheckName)):
        return f"{words}: {f.part if isinstance(f, ShowPart) else f.check}"
    if isinstance(f, GoPegged) and f.reason:
        return f"{f.reason} pegged"
    if isinstance(f, EngineRefused):
        return f"{words}: {f.reason}"
    return words


@dataclass(frozen=True)
class Combination:
    kind: str
    cards: tuple[str, ...]
    points: int


@dataclass(frozen=True)
class Breakdown:
    """The engine's count of a show, part by part, with every combination."""
    hand: tuple[str, ...]
    starter: str | None
    crib: bool
    fifteens: int
    pairs: int
    runs: int
    flush: int
    nobs: int
    total: int
    combinations: tuple[Combination, ...]


@dataclass(frozen=True)
class Expectation:
    """One score the engine gives for the action: who, how many points, why (and which rule set it)."""
    who: Who
    points: int
    reason: str
    cards: tuple[str, ...] = ()
    rule: str | None = None
    detail: Breakdown | None = None          # a show's breakdown


@dataclass(frozen=True)
class Judgement:
    """One action of the program judged under one rule set."""
    rules: str                               # the rule set's name (Rules.name)
    judged: Judged
    action: Event                            # the event it judges (a go: the series' last card or go)
    action_at: int | None                    # that event's index in the transcript (None: made up at the end)
    closed_at: int | None                    # the index of the event whose arrival closed it
    expected: tuple[Expectation, ...] = ()
    observed: tuple[Score, ...] = ()         # the program's pegs for it
    differences: tuple[Difference, ...] = ()
    checks: int = 0                          # engine expectations checked in it

    @property
    def unexplained(self) -> tuple[Difference, ...]:
        return tuple(d for d in self.differences if not d.deviation)


def heading_at(events: list[Event], index: int | None) -> Event | None:
    """The event that heads the part of the game *index* is in: the last cut, deal, show or win at or
    before it (a judgement's heading is ``heading_at(events, j.action_at)``)."""
    if index is None:
        return None
    for ev in reversed(events[:index + 1]):
        if ev.kind in (EventKind.CUT, EventKind.DEAL, EventKind.SHOW, EventKind.WIN):
            return ev
    return None


# ------------------------------------------------------------------ one comparison set-up
@dataclass(frozen=True)
class ComparisonSetup:
    """What a comparison of one tape needs: its edition's screen words and the rule sets to judge under
    (the first is the verdict's)."""
    edition: str                             # "ru" or "en"
    words: P.ScreenWords
    rule_sets: tuple[Rules, ...]

    @property
    def verdict(self) -> Rules:
        return self.rule_sets[0]

    def rules(self, name: str) -> Rules:
        for r in self.rule_sets:
            if r.name == name:
                return r
        raise KeyError(f"no rule set {name!r} in this set-up ({', '.join(r.name for r in self.rule_sets)})")


def comparison_setup(program: bytes, rule_sets: Iterable[Rules] = JUDGED_UNDER) -> ComparisonSetup:
    """The set-up for the program a tape loaded (`Spectrum48.program_bytes()`): its bytes tell the edition."""
    words = P.words_of_program(program)
    rules = tuple(rule_sets)
    if not rules:
        raise ValueError("comparison_setup: no rule set to judge under")
    return ComparisonSetup("ru" if words == P.RUSSIAN else "en", words, rules)


def comparison_setup_of_tape(tape: bytes, rule_sets: Iterable[Rules] = JUDGED_UNDER) -> ComparisonSetup:
    """The same from a TAP file's bytes (its second block is the program)."""
    from ...spectrum.tape import read_tap
    from ...spectrum.profile import Profiler
    return comparison_setup(Profiler.program_of_tape(read_tap(tape)), rule_sets)


# ------------------------------------------------------------------ the files
def judgements_name(game: int) -> str:
    """A game's judgements file, beside its transcript game-NNN.jsonl: every rule set in one file."""
    return f"game-{game:03d}.judgements.jsonl"


def is_transcript_name(name: str) -> bool:
    """game-NNN.jsonl, not game-NNN.judgements.jsonl (both match game-*.jsonl)."""
    return name.startswith("game-") and name.endswith(".jsonl") and not name.endswith(".judgements.jsonl")


def _read_event(tp: type, value: Any, where: str) -> Event:
    if not isinstance(value, dict):
        raise InputError(f"{where}: not an event")
    ev = event_from_json(value)
    if not isinstance(ev, tp):
        raise InputError(f"{where}: a {ev.kind.value} event, not {tp.__name__}")
    return ev


#: the records' one type the runtime's reader does not know: a transcript event, as events.py writes it
CODECS: Codecs = {Event: Codec(event_to_json, _read_event)}


def _plain(value: Any) -> Any:
    return plain(value, CODECS)


def _record(cls: type, data: Any, where: str, skip: tuple[str, ...] = (), given: dict[str, Any] | None = None) -> Any:
    """A record of *cls* from a JSON object (runtime/records.py: every field typed, none missing, none unknown)."""
    return record(cls, data, where, skip=skip, given=given, codecs=CODECS)


def difference_to_json(d: Difference) -> dict[str, Any]:
    out: dict[str, Any] = _plain(d)
    return out


def judgement_to_json(j: Judgement) -> dict[str, Any]:
    return {"kind": "judgement", **_plain(j)}


def difference_from_json(data: dict[str, Any], where: str = "difference") -> Difference:
    if not isinstance(data, dict):
        raise InputError(f"{where}: not an object")
    try:
        cause = Cause(str(data.get("cause")))
    except ValueError:
        raise InputError(f"{where}.cause={data.get('cause')!r} is not one of {[c.value for c in Cause]}") from None
    facts = _record(FACTS[cause], data.get("facts"), f"{where}.facts")
    found: Difference = _record(Difference, data, where, given={"cause": cause, "facts": facts})
    return found


def judgement_from_json(data: dict[str, Any], where: str = "judgement") -> Judgement:
    if not isinstance(data, dict) or data.get("kind") != "judgement":
        raise InputError(f"{where}: not a judgement record")
    differences = data.get("differences", [])
    if not isinstance(differences, list):
        raise InputError(f"{where}.differences: not a list")
    diffs = tuple(difference_from_json(d, f"{where}.differences[{i}]") for i, d in enumerate(differences))
    found: Judgement = _record(Judgement, data, where, skip=("kind",), given={"differences": diffs})
    return found


def header(**info: Any) -> dict[str, Any]:
    """The first line of a judgements file."""
    return {"kind": "header", "file": FILE_KIND, "schema": SCHEMA_VERSION, **info}


def judgements_text(judgements: Iterable[Judgement], rule_sets: Iterable[str], **info: Any) -> str:
    """A judgements file's text: the header (naming the rule sets judged), then one judgement a line
    (keys sorted), every judgement of the first rule set, then of the next, each in the order it closed."""
    lines = [header(rule_sets=list(rule_sets), **info)] + [judgement_to_json(j) for j in judgements]
    return atomic.json_lines(lines)


def write_judgements(path: Path, judgements: Iterable[Judgement], rule_sets: Iterable[str], **info: Any) -> None:
    """Write a judgements file atomically."""
    atomic.write_text(path, judgements_text(judgements, rule_sets, **info))


def parse_judgements(lines: Iterable[str], name: str) -> tuple[dict[str, Any], list[Judgement]]:
    """The header and the judgements of a file's lines; *name* is the file's, for errors."""
    head: dict[str, Any] | None = None
    out: list[Judgement] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        data = parse_json(line, f"{name}:{number}", one_line=True)
        if head is None:
            if not isinstance(data, dict) or data.get("kind") != "header" or data.get("file") != FILE_KIND:
                raise InputError(f"{name}:{number}: no judgements header")
            if data.get("schema") != SCHEMA_VERSION:
                raise InputError(f"{name}:{number}: schema {data.get('schema')!r}, this reader knows "
                                      f"{SCHEMA_VERSION}")
            if not isinstance(data.get("rule_sets"), list):
                raise InputError(f"{name}:{number}: the header names no rule_sets")
            head = data
            continue
        try:
            j = judgement_from_json(data)
        except InputError as exc:
            raise InputError(f"{name}:{number}: {exc}") from None
        if j.rules not in head["rule_sets"]:
            raise InputError(f"{name}:{number}: rule set {j.rules!r} is not in the header's {head['rule_sets']}")
        out.append(j)
    if head is None:
        raise InputError(f"{name}: empty, no judgements header")
    return head, out


def read_judgements(path: Path) -> tuple[dict[str, Any], list[Judgement]]:
    """The header and every judgement of a judgements file (all its rule sets; see `under`)."""
    try:
        with open(path, encoding="utf-8") as f:
            return parse_judgements(f, str(path))
    except OSError as exc:
        raise InputError(f"{path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 ({exc.reason})") from None


def _as_judged(ev: Event) -> Event:
    """An event as a judgement keeps it: a picture without its variables (they stay in the transcript)."""
    return replace(ev, variables={}) if isinstance(ev, Picture) else ev


def check_actions(events: list[Event], judgements: Iterable[Judgement], name: str) -> None:
    """Every judgement's action_at names the event it judges: InputError naming the file and the judgement
    when it points past the transcript or at another event (a view places each judgement at its action:
    the report's timeline, the watch mode's replay), and where its action is if it is there at all."""
    judged = [_as_judged(ev) for ev in events]
    for n, j in enumerate(judgements, 1):
        at = j.action_at
        if at is None:
            continue
        if not 0 <= at < len(events):
            raise InputError(f"{name}: judgement {n} ({j.judged.value}, {j.rules} rules) points at event {at}, "
                             f"past the transcript's {len(events)} events")
        if judged[at] != j.action:
            found = [i for i, ev in enumerate(judged) if ev == j.action]
            where = f"it is event {found[0]}" if found else "it is nowhere in the transcript"
            raise InputError(f"{name}: judgement {n} ({j.judged.value}, {j.rules} rules) points at event {at} "
                             f"({events[at].kind.value}), not at the {j.action.kind.value} it judges ({where})")


def under(judgements: Iterable[Judgement], rules: str) -> list[Judgement]:
    """The judgements made under one rule set, in the order they closed."""
    return [j for j in judgements if j.rules == rules]


def differences(judgements: Iterable[Judgement]) -> list[Difference]:
    return [d for j in judgements for d in j.differences]


@dataclass(frozen=True)
class Counts:
    """A rule set's totals, summed from its judgements (what report.json counts)."""
    score_events: int
    checks: int                              # engine checks (the pictures' are screen_checks)
    documented: dict[str, int]
    unexplained: int
    pictures: int = 0                        # pictures of the screen judged
    screen_checks: int = 0                   # the slots, pegs and lines judged in them
    screen_differences: int = 0              # every screen difference (the pictures' and the older checks')
    screen_unexplained: int = 0

    @classmethod
    def of(cls, judgements: Iterable[Judgement]) -> "Counts":
        js = list(judgements)
        documented: dict[str, int] = {}
        for d in differences(js):
            if d.deviation:
                documented[d.deviation] = documented.get(d.deviation, 0) + 1
        pictures = [j for j in js if isinstance(j.action, Picture)]
        screen = [d for d in differences(js) if d.kind == Kind.SCREEN]
        return cls(sum(len(j.observed) for j in js), sum(j.checks for j in js) - sum(j.checks for j in pictures),
                   dict(sorted(documented.items())), sum(len(j.unexplained) for j in js), len(pictures),
                   sum(j.checks for j in pictures), len(screen), sum(1 for d in screen if not d.deviation))
