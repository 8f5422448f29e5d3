"""Build the browsable edition of the listing: the model of every page, then the pages themselves.

`load_edition` reads everything once (the listing, the font, the reconstruction
log, the routine summaries, the deviations, optionally a coverage file);
`write_site` renders the Jinja templates into a folder that works offline from
file:// (relative links only, no scripts). The folder is built beside the
target and swapped in whole, so a reader never sees half an edition.
"""
from __future__ import annotations

import math
import os
import shutil
import time
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import jinja2

from .. import resources as data
from ..game.coverage_notes import NOTES as COVERAGE_NOTES
from ..game.deviations import DEVIATIONS
from ..game.program import UDG_TEXT
from . import callgraph, glyphs
from .analysis import Analysis, analyse
from .notes import (Coverage, Judgement, NotesError, Routine, deviation_lines, inline_code, read_coverage,
                    read_judgements, read_routines)
from .source import JUMP_KEYWORDS, Listing, Statement, read_listing

__all__ = ["Edition", "load_edition", "write_site", "template_env", "write_atomic", "replace_dir"]

HEAT_LEVELS = 6


@dataclass
class Edition:
    listing: Listing
    analysis: Analysis
    judgements: dict[int, Judgement]
    routines: list[Routine]
    difference_lines: dict[str, list[int]]
    deviations: dict[str, dict]            # id -> {lines: [...], what, rule, spec}
    bitmaps: dict[int, bytes]
    udgs: list[glyphs.Udg]
    coverage: Coverage | None
    routine_of: dict[int, Routine] = field(default_factory=dict)     # line -> routine holding it
    deviations_of: dict[int, list[str]] = field(default_factory=dict)

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
            raise NotesError(f"basic/subroutines.toml: routine {r.line} is not a line of the listing")
        following = routines[i + 1].line if i + 1 < len(routines) else None
        r.end = max(n for n in numbers if n >= r.line and (following is None or n < following))
        r.header = listing.by_number[r.line].rem
    routine_of = {}
    for r in routines:
        for n in numbers:
            if r.line <= n <= r.end:
                routine_of[n] = r
    deviations, deviations_of = {}, {}
    for dev_id, dev in DEVIATIONS.items():
        lines = deviation_lines(dev.lines, numbers)
        deviations[dev_id] = {"id": dev_id, "spec": dev.lines, "lines": lines, "what": dev.what,
                              "rule": dev.rule, "article": dev.article, "standard": dev.standard}
        for n in lines:
            deviations_of.setdefault(n, []).append(dev_id)
    restore = next((j.target for ln in listing.lines for j in ln.jumps if j.kind == "restore"), None)
    udgs = glyphs.udgs_from_data(listing, restore) if restore is not None else []
    bitmaps = glyphs.glyph_bitmaps(data.FONT, udgs)
    cov = read_coverage(coverage) if coverage is not None else None
    return Edition(listing, analysis, judgements, routines, notes.differences, deviations, bitmaps, udgs, cov,
                   routine_of, deviations_of)


# ----------------------------------------------------------------------------- page models
@dataclass
class TokenView:
    kind: str
    text: str
    glyphs: list[tuple[int, str]] | None = None   # (code, readable char) for strings and REM text
    href: str | None = None


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
    judgement: Judgement | None
    evidence: list[tuple[bool, str]]
    deviations: list[str]
    routine: Routine | None                      # set on a routine's first line
    routine_page: str | None


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
        elif t.kind == "rem":
            view.glyphs = _glyph_run(t.codes)
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
        views.append(LineView(
            ln.number, f"L{ln.number}", statements, incoming,
            dead=all(s.dead for s in statements), data_line=all(s.command == "DATA" for s in ln.statements),
            judgement=judgement, evidence=inline_code(judgement.evidence) if judgement else [],
            deviations=ed.deviations_of.get(ln.number, []), routine=routine,
            routine_page=ed.routine_page(routine) if routine else None))
    return views


# ----------------------------------------------------------------------------- rendering
def template_env() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.PackageLoader("harness.edition", "templates"),
                             autoescape=jinja2.select_autoescape(["html", "svg"]),
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    return env


def static_file(name: str) -> bytes:
    return resources.files("harness.edition").joinpath("static", name).read_bytes()


def write_atomic(path: Path, content: bytes | str) -> None:
    """Write a file through a temporary sibling and a rename: readers see the old or the new file."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    if isinstance(content, str):
        content = content.encode("utf-8")
    tmp.write_bytes(content)
    os.replace(tmp, path)


def replace_dir(target: Path, build) -> None:
    """Run build(folder) on a fresh sibling folder, then swap it in place of *target*."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    fresh = target.with_name(f".{target.name}.new-{os.getpid()}")
    old = target.with_name(f".{target.name}.old-{os.getpid()}")
    shutil.rmtree(fresh, ignore_errors=True)
    fresh.mkdir()
    try:
        build(fresh)
    except BaseException:
        shutil.rmtree(fresh, ignore_errors=True)
        raise
    if target.exists():
        os.replace(target, old)
    os.replace(fresh, target)
    shutil.rmtree(old, ignore_errors=True)


