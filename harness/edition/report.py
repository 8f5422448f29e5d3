"""`report.html` of a regress run, verdict first, and a page per game: rendered from the stored records only.

`write_report_html(run_dir)` reads what regress left in the folder: report.json (the run's counts,
coverage and per-game facts), each game's transcript `game-NNN.jsonl`, its judgement records
`game-NNN.judgements.jsonl` (what the comparison decided, under every rule set, written once by the
worker: harness/game/judgements.py) and the PNGs and GIF. Nothing is judged again here: the pages
show the records. The report opens with the verdict under each rule set, then what each documented
deviation cost, the findings, the coverage with the notes that explain what did not run, the
fairness of the deck and the show scores as plots, and the games; each game page has its score race
and a timeline of its deals with every judgement beside the action it judges. The counts on the
page are summed from the records; where report.json says otherwise the page says so in red.

The listing edition goes to run_dir/listing/ (with the run's coverage) so every link resolves inside
the folder. A sweep's folder (a report.json without transcripts) gets its facts as tables.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..cribbage.cards import RANKS, SUIT_SYMBOLS, full_deck, parse_card
from ..cribbage.stats import exact_show_counts
from ..runtime import atomic
from ..errors import InputError
from ..runtime.validate import expect, read_json
from ..runtime.validate import field as json_field
from ..game import events as E
from ..game.fairness import analyse as fairness_of
from ..game.judgements import (VERDICT_RULES, Counts, Difference, Judgement, describe, is_transcript_name,
                               judgements_name, read_judgements)
from ..game.program import RANK_CODES, SUIT_CODES, UDG_TEXT
from . import glyphs, plots
from .site import Edition, load_edition, template_env, write_site

__all__ = ["write_report_html", "latin", "RunView", "read_run"]

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


class _Cards:
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
    head: dict
    events: list[E.Event]
    judgements: list[Judgement] | None   # None: no records file
    record: dict                         # report.json's per_game entry

    def under(self, rules: str) -> list[Judgement]:
        return [j for j in self.judgements or [] if j.rules == rules]


@dataclass
class RunView:
    report: dict
    games: list[GameRecords]
    rule_sets: list[str]                 # the verdict's first


def read_report(path: Path) -> dict:
    """A run's report.json, checked for what the pages read: an object, its per_game a list of games
    each with a whole-number index; anything else is an InputError naming the file and the field."""
    report = expect(read_json(path, InputError), dict, f"{path}", InputError)
    for i, g in enumerate(json_field(report, "per_game", list, f"{path}: report", [], InputError)):
        expect(g, dict, f"{path}: report.per_game[{i}]", InputError)
        json_field(g, "index", int, f"{path}: report.per_game[{i}]", error=InputError)
    return report


def read_run(run_dir: Path) -> RunView:
    """report.json, every transcript and every judgements file of a run folder."""
    report = read_report(run_dir / "report.json")
    per_game = {g["index"]: g for g in report.get("per_game", [])}
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
            for name in jhead.get("rule_sets", []):
                if name not in rule_sets:
                    rule_sets.append(name)
        games.append(GameRecords(index, path.stem, head, events, judgements, per_game.get(index, {})))
    if not rule_sets:
        rule_sets = list(report.get("unexplained_by_rules", {})) or [VERDICT_RULES]
    rule_sets.sort(key=lambda n: n != VERDICT_RULES)
    return RunView(report, games, rule_sets)


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


def headline(run: RunView) -> Headline:
    rep = run.report
    rules = []
    judged = [g for g in run.games if g.judgements is not None]
    for name in run.rule_sets:
        counts = Counts.of(j for g in judged for j in g.under(name))
        disagree = []
        said = rep.get("unexplained_by_rules", {}).get(name)
        if said is not None and judged and said != counts.unexplained:
            disagree.append(f"report.json counts {said} unexplained, the records {counts.unexplained}")
        said_doc = rep.get("documented_by_rules", {}).get(name)
        if said_doc is not None and judged and dict(said_doc) != counts.documented:
            disagree.append(f"report.json counts documented {_counts_text(said_doc)}, the records "
                            f"{_counts_text(counts.documented)}")
        rules.append(RuleVerdict(name, name == VERDICT_RULES, counts.unexplained, counts.documented,
                                 counts.score_events, counts.checks, counts.pictures, counts.screen_checks,
                                 disagree))
    basic, failures, timeouts = (int(rep.get(k, 0) or 0) for k in ("basic_errors", "harness_failures", "timeouts"))
    missing = [g.name for g in run.games if g.judgements is None]
    verdict = next((r for r in rules if r.verdict), None)
    passed = (verdict is not None and verdict.unexplained == 0 and not verdict.disagreements and not missing
              and not (basic or failures or timeouts) and rep.get("ended", "complete") == "complete")
    return Headline(passed, int(rep.get("games", len(run.games)) or 0), int(rep.get("played", len(run.games)) or 0),
                    int(rep.get("completed", 0) or 0), basic, failures, timeouts, str(rep.get("ended", "complete")),
                    missing, rules)


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
    other_rules: list[str] = field(default_factory=list)   # what the other rule sets said, in a few words

    @property
    def css(self) -> str:
        if any(not d["deviation"] for d in self.differences):
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
    header: dict
    record: dict
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


def _who(value: Any) -> str:
    return str(getattr(value, "value", value)) if value is not None else ""


def _difference_view(d: Difference, ed: Edition) -> dict:
    if d.deviation and d.deviation in ed.deviations:
        lines = ed.deviations[d.deviation]["lines"]
    else:
        kind = d.kind.value
        lines = ed.difference_lines.get(kind) or ed.difference_lines.get(kind.split(":")[0], [])
    return {"kind": d.kind.value, "who": _who(d.who) or "—", "expected": _shown(d.expected),
            "observed": _shown(d.observed), "cause": describe(d), "deviation": d.deviation, "lines": lines}


def _shown(value: Any) -> str:
    """A record's value for people: no Python or JSON spellings."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(_shown(v) for v in value) or "none"
    if isinstance(value, dict):
        return "; ".join(f"{k} {_shown(v)}" for k, v in value.items()) or "none"
    return str(getattr(value, "value", value))


