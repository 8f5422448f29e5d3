"""`report.html` of a regress run, verdict first, and a page per game: rendered from the stored records only.

`write_report_html(run_dir)` reads what regress left in the folder: report.json (the run's counts,
coverage and per-game facts), each game's transcript `game-NNN.jsonl`, its judgement records
`game-NNN.judgements.jsonl` (what the comparison decided, under every rule set, written once by the
worker: harness/program/judge/judgements.py) and the PNGs and GIF. Nothing is judged again here: the pages
show the records. The report opens with the verdict under each rule set, then what each documented
deviation cost, the findings, the coverage with the notes that explain what did not run, the
fairness of the deck and the show scores as plots, and the games; each game page has its score race
and a timeline of its deals with every judgement beside the action it judges. The counts on the
page are summed from the records; where report.json says otherwise the page says so in red.

The listing edition goes to run_dir/listing/ (with the run's coverage) so every link resolves inside
the folder. A sweep's folder (a report.json without transcripts) gets its facts as tables.
"""
from __future__ import annotations

import json
from collections import Counter
from functools import lru_cache
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from markupsafe import Markup

from ..cribbage.cards import RANKS, SUIT_SYMBOLS, full_deck, parse_card, rank_name
from ..cribbage.stats import exact_show_counts
from ..runtime import atomic
from ..errors import InputError
from ..runtime.records import plain
from ..runtime.validate import expect, read_json
from ..program.judge.deviations import DEVIATIONS
from ..spectrum.rzx import read_rzx
from ..program.records import events as E
from ..program.records.frames import GameId, check_recording, frames_name, read_frames_record
from ..program.records.words import WORDS, named, shown
from ..program.runs.fairness import analyse as fairness_of
from ..program.runs.regress import PerGame, RegressReport, is_report, read_report
from ..program.runs.sweep import read_discard_report
from ..program.runs.sweep import read_report as read_sweep_report
from ..program.judge.judgements import (VERDICT_RULES, Counts, Difference, Judgement, check_actions, describe,
                               is_transcript_name, judgements_name, read_judgements)
from ..program.model.english import TABLE as TRANSLATION
from ..program.model.english import read_table
from ..program.model.program import RANK_CODES, SUIT_CODES, UDG_TEXT
from . import glyphs, plots
from .site import Edition, load_edition, template_env, write_site

__all__ = ["write_report_html", "latin", "RunView", "read_run", "watch_entries", "Watch", "Player"]

EDITION_DIR = "listing"
PLOTS_DIR = "plots"


# ----------------------------------------------------------------------------- cards
def latin(name: str) -> str:
    """A card in the notation anyone reads: A, 2-10, J, Q, K and the suit symbol (QD -> Q♦, TH -> 10♥)."""
    card = parse_card(name)
    rank = RANKS[card.rank - 1]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[card.suit]


@dataclass(frozen=True)
class CardView:
    name: str                           # the engine's (QD)
    latin: str                          # Q♦
    glyphs: tuple[tuple[int, str], ...]  # as the program draws it: R$(rank), S$(suit)
    red: bool


class Cards:
    """Cards drawn as the program draws them: R$(rank) and S$(suit), lines 7320/7315 (the program model's)."""

    def __init__(self) -> None:
        self.ranks, self.suits = RANK_CODES, SUIT_CODES

    def view(self, name: str) -> CardView:
        card = parse_card(name)
        codes = (self.ranks[card.rank - 1], self.suits[card.suit])
        return CardView(name, latin(name), tuple((c, glyphs.readable(c, UDG_TEXT)) for c in codes),
                        card.suit in (0, 2))      # hearts, diamonds: INK 2 (5410)


# ----------------------------------------------------------------------------- the records of a run
@dataclass
class GameRecords:
    index: int
    name: str                            # game-NNN
    head: dict[str, Any]
    events: list[E.Event]
    judgements: list[Judgement] | None   # None: no records file
    record: PerGame | None               # report.json's per_game entry (None: the report has none for it)

    def under(self, rules: str) -> list[Judgement]:
        return [j for j in self.judgements or [] if j.rules == rules]


@dataclass
class RunView:
    report: RegressReport | None         # None: a sweeps' folder, its facts only
    games: list[GameRecords]
    rule_sets: list[str]                 # the verdict's first
    facts: dict[str, Any] = field(default_factory=dict)   # a sweeps' folder's reports, shown as they are


def read_run(run_dir: Path) -> RunView:
    """report.json (regress.read_report), every transcript and every judgements file of a run folder; a
    report.json that is not a regress run's, in a folder without transcripts (a sweep's of old), is shown as
    its facts."""
    path = run_dir / "report.json"
    data = expect(read_json(path, InputError), dict, f"{path}", InputError)
    games, rule_sets = _read_games(run_dir)
    if not games and not is_report(data):
        return RunView(None, [], [VERDICT_RULES], data)
    report = read_report(path)
    per_game = {g.index: g for g in report.per_game}
    for g in games:
        g.record = per_game.get(g.index)
    if not rule_sets:
        rule_sets = list(report.unexplained_by_rules) or [VERDICT_RULES]
    rule_sets.sort(key=lambda n: n != VERDICT_RULES)
    return RunView(report, games, rule_sets)


