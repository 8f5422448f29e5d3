"""A game's page of a regress report: its deals as a timeline, every judgement beside the action it judges.

`game_view` turns one game's records (its transcript and judgements, run_records.GameRecords) into what
game.html draws: each deal's hands and rows, the program's pegs and the engine's reasons, each difference
with the deviation that explains it, the pictures of the screen folded as small tables, the show
breakdowns with their screenshots, and the score race. Nothing is judged again.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from ..cribbage.cards import parse_card
from ..program.judge.judgements import Counts, Difference, Expectation, Judgement, describe
from ..program.records import events as E
from ..program.records.words import WORDS, named, shown
from ..program.runs.regress import PerGame
from . import plots
from .cards import CardView, Cards, latin
from .run_records import GameRecords
from .screen_english import screen_english
from .site import Edition
from PIL import Image

__all__ = ["Row", "PictureView", "DifferenceView", "ShowView", "DealView", "GameView", "game_view",
           "picture_view", "difference_view", "action_words", "reason_words", "peg_words", "COMPONENTS"]

COMPONENTS = ("fifteens", "pairs", "runs", "flush", "nobs")
SAID_ROWS = ("message", "line 22")       # events.Picture.rows: the message line (23), the dealer/winner line (22)
GIF_SCALE = 2


@dataclass(frozen=True)
class DifferenceView:
    """One difference as a page says it: what the engine and the program said, and the lines to read."""
    kind: str
    who: str
    expected: str
    observed: str
    expected_en: str | None              # the screen's English of what the engine expected, if Russian
    observed_en: str | None
    cause: str
    deviation: str | None                # the documented deviation explaining it, None: unexplained
    lines: list[int]


@dataclass
class ShowView:
    """A show's count as the program pegged it and as the engine counts it, and the screen after it."""
    program: dict[str, int]
    engine: dict[str, object]            # the engine's parts and its "combinations" (empty: no breakdown)
    screenshot: str | None


@dataclass
class PictureView:
    """What a picture of the screen showed, as a small table for people (folded behind a disclosure)."""
    summary: str                                           # "12 card slots, the pegs, 3 lines of text"
    slots: list[tuple[str, str, CardView | None]] = field(default_factory=list)   # (slot, what, its card)
    pegs: list[tuple[str, str]] = field(default_factory=list)                      # (whose, the holes)
    texts: list[tuple[str, str, str | None]] = field(default_factory=list)         # (where, Russian, English)
    said: list[tuple[str, str | None]] = field(default_factory=list)   # the message and dealer lines, shown unfolded


@dataclass
class Row:
    index: int
    kind: str
    who: str = ""
    text: str = ""
    cards: list[CardView] = field(default_factory=list)
    count: int | None = None
    pegged: list[str] = field(default_factory=list)        # the program's pegs for this action
    expected: list[str] = field(default_factory=list)      # the engine's itemised reasons
    differences: list[DifferenceView] = field(default_factory=list)
    show: ShowView | None = None                           # program and engine breakdowns, screenshot
    picture: PictureView | None = None                     # a picture of the screen: folded on the page
    other_rules: list[str] = field(default_factory=list)   # what the other rule sets said, in a few words

    @property
    def css(self) -> str:
        if any(not d.deviation for d in self.differences):
            return "diff"
        if self.differences:
            return "documented"
        return "k-" + self.kind


@dataclass
class DealView:
    number: int
    dealer: str = ""
    hands: dict[str, list[CardView]] = field(default_factory=dict)
    rows: list[Row] = field(default_factory=list)
    differences: int = 0
    unexplained: int = 0
    screen_checks: int = 0


@dataclass
class GameView:
    index: int
    name: str
    header: E.Header
    record: PerGame | None
    deals: list[DealView]
    differences: list[DifferenceView]    # under the verdict's rule set
    by_rules: dict[str, tuple[int, int, int]]  # rule set -> (judgements, documented, unexplained)
    judgements: int
    score_events: int
    checks: int
    has_records: bool
    race: plots.Plot | None
    gif: str | None
    final_board: str | None
    pictures: int = 0                    # pictures of the screen judged, under the verdict's rule set
    screen_checks: int = 0               # the checks in them (not among the engine checks)
    gif_size: tuple[int, int] | None = None   # shown at twice the Spectrum's pixels, sharp (GIF_SCALE)