def _reason(e) -> str:
    cards = " ".join(latin(c) for c in e.cards) if e.cards else ""
    return f"{_who(e.who)} {e.points} for {e.reason}" + (f" ({cards})" if cards else "")


def _peg(s: E.Score) -> str:
    return f"{_who(s.who)} +{s.points} ({_who(s.context)}, {s.before}→{s.before + s.points})"


COMPONENTS = ("fifteens", "pairs", "runs", "flush", "nobs")


def game_view(g: GameRecords, ed: Edition, cards: _Cards, run_dir: Path, verdict: str,
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
            race_points.setdefault(_who(ev.who), []).append((score_number, ev.before + ev.points))
        score_number_at[i] = score_number
        if isinstance(ev, E.Deal):
            deal_starts.append((score_number, ev.n))
            deals.append(DealView(ev.n, _who(ev.dealer), {who: [cards.view(c) for c in getattr(ev, who)]
                                                            for who in ("computer", "player")}))
            count = 0
        deal = deals[-1]
        if isinstance(ev, E.Reset):
            count = 0
        if isinstance(ev, E.Score) and ev in pegs and i not in judged:
            continue                          # shown with the action it was pegged for
        if kind == E.EventKind.CHOICE:
            continue
        row = Row(i, kind.value, who=_who(getattr(ev, "who", None) or getattr(ev, "hand", None)))
        names: list[str] = []
        if isinstance(ev, E.Play):
            count += parse_card(ev.card).value
            row.count = count
            names = [ev.card]
        elif isinstance(ev, (E.Discard, E.Crib)):
            names = list(ev.cards)
        elif isinstance(ev, E.Starter):
            names = [ev.card]
        elif isinstance(ev, E.Refused):
            names = [ev.card]
            row.text = f"refused at count {ev.count}"
        elif isinstance(ev, E.Go):
            row.text, row.count = "go", count
        elif isinstance(ev, E.Reset):
            row.text = "count back to 0"
        elif isinstance(ev, E.Score):
            row.text = f"pegged {ev.points} ({_who(ev.context)})"
            if i not in judged:
                row.pegged = [_peg(ev)]
                if g.judgements is not None:
                    row.text += ", outside any judged action"
        elif isinstance(ev, E.Show):
            row.text = "the crib" if _who(ev.hand) == "crib" else f"the {_who(ev.hand)}'s hand"
        elif isinstance(ev, E.Deal):
            row.text = f"deal {ev.n}, the {_who(ev.dealer)} deals"
        elif isinstance(ev, E.Cut):
            row.text = f"cut for deal: the player cuts {_rank(ev.player_rank)}, the computer {_rank(ev.computer_rank)}"
        elif isinstance(ev, E.Win):
            row.text = (f"{_who(ev.who)} wins {ev.computer}–{ev.player} (computer–player)"
                        + (f"; the game is credited to the {_who(ev.credited)}" if ev.credited else ""))
        elif isinstance(ev, E.Tally):
            row.text = f"games won: computer {ev.computer}, player {ev.player}"
        elif isinstance(ev, E.Options):
            row.text = "muggins " + ("on" if ev.muggins else "off")
        elif isinstance(ev, E.Claim):
            row.text = f"the player claims {ev.claimed}"
        else:
            row.text = "; ".join(f"{k.replace('_', ' ')} {_shown(v)}" for k, v in E.event_to_json(ev).items()
                                 if k not in ("kind", "rows", "variables"))
        row.cards = [cards.view(c) for c in names]
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
                who = _who(d.who) or "computer"
                pts = [y for n, y in race_points.get(who, []) if n <= x]
                markers.append(plots.Marker(x, pts[-1] if pts else 0, who, d.deviation))
    race = None
    if score_number:
        race = plots.score_race(f"{g.name}-race", f"Game {g.index}: the scores as they were pegged",
                                race_points, deal_starts, markers)
    gif = run_dir / f"{g.name}.gif"
    final = next((p for n, p in sorted(shots.items()) if "final-board" in n), None)
    counts = {name: Counts.of(g.under(name)) for name in rule_sets}
    return GameView(g.index, g.name, g.head, g.record, deals,
                    [_difference_view(d, ed) for j in mine for d in j.differences],
                    {n: (len(g.under(n)), sum(c.documented.values()), c.unexplained) for n, c in counts.items()},
                    len(mine), counts[verdict].score_events if verdict in counts else 0,
                    counts[verdict].checks if verdict in counts else 0, g.judgements is not None, race,
                    gif.name if gif.exists() else None, f"{g.name}/{final.name}" if final else None,
                    counts[verdict].pictures if verdict in counts else 0,
                    counts[verdict].screen_checks if verdict in counts else 0)


def _rank(rank: int) -> str:
    r = RANKS[rank - 1]
    return "10" if r == "T" else r


def _show_view(ev: E.Show, judgements: list[Judgement], shots: dict[str, Path], name: str, deal: int) -> dict:
    engine: dict[str, Any] = {}
    for j in judgements:
        for e in j.expected:
            if e.detail is not None:
                engine = {c: getattr(e.detail, c) for c in COMPONENTS}
                engine["combinations"] = [f"{c.kind} {c.points} ({' '.join(latin(x) for x in c.cards)})"
                                          for c in e.detail.combinations]
    hand = _who(ev.hand)
    shot = next((n for n in sorted(shots) if n.endswith(f"-deal{deal}-show-{hand}.png")), None)
    return {"program": {c: getattr(ev, c) for c in COMPONENTS}, "engine": engine,
            "screenshot": f"{name}/{shot}" if shot else None}


# ----------------------------------------------------------------------------- fairness and show scores
def fairness_plots(run: RunView) -> tuple[list[plots.Plot], dict | None]:
    """The cut for deal, the dealt cards and the starters of every game against a fair deck, and the
    program's show scores against the exact distribution."""
    if not run.games:
        return [], None
    result = fairness_of([g.events for g in run.games])
    deck = [str(c) for c in full_deck()]
    out = []
    labels = {"cut for deal (player's rank)": [_rank(r) for r in range(1, 14)]}
    for group, gr in result["groups"].items():
        for test, t in gr["tests"].items():
            if not t["n"]:
                continue
            keys = list(t["observed"])
            shown = labels.get(test) or [latin(k) if k in deck else k for k in keys]
            slug = f"{group}-{test}".split(" (")[0].replace(" ", "-")
            out.append(plots.histogram(slug, f"{test[0].upper()}{test[1:]}, {group}", shown,
                                       [t["observed"][k] for k in keys], t["p"],
                                       "cuts" if test.startswith("cut") else "cards"))
    hand, crib = exact_show_counts()
    for which, exact, hands in (("hands", hand, (E.ShowHand.COMPUTER, E.ShowHand.PLAYER)),
                                ("cribs", crib, (E.ShowHand.CRIB,))):
        seen = Counter(sum(getattr(ev, c) for c in COMPONENTS) for g in run.games for ev in g.events
                       if isinstance(ev, E.Show) and ev.hand in hands)
        if seen:
            out.append(plots.distribution(f"show-{which}", f"Show scores, {which}",
                                          [seen.get(s, 0) for s in range(len(exact))], exact, which))
    return out, result


# ----------------------------------------------------------------------------- facts for people
def facts(value: Any) -> Any:
    """A JSON value as nested (label, value) rows for the templates: no raw JSON, no Python spellings."""
    if isinstance(value, dict):
        return [(str(k).replace("_", " "), facts(v)) for k, v in value.items()]
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        return [(str(i + 1), facts(v)) for i, v in enumerate(value)]
    return _shown(value)


def _run_facts(rep: dict) -> dict:
    """The run itself, each label saying what its number is."""
    return {"games asked for": rep.get("games"), "games played": rep.get("played"),
            "how the run ended": rep.get("ended"), "deals": rep.get("deals"), "actions": rep.get("actions"),
            "the thorough set played too": bool(rep.get("thorough")),
            "worker processes": rep.get("workers"),
            "where the games ran": rep.get("scheduler") or "this machine's process pool",
            "wall time of the run (s)": rep.get("wall_s"),
            "mean time of a game in its worker (wall s)": rep.get("wall_s_per_game"),
            "emulated time of all games (Spectrum s)": rep.get("emulated_s")}


def write_report_html(run_dir: Path) -> Path:
    """Write run_dir/report.html (and a page per game, the plots, and the listing edition); return its path."""
    run_dir = Path(run_dir)
    run = read_run(run_dir)
    report_path = run_dir / "report.json"
    ed = load_edition(report_path)       # the statement counts, if the report has them
    if ed.coverage is not None:
        ed.coverage.source = f"../{report_path.name}"     # as seen from the edition under listing/
    write_site(ed, run_dir / EDITION_DIR, back=("../report.html", "↑ Report"))
    cards = _Cards()
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
    for g in games:
        html = env.get_template("game.html").render(**common, game=g, page=f"{g.name}.html",
                                                    title=f"Game {g.index}")
        atomic.write_text(run_dir / f"{g.name}.html", html)
    from .site import coverage_reasons
    rep = run.report
    shown_keys = {"games", "ended", "played", "completed", "deals", "actions", "score_events", "checks",
                  "documented_differences", "documented_by_deviation", "unexplained_differences", "basic_errors",
                  "timeouts", "harness_failures", "wall_s", "emulated_s", "wall_s_per_game", "workers", "scheduler",
                  "deviations", "findings", "documented_by_rules", "unexplained_by_rules", "per_game", "coverage",
                  "thorough", "harness_failure_details"}
    html = env.get_template("report.html").render(
        **common, page="report.html", title="Regress report", run=run, head=headline(run) if run.games else None,
        costs=deviation_costs(run, ed), games=games, coverage=ed.coverage,
        reasons=coverage_reasons(ed) if ed.coverage else [], figures=figures, fairness=fairness,
        failures=[facts(f) for f in rep.get("harness_failure_details", []) or []],
        other_facts=facts(_run_facts(rep) | {k: v for k, v in rep.items() if k not in shown_keys})
        if run.games else facts(rep),
        gif=next((g.gif for g in games if g.gif), None), run_dir_name=run_dir.name)
    out = run_dir / "report.html"
    atomic.write_text(out, html)
    return out