def _read_games(run_dir: Path) -> tuple[list[GameRecords], list[str]]:
    """Every game's transcript and judgements of a run folder, and the rule sets they were judged under."""
    games = []
    rule_sets: list[str] = []
    for path in sorted(run_dir.glob("game-*.jsonl")):
        if not is_transcript_name(path.name):
            continue
        index = int(path.stem.split("-")[1])
        try:
            with open(path, encoding="utf-8") as f:
                head, events = E.read_jsonl(f)
        except OSError as exc:
            raise InputError(f"{path}: {exc.strerror}") from None
        except InputError as exc:
            raise InputError(f"{path}: {exc}") from None
        records = run_dir / judgements_name(index)
        judgements = None
        if records.exists():
            jhead, judgements = read_judgements(records)        # an InputError naming FILE:LINE
            check_actions(events, judgements, str(records))   # each judgement at the action it judges
            for name in jhead.get("rule_sets", []):
                if name not in rule_sets:
                    rule_sets.append(name)
        games.append(GameRecords(index, path.stem, head, events, judgements, None))
    return games, rule_sets


# ----------------------------------------------------------------------------- the verdict
@dataclass
class RuleVerdict:
    rules: str
    verdict: bool                        # whether this rule set decides the run
    unexplained: int
    documented: dict[str, int]
    score_events: int
    checks: int                          # engine checks (of the actions; the pictures' are screen_checks)
    pictures: int                        # pictures of the screen judged
    screen_checks: int                   # the slots, pegs and lines judged in those pictures
    disagreements: list[str]             # where report.json's counts differ from the records'


@dataclass
class Headline:
    passed: bool
    games: int
    played: int
    completed: int
    basic_errors: int
    harness_failures: int
    timeouts: int
    ended: str
    missing_records: list[str]           # games with no judgements file
    rules: list[RuleVerdict]


def headline(run: RunView, rep: RegressReport) -> Headline:
    rules = []
    judged = [g for g in run.games if g.judgements is not None]
    for name in run.rule_sets:
        counts = Counts.of(j for g in judged for j in g.under(name))
        disagree = []
        said = rep.unexplained_by_rules.get(name)
        if said is not None and judged and said != counts.unexplained:
            disagree.append(f"report.json counts {said} unexplained, the records {counts.unexplained}")
        said_doc = rep.documented_by_rules.get(name)
        if said_doc is not None and judged and dict(said_doc) != counts.documented:
            disagree.append(f"report.json counts documented {_counts_text(said_doc)}, the records "
                            f"{_counts_text(counts.documented)}")
        rules.append(RuleVerdict(name, name == VERDICT_RULES, counts.unexplained, counts.documented,
                                 counts.score_events, counts.checks, counts.pictures, counts.screen_checks,
                                 disagree))
    basic, failures, timeouts = rep.basic_errors, rep.harness_failures, rep.timeouts
    missing = [g.name for g in run.games if g.judgements is None]
    verdict = next((r for r in rules if r.verdict), None)
    passed = (verdict is not None and verdict.unexplained == 0 and not verdict.disagreements and not missing
              and not (basic or failures or timeouts) and rep.ended == "complete")
    return Headline(passed, rep.games, rep.played, rep.completed, basic, failures, timeouts, rep.ended, missing, rules)


def _counts_text(counts: dict) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "none"


# ----------------------------------------------------------------------------- what each deviation cost
@dataclass
class DeviationCost:
    id: str
    what: str
    lines: list[int]
    count: int = 0
    points: int = 0                      # points the program pegged beyond the engine's (negative: fewer)
    games: set[int] = field(default_factory=set)
    first: tuple[str, int] | None = None  # (game page, event index) of the first action it showed in
    first_text: str = ""
    by_rules: dict[str, int] = field(default_factory=dict)


def _points(d: Difference) -> int:
    if isinstance(d.expected, bool) or isinstance(d.observed, bool):
        return 0
    if isinstance(d.expected, (int, float)) and isinstance(d.observed, (int, float)):
        return int(d.observed - d.expected)
    return 0


