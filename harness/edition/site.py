"""Build the browsable edition of the listing: the model of every page, then the pages themselves.

`load_edition` reads everything once (the listing, the font, the reconstruction
log, the routine summaries, the deviations, optionally a coverage file);
`write_site` renders the Jinja templates into a folder that works offline from
file:// (relative links only, no scripts). The folder is built beside the
target and swapped in whole, so a reader never sees half an edition.
"""
from __future__ import annotations

import functools
import math
import os
import shutil
import time
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Mapping

import jinja2

from ..errors import InputError
from ..runtime import atomic
from .. import resources as data
from ..program.model.english import read_table as read_translation
from ..spectrum import charset
from ..program.model.coverage_notes import NOTES as COVERAGE_NOTES
from ..program.judge.deviations import DEVIATIONS
from ..program.model.program import UDG_TEXT
from . import callgraph, glyphs
from .golden import GoldenScreen, read_golden
from .analysis import Analysis, analyse
from .notes import (Coverage, Moment, OcrJudgement, Quote, ReadingView, Routine, Section, deviation_lines, inline_code,
                    looked_again, quoted_parts, read_coverage, read_judgements, read_meanings, read_moments,
                    read_quotes, read_readings, read_routines)
from .memory import memory_map, shown_value, variable_groups
from .text import as_words
from .source import JUMP_KEYWORDS, Listing, Statement, read_listing

__all__ = ["Edition", "DeviationView", "SiteWritten", "load_edition", "write_site", "template_env",
           "memory_map", "shown_value"]     # the last two: memory.py's, named here as before

HEAT_LEVELS = 6


@dataclass(frozen=True)
class DeviationView:
    """A documented deviation as the pages show it: its lines in the listing and its texts with their quotes."""
    id: str
    spec: str                              # the lines as deviations.py gives them ("4400-4420, 5005")
    lines: list[int]                       # those lines of the listing
    what: str
    rule: str
    article: str | None
    standard: str | None
    parts: dict[str, list[tuple[bool, str, Quote | None]]]   # what, rule, article, standard with their «quotes»


@dataclass
class Edition:
    listing: Listing
    analysis: Analysis
    judgements: dict[int, OcrJudgement]
    routines: list[Routine]
    difference_lines: dict[str, list[int]]
    deviations: dict[str, DeviationView]   # by id
    bitmaps: dict[int, bytes]
    udgs: list[glyphs.Udg]
    coverage: Coverage | None
    sections: list[Section] = field(default_factory=list)            # for the call graph
    routine_of: dict[int, Routine] = field(default_factory=dict)     # line -> routine holding it
    deviations_of: dict[int, list[str]] = field(default_factory=dict)
    english: dict[tuple[int, str], str] = field(default_factory=dict)  # (line, Russian as spelled) -> English
    meanings: dict[str, str] = field(default_factory=dict)             # variable -> meaning (variables.toml)
    moments: list[Moment] = field(default_factory=list)                # values at named moments
    golden: list[GoldenScreen] = field(default_factory=list)           # docs/golden/, if the checkout has it
    readings: dict[int, list[ReadingView]] = field(default_factory=dict)      # docs/data/readings.json, if the checkout has it

    def routine_page(self, r: Routine) -> str:
        return f"routine-{r.line:04d}.html"