# ----------------------------------------------------------------------------- words for one thing
def action_words(events: list[E.Event], at: int) -> str:
    """Where an action stands in its game, for a reader: its deal, its kind and its event index."""
    deal = next((ev.n for ev in reversed(events[:at + 1]) if isinstance(ev, E.Deal)), None)
    ev = events[at] if 0 <= at < len(events) else None
    what = ev.kind.value if ev is not None else "end"
    return (f"deal {deal}, " if deal else "") + f"{what} (event {at})"


def difference_view(d: Difference, ed: Edition) -> DifferenceView:
    if d.deviation and d.deviation in ed.deviations:
        lines = ed.deviations[d.deviation].lines
    else:
        kind = d.kind.value
        lines = ed.difference_lines.get(kind) or ed.difference_lines.get(kind.split(":")[0], [])
    expected, observed = shown(d.expected), shown(d.observed)
    return DifferenceView(kind=d.kind.value, who=named(d.who) or "—", expected=expected, observed=observed,
                          expected_en=screen_english(expected), observed_en=screen_english(observed),
                          cause=describe(d), deviation=d.deviation, lines=lines)


def reason_words(e: Expectation) -> str:
    """One score the engine gives, in words: who, how many points, why, with which cards."""
    cards = " ".join(latin(c) for c in e.cards) if e.cards else ""
    return f"{named(e.who)} {e.points} for {e.reason}" + (f" ({cards})" if cards else "")


def peg_words(s: E.Score) -> str:
    """One peg of the program, in words: who, how many, for what, the score before and after."""
    return f"{named(s.who)} +{s.points} ({named(s.context)}, {s.before}→{s.before + s.points})"


def _slot_words(code: str, cards: Cards) -> tuple[str, CardView | None]:
    """A slot's transcript code (picture.SlotView.code) in words, with the card it shows face up."""
    state, _, rest = code.partition(" ")
    if state == "up":
        name, _, colours = rest.partition(" ")
        paper, _, ink = colours.partition("/")
        return f"face up (paper {paper}, ink {ink})", cards.view(name)
    if state == "down":
        return "face down", None
    if state == "empty":
        return "empty table", None
    return f"something else: “{rest.strip()}”", None


def picture_view(ev: E.Picture | E.Screen, cards: Cards) -> PictureView:
    if isinstance(ev, E.Screen):
        texts = [(f"row {r}", t.strip(), screen_english(t)) for r, t in ev.rows if t.strip()]
        return PictureView(f"{len(texts)} row{'s' if len(texts) != 1 else ''} of text", texts=texts)
    slots = [(name, *_slot_words(code, cards)) for name, code in ev.slots.items()]
    pegs = [(who, ", ".join(map(str, holes)) if isinstance(holes, (list, tuple)) and holes else shown(holes))
            for who, holes in ev.pegs.items()]
    texts = [(where, t.strip(), screen_english(t)) for where, t in ev.rows.items() if t.strip()]
    parts = [f"{len(slots)} card slot{'s' if len(slots) != 1 else ''}" if slots else "no card",
             "the pegs" if pegs else "", f"{len(texts)} text{'s' if len(texts) != 1 else ''}" if texts else "",
             "the board" if ev.board else "", "the winner's flag" if ev.flag else ""]
    said = [(t, en) for where, t, en in texts if where in SAID_ROWS]
    return PictureView(", ".join(p for p in parts if p), slots, pegs, texts, said)