def deviation_costs(run: RunView, ed: Edition) -> list[DeviationCost]:
    costs: dict[str, DeviationCost] = {}
    for g in run.games:
        for j in g.judgements or []:
            for d in j.differences:
                if not d.deviation:
                    continue
                dev = ed.deviations.get(d.deviation, {})
                c = costs.setdefault(d.deviation, DeviationCost(d.deviation, dev.get("what", ""), dev.get("lines", [])))
                c.by_rules[j.rules] = c.by_rules.get(j.rules, 0) + 1
                if j.rules != run.rule_sets[0]:
                    continue
                c.count += 1
                c.points += _points(d)
                c.games.add(g.index)
                at = j.action_at if j.action_at is not None else d.at
                if c.first is None and at is not None:
                    c.first = (f"{g.name}.html", at)
                    c.first_text = f"game {g.index}, {_action_words(g.events, at)}"
    return sorted(costs.values(), key=lambda c: (int(c.id[1:]) if c.id[1:].isdigit() else 999, c.id))


def _action_words(events: list[E.Event], at: int) -> str:
    deal = next((ev.n for ev in reversed(events[:at + 1]) if isinstance(ev, E.Deal)), None)
    ev = events[at] if 0 <= at < len(events) else None
    what = ev.kind.value if ev is not None else "end"
    return (f"deal {deal}, " if deal else "") + f"{what} (event {at})"


# ----------------------------------------------------------------------------- a game's timeline
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
    differences: list[dict] = field(default_factory=list)
    show: dict | None = None                               # program and engine breakdowns, screenshot
    picture: PictureView | None = None                     # a picture of the screen: folded on the page
    other_rules: list[str] = field(default_factory=list)   # what the other rule sets said, in a few words

    @property
    def css(self) -> str:
        if any(not d["deviation"] for d in self.differences):
            return "diff"
        if self.differences:
            return "documented"
        return "k-" + self.kind


@dataclass
class PictureView:
    """What a picture of the screen showed, as a small table for people (folded behind a disclosure)."""
    summary: str                                           # "12 card slots, the pegs, 3 lines of text"
    slots: list[tuple[str, str, CardView | None]] = field(default_factory=list)   # (slot, what, its card)
    pegs: list[tuple[str, str]] = field(default_factory=list)                      # (whose, the holes)
    texts: list[tuple[str, str, str | None]] = field(default_factory=list)         # (where, Russian, English)
    said: list[tuple[str, str | None]] = field(default_factory=list)   # the message and dealer lines, shown unfolded


@lru_cache(maxsize=4096)            # a run's screens show the same few texts again and again
def screen_english(text: str) -> str | None:
    """The English edition's words for a Russian text the screen showed (basic/translation.tsv, the table the
    English tape is built from), or None where it shows no Russian or none the table has. A row may hold
    several texts and numbers («15-ТЬ -4 ПАРЫ -2», a message and the answer typed after it): each longest run
    of words that is a whole literal of the listing (its trailing dash, colon or equals sign aside) is
    replaced by its English, numbers and unknown fragments («Д!», the end of a «ХОД!» written over) kept."""
    words = text.split()
    if not any(_cyrillic(w) for w in words):
        return None
    table = _literal_words()
    longest = max((len(k) for k in table), default=0)
    out, i, found = [], 0, False
    while i < len(words):
        for n in range(min(longest, len(words) - i), 0, -1):
            en = table.get(tuple(words[i:i + n]))
            if en is not None:
                out.append(en)
                i += n
                found = True
                break
        else:
            glued = _glued(words, i, table)      # a literal and what was typed after it, no space between
            if glued is not None:
                en, rest, n = glued
                out.append(en + rest)
                i += n
                found = True
            else:
                out.append(words[i])
                i += 1
    return " ".join(out) if found else None


def _glued(words: list[str], i: int, table: dict[tuple[str, ...], str]) -> tuple[str, str, int] | None:
    """The longest literal that words[i:] begin with when its last word is only the start of a word
    («(Y/N):"С"», an INPUT's prompt and the answer echoed after it): (English, the rest, words used)."""
    best = None
    for ru, en in table.items():
        n = len(ru)
        if (i + n <= len(words) and list(ru[:-1]) == words[i:i + n - 1] and words[i + n - 1] != ru[-1]
                and words[i + n - 1].startswith(ru[-1]) and (best is None or n > best[2])):
            rest = words[i + n - 1][len(ru[-1]):]
            if ru[-1][-1].isalpha() and rest[0].isalpha():      # «ВЫ» is not the start of «ВЫБЕРИТЕ»
                continue
            best = (en, rest, n)
    return best


def _cyrillic(word: str) -> bool:
    return any("А" <= ch <= "я" or ch == "Ё" for ch in word)


@lru_cache(maxsize=1)
def _literal_words() -> dict[tuple[str, ...], str]:
    """Each Russian literal of the translation table as its words -> the English's words (a literal that
    two rows translate differently is left out: its English depends on the line)."""
    exact: dict[tuple[str, ...], set[str]] = {}
    bare: dict[tuple[str, ...], set[str]] = {}
    for t in read_table(TRANSLATION):
        if any(_cyrillic(w) for w in t.russian.split()):
            exact.setdefault(tuple(t.russian.split()), set()).add(" ".join(t.english.split()))
            bare.setdefault(tuple(t.russian.strip(" -=:").split()), set()).add(" ".join(t.english.strip(" -=:").split()))
    out = {ru: en.pop() for ru, en in bare.items() if len(en) == 1}
    out.update({ru: en.pop() for ru, en in exact.items() if len(en) == 1})   # «ВСЕГО » itself before «ВСЕГО = »
    return out


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


