"""`report.html` of a regress run, verdict first: the report itself, rendered from the stored records only.

`write_report_html(run_dir)` reads what regress left in the folder (run_records.read_run: report.json, each
game's transcript `game-NNN.jsonl` and its judgement records `game-NNN.judgements.jsonl`, written once by the
worker: harness/program/judge/judgements.py) and the PNGs and GIF. Nothing is judged again here: the pages
show the records. The report opens with the verdict under each rule set, then what each documented
deviation cost, the findings, the coverage with the notes that explain what did not run, the
fairness of the deck and the show scores as plots (fairness_plots.py), and the games, each with a page of
its own (game_page.py; its replay, when the run recorded it: watch_page.py). The counts on the page are summed
from the records; where report.json says otherwise the page says so in red.

The listing edition goes to run_dir/listing/ (with the run's coverage) so every link resolves inside
the folder. A sweep's folder (its *-report.json files, no transcripts) gets its facts as tables.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from markupsafe import Markup

from ..errors import InputError
from ..program.judge.judgements import VERDICT_RULES, Counts, Difference
from ..program.records.words import shown
from ..program.runs.regress import RegressReport
from ..program.runs.sweep import read_discard_report, read_report as read_sweep_report
from ..runtime import atomic
from ..runtime.records import plain
from ..runtime.validate import JsonObject
from . import plots
from .cards import Cards, latin
from .fairness_plots import SHOW_NOTES, fairness_plots
from .game_page import GameView, action_words, game_view, picture_view
from .run_records import RunView, read_run
from .screen_english import screen_english
from .site import Edition, coverage_reasons, load_edition, template_env, write_site
from .watch_page import Player, Watch, game_watch, run_tape_sha256, watch_entries

__all__ = ["write_report_html", "latin", "RunView", "read_run", "watch_entries", "Watch", "Player",
           "EDITION_DIR", "PLOTS_DIR", "headline", "deviation_costs", "run_words", "facts", "sweep_reports",
           # the report's parts, named here as before the split (their modules: cards, game_page, fairness_plots,
           # screen_english, watch_page)
           "Cards", "picture_view", "screen_english", "SHOW_NOTES", "fairness_plots"]

EDITION_DIR = "listing"
PLOTS_DIR = "plots"


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


def _counts_text(counts: dict[str, int]) -> str:
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
                dev = ed.deviations.get(d.deviation)
                c = costs.setdefault(d.deviation, DeviationCost(d.deviation, dev.what if dev else "",
                                                                dev.lines if dev else []))
                c.by_rules[j.rules] = c.by_rules.get(j.rules, 0) + 1
                if j.rules != run.rule_sets[0]:
                    continue
                c.count += 1
                c.points += _points(d)
                c.games.add(g.index)
                at = j.action_at if j.action_at is not None else d.at
                if c.first is None and at is not None:
                    c.first = (f"{g.name}.html", at)
                    c.first_text = f"game {g.index}, {action_words(g.events, at)}"
    return sorted(costs.values(), key=lambda c: (int(c.id[1:]) if c.id[1:].isdigit() else 999, c.id))


# ----------------------------------------------------------------------------- facts for people
def facts(value: object) -> object:
    """A JSON value as nested (label, value) rows for the templates: no raw JSON, no Python spellings."""
    if isinstance(value, dict):
        return [(str(k).replace("_", " "), facts(v)) for k, v in value.items()]
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        return [(str(i + 1), facts(v)) for i, v in enumerate(value)]
    return shown(value)


RUN_WORDS_KEYS = ("games", "played", "ended", "deals", "actions", "thorough", "workers", "scheduler", "accelerate",
                  "wall_s", "wall_s_per_game", "emulated_s", "jobs_cpu_s", "pictures", "screen_checks",
                  "screen_differences", "screen_unexplained", "screen_cpu_share", "tape")


def _n(value: object) -> str:
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


def sweep_reports(folder: Path) -> dict[str, object]:
    """The sweep reports of a sweeps' folder by file name (each read as its type, sweep.read_report and
    read_discard_report, and shown as the file holds it), InputError if it holds none."""
    found: dict[str, object] = {name: (read_discard_report if name == DISCARD_REPORT else read_sweep_report)(folder / name).as_json()
             for name in SWEEP_REPORTS if (folder / name).is_file()}
    if not found:
        raise InputError(f"{folder}: no sweep report here ({', '.join(SWEEP_REPORTS)}); a sweep writes them "
                         f"into its --out when it ends")
    return found


def _as_stored(record: object) -> JsonObject:
    """A typed record of report.json as its JSON object, keys in the file's (sorted) order: the facts the page
    lists read as they are stored."""
    data: JsonObject = json.loads(json.dumps(plain(record), sort_keys=True))
    return data


# ----------------------------------------------------------------------------- the pages
@dataclass
class _Replays:
    """Each recorded game's replay on its page (a Watch), or the sentence saying why it has none."""
    checked: dict[str, Watch | str] = field(default_factory=dict)   # every recorded game, checked to be its own
    watches: dict[str, Watch] = field(default_factory=dict)         # the games whose page plays its recording
    missing: dict[str, str] = field(default_factory=dict)           # why a game's page has no replay


