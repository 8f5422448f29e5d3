"""The pages of `cribbage-zx readings` (the view of readings_record.py's record): docs/READINGS.md, and each
judgement entry's generated `- Consequence:` line in basic/RECONSTRUCTION.md (written, and checked current
by `--check-docs`). The command writes them; this module only turns a record into text.
"""
from __future__ import annotations

import re
from collections import Counter

from ..program.runs.readings import deviation_table
from ..program.runs.readings_record import KINDS, NO_GAME, REFUSED, Consequence, DeviationRow, ReadingsRecord

ENTRY_MARK = "<!-- readings {line} -->"
ENTRY_END = "<!-- /readings -->"
_HEADING = re.compile(r"^###\s+(\d+)\s*$")          # an entry's heading (edition/notes.py reads the same form)
_WORDS = {"identical": "identical", "untested": "untested", "stops": "the program stops",
          "play": "the play differs", "picture": "the picture differs", "stores-alike": "stored alike",
          "rom-rejects": "the ROM rejects it", "not-tokenised": "does not tokenise"}


def _one(c: Consequence) -> str:
    """A reading's consequence in one phrase: its id and source, the verdict and what vanishes or appears."""
    extra = ""
    if c.kind in ("play", "picture", "stops") and c.detail:
        extra = f": {c.detail.removeprefix('the program stops: ')}"
    if c.vanish or c.appear:
        playing = c.playing()
        stopping = [d for d in c.vanish if d not in playing]
        extra += "".join([f"; {', '.join(stopping)} vanish(es) because the program stops" if stopping else "",
                          f"; {', '.join(playing)} vanish(es) while the program plays on" if playing else "",
                          f"; {', '.join(c.appear)} appear(s)" if c.appear else ""])
    return f"{c.id} ({c.source}) {_WORDS[c.kind]}{extra}"


# ------------------------------------------------------------------------------ basic/RECONSTRUCTION.md
def entry_consequence(rec: ReadingsRecord, line: int) -> str:
    """The generated line of entry *line* in basic/RECONSTRUCTION.md: what each of its readings changes."""
    cs = [c for c in rec.readings if c.line == line]
    if not cs:
        body = "no reading of this line was measured"
    else:
        counts = Counter(c.kind for c in cs)
        body = ", ".join(f"{counts[k]} {k}" for k in KINDS if counts[k]) + ". " + "; ".join(_one(c) for c in cs)
        if all(c.kind in ("untested", *REFUSED) for c in cs) and any(c.kind == "untested" for c in cs):
            body += f". Not reached by any run: {NO_GAME}"
    return f"- Consequence: {ENTRY_MARK.format(line=line)} {body} {ENTRY_END}"


def update_reconstruction(text: str, rec: ReadingsRecord, entries: list[int]) -> str:
    """basic/RECONSTRUCTION.md with each entry's generated consequence put (or replaced) after its Evidence."""
    out, current = [], None
    for row in text.splitlines():
        m = _HEADING.match(row)
        if m:
            current = int(m.group(1))
        if row.startswith("- Consequence: <!-- readings "):
            continue
        out.append(row)
        if current is not None and current in entries and row.startswith("- Evidence:"):
            out.append(entry_consequence(rec, current))
    return "\n".join(out) + ("\n" if text.endswith("\n") else "")


def stale_consequences(text: str, rec: ReadingsRecord) -> list[str]:
    """Each entry whose generated consequence is not what *rec* says of its own line (or is missing)."""
    problems, current = [], None
    seen: set[int] = set()
    for row in text.splitlines():
        m = _HEADING.match(row)
        if m:
            current = int(m.group(1))
            continue
        if row.startswith("- Consequence:") and current is not None:
            seen.add(current)
            if row != entry_consequence(rec, current):
                problems.append(f"entry {current}: its consequence is not the measured one of line {current}")
    return problems + [f"entry {n}: no consequence" for n in sorted(set(entries_of(text)) - seen)]


def entries_of(text: str) -> list[int]:
    """The judgement entries of basic/RECONSTRUCTION.md, by their headings' line numbers."""
    return [int(m.group(1)) for row in text.splitlines() if (m := _HEADING.match(row))]


def second_look_of(row: DeviationRow, looked: dict[str, int]) -> str:
    """The deviations' table's last column: "no"; "yes" (a reading makes it vanish while the program plays
    on, and basic/RECONSTRUCTION.md has not looked at it again); "looked at: line N" once every such
    reading is answered there."""
    flagged = row.vanish_playing
    if not flagged:
        return "no"
    if all(rid in looked for rid in flagged):
        return "looked at: " + ", ".join(f"line {n}" for n in sorted({looked[rid] for rid in flagged}))
    return "yes"


# ------------------------------------------------------------------------------------ docs/READINGS.md
_INTRO = [
    "For every judgement entry of `basic/RECONSTRUCTION.md`, every line where `tools/ocr_diff.py` applies "
    "an OCR confusion, and the alternatives an entry's evidence names, `basic/readings.toml` holds the "
    "other readings the scan admits (written by `tools/write_readings.py`, checked current by "
    "`tests/test_readings.py`). Each is tokenised, put to the ROM's own syntax check, built as a variant "
    "tape and played with the same seeded games as the reconstruction; a line no game runs is "
    "*untested*, never *identical*.", ""]