SAID_ROWS = ("message", "line 22")       # events.Picture.rows: the message line (23), the dealer/winner line (22)


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
    header: dict[str, Any]
    record: PerGame | None
    deals: list[DealView]
    differences: list[dict]              # under the verdict's rule set
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


GIF_SCALE = 2


def gif_size(path: Path) -> tuple[int, int] | None:
    """The size to show an action GIF at: GIF_SCALE times its own (320 x 256 border and all: 640 x 512)."""
    from PIL import Image
    try:
        with Image.open(path) as im:
            return im.width * GIF_SCALE, im.height * GIF_SCALE
    except OSError:
        return None


def _difference_view(d: Difference, ed: Edition) -> dict:
    if d.deviation and d.deviation in ed.deviations:
        lines = ed.deviations[d.deviation]["lines"]
    else:
        kind = d.kind.value
        lines = ed.difference_lines.get(kind) or ed.difference_lines.get(kind.split(":")[0], [])
    expected, observed = shown(d.expected), shown(d.observed)
    return {"kind": d.kind.value, "who": named(d.who) or "—", "expected": expected, "observed": observed,
            "expected_en": screen_english(expected), "observed_en": screen_english(observed),
            "cause": describe(d), "deviation": d.deviation, "lines": lines}


def _reason(e) -> str:
    cards = " ".join(latin(c) for c in e.cards) if e.cards else ""
    return f"{named(e.who)} {e.points} for {e.reason}" + (f" ({cards})" if cards else "")


def _peg(s: E.Score) -> str:
    return f"{named(s.who)} +{s.points} ({named(s.context)}, {s.before}→{s.before + s.points})"


COMPONENTS = ("fifteens", "pairs", "runs", "flush", "nobs")


def game_view(g: GameRecords, ed: Edition, cards: Cards, run_dir: Path, verdict: str,
              rule_sets: list[str]) -> GameView:
    events = g.events
    mine = g.under(verdict)
    judged: dict[int, list[Judgement]] = {}
    for j in mine:
        at = j.action_at if j.action_at is not None else len(events) - 1
        judged.setdefault(at, []).append(j)
    def said(js) -> Counter:
        return Counter(f"{d.deviation or 'UNEXPLAINED'} {describe(d)}" for j in js for d in j.differences)

    others: dict[int, list[str]] = {}
    for name in rule_sets:
        if name == verdict:
            continue
        theirs: dict[int, list[Judgement]] = {}
        for j in g.under(name):
            theirs.setdefault(j.action_at if j.action_at is not None else len(events) - 1, []).append(j)
        for at, js in theirs.items():
            if said(js) != said(judged.get(at, [])):        # only where that rule set sees it otherwise
                others.setdefault(at, []).append(
                    f"under the {name} rules: " + ("; ".join(sorted(said(js))) or "no difference"))
    pegs = {s for j in mine for s in j.observed}
    shots_dir = run_dir / g.name
    shots = {p.name: p for p in shots_dir.glob("*.png")} if shots_dir.is_dir() else {}
    deals: list[DealView] = [DealView(0)]
    count = 0
    race_points: dict[str, list[tuple[int, int]]] = {"computer": [], "player": []}
    deal_starts: list[tuple[int, int]] = []
    score_number = 0
    score_number_at: dict[int, int] = {}
    for i, ev in enumerate(events):
        kind = ev.kind
        if isinstance(ev, E.Score):
            score_number += 1
            race_points.setdefault(named(ev.who), []).append((score_number, ev.before + ev.points))
        score_number_at[i] = score_number
        if isinstance(ev, E.Deal):
            deal_starts.append((score_number, ev.n))
            deals.append(DealView(ev.n, named(ev.dealer), {who: [cards.view(c) for c in getattr(ev, who)]
                                                            for who in ("computer", "player")}))
            count = 0
        deal = deals[-1]
        if isinstance(ev, E.Reset):
            count = 0
        elif isinstance(ev, E.Play):
            count += parse_card(ev.card).value          # the running count a play's row shows
        if isinstance(ev, E.Score) and ev in pegs and i not in judged:
            continue                          # shown with the action it was pegged for
        if kind == E.EventKind.CHOICE:
            continue
        row = Row(i, kind.value, who=named(getattr(ev, "who", None) or getattr(ev, "hand", None)))
        words = WORDS[kind].row(ev)
        row.text, row.cards = words.text, [cards.view(c) for c in words.cards]
        if words.count:
            row.count = count
        if isinstance(ev, E.Score) and i not in judged:
            row.pegged = [_peg(ev)]
            if g.judgements is not None:
                row.text += ", outside any judged action"
        if isinstance(ev, (E.Picture, E.Screen)):
            row.picture = picture_view(ev, cards)
        for j in judged.get(i, []):
            row.pegged += [_peg(s) for s in j.observed]
            row.expected += [_reason(e) for e in j.expected]
            row.differences += [_difference_view(d, ed) for d in j.differences]
        row.other_rules = others.get(i, [])
        if isinstance(ev, E.Screen):
            deal.screen_checks += 1
            if not row.differences:
                continue                     # a screen that agrees with its variables: counted, not shown
        if isinstance(ev, E.Show):
            row.show = _show_view(ev, judged.get(i, []), shots, g.name, deal.number)
        deal.rows.append(row)
        deal.differences += len(row.differences)
        deal.unexplained += sum(1 for d in row.differences if not d["deviation"])
    if not deals[0].rows:
        deals.pop(0)
    markers = []
    for j in mine:
        for d in j.differences:
            if d.deviation and j.action_at is not None:
                x = score_number_at.get(j.action_at, 0)
                who = named(d.who) or "computer"
                pts = [y for n, y in race_points.get(who, []) if n <= x]
                markers.append(plots.Marker(x, pts[-1] if pts else 0, who, d.deviation))
    race = None
    if score_number:
        race = plots.score_race(f"{g.name}-race", f"Game {g.index}: the scores as they were pegged",
                                race_points, deal_starts, markers)
    gif = run_dir / f"{g.name}.gif"
    final = next((p for n, p in sorted(shots.items()) if "final-board" in n), None)
    counts = {name: Counts.of(g.under(name)) for name in rule_sets}
    judged_counts = counts.get(verdict, Counts.of([]))
    return GameView(index=g.index, name=g.name, header=g.head, record=g.record, deals=deals,
                    differences=[_difference_view(d, ed) for j in mine for d in j.differences],
                    by_rules={n: (len(g.under(n)), sum(c.documented.values()), c.unexplained)
                              for n, c in counts.items()},
                    judgements=len(mine), score_events=judged_counts.score_events, checks=judged_counts.checks,
                    has_records=g.judgements is not None, race=race, gif=gif.name if gif.exists() else None,
                    final_board=f"{g.name}/{final.name}" if final else None, pictures=judged_counts.pictures,
                    screen_checks=judged_counts.screen_checks, gif_size=gif_size(gif) if gif.exists() else None)