def _replays(run: RunView, run_dir: Path, ed: Edition, player: Player | None, no_player: str | None) -> _Replays:
    """In a folder with recordings, each recording checked to be its game's (game_watch, an InputError if not)
    whether or not there is a *player*; the watches the player draws, and why each other game has none."""
    if not (any(run_dir.glob("game-*.rzx")) or any(run_dir.glob("game-*.frames.json"))):
        return _Replays()
    checked = {g.name: game_watch(g, run_dir, ed, run.rule_sets, run_tape_sha256(run.report)) for g in run.games}
    watches = {name: w for name, w in checked.items() if isinstance(w, Watch)} if player else {}
    missing = {name: w if isinstance(w, str) else
               f"No replay: {no_player or 'these pages were drawn without the player'}." for name, w in checked.items()
               if name not in watches}
    return _Replays(checked, watches, missing)


@dataclass
class _Pages:
    """What every page of one report is drawn with, and the folder they go to."""
    run_dir: Path
    run: RunView
    ed: Edition
    common: dict[str, object]            # the templates' context every page shares

    def write(self, name: str, template: str, **context: object) -> None:
        html = template_env().get_template(template).render(**self.common, page=name, **context)
        atomic.write_text(self.run_dir / name, html)


def _write_plots(run_dir: Path, figures: list[plots.Plot], games: list[GameView]) -> None:
    (run_dir / PLOTS_DIR).mkdir(exist_ok=True)
    for p in figures + [g.race for g in games if g.race]:
        atomic.write_text(run_dir / PLOTS_DIR / f"{p.name}.svg", p.svg)


def _write_game_pages(pages: _Pages, games: list[GameView], replays: _Replays, player: Player | None) -> None:
    for g, records in zip(games, pages.run.games):
        watch = replays.watches.get(records.name)
        checks = replays.checked.get(records.name)
        pages.write(f"{g.name}.html", "game.html", game=g, title=f"Game {g.index}",
                    watch=Markup(player(watch)) if player and watch else None,
                    no_watch=replays.missing.get(records.name),
                    watch_notes=checks.notes if isinstance(checks, Watch) else [])


#: the fields of report.json the page shows in its own sections (the others are listed as facts)
SHOWN_KEYS = {"games", "ended", "played", "completed", "deals", "actions", "score_events", "checks",
              "documented_differences", "documented_by_deviation", "unexplained_differences", "basic_errors",
              "timeouts", "harness_failures", "wall_s", "emulated_s", "wall_s_per_game", "workers", "scheduler",
              "deviations", "findings", "documented_by_rules", "unexplained_by_rules", "per_game", "coverage",
              "thorough", "harness_failure_details"}


def _other_facts(run: RunView, rep: RegressReport | None) -> object:
    """What else report.json holds (or a sweeps' folder's reports), as rows of facts."""
    if rep:
        return facts({k: v for k, v in _as_stored(rep).items() if k not in SHOWN_KEYS and k not in RUN_WORDS_KEYS})
    return facts(_as_stored(run.report) if run.report else run.facts)


def _write_report_page(pages: _Pages, sweep: bool, games: list[GameView], figures: list[plots.Plot],
                       fairness: dict[str, object] | None, replays: _Replays) -> Path:
    run, ed = pages.run, pages.ed
    rep = run.report if run.games else None
    pages.write("report.html", "report.html", title="Sweep report" if sweep else "Regress report", run=run,
                rep=rep, head=headline(run, rep) if rep else None,
                costs=deviation_costs(run, ed), games=games, coverage=ed.coverage,
                reasons=coverage_reasons(ed) if ed.coverage else [], figures=figures, fairness=fairness,
                watchable={name for name, w in replays.watches.items() if w is not None},
                failures=[facts(_as_stored(f)) for f in rep.harness_failure_details] if rep else [],
                run_words=run_words(rep) if rep else [], other_facts=_other_facts(run, rep),
                gif=next((g for g in games if g.gif), None), run_dir_name=pages.run_dir.name,
                facts_from=" and ".join(run.facts) if sweep else "a report.json")
    return pages.run_dir / "report.html"


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
    replays = _replays(run, run_dir, ed, player, no_player)
    write_site(ed, run_dir / EDITION_DIR, back=("../report.html", "↑ Report"))
    verdict = run.rule_sets[0]
    cards = Cards()
    games = [game_view(g, ed, cards, run_dir, verdict, run.rule_sets) for g in run.games]
    figures, fairness = fairness_plots(run)
    _write_plots(run_dir, figures, games)
    nav = [("report.html", "Report"), (f"{EDITION_DIR}/index.html", "Listing edition"),
           (f"{EDITION_DIR}/deviations.html", "Deviations")]
    pages = _Pages(run_dir, run, ed, {"css": f"{EDITION_DIR}/style.css", "home": "report.html", "nav": nav,
                                      "edition": EDITION_DIR, "deviations": ed.deviations, "plots_dir": PLOTS_DIR,
                                      "rule_sets": run.rule_sets, "verdict_rules": verdict})
    _write_game_pages(pages, games, replays, player)
    return _write_report_page(pages, sweep, games, figures, fairness, replays)