def _show_view(ev: E.Show, judgements: list[Judgement], shots: dict[str, Path], name: str, deal: int) -> ShowView:
    engine: dict[str, object] = {}
    for j in judgements:
        for e in j.expected:
            if e.detail is not None:
                combinations = [f"{c.kind} {c.points} ({' '.join(latin(x) for x in c.cards)})"
                                for c in e.detail.combinations]
                engine = {**{c: getattr(e.detail, c) for c in COMPONENTS}, "combinations": combinations}
    hand = named(ev.hand)
    shot = next((n for n in sorted(shots) if n.endswith(f"-deal{deal}-show-{hand}.png")), None)
    return ShowView({c: getattr(ev, c) for c in COMPONENTS}, engine, f"{name}/{shot}" if shot else None)


def gif_size(path: Path) -> tuple[int, int] | None:
    """The size to show an action GIF at: GIF_SCALE times its own (320 x 256 border and all: 640 x 512)."""
    try:
        with Image.open(path) as im:
            return im.width * GIF_SCALE, im.height * GIF_SCALE
    except OSError:
        return None


# ----------------------------------------------------------------------------- the judgements by action
def _by_action(judgements: Iterable[Judgement], last: int) -> dict[int, list[Judgement]]:
    """Judgements by the index of the action they judge (one made up at the end: the last event's)."""
    out: dict[int, list[Judgement]] = {}
    for j in judgements:
        out.setdefault(j.action_at if j.action_at is not None else last, []).append(j)
    return out


def _said(js: list[Judgement]) -> Counter[str]:
    return Counter(f"{d.deviation or 'UNEXPLAINED'} {describe(d)}" for j in js for d in j.differences)


def _other_rules(g: GameRecords, verdict: str, rule_sets: list[str],
                 judged: dict[int, list[Judgement]]) -> dict[int, list[str]]:
    """What each other rule set said of an action, in a few words, only where it sees it otherwise."""
    others: dict[int, list[str]] = {}
    for name in rule_sets:
        if name == verdict:
            continue
        for at, js in _by_action(g.under(name), len(g.events) - 1).items():
            if _said(js) != _said(judged.get(at, [])):
                others.setdefault(at, []).append(
                    f"under the {name} rules: " + ("; ".join(sorted(_said(js))) or "no difference"))
    return others


# ----------------------------------------------------------------------------- the timeline
@dataclass
class _Timeline:
    """What every row of one game's timeline is drawn with."""
    game: GameRecords
    ed: Edition
    cards: Cards
    judged: dict[int, list[Judgement]]   # the verdict's judgements by the action they judge
    others: dict[int, list[str]]         # the other rule sets' words by action
    shots: dict[str, Path]               # the game's screenshots by file name

    def row(self, i: int, ev: E.Event, count: int) -> Row:
        """The row of event *i*: its words and cards, the pegs, the engine's reasons, the differences."""
        row = Row(i, ev.kind.value, who=named(getattr(ev, "who", None) or getattr(ev, "hand", None)))
        words = WORDS[ev.kind].row(ev)
        row.text, row.cards = words.text, [self.cards.view(c) for c in words.cards]
        if words.count:
            row.count = count
        if isinstance(ev, E.Score) and i not in self.judged:
            row.pegged = [peg_words(ev)]
            if self.game.judgements is not None:
                row.text += ", outside any judged action"
        if isinstance(ev, (E.Picture, E.Screen)):
            row.picture = picture_view(ev, self.cards)
        for j in self.judged.get(i, []):
            row.pegged += [peg_words(s) for s in j.observed]
            row.expected += [reason_words(e) for e in j.expected]
            row.differences += [difference_view(d, self.ed) for d in j.differences]
        row.other_rules = self.others.get(i, [])
        return row

    def deals(self) -> list[DealView]:
        """The game's deals, each with its rows (a deal 0 for what came before the first, when it has any)."""
        pegs = {s for js in self.judged.values() for j in js for s in j.observed}
        deals: list[DealView] = [DealView(0)]
        count = 0
        for i, ev in enumerate(self.game.events):
            if isinstance(ev, E.Deal):
                deals.append(DealView(ev.n, named(ev.dealer), {who: [self.cards.view(c) for c in getattr(ev, who)]
                                                                for who in ("computer", "player")}))
                count = 0
            deal = deals[-1]
            if isinstance(ev, E.Reset):
                count = 0
            elif isinstance(ev, E.Play):
                count += parse_card(ev.card).value          # the running count a play's row shows
            if isinstance(ev, E.Score) and ev in pegs and i not in self.judged:
                continue                          # shown with the action it was pegged for
            if ev.kind == E.EventKind.CHOICE:
                continue
            row = self.row(i, ev, count)
            if isinstance(ev, E.Screen):
                deal.screen_checks += 1
                if not row.differences:
                    continue                     # a screen that agrees with its variables: counted, not shown
            if isinstance(ev, E.Show):
                row.show = _show_view(ev, self.judged.get(i, []), self.shots, self.game.name, deal.number)
            deal.rows.append(row)
            deal.differences += len(row.differences)
            deal.unexplained += sum(1 for d in row.differences if not d.deviation)
        if not deals[0].rows:
            deals.pop(0)
        return deals