# ----------------------------------------------------------------------------- watch mode
@dataclass(frozen=True)
class Watch:
    """What a game page's player needs: the game's RZX, and each stored judgement at the RZX frame of its
    action (game-NNN.frames.json), as watch_entries makes them."""
    game: str                            # game-NNN
    rzx: Path
    entries: list[dict[str, Any]]
    rule_sets: list[str]                 # the verdict's first
    event_frames: list[int] = field(default_factory=list)   # each event's RZX frame (game-NNN.frames.json)
    notes: list[str] = field(default_factory=list)          # what an older RZX or frames file does not name
    belongs: dict[str, Any] | None = None                   # the game the page is of: game, seed, tape_sha256


#: the player's markup for a game page (harness/web/watch.py's watch_block), given to write_report_html
Player = Callable[[Watch], str]


def watch_entries(g: GameRecords, frames: list[int], ed: Edition) -> list[dict[str, Any]]:
    """Each judgement of the game's records (every rule set, in the file's order, numbered from 1 as
    check_actions numbers them) at the frame of its action: the RZX frames to play before it is shown
    (its event's frame + 1, at least 1; a judgement made up at the end: the last event's), and what the
    record says: what it judged, the engine's expectations, the program's pegs, each difference with the
    deviation that explains it or UNEXPLAINED. Read from the records, nothing judged again."""
    out: list[dict[str, Any]] = []
    for n, j in enumerate(g.judgements or [], 1):
        at = j.action_at if j.action_at is not None else len(g.events) - 1
        diffs = []
        for d in j.differences:
            v = _difference_view(d, ed)
            diffs.append({"deviation": d.deviation, "text": f"{v['kind']} ({v['who']}, {v['cause']}): "
                                                            f"engine {v['expected']}, program {v['observed']}",
                          "sentence": DEVIATIONS[d.deviation].brief if d.deviation in DEVIATIONS else None})
        action = "; ".join(f"{k.replace('_', ' ')} {shown(v)}" for k, v in E.event_to_json(j.action).items()
                           if k not in ("kind", "rows", "variables", "slots", "pegs"))
        out.append({"n": n, "rules": j.rules, "judged": j.judged.value, "at": at,
                    "frame": max(frames[at], 0) + 1, "what": _action_words(g.events, at), "action": action,
                    "expected": [_reason(e) for e in j.expected], "pegged": [_peg(s) for s in j.observed],
                    "checks": j.checks, "differences": diffs})
    return out