_DEVIATIONS_HEAD = [
    "", "## The deviations against the readings of their own lines", "",
    "A deviation *vanishes* under a reading when our games show it and the variant's same games do not. "
    "It vanishes *because the program stops* when the variant's game ends in a report (or the harness "
    "gives it up) before the deviation shows: that says nothing of the deviation's own reading. It "
    "vanishes *while the program plays on* when the variant's game goes on and the deviation is not "
    "there: only that is flagged for a second look at the judgement, until `basic/RECONSTRUCTION.md` "
    "says what the second look found (a `- Second look:` naming the reading).", "",
    "| deviation | lines | readings | refused by the ROM | untested | played | keep | "
    "vanish, the program stops | vanish, it plays on | appear | not shown by its games | second look |",
    "| --- |" + " --- |" * 11]


def _the_run(rec: ReadingsRecord) -> list[str]:
    """The page's account of the run: what was measured, with which games, how it ended, its CPU time."""
    plan, ended = rec.plan, rec.ended or "complete"
    out = [
        "## The run", "",
        f"- readings measured: {len(rec.readings)} (of lines: {len({c.line for c in rec.readings})})",
        f"- games per reading: the first {plan.games} of the reconstruction's plain games (seed {plan.seed}) "
        f"that run its line, else the first game of the thorough set that does "
        f"({'played' if plan.thorough else 'not played: its lines are untested'}); a reading whose line no "
        f"game of the run reaches is *untested*, with that reason, and never played",
        "- the reconstruction's games: " + ", ".join(f"{g.seed}/{g.strategy}" for g in rec.base_games),
        f"- variant games played: {rec.variant_games}"
        + (f" ({rec.shared_tapes} reading(s) share the tape and the games of another reading of their line)"
           if rec.shared_tapes else "")
        + f"; the run {ended}"
        + ("" if ended == "complete" else
           " (stopped at the time limit: the readings it did not play are recorded as untested)")]
    if plan.frames_budget is not None:
        out.append(f"- a variant's game may take {plan.frames_budget[0]} times its reconstruction game's emulated "
                   f"frames and {plan.frames_budget[1]} more: "
                   f"{sum(1 for c in rec.readings if 'past its budget' in c.detail)} reading(s) ran on past "
                   "that (a loop) and were given up there, as *stops*")
    out += [f"- resumed (`--resume`): {r.readings} reading(s) the run before had left untested by its time "
            f"budget, played in {r.cpu_s} CPU s; that run {r.ended}" for r in rec.resumed or []]
    spent = rec.cpu_s
    out.append(f"- CPU time: {spent.total} s (the ROM's checks {spent.rom_checks} s, the games {spent.games} s)"
               + (f"; the command's process: {spent.command} s" if spent.command is not None else ""))
    return out


def _counts_table(rec: ReadingsRecord, entries: list[int]) -> list[str]:
    """The readings by verdict, and each entry's readings by verdict."""
    out = ["", "| verdict | readings |", "| --- | --- |"]
    out += [f"| {k} | {rec.counts.get(k, 0)} |" for k in KINDS]
    out += ["", "## Entries x kind of consequence", "",
            "| entry | " + " | ".join(KINDS) + " |", "| --- |" + " --- |" * len(KINDS)]
    for n in entries:
        c = Counter(x.kind for x in rec.readings if x.line == n)
        out.append(f"| {n} | " + " | ".join(str(c.get(k, 0)) for k in KINDS) + " |")
    return out


def _deviations(rec: ReadingsRecord, listing_lines: list[int], looked: dict[str, int]) -> list[str]:
    """The deviations' table (the record's, else computed from its consequences)."""
    out = list(_DEVIATIONS_HEAD)
    for row in rec.deviations or deviation_table(rec, listing_lines):
        out.append(f"| {row.deviation} | {row.lines} | {row.readings} | {row.refused} | "
                   f"{row.untested} | {row.played} | {len(row.keep)} | "
                   f"{', '.join(row.vanish_stops) or 0} | {', '.join(row.vanish_playing) or 0} | "
                   f"{', '.join(row.appear) or 0} | {len(row.not_shown)} | "
                   f"{second_look_of(row, looked)} |")
    return out


def markdown(rec: ReadingsRecord, listing_lines: list[int], entries: list[int], command: str,
             looked: dict[str, int] | None = None) -> str:
    """docs/READINGS.md: the run, the summary (entries x kind), the deviations' table, every entry's readings;
    *looked*: readings.second_looks of basic/RECONSTRUCTION.md."""
    out = ["# Every reading tested", "",
           "Measured by `%s` (`harness/program/runs/readings.py`), the record `docs/data/readings.json`; this page and each "
           "entry's `- Consequence:` in `basic/RECONSTRUCTION.md` are written from the record by `--write-docs` "
           "(`cribbage-zx readings --from-record --write-docs` for a stored one). Do not edit." % command,
           "", *_INTRO, *_the_run(rec), *_counts_table(rec, entries), *_deviations(rec, listing_lines, looked or {}),
           "", "## Every reading that was played and changed something", ""]
    for c in rec.readings:
        if c.kind in ("stops", "play", "picture"):
            out.append(f"- **{c.line}** `{c.text}` — {c.what}: {_one(c)}"
                       + (f" (first at {c.moments[0]})" if c.moments else ""))
    return "\n".join(out) + "\n"