def load_edition(coverage: Path | None = None, listing_path: Path | None = None) -> Edition:
    listing = read_listing(listing_path or data.LISTING)
    analysis = analyse(listing)
    judgements = read_judgements(data.data_path("basic/RECONSTRUCTION.md"))
    notes = read_routines(data.data_path("basic/subroutines.toml"))
    numbers = [ln.number for ln in listing.lines]
    routines = notes.routines
    for i, r in enumerate(routines):
        if r.line not in listing.by_number:
            raise InputError(f"basic/subroutines.toml: routine {r.line} is not a line of the listing")
        following = routines[i + 1].line if i + 1 < len(routines) else None
        r.end = max(n for n in numbers if n >= r.line and (following is None or n < following))
        r.header = listing.by_number[r.line].rem
    routine_of = {n: r for r in routines for n in numbers if r.holds(n)}
    deviations, deviations_of = _deviation_views(numbers)
    restore = next((j.target for ln in listing.lines for j in ln.jumps if j.kind == "restore"), None)
    udgs = glyphs.udgs_from_data(listing, restore) if restore is not None else []
    bitmaps = glyphs.glyph_bitmaps(data.FONT, udgs)
    cov = read_coverage(coverage) if coverage is not None else None
    english = {(t.line, t.russian): readable_spelling(t.english) for t in read_translation()}
    for r in routines:
        if r.header is not None:
            r.header_english = english.get((r.line, r.header))
    meanings = read_meanings(data.data_path("basic/variables.toml"))
    problems = meaning_problems(meanings, analysis.variables)
    if problems:
        raise InputError(f"basic/variables.toml: {'; '.join(problems)}")
    moments = read_moments(data.data_path("basic/variable_values.json"))
    measured = data.docs_path("data/readings.json")
    return Edition(listing, analysis, judgements, routines, notes.differences, deviations, bitmaps, udgs, cov,
                   notes.sections, routine_of, deviations_of, english, meanings, moments, golden_screens(),
                   read_readings(measured, looked_again(data.data_path("basic/RECONSTRUCTION.md")))
                   if measured is not None else {})


def _deviation_views(numbers: list[int]) -> tuple[dict[str, DeviationView], dict[int, list[str]]]:
    """Each documented deviation as the pages show it, and the deviations of each line of the listing."""
    deviations: dict[str, DeviationView] = {}
    deviations_of: dict[int, list[str]] = {}
    quotes = read_quotes(data.data_path("basic/quotes.toml"))
    for dev_id, dev in DEVIATIONS.items():
        lines = deviation_lines(dev.lines, numbers)
        parts = {f: quoted_parts(getattr(dev, f) or "", quotes) for f in ("what", "rule", "article", "standard")}
        deviations[dev_id] = DeviationView(dev_id, dev.lines, lines, dev.what, dev.rule, dev.article, dev.standard,
                                           parts)
        for n in lines:
            deviations_of.setdefault(n, []).append(dev_id)
    return deviations, deviations_of


def golden_screens(folder: Path | None = None) -> list[GoldenScreen]:
    """The golden screens of docs/golden/ (or *folder*), none when the checkout has no such folder."""
    folder = folder or data.docs_path("golden")
    return read_golden(folder) if folder is not None and (folder / "README.md").is_file() else []


def meaning_problems(meanings: dict[str, str], variables: Mapping[str, object]) -> list[str]:
    """Every variable of the listing described, and no description of a name the listing lacks."""
    missing = [n for n in variables if n not in meanings]
    invented = [n for n in meanings if n not in variables]
    return ([f"no meaning for {', '.join(missing)}"] if missing else []) + \
        ([f"{', '.join(invented)}: not a variable of the listing"] if invented else [])


def readable_spelling(text: str) -> str:
    """A text spelled as in the listing (charset escapes such as \\r for a UDG) as a reader reads it."""
    out, pos = [], 0
    while pos < len(text):
        code, pos = charset.read_char(text, pos, in_string=True)
        out.append(glyphs.readable(code, UDG_TEXT))
    return "".join(out)


def literal_spelling(codes: tuple[int, ...]) -> str:
    """A string's or REM's codes spelled as the listing and basic/translation.tsv spell them."""
    return charset.decode(bytes(codes), cyrillic=True)


# ----------------------------------------------------------------------------- page models
@dataclass
class TokenView:
    kind: str
    text: str
    glyphs: list[tuple[int, str]] | None = None   # (code, readable char) for strings and REM text
    href: str | None = None
    english: str | None = None                    # a Russian string's or REM's English (translation.tsv)


@dataclass
class StatementView:
    key: str
    index: int
    tokens: list[TokenView]
    dead: bool
    count: int | None          # executions in the coverage run, None without coverage
    heat: int                  # 0..HEAT_LEVELS-1
    never_run: bool
    if_counts: tuple[int, int] | None


@dataclass
class LineView:
    number: int
    anchor: str
    statements: list[StatementView]
    incoming: list[tuple[int, str, str]]         # (source line, kind, href)
    dead: bool
    data_line: bool
    judgement: OcrJudgement | None
    evidence: list[tuple[bool, str]]
    deviations: list[str]
    routine: Routine | None                      # set on a routine's first line
    routine_page: str | None
    english: list[tuple[str, str]] = field(default_factory=list)   # (kind, English) of its Russian texts
    readings: list[ReadingView] = field(default_factory=list)           # the other readings and what each changes