# ----------------------------------------------------------------------------- the score race
@dataclass
class _Race:
    """The scores as they were pegged: each side's (score event number, score), where each deal began."""
    points: dict[str, list[tuple[int, int]]]
    deal_starts: list[tuple[int, int]]
    number_at: dict[int, int]            # event index -> score events up to it
    scores: int


def _race(events: list[E.Event]) -> _Race:
    race = _Race({"computer": [], "player": []}, [], {}, 0)
    for i, ev in enumerate(events):
        if isinstance(ev, E.Score):
            race.scores += 1
            race.points.setdefault(named(ev.who), []).append((race.scores, ev.before + ev.points))
        race.number_at[i] = race.scores
        if isinstance(ev, E.Deal):
            race.deal_starts.append((race.scores, ev.n))
    return race


def _race_plot(g: GameRecords, mine: list[Judgement]) -> plots.Plot | None:
    """The game's score race with each documented deviation marked where it was judged (None: no score)."""
    race = _race(g.events)
    if not race.scores:
        return None
    markers = []
    for j in mine:
        for d in j.differences:
            if d.deviation and j.action_at is not None:
                x = race.number_at.get(j.action_at, 0)
                who = named(d.who) or "computer"
                pts = [y for n, y in race.points.get(who, []) if n <= x]
                markers.append(plots.Marker(x, pts[-1] if pts else 0, who, d.deviation))
    return plots.score_race(f"{g.name}-race", f"Game {g.index}: the scores as they were pegged",
                            race.points, race.deal_starts, markers)


def game_view(g: GameRecords, ed: Edition, cards: Cards, run_dir: Path, verdict: str,
              rule_sets: list[str]) -> GameView:
    """Game *g*'s page: its timeline under the *verdict* rule set, the others' words where they differ."""
    mine = g.under(verdict)
    judged = _by_action(mine, len(g.events) - 1)
    shots_dir = run_dir / g.name
    shots = {p.name: p for p in shots_dir.glob("*.png")} if shots_dir.is_dir() else {}
    deals = _Timeline(g, ed, cards, judged, _other_rules(g, verdict, rule_sets, judged), shots).deals()
    race = _race_plot(g, mine)
    gif = run_dir / f"{g.name}.gif"
    final = next((p for n, p in sorted(shots.items()) if "final-board" in n), None)
    counts = {name: Counts.of(g.under(name)) for name in rule_sets}
    judged_counts = counts.get(verdict, Counts.of([]))
    return GameView(index=g.index, name=g.name, header=g.head, record=g.record, deals=deals,
                    differences=[difference_view(d, ed) for j in mine for d in j.differences],
                    by_rules={n: (len(g.under(n)), sum(c.documented.values()), c.unexplained)
                              for n, c in counts.items()},
                    judgements=len(mine), score_events=judged_counts.score_events, checks=judged_counts.checks,
                    has_records=g.judgements is not None, race=race, gif=gif.name if gif.exists() else None,
                    final_board=f"{g.name}/{final.name}" if final else None, pictures=judged_counts.pictures,
                    screen_checks=judged_counts.screen_checks, gif_size=gif_size(gif) if gif.exists() else None)