def game_watch(g: GameRecords, run_dir: Path, ed: Edition, rule_sets: list[str],
               tape_sha256: str | None = None) -> Watch | str:
    """The game's Watch when the run recorded it (game-NNN.rzx and its frames file) and its records exist, else
    why it has none, a sentence for its page. The RZX and the frames file must be this game's (its transcript's
    game and seed, the run's tape *tape_sha256*, the frames of this RZX): one of another is an InputError
    naming it (records/frames.py's check_recording); what an older one cannot say goes in the Watch's notes."""
    rzx, frames = run_dir / f"{g.name}.rzx", run_dir / frames_name(g.index)
    if not rzx.is_file():
        failure = g.record.failure if g.record is not None else None
        return (f"No replay: there is no {rzx.name} in this folder"
                + (f" (the game's failure: {failure})" if failure else "") + ".")
    if not frames.is_file():
        return (f"No replay: {rzx.name} is here but not {frames.name}, which places each judgement on the "
                f"recording's frames.")
    try:
        data = rzx.read_bytes()
    except OSError as exc:
        raise InputError(f"{rzx}: {exc.strerror}") from None
    recording = read_rzx(data, str(rzx))              # an InputError naming the file
    record = read_frames_record(frames, len(g.events))
    seed = g.head.get("seed")
    game = GameId(g.head.get("game", g.index) if isinstance(g.head.get("game"), int) else g.index,
                  seed if isinstance(seed, int) else None, tape_sha256)
    notes = check_recording(rzx, data, recording.custom, frames, record, run_dir / f"{g.name}.jsonl", game)
    if g.judgements is None:
        return f"No replay: there is no {judgements_name(g.index)} here, whose judgements the replay shows."
    return Watch(g.name, rzx, watch_entries(g, record.frames, ed), rule_sets, record.frames, notes,
                 {"game": game.game, "seed": game.seed, "tape_sha256": game.tape_sha256})


def run_tape_sha256(report: RegressReport | None) -> str | None:
    """The SHA-256 of the tape a run played, as its report.json names it (None: it names none)."""
    sha = report.tape.get("sha256") if report is not None else None
    return sha if isinstance(sha, str) else None


def _show_view(ev: E.Show, judgements: list[Judgement], shots: dict[str, Path], name: str, deal: int) -> dict:
    engine: dict[str, Any] = {}
    for j in judgements:
        for e in j.expected:
            if e.detail is not None:
                engine = {c: getattr(e.detail, c) for c in COMPONENTS}
                engine["combinations"] = [f"{c.kind} {c.points} ({' '.join(latin(x) for x in c.cards)})"
                                          for c in e.detail.combinations]
    hand = named(ev.hand)
    shot = next((n for n in sorted(shots) if n.endswith(f"-deal{deal}-show-{hand}.png")), None)
    return {"program": {c: getattr(ev, c) for c in COMPONENTS}, "engine": engine,
            "screenshot": f"{name}/{shot}" if shot else None}


# ----------------------------------------------------------------------------- fairness and show scores
SHOW_NOTES = {
    "hands": "Why kept hands beat random ones: the exact distribution is of four cards dealt at random with a "
             "random starter, but every hand shown here is the four a player chose to keep of the six dealt, "
             "throwing away the two that score least with the rest; so the bars stand to the right of the line "
             "(fewer hands of 0-2 points, more of 6 and over) and their mean is higher. That is the players' "
             "choice showing, not an unfair deck.",
    "cribs": "A crib is made of the cards the two players threw away: the dealer throws cards that score together "
             "into his own crib, the other player throws cards that do not, so the two pull in opposite "
             "directions and a crib has no reason to beat random hands the way kept hands do; with a few "
             "dozen cribs the bars say little either way."}