def _variable_anchor(name: str) -> str:
    return "v-" + name.replace("$", "S")


def _glyph_run(codes: tuple[int, ...]) -> list[tuple[int, str]]:
    return [(c, glyphs.readable(c, UDG_TEXT)) for c in codes]


def _statement_view(ed: Edition, s: Statement, page: str) -> StatementView:
    jumps = {(j.statement, j.target) for j in ed.listing.by_number[s.line].jumps}
    tokens = []
    previous = None
    for t in s.tokens:
        view = TokenView(t.kind, t.text)
        if t.kind == "string":
            view.glyphs = _glyph_run((0x22,) + t.codes + (0x22,))
            view.english = ed.english.get((s.line, literal_spelling(t.codes)))
        elif t.kind == "rem":
            view.glyphs = _glyph_run(t.codes)
            view.english = ed.english.get((s.line, literal_spelling(t.codes)))
        elif t.kind == "variable":
            view.href = f"variables.html#{_variable_anchor(t.text)}"
        elif t.kind == "fn":
            view.href = f"variables.html#{_variable_anchor('FN ' + t.text).replace(' ', '-')}"
        elif t.kind == "number" and previous is not None and previous.kind == "keyword" \
                and previous.text in JUMP_KEYWORDS and (s.index, int(float(t.text))) in jumps:
            target = ed.listing.line_at_or_after(int(float(t.text)))
            view.href = f"{page}#L{target}" if target is not None else None
        tokens.append(view)
        if t.kind != "space":
            previous = t
    cov = ed.coverage
    count = heat = None
    never = False
    if_counts = None
    if cov is not None:
        count = cov.counts.get(s.key, 0)
        never = count == 0          # the counts decide; never_run lists the same statements
        heat = _heat(count, cov.peak)
        if_counts = cov.ifs.get(s.key)
    return StatementView(s.key, s.index, tokens, s.key in ed.analysis.dead_statements, count, heat or 0, never,
                         if_counts)


def _heat(count: int, peak: int) -> int:
    """0 for never run, then HEAT_LEVELS-1 levels on a log scale up to the busiest statement."""
    if count <= 0 or peak <= 0:
        return 0
    return 1 + min(HEAT_LEVELS - 2, int(math.log(count) / math.log(peak + 1) * (HEAT_LEVELS - 1)))


def line_views(ed: Edition, numbers: list[int] | None = None, page: str = "listing.html") -> list[LineView]:
    views = []
    routine_starts = {r.line: r for r in ed.routines}
    for ln in ed.listing.lines:
        if numbers is not None and ln.number not in numbers:
            continue
        incoming = [(j.source, j.kind, f"{page}#L{j.source}") for j in ed.analysis.incoming.get(ln.number, [])]
        statements = [_statement_view(ed, s, page) for s in ln.statements]
        routine = routine_starts.get(ln.number)
        judgement = ed.judgements.get(ln.number)
        english = [(t.kind, t.english) for st in statements for t in st.tokens if t.english is not None]
        views.append(LineView(
            ln.number, f"L{ln.number}", statements, incoming,
            dead=all(s.dead for s in statements), data_line=all(s.command == "DATA" for s in ln.statements),
            judgement=judgement, evidence=inline_code(judgement.evidence) if judgement else [],
            deviations=ed.deviations_of.get(ln.number, []), routine=routine,
            routine_page=ed.routine_page(routine) if routine else None, english=english,
            readings=ed.readings.get(ln.number, [])))
    return views


# ----------------------------------------------------------------------------- rendering
@functools.lru_cache(maxsize=None)
def template_env() -> jinja2.Environment:
    """The one template environment of a process (the site and the report share its compiled templates;
    compiling them costs about 0.2 CPU s), with Jinja's bytecode cache in the user's cache folder when it
    can be made: a template changed since is compiled again (the cache is keyed by its source)."""
    env = jinja2.Environment(loader=jinja2.PackageLoader("harness.edition", "templates"),
                             autoescape=jinja2.select_autoescape(["html", "svg"]),
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                             bytecode_cache=template_cache())
    env.filters.update(words=words)
    env.globals.update(zip=zip)
    return env