def _call_edges(ed: Edition) -> list[callgraph.Edge]:
    """One edge per (caller, callee) routine pair, with every line called and every calling line."""
    found: dict[tuple[int, int], tuple[set[int], list[int]]] = {}
    for ln in ed.listing.lines:
        caller = ed.routine_of.get(ln.number)
        for j in ln.jumps:
            if j.kind != "go sub" or caller is None:
                continue
            target = ed.listing.line_at_or_after(j.target)
            callee = ed.routine_of.get(target)
            if callee is None:
                continue
            targets, sources = found.setdefault((caller.line, callee.line), (set(), []))
            targets.add(target)
            if ln.number not in sources:
                sources.append(ln.number)
    return [callgraph.Edge(a, b, tuple(sorted(t)), tuple(src)) for (a, b), (t, src) in sorted(found.items())]


def write_site(ed: Edition, out: Path) -> dict:
    """Render every page into *out* (replaced whole); return what was written, for the summary line."""
    started = time.perf_counter()
    env = template_env()
    edges = _call_edges(ed)
    svg, svg_missing = callgraph.render_svg(callgraph.dot_source(
        [(r.line, r.title, ed.routine_page(r)) for r in ed.routines], edges))
    lines = line_views(ed)
    by_number = {v.number: v for v in lines}
    stats = {
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
    common = {"stats": stats, "coverage": ed.coverage, "heat_levels": HEAT_LEVELS, "css": "style.css",
              "home": "index.html", "nav": NAV, "glyph_row": glyphs.ink_row}
    pages: dict[str, str] = {}

    def page(name: str, template: str, **context):
        pages[name] = env.get_template(template).render(**common, **context, page=name)

    page("index.html", "index.html", routines=ed.routines, deviations=ed.deviations)
    page("listing.html", "listing.html", lines=lines, title="The listing")
    callers = {r.line: sorted({e.caller for e in edges if e.callee == r.line}) for r in ed.routines}
    callees = {r.line: sorted({e.callee for e in edges if e.caller == r.line}) for r in ed.routines}
    routine_by_line = {r.line: r for r in ed.routines}
    page("routines.html", "routines.html", routines=ed.routines, svg=svg, svg_missing=svg_missing,
         routine_page=ed.routine_page, callers=callers, callees=callees, title="Routines and calls")
    for r in ed.routines:
        numbers = [n for n in by_number if r.line <= n <= r.end]
        page(ed.routine_page(r), "routine.html", routine=r, lines=line_views(ed, numbers),
             callers=[routine_by_line[c] for c in callers[r.line]],
             callees=[routine_by_line[c] for c in callees[r.line]],
             call_sites=[(", ".join(map(str, e.targets)), e.sources, e.caller) for e in edges
                         if e.callee == r.line],
             routine_page=ed.routine_page, title=f"{r.line} {r.title}")
    page("variables.html", "variables.html", variables=_variable_groups(ed), title="Variables")
    page("reconstruction.html", "reconstruction.html",
         judgements=[(j, inline_code(j.evidence), by_number.get(j.line)) for j in ed.judgements.values()],
         title="The reconstruction")
    page("deviations.html", "deviations.html", deviations=ed.deviations,
         difference_lines=ed.difference_lines, title="Deviations from the rules")
    page("coverage.html", "coverage.html", lines=[v for v in lines if v.dead or any(
        s.never_run for s in v.statements)], title="Dead code and coverage",
         one_way_ifs=_one_way_ifs(ed), notes={n.id: n for n in COVERAGE_NOTES})
    page("glyphs.html", "glyphs.html", udgs=ed.udgs, udg_text=UDG_TEXT,
         font=[(c, glyphs.readable(c, UDG_TEXT)) for c in range(0x20, 0x80)], title="UDGs and the chr font")
    sheet = glyphs.sheet(ed.bitmaps)

    def build(folder: Path):
        for name, html in pages.items():
            (folder / name).write_text(html, encoding="utf-8")
        (folder / "style.css").write_bytes(static_file("style.css"))
        sheet.save(folder / "glyphs.png", optimize=False)
        big = folder / "glyph"
        big.mkdir()
        for code, bitmap in ed.bitmaps.items():
            if code >= 0x20:
                glyphs.large(bitmap).save(big / f"{code:03d}.png")

    replace_dir(out, build)
    return {"pages": len(pages), "seconds": time.perf_counter() - started, "dot": svg is not None}


NAV = [("index.html", "Edition"), ("listing.html", "Listing"), ("routines.html", "Routines"),
       ("variables.html", "Variables"), ("reconstruction.html", "Reconstruction"),
       ("deviations.html", "Deviations"), ("coverage.html", "Dead code & coverage"), ("glyphs.html", "Glyphs")]


def _key_order(key: str) -> tuple[int, int]:
    line, stmt = key.split(":")
    return int(line), int(stmt)


def _variable_groups(ed: Edition) -> list[tuple[str, str, list]]:
    """(token name, anchor, [Variable...]) with X and X() side by side."""
    groups: dict[str, list] = {}
    for name, var in ed.analysis.variables.items():
        base = name[:-2] if name.endswith("()") else name
        groups.setdefault(base, []).append(var)
    return [(base, vars_[0].anchor_group, vars_) for base, vars_ in
            sorted(groups.items(), key=lambda kv: (kv[0].startswith("FN"), kv[0]))]


def _one_way_ifs(ed: Edition) -> list[tuple[str, int, int]]:
    if ed.coverage is None:
        return []
    return sorted(((k, t, f) for k, (t, f) in ed.coverage.ifs.items() if (t == 0) != (f == 0)),
                  key=lambda x: _key_order(x[0]))