def fairness_plots(run: RunView) -> tuple[list[plots.Plot], dict | None]:
    """The cut for deal, the dealt cards and the starters of every game against a fair deck, and the
    program's show scores against the exact distribution."""
    if not run.games:
        return [], None
    result = fairness_of([g.events for g in run.games]).as_json()
    deck = [str(c) for c in full_deck()]
    out = []
    labels = {"cut for deal (player's rank)": [rank_name(r) for r in range(1, 14)]}
    suits = {s: name for s, name in zip(SUIT_SYMBOLS, ("hearts", "clubs", "diamonds", "spades"))}
    for group, gr in result["groups"].items():
        for test, t in gr["tests"].items():
            if not t["n"]:
                continue
            keys = list(t["observed"])
            groups = None
            if all(k in deck for k in keys):          # the cards: suit by suit, each tick a rank, upright
                keys.sort(key=lambda k: (SUIT_SYMBOLS.index(latin(k)[-1]), parse_card(k).rank))
                names = [latin(k) for k in keys]
                ticks = [n[:-1] for n in names]
                groups = [(f"{sym} {suits[sym]}", sum(1 for n in names if n[-1] == sym))
                          for sym in dict.fromkeys(n[-1] for n in names)]
            else:
                ticks = labels.get(test) or keys
                names = ticks
            slug = f"{group}-{test}".split(" (")[0].replace(" ", "-")
            out.append(plots.histogram(slug, f"{test[0].upper()}{test[1:]}, {group}", ticks,
                                       [t["observed"][k] for k in keys], t["p"],
                                       "cuts" if test.startswith("cut") else "cards", groups, names))
    hand, crib = exact_show_counts()
    for which, exact, hands in (("hands", hand, (E.ShowHand.COMPUTER, E.ShowHand.PLAYER)),
                                ("cribs", crib, (E.ShowHand.CRIB,))):
        seen = Counter(sum(getattr(ev, c) for c in COMPONENTS) for g in run.games for ev in g.events
                       if isinstance(ev, E.Show) and ev.hand in hands)
        if seen:
            plot = plots.distribution(f"show-{which}", f"Show scores, {which}",
                                      [seen.get(s, 0) for s in range(len(exact))], exact, which)
            plot.note = SHOW_NOTES[which]
            out.append(plot)
    return out, result


# ----------------------------------------------------------------------------- facts for people
def facts(value: Any) -> Any:
    """A JSON value as nested (label, value) rows for the templates: no raw JSON, no Python spellings."""
    if isinstance(value, dict):
        return [(str(k).replace("_", " "), facts(v)) for k, v in value.items()]
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        return [(str(i + 1), facts(v)) for i, v in enumerate(value)]
    return shown(value)


RUN_WORDS_KEYS = ("games", "played", "ended", "deals", "actions", "thorough", "workers", "scheduler", "accelerate",
                  "wall_s", "wall_s_per_game", "emulated_s", "jobs_cpu_s", "pictures", "screen_checks",
                  "screen_differences", "screen_unexplained", "screen_cpu_share", "tape")


def _n(value: Any) -> str:
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else str(value)


def run_words(rep: RegressReport) -> list[str]:
    """The run itself in sentences (the fields of RUN_WORDS_KEYS)."""
    out = [f"{_n(rep.games)} game{'s' if rep.games != 1 else ''} asked for, {_n(rep.played)} played; the run ended "
           f"{'complete, every game played to its end' if rep.ended == 'complete' else rep.ended}.",
           f"{_n(rep.deals)} deals and {_n(rep.actions)} actions (each an answer to the program's wait for a key)."]
    where = f"the Dask cluster at {rep.scheduler}" if rep.scheduler else "this machine's process pool"
    out.append(f"The games ran in {where}, {_n(rep.workers)} worker process{'es' if rep.workers != 1 else ''}"
               + ("; the thorough rule set was played too" if rep.thorough else "")
               + ("; the ROM's slow routines were accelerated" if rep.accelerate else "") + ".")
    out.append(f"The run took {rep.wall_s} s of wall time; a game took {rep.wall_s_per_game} s in its worker on "
               f"average, {rep.jobs_cpu_s} CPU s in all; the games' own time on a real Spectrum would be "
               f"{rep.emulated_s} s ({rep.emulated_s / 60:.0f} minutes at 50 frames a second).")
    out.append(f"{_n(rep.pictures)} pictures of the screen were judged, with {_n(rep.screen_checks)} checks of their "
               f"slots, pegs and lines: {_n(rep.screen_differences)} differences, {_n(rep.screen_unexplained)} of them "
               f"unexplained; reading the screen took {100 * rep.screen_cpu_share:.1f} % of the games' CPU time.")
    tape = rep.tape
    if tape:
        out.append(f"The tape: {tape.get('path', '?')} (SHA-256 {str(tape.get('sha256', '?'))[:16]}…, "
                   f"fingerprint {str(tape.get('fingerprint', '?'))[:16]}…).")
    return out


#: the reports a sweeps' folder holds (harness/program/runs/sweep.py writes OUT/<kind>-report.json)
DISCARD_REPORT = "discard-report.json"
SWEEP_REPORTS = ("show-report.json", "play-report.json", DISCARD_REPORT)


def sweep_reports(folder: Path) -> dict[str, Any]:
    """The sweep reports of a sweeps' folder by file name (each read as its type, sweep.read_report and
    read_discard_report, and shown as the file holds it), InputError if it holds none."""
    found = {name: (read_discard_report if name == DISCARD_REPORT else read_sweep_report)(folder / name).as_json()
             for name in SWEEP_REPORTS if (folder / name).is_file()}
    if not found:
        raise InputError(f"{folder}: no sweep report here ({', '.join(SWEEP_REPORTS)}); a sweep writes them "
                         f"into its --out when it ends")
    return found