def template_cache() -> jinja2.BytecodeCache | None:
    """$XDG_CACHE_HOME/cribbage-zx/templates (else ~/.cache/...), or none when it cannot be made or written."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = Path(base) / "cribbage-zx" / "templates"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if not os.access(folder, os.W_OK):
            return None
    except OSError:
        return None
    return jinja2.FileSystemBytecodeCache(str(folder))


def words(text: str, kind: str = "string") -> str:
    """A string or REM laid out for 32 columns as one line of words (harness/edition/text.py)."""
    return as_words(str(text), kind)


def static_file(name: str) -> bytes:
    return resources.files("harness.edition").joinpath("static", name).read_bytes()


COURT_UDGS = (155, 156, 157)      # L M N: В Д К, the program's jack, queen and king


def card_letter_lines(ed: Edition) -> set[int]:
    """The lines whose strings hold the program's court-card letters (R$ at 7320): a reader needs the legend."""
    return {s.line for s in ed.listing.statements for t in s.tokens
            if t.kind == "string" and any(c in COURT_UDGS for c in t.codes)}


def _call_edges(ed: Edition) -> list[callgraph.Edge]:
    """One edge per (caller, callee) routine pair, with every line called and every calling line."""
    found: dict[tuple[int, int], tuple[set[int], list[int]]] = {}
    for ln in ed.listing.lines:
        caller = ed.routine_of.get(ln.number)
        for j in ln.jumps:
            if j.kind != "go sub" or caller is None:
                continue
            target = ed.listing.line_at_or_after(j.target)
            callee = ed.routine_of.get(target) if target is not None else None
            if target is None or callee is None:
                continue
            targets, sources = found.setdefault((caller.line, callee.line), (set(), []))
            targets.add(target)
            if ln.number not in sources:
                sources.append(ln.number)
    return [callgraph.Edge(a, b, tuple(sorted(t)), tuple(src)) for (a, b), (t, src) in sorted(found.items())]


@dataclass(frozen=True)
class SiteWritten:
    """What write_site wrote, for the command's summary line."""
    pages: int
    seconds: float
    dot: bool                            # whether Graphviz drew the call graphs


@dataclass
class _CallGraphs:
    """The whole call graph and each routine's neighbourhood as SVG, drawn in one run of dot."""
    edges: list[callgraph.Edge]
    whole: str | None                    # None: not drawn
    whole_missing: str | None            # why not
    near: dict[int, str | None]          # routine line -> its neighbourhood's SVG (routines with a call only)


def _call_graphs(ed: Edition) -> _CallGraphs:
    edges = _call_edges(ed)
    nodes = [(r.line, r.title, ed.routine_page(r)) for r in ed.routines]
    graphs = [callgraph.dot_source(nodes, edges, [(sec.title, sec.routines) for sec in ed.sections])]
    neighbourhoods: dict[int, int] = {}
    for r in ed.routines:
        near = [e for e in edges if r.line in (e.caller, e.callee)]
        if near:
            neighbourhoods[r.line] = len(graphs)
            graphs.append(callgraph.dot_source(nodes, near, highlight=r.line))
    drawn = callgraph.render_svgs(graphs)
    return _CallGraphs(edges, drawn[0][0], drawn[0][1], {line: drawn[k][0] for line, k in neighbourhoods.items()})


def _stats(ed: Edition, lines: list[LineView]) -> dict[str, object]:
    """The edition's figures, for the index page."""
    return {
        "lines": len(ed.listing.lines), "statements": len(ed.listing.statements),
        "routines": len(ed.routines), "judgements": len(ed.judgements),
        "jumps": sum(len(ln.jumps) for ln in ed.listing.lines),
        "variables": len(ed.analysis.variables),
        "dead_lines": [v.number for v in lines if v.dead],
        "dead_statements": sorted(ed.analysis.dead_statements, key=_key_order),
        "deviations": len(ed.deviations), "udgs": len(ed.udgs),
        "never_read": [v for v in ed.analysis.variables.values() if v.sets and not v.reads],
        "never_set": [v for v in ed.analysis.variables.values() if v.reads and not v.sets],
    }


@dataclass
class _SitePages:
    """The edition's pages as they are rendered, by file name, from the context every page shares."""
    common: dict[str, object]
    pages: dict[str, str] = field(default_factory=dict)

    def add(self, name: str, template: str, **context: object) -> None:
        self.pages[name] = template_env().get_template(template).render(**self.common, **context, page=name)


