"""`report.html` of a regress run: the summary, a page per game with a timeline of its deals, every
difference linked to the lines of the listing that cause it.

`write_report_html(run_dir)` reads what regress left in the folder
(report.json, game-NNN.jsonl, the PNGs in game-NNN/, game-000.gif), re-runs the
comparison on each transcript to get the judgements (what the engine expected
of each action, with its reasons, against what the program pegged), writes the
listing edition into run_dir/listing/ (with the run's coverage when the report
has it) so every link resolves inside the folder, and renders the pages. A
sweep's folder (a report.json without transcripts) gets the summary page only.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..cribbage.cards import parse_card
from ..errors import HarnessError
from ..game import events as E
from ..game.compare import Comparator
from ..game.judgements import Judgement, difference_to_json
from ..game import program as P
from ..game.program import UDG_TEXT
from . import glyphs
from .site import Edition, load_edition, template_env, write_atomic, write_site

__all__ = ["ReportError", "write_report_html"]

EDITION_DIR = "listing"
GAME_FILE = re.compile(r"^game-(\d{3})\.jsonl$")


class ReportError(HarnessError):
    """A run folder that cannot be reported on; names the file."""


@dataclass
class Row:
    index: int
    kind: str
    who: str = ""
    text: str = ""
    cards: list[list[tuple[int, str]]] = field(default_factory=list)   # glyph runs, one per card
    card_names: list[str] = field(default_factory=list)
    red: list[bool] = field(default_factory=list)
    count: int | None = None
    pegged: list[str] = field(default_factory=list)        # the program's pegs for this action
    expected: list[str] = field(default_factory=list)      # the engine's itemised reasons
    differences: list[dict] = field(default_factory=list)
    show: dict | None = None                               # program and engine breakdowns, screenshot

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
    hands: dict[str, list] = field(default_factory=dict)
    rows: list[Row] = field(default_factory=list)
    differences: int = 0
    unexplained: int = 0
    screen_checks: int = 0


@dataclass
class GameView:
    index: int
    name: str
    header: dict
    deals: list[DealView]
    differences: list[dict]
    judgements: int
    checks: int
    score_events: int
    gif: str | None
    final_board: str | None
    record: dict


class _Cards:
    """Cards drawn as the program draws them: R$(rank) and S$(suit) from lines 7315/7320 of the listing."""

    def __init__(self, ed: Edition):
        found: dict[str, tuple[int, ...]] = {}
        for s in ed.listing.statements:
            words = [t for t in s.tokens if t.kind not in ("space", "punct")]
            if s.command == "LET" and len(words) >= 4 and words[1].text in ("R$", "S$") \
                    and words[3].kind == "string":
                found[words[1].text] = words[3].codes
        if set(found) != {"R$", "S$"} or len(found["R$"]) != 13 or len(found["S$"]) != 4:
            raise ReportError(f"{ed.listing.path}: no LET R$ (13 ranks) and LET S$ (4 suits) to draw cards with")
        self.ranks, self.suits = found["R$"], found["S$"]

    def draw(self, name: str) -> tuple[list[tuple[int, str]], bool]:
        card = parse_card(name)
        codes = (self.ranks[card.rank - 1], self.suits[card.suit])
        return [(c, glyphs.readable(c, UDG_TEXT)) for c in codes], card.suit in (0, 2)   # hearts, diamonds: INK 2


def _who(value: Any) -> str:
    return str(getattr(value, "value", value)) if value is not None else ""


def _difference_view(d, ed: Edition) -> dict:
    if d.deviation and d.deviation in ed.deviations:
        lines = ed.deviations[d.deviation]["lines"]
    else:
        lines = ed.difference_lines.get(d.kind) or ed.difference_lines.get(d.kind.split(":")[0], [])
    return {"kind": d.kind.value, "who": _who(d.who), "expected": d.expected, "observed": d.observed,
            "deviation": d.deviation, "lines": lines,
            "context": {"cause": d.cause.value, **{k: v for k, v in difference_to_json(d)["facts"].items()
                                                   if k != "previous"}}}


def _reason(e) -> str:
    who = _who(e.who)
    cards = " ".join(str(c) for c in e.cards) if e.cards else ""
    return f"{who} {e.points} for {e.reason}" + (f" ({cards})" if cards else "")


def _peg(s) -> str:
    return f"{_who(s.who)} +{s.points} ({_who(s.context)}, {s.before}→{s.before + s.points})"


def _read_game(path: Path) -> tuple[dict, list]:
    try:
        with open(path, encoding="utf-8") as f:
            return E.read_jsonl(f)
    except OSError as exc:
        raise ReportError(f"{path}: {exc.strerror}") from None
    except E.SchemaError as exc:
        raise ReportError(f"{path}: {exc}") from None


def screen_words(events: list) -> P.ScreenWords:
    """The words the game's screens print: the English edition's when its count label is not «ВСЕГО».

    regress compares with the words of the tape it played (`program.words_of_program`); the report has
    only the transcript, whose count readings (2920) show which edition printed them.
    """
    rows = [text for ev in events if ev.kind == E.EventKind.SCREEN and ev.what == P.ScreenCheck.COUNT
            for _, text in ev.rows]
    if not rows or any(P.RUSSIAN.total in text for text in rows):
        return P.RUSSIAN
    return P.english_words()


def game_view(path: Path, ed: Edition, cards: _Cards, record: dict) -> GameView:
    head, events = _read_game(path)
    comparator = Comparator(words=screen_words(events))
    judged: dict[int, list[Judgement]] = {}
    closed_at: list[tuple[int, Judgement]] = []
    for i, ev in enumerate(events):
        for j in comparator.feed(ev):
            closed_at.append((i, j))
    result = comparator.finish()
    seen = {id(j) for _, j in closed_at}
    closed_at += [(len(events) - 1, j) for j in result.judgements if id(j) not in seen]
    by_identity = {id(ev): i for i, ev in enumerate(events)}
    for i, j in closed_at:
        judged.setdefault(by_identity.get(id(j.action), i), []).append(j)
    pegged_in_judgement = {id(s) for _, j in closed_at for s in j.observed}
    name = path.stem
    shots = {p.name: p for p in (path.parent / name).glob("*.png")} if (path.parent / name).is_dir() else {}
    deals: list[DealView] = [DealView(0)]
    count = 0
    for i, ev in enumerate(events):
        kind = ev.kind
        deal = deals[-1]
        if kind == E.EventKind.DEAL:
            deal = DealView(ev.n, _who(ev.dealer))
            for who in ("computer", "player"):
                deal.hands[who] = [(c, *cards.draw(c)) for c in getattr(ev, who)]
            deals.append(deal)
            count = 0
        if kind == E.EventKind.RESET:
            count = 0
        if kind == E.EventKind.SCORE and id(ev) in pegged_in_judgement and i not in judged:
            continue                          # shown with the action it was pegged for
        if kind == E.EventKind.CHOICE:
            continue
        row = Row(i, kind.value, who=_who(getattr(ev, "who", None) or getattr(ev, "hand", None)))
        card_names = []
        if kind == E.EventKind.PLAY:
            count += parse_card(ev.card).value
            row.count = count
            card_names = [ev.card]
        elif kind in (E.EventKind.DISCARD, E.EventKind.CRIB):
            card_names = list(ev.cards)
        elif kind in (E.EventKind.STARTER, E.EventKind.REFUSED):
            card_names = [ev.card]
            if kind == E.EventKind.REFUSED:
                row.text = f"refused at count {ev.count}"
        elif kind == E.EventKind.GO:
            row.text, row.count = "go", count
        elif kind == E.EventKind.RESET:
            row.text = "count back to 0"
        elif kind == E.EventKind.SCORE:
            row.who = _who(ev.who)
            row.text = f"pegged {ev.points} ({_who(ev.context)})"
            if i not in judged:
                row.pegged = [_peg(ev)]
                row.text += ", outside any judged action"
        elif kind == E.EventKind.SHOW:
            row.text = f"the {_who(ev.hand)}'s hand" if _who(ev.hand) != "crib" else "the crib"
        elif kind == E.EventKind.DEAL:
            row.text = f"deal {ev.n}, {_who(ev.dealer)} deals"
        else:
            row.text = ", ".join(f"{k}={v}" for k, v in E.event_to_json(ev).items() if k != "kind")
        for c in card_names:
            run, red = cards.draw(c)
            row.cards.append(run)
            row.card_names.append(c)
            row.red.append(red)
        for j in judged.get(i, []):
            row.pegged += [_peg(s) for s in j.observed]
            row.expected += [_reason(e) for e in j.expected]
            row.differences += [_difference_view(d, ed) for d in j.differences]
        if kind == E.EventKind.SCREEN:
            deal.screen_checks += 1
            if not row.differences:
                continue                     # a screen that agrees with its variables: counted, not shown
        if kind == E.EventKind.SHOW:
            row.show = _show_view(ev, judged.get(i, []), shots, name, deal.number)
        deal.rows.append(row)
        deal.differences += len(row.differences)
        deal.unexplained += sum(1 for d in row.differences if not d["deviation"])
    if not deals[0].rows:
        deals.pop(0)
    gif = path.with_suffix(".gif")
    final = next((p for n, p in sorted(shots.items()) if "final-board" in n), None)
    return GameView(int(GAME_FILE.match(path.name).group(1)), name, head, deals,
                    [_difference_view(d, ed) for d in result.differences], len(result.judgements),
                    result.checks, result.score_events, gif.name if gif.exists() else None,
                    f"{name}/{final.name}" if final else None, record)


COMPONENTS = ("fifteens", "pairs", "runs", "flush", "nobs")


def _show_view(ev, judgements: list[Judgement], shots: dict[str, Path], name: str, deal: int) -> dict:
    engine = {}
    for j in judgements:
        for e in j.expected:
            detail = getattr(e, "detail", None)
            if detail is not None:
                engine = {c: getattr(detail, c) for c in COMPONENTS}
                engine["combinations"] = [f"{c.kind} {c.points} ({' '.join(str(x) for x in c.cards)})"
                                          for c in getattr(detail, "combinations", ())]
    hand = _who(ev.hand)
    shot = next((n for n in sorted(shots) if n.endswith(f"-deal{deal}-show-{hand}.png")), None)
    return {"program": {c: getattr(ev, c) for c in COMPONENTS}, "engine": engine,
            "screenshot": f"{name}/{shot}" if shot else None}


def _summary(report: dict) -> tuple[list[tuple[str, Any]], dict]:
    scalars = [(k, v) for k, v in report.items() if isinstance(v, (int, float, str, bool)) or v is None]
    nested = {k: v for k, v in report.items() if k not in dict(scalars) and k not in ("per_game", "coverage")}
    return scalars, nested


def write_report_html(run_dir: Path) -> Path:
    """Write run_dir/report.html (and a page per game, and the listing edition); return its path."""
    run_dir = Path(run_dir)
    report_path = run_dir / "report.json"
    try:
        report = json.loads(report_path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ReportError(f"{report_path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise ReportError(f"{report_path}: not JSON: {exc}") from None
    ed = load_edition(report_path)       # the statement counts, if the report has them
    if ed.coverage is not None:
        ed.coverage.source = f"../{report_path.name}"     # as seen from the edition under listing/
    write_site(ed, run_dir / EDITION_DIR)
    cards = _Cards(ed)
    records = {g.get("index"): g for g in report.get("per_game", []) if isinstance(g, dict)}
    games = []
    for path in sorted(run_dir.glob("game-*.jsonl")):
        m = GAME_FILE.match(path.name)
        if m:
            games.append(game_view(path, ed, cards, records.get(int(m.group(1)), {})))
    env = template_env()
    css = f"{EDITION_DIR}/style.css"
    nav = [("report.html", "Report"), (f"{EDITION_DIR}/index.html", "Listing edition"),
           (f"{EDITION_DIR}/deviations.html", "Deviations")]
    common = {"css": css, "home": "report.html", "nav": nav, "edition": EDITION_DIR, "deviations": ed.deviations}
    scalars, nested = _summary(report)
    first_gif = next((g.gif for g in games if g.gif), None)
    for g in games:
        html = env.get_template("game.html").render(**common, game=g, page=f"{g.name}.html",
                                                    title=f"Game {g.index}")
        write_atomic(run_dir / f"{g.name}.html", html)
    html = env.get_template("report.html").render(
        **common, page="report.html", title="Regress report", scalars=scalars, nested=nested,
        nested_json={k: json.dumps(v, ensure_ascii=False, indent=1) for k, v in nested.items()},
        games=games, gif=first_gif, run=str(run_dir), coverage=ed.coverage)
    out = run_dir / "report.html"
    write_atomic(out, html)
    return out