def _as_stored(record: object) -> dict[str, Any]:
    """A typed record of report.json as its JSON object, keys in the file's (sorted) order: the facts the page
    lists read as they are stored."""
    data: dict[str, Any] = json.loads(json.dumps(plain(record), sort_keys=True))
    return data


def write_report_html(run_dir: Path, sweep: bool = False, player: Player | None = None,
                      no_player: str | None = None) -> Path:
    """Write run_dir/report.html (and a page per game, the plots, and the listing edition); return its path.
    With *sweep*, run_dir is a sweeps' folder: the page shows the facts of its sweep reports. With *player*,
    each game the run recorded (regress --rzx) gets its markup on its page: the watch mode. In a folder with
    recordings, each recording is checked to be its game's whether or not there is a player (game_watch), and
    a game page without a player says why (*no_player*: why there is none for any game)."""
    run_dir = Path(run_dir)
    run = RunView(None, [], [VERDICT_RULES], sweep_reports(run_dir)) if sweep else read_run(run_dir)
    report_path = run_dir / "report.json"
    ed = load_edition(None if sweep else report_path)       # the statement counts, if the report has them
    if ed.coverage is not None:
        ed.coverage.source = f"../{report_path.name}"     # as seen from the edition under listing/
    recorded = any(run_dir.glob("game-*.rzx")) or any(run_dir.glob("game-*.frames.json"))
    checked = {g.name: game_watch(g, run_dir, ed, run.rule_sets, run_tape_sha256(run.report))
               for g in run.games} if recorded else {}
    watches = {name: w for name, w in checked.items() if isinstance(w, Watch)} if player else {}
    missing = {name: w if isinstance(w, str) else
               f"No replay: {no_player or 'these pages were drawn without the player'}." for name, w in checked.items()
               if name not in watches}
    write_site(ed, run_dir / EDITION_DIR, back=("../report.html", "↑ Report"))
    cards = Cards()
    verdict = run.rule_sets[0]
    games = [game_view(g, ed, cards, run_dir, verdict, run.rule_sets) for g in run.games]
    figures, fairness = fairness_plots(run)
    (run_dir / PLOTS_DIR).mkdir(exist_ok=True)
    for p in figures + [g.race for g in games if g.race]:
        atomic.write_text(run_dir / PLOTS_DIR / f"{p.name}.svg", p.svg)
    env = template_env()
    css = f"{EDITION_DIR}/style.css"
    nav = [("report.html", "Report"), (f"{EDITION_DIR}/index.html", "Listing edition"),
           (f"{EDITION_DIR}/deviations.html", "Deviations")]
    common = {"css": css, "home": "report.html", "nav": nav, "edition": EDITION_DIR, "deviations": ed.deviations,
              "plots_dir": PLOTS_DIR, "rule_sets": run.rule_sets, "verdict_rules": verdict}
    for g, records in zip(games, run.games):
        watch = watches.get(records.name)
        checks = checked.get(records.name)
        html = env.get_template("game.html").render(**common, game=g, page=f"{g.name}.html",
                                                    title=f"Game {g.index}",
                                                    watch=Markup(player(watch)) if player and watch else None,
                                                    no_watch=missing.get(records.name),
                                                    watch_notes=checks.notes if isinstance(checks, Watch) else [])
        atomic.write_text(run_dir / f"{g.name}.html", html)
    from .site import coverage_reasons
    rep = run.report if run.games else None
    shown_keys = {"games", "ended", "played", "completed", "deals", "actions", "score_events", "checks",
                  "documented_differences", "documented_by_deviation", "unexplained_differences", "basic_errors",
                  "timeouts", "harness_failures", "wall_s", "emulated_s", "wall_s_per_game", "workers", "scheduler",
                  "deviations", "findings", "documented_by_rules", "unexplained_by_rules", "per_game", "coverage",
                  "thorough", "harness_failure_details"}
    html = env.get_template("report.html").render(
        **common, page="report.html", title="Sweep report" if sweep else "Regress report", run=run, rep=rep,
        head=headline(run, rep) if rep else None,
        costs=deviation_costs(run, ed), games=games, coverage=ed.coverage,
        reasons=coverage_reasons(ed) if ed.coverage else [], figures=figures, fairness=fairness,
        watchable={name for name, w in watches.items() if w is not None},
        failures=[facts(_as_stored(f)) for f in rep.harness_failure_details] if rep else [],
        run_words=run_words(rep) if rep else [],
        other_facts=facts({k: v for k, v in _as_stored(rep).items() if k not in shown_keys and k not in RUN_WORDS_KEYS})
        if rep else facts(_as_stored(run.report) if run.report else run.facts),
        gif=next((g for g in games if g.gif), None), run_dir_name=run_dir.name,
        facts_from=" and ".join(run.facts) if sweep else "a report.json")
    out = run_dir / "report.html"
    atomic.write_text(out, html)
    return out