def _routine_pages(ed: Edition, site: _SitePages, graphs: _CallGraphs, lines: list[LineView]) -> None:
    """routines.html, the call graph and the table of routines, and a page for each routine."""
    edges = graphs.edges
    callers = {r.line: sorted({e.caller for e in edges if e.callee == r.line}) for r in ed.routines}
    callees = {r.line: sorted({e.callee for e in edges if e.caller == r.line}) for r in ed.routines}
    routine_by_line = {r.line: r for r in ed.routines}
    site.add("routines.html", "routines.html", routines=ed.routines, svg=graphs.whole, svg_missing=graphs.whole_missing,
             routine_page=ed.routine_page, callers=callers, callees=callees, title="Routines and calls")
    for k, r in enumerate(ed.routines):
        numbers = [v.number for v in lines if r.holds(v.number)]
        site.add(ed.routine_page(r), "routine.html", routine=r, lines=line_views(ed, numbers),
                 svg=graphs.near.get(r.line), shows_card_letters=bool(card_letter_lines(ed) & set(numbers)),
                 previous=ed.routines[k - 1] if k else None,
                 following=ed.routines[k + 1] if k + 1 < len(ed.routines) else None,
                 callers=[routine_by_line[c] for c in callers[r.line]],
                 callees=[routine_by_line[c] for c in callees[r.line]],
                 call_sites=[(", ".join(map(str, e.targets)), e.sources, e.caller) for e in edges
                             if e.callee == r.line],
                 routine_page=ed.routine_page, title=f"{r.line} {r.title}")


def _variables_page(ed: Edition, site: _SitePages) -> None:
    values = {v.name: [(m, shown_value(m.values[v.name], v.kind) if v.name in m.values else None)
                       for m in ed.moments] for v in ed.analysis.variables.values()}
    places = {v.name: [(m, m.places.get(v.name)) for m in ed.moments] for v in ed.analysis.variables.values()}
    maps = [(m, memory_map(m, len(ed.udgs))) for m in ed.moments]
    site.add("variables.html", "variables.html", variables=variable_groups(ed.analysis.variables), meanings=ed.meanings,
             moments=ed.moments, values=values, places=places, maps=[(m, a) for m, a in maps if a],
             title="Variables: a memory map")


def _other_pages(ed: Edition, site: _SitePages, lines: list[LineView]) -> None:
    """The reconstruction, the deviations, the coverage and the glyphs."""
    by_number = {v.number: v for v in lines}
    site.add("reconstruction.html", "reconstruction.html",
             judgements=[(j, inline_code(j.evidence), by_number.get(j.line)) for j in ed.judgements.values()],
             title="The reconstruction")
    site.add("deviations.html", "deviations.html", deviations=ed.deviations,
             difference_lines=ed.difference_lines, title="Deviations from the rules")
    site.add("coverage.html", "coverage.html", lines=[v for v in lines if v.dead or any(
        s.never_run for s in v.statements)], title="Dead code and coverage",
        one_way_ifs=_one_way_ifs(ed), notes={n.id: n for n in COVERAGE_NOTES}, reasons=coverage_reasons(ed))
    site.add("glyphs.html", "glyphs.html", udgs=ed.udgs, udg_text=UDG_TEXT,
             font=[(c, glyphs.readable(c, UDG_TEXT)) for c in range(0x20, 0x80)], title="UDGs and the chr font")


def _build(folder: Path, ed: Edition, pages: dict[str, str]) -> None:
    """Write the rendered pages, the stylesheet, the glyph sheet, the golden screens and each large glyph."""
    sheet = glyphs.sheet(ed.bitmaps)
    for name, html in pages.items():
        (folder / name).write_text(html, encoding="utf-8")
    (folder / "style.css").write_bytes(static_file("style.css"))
    sheet.save(folder / "glyphs.png", optimize=False)
    if ed.golden:
        (folder / "golden").mkdir()
        for g in ed.golden:
            shutil.copyfile(g.path, folder / "golden" / g.path.name)
    big = folder / "glyph"
    big.mkdir()
    for code, bitmap in ed.bitmaps.items():
        if code >= 0x20:
            glyphs.large(bitmap).save(big / f"{code:03d}.png")


