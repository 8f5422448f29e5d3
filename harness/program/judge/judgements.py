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

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterable, TypeVar

from ...runtime import atomic
from ...runtime.records import Codec, Codecs, plain, record
from ...runtime.validate import expect, parse_json
from ...cribbage.rules import ARTICLE, STANDARD, Rules
from ...errors import InputError
from ..model import program as P
from ..records.events import Event, EventKind, Picture, Score, Who, event_from_json, event_to_json
from .causes import (AfterGameOver, AfterWin, BeforeGame, CAUSE_WORDS, Cause, Credit, EngineRefused, FACTS,
                     FairnessFlag, GameWon, GoAt, GoPegged, HandSlot, HarnessFault, Judged, Kind, LineSeen, NoFacts,
                     OutOfTurn, Pegged, PegsSeen, PreviousPeg, Refusal, Scores, ScreenCheckName, ShowLine, ShowPart,
                     ShowPhase, SlotSeen, StaleSeen, TallyFacts, TallyLine, UnmatchedPeg)
from ...spectrum.tape import read_tap
from ...spectrum.profile import Profiler

#: the kinds and causes a difference names are defined in causes.py and named here too, beside the records
__all__ = ["AfterGameOver", "AfterWin", "BeforeGame", "Breakdown", "CAUSE_WORDS", "CODECS", "Cause", "Combination",
           "Comparison", "ComparisonSetup", "Counts", "Credit", "Difference", "EngineRefused", "Expectation", "FACTS",
           "FILE_KIND", "FairnessFlag", "GameWon", "GoAt", "GoPegged", "HandSlot", "HarnessFault", "JUDGED_UNDER",
           "Judged", "Judgement", "JudgementsHeader", "Kind", "LineSeen", "NoFacts", "OutOfTurn", "Pegged", "PegsSeen",
           "PreviousPeg", "Refusal", "SCHEMA_VERSION", "Scores", "ScreenCheckName", "ShowLine", "ShowPart",
           "ShowPhase", "SlotSeen", "StaleSeen", "TallyFacts", "TallyLine", "UnmatchedPeg", "VERDICT_RULES",
           "WHO_OF_INDEX", "check_actions", "comparison_setup", "comparison_setup_of_tape", "describe",
           "difference_from_json", "difference_to_json", "differences", "header", "heading_at", "index_of",
           "is_transcript_name", "judgement_from_json", "judgement_to_json", "judgements_name", "judgements_text",
           "parse_judgements", "read_judgements", "read_judgements_header", "under", "who_of", "write_judgements"]

SCHEMA_VERSION = 1
FILE_KIND = "judgements"
VERDICT_RULES = "standard"          # the rule set whose unexplained differences fail a run
JUDGED_UNDER: tuple[Rules, ...] = (STANDARD, ARTICLE)

WHO_OF_INDEX = (Who.COMPUTER, Who.PLAYER)       # the engine's player index 0, 1

RecordT = TypeVar("RecordT")


def who_of(index: int) -> Who:
    """The `Who` of the engine's player index (the one edge where an index becomes a player)."""
    return WHO_OF_INDEX[index]


def index_of(who: Who) -> int:
    """The engine's player index of a `Who`."""
    return WHO_OF_INDEX.index(Who(who))


@dataclass(frozen=True)
class Difference:
    """One way the program departed from the engine (or from its own variables, on the screen)."""
    kind: Kind
    who: Who | None                  # None: no one player's (a harness error, a distribution, the board)
    expected: object                 # JSON values: what the engine (or the variables) say
    observed: object                 # ... and what the program did (or the screen shows)
    cause: Cause
    facts: object                    # an instance of FACTS[cause]
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
    return comparison_setup(Profiler.program_of_tape(read_tap(tape)), rule_sets)


# ------------------------------------------------------------------ the files
def judgements_name(game: int) -> str:
    """A game's judgements file, beside its transcript game-NNN.jsonl: every rule set in one file."""
    return f"game-{game:03d}.judgements.jsonl"


def is_transcript_name(name: str) -> bool:
    """game-NNN.jsonl, not game-NNN.judgements.jsonl (both match game-*.jsonl)."""
    return name.startswith("game-") and name.endswith(".jsonl") and not name.endswith(".judgements.jsonl")


def _read_event(tp: type, value: object, where: str) -> Event:
    if not isinstance(value, dict):
        raise InputError(f"{where}: not an event")
    ev = event_from_json(value)
    if not isinstance(ev, tp):
        raise InputError(f"{where}: a {ev.kind.value} event, not {tp.__name__}")
    return ev


#: the records' one type the runtime's reader does not know: a transcript event, as events.py writes it
CODECS: Codecs = {Event: Codec(event_to_json, _read_event)}


def _plain(value: Difference | Judgement) -> dict[str, object]:
    """A record as JSON data (runtime/records.py `plain`): an object of its fields."""
    out: dict[str, object] = plain(value, CODECS)
    return out


def _record(cls: type[RecordT], data: object, where: str, skip: tuple[str, ...] = (),
            given: dict[str, object] | None = None) -> RecordT:
    """A record of *cls* from a JSON object (runtime/records.py: every field typed, none missing, none unknown)."""
    found: RecordT = record(cls, data, where, skip=skip, given=given, codecs=CODECS)
    return found