def write_site(ed: Edition, out: Path, in_place: bool = False, back: tuple[str, str] | None = None,
               play: str | None = None) -> SiteWritten:
    """Render every page into *out* (replaced whole, or written into it if *in_place*: a folder the
    caller has claimed and cleared, harness/runtime/outdir.py); return what was written, for the summary line.
    *back*, (href from the edition's folder, label): a link first in every page's bar, to the page the
    edition belongs to (a regress run's report.html). *play*: the file name of the page that plays the game
    beside the edition (harness/web's play.html, when it was written), linked from the index."""
    started = time.perf_counter()
    graphs = _call_graphs(ed)
    lines = line_views(ed)
    site = _SitePages({"stats": _stats(ed, lines), "coverage": ed.coverage, "heat_levels": HEAT_LEVELS,
                       "css": "style.css", "home": "index.html", "nav": ([back] if back else []) + NAV,
                       "glyph_row": glyphs.ink_row})
    site.add("index.html", "index.html", routines=ed.routines, deviations=ed.deviations, golden=ed.golden, play=play)
    if ed.golden:
        site.add("golden.html", "golden.html", golden=ed.golden, title="Golden screens")
    site.add("listing.html", "listing.html", lines=lines, title="The listing")
    _routine_pages(ed, site, graphs, lines)
    _variables_page(ed, site)
    _other_pages(ed, site, lines)
    if in_place:
        _build(Path(out), ed, site.pages)
    else:
        with atomic.replacing_folder(out) as fresh:
            _build(fresh, ed, site.pages)
    return SiteWritten(len(site.pages), time.perf_counter() - started, graphs.whole is not None)


NAV = [("index.html", "Edition"), ("listing.html", "Listing"), ("routines.html", "Routines"),
       ("variables.html", "Variables"), ("reconstruction.html", "Reconstruction"),
       ("deviations.html", "Deviations"), ("coverage.html", "Dead code & coverage"), ("glyphs.html", "Glyphs")]


def _key_order(key: str) -> tuple[int, int]:
    line, stmt = key.split(":")
    return int(line), int(stmt)


@dataclass
class Reason:
    """One row of the coverage page: a note (or, without one, a routine) and the items it holds."""
    title: str
    kind: str
    why: str
    items: list[tuple[str, str]]          # (item as the report spells it, its anchor on listing.html)
    noted: bool

    @property
    def lines(self) -> list[int]:
        return sorted({int(item.split(":")[0]) for item, _ in self.items})


def coverage_reasons(ed: Edition) -> list[Reason]:
    """The never-run statements and one-way IF outcomes, one row per note that explains them, then one row
    per routine for those no note explains."""
    cov = ed.coverage
    if cov is None:
        return []
    notes = {n.id: n for n in COVERAGE_NOTES}

    def anchor(item: str) -> str:
        return "S" + item.split(" ")[0].replace(":", "-")

    by_note: dict[str, list[str]] = {}
    for item, note in cov.explained_by.items():
        by_note.setdefault(note, []).append(item)
    rows = []
    for note_id in sorted(by_note, key=lambda n: (n not in notes, [n.id for n in COVERAGE_NOTES].index(n)
                                                  if n in notes else 0, n)):
        found = notes.get(note_id)
        items = sorted(by_note[note_id], key=_item_order)
        rows.append(Reason(note_id, found.kind if found else "", found.why if found else "",
                           [(i, anchor(i)) for i in items], True))
    by_routine: dict[int, list[str]] = {}
    for item in cov.unexplained:
        routine = ed.routine_of.get(int(item.split(":")[0]))
        by_routine.setdefault(routine.line if routine else -1, []).append(item)
    titles = {r.line: r.title for r in ed.routines}
    for line in sorted(by_routine):
        items = sorted(by_routine[line], key=_item_order)
        rows.append(Reason(f"{line} {titles[line]}" if line in titles else "outside any routine", "not reached",
                           "", [(i, anchor(i)) for i in items], False))
    return rows


def _item_order(item: str) -> tuple[int, int, str]:
    key, _, outcome = item.partition(" ")
    line, stmt = _key_order(key)
    return line, stmt, outcome


def _one_way_ifs(ed: Edition) -> list[tuple[str, int, int]]:
    if ed.coverage is None:
        return []
    return sorted(((k, t, f) for k, (t, f) in ed.coverage.ifs.items() if (t == 0) != (f == 0)),
                  key=lambda x: _key_order(x[0]))