def difference_to_json(d: Difference) -> dict[str, object]:
    return _plain(d)


def judgement_to_json(j: Judgement) -> dict[str, object]:
    return {"kind": "judgement", **_plain(j)}


def difference_from_json(data: object, where: str = "difference") -> Difference:
    if not isinstance(data, dict):
        raise InputError(f"{where}: not an object")
    try:
        cause = Cause(str(data.get("cause")))
    except ValueError:
        raise InputError(f"{where}.cause={data.get('cause')!r} is not one of {[c.value for c in Cause]}") from None
    facts: object = _record(FACTS[cause], data.get("facts"), f"{where}.facts")
    return _record(Difference, data, where, given={"cause": cause, "facts": facts})


def judgement_from_json(data: object, where: str = "judgement") -> Judgement:
    if not isinstance(data, dict) or data.get("kind") != "judgement":
        raise InputError(f"{where}: not a judgement record")
    differences = data.get("differences", [])
    if not isinstance(differences, list):
        raise InputError(f"{where}.differences: not a list")
    diffs = tuple(difference_from_json(d, f"{where}.differences[{i}]") for i, d in enumerate(differences))
    return _record(Judgement, data, where, skip=("kind",), given={"differences": diffs})


def header(**info: object) -> dict[str, object]:
    """The first line of a judgements file."""
    return {"kind": "header", "file": FILE_KIND, "schema": SCHEMA_VERSION, **info}


def judgements_text(judgements: Iterable[Judgement], rule_sets: Iterable[str], **info: object) -> str:
    """A judgements file's text: the header (naming the rule sets judged), then one judgement a line
    (keys sorted), every judgement of the first rule set, then of the next, each in the order it closed."""
    lines = [header(rule_sets=list(rule_sets), **info)] + [judgement_to_json(j) for j in judgements]
    return atomic.json_lines(lines)


def write_judgements(path: Path, judgements: Iterable[Judgement], rule_sets: Iterable[str], **info: object) -> None:
    """Write a judgements file atomically."""
    atomic.write_text(path, judgements_text(judgements, rule_sets, **info))


@dataclass(frozen=True)
class JudgementsHeader:
    """What a judgements file's header names that its readers use: the rule sets judged, the verdict's first."""
    rule_sets: tuple[str, ...]


def read_judgements_header(data: object, where: str) -> JudgementsHeader:
    """A judgements file's first line as its header, or InputError naming *where* (FILE:LINE)."""
    if not isinstance(data, dict) or data.get("kind") != "header" or data.get("file") != FILE_KIND:
        raise InputError(f"{where}: no judgements header")
    if data.get("schema") != SCHEMA_VERSION:
        raise InputError(f"{where}: schema {data.get('schema')!r}, this reader knows {SCHEMA_VERSION}")
    names = data.get("rule_sets")
    if not isinstance(names, list):
        raise InputError(f"{where}: the header names no rule_sets")
    return JudgementsHeader(tuple(expect(n, str, f"{where}: header.rule_sets[{i}]") for i, n in enumerate(names)))


def parse_judgements(lines: Iterable[str], name: str) -> tuple[JudgementsHeader, list[Judgement]]:
    """The header and the judgements of a file's lines; *name* is the file's, for errors."""
    head: JudgementsHeader | None = None
    out: list[Judgement] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        data = parse_json(line, f"{name}:{number}", one_line=True)
        if head is None:
            head = read_judgements_header(data, f"{name}:{number}")
            continue
        try:
            j = judgement_from_json(data)
        except InputError as exc:
            raise InputError(f"{name}:{number}: {exc}") from None
        if j.rules not in head.rule_sets:
            raise InputError(f"{name}:{number}: rule set {j.rules!r} is not in the header's {list(head.rule_sets)}")
        out.append(j)
    if head is None:
        raise InputError(f"{name}: empty, no judgements header")
    return head, out


def read_judgements(path: Path) -> tuple[JudgementsHeader, list[Judgement]]:
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


@dataclass
class Comparison:
    """Every judgement of a transcript under one rule set, in the order they closed; the counts are summed
    from them (so a count and the records cannot disagree)."""
    judgements: list[Judgement] = field(default_factory=list)

    @property
    def differences(self) -> list[Difference]:
        return [d for j in self.judgements for d in j.differences]

    @property
    def score_events(self) -> int:
        """Program score changes checked (every peg but the instructions' demonstration)."""
        return sum(len(j.observed) for j in self.judgements)

    @property
    def checks(self) -> int:
        """Engine expectations checked (including zero-point actions); the pictures' are `screen_checks`."""
        return sum(j.checks for j in self.judgements if not isinstance(j.action, Picture))

    @property
    def pictures(self) -> int:
        """Pictures of the screen judged (screen_judgements.py): one judgement each."""
        return sum(1 for j in self.judgements if isinstance(j.action, Picture))

    @property
    def screen_checks(self) -> int:
        """The slots, pegs and lines judged in those pictures."""
        return sum(j.checks for j in self.judgements if isinstance(j.action, Picture))

    @property
    def screen_differences(self) -> list[Difference]:
        return [d for d in self.differences if d.kind == Kind.SCREEN]

    @property
    def documented(self) -> list[Difference]:
        return [d for d in self.differences if d.deviation]

    @property
    def unexplained(self) -> list[Difference]:
        return [d for d in self.differences if not d.deviation]



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
