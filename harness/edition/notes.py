"""What is written about the listing elsewhere, read for the edition: the reconstruction log, our
routine summaries, the deviations table and a run's coverage counts.

Each reader checks its input and fails with one line naming the file (and line
or key) rather than leaving something out of the edition silently.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import AbstractSet

from ..errors import InputError
from ..runtime.validate import JsonValue, expect, read_json, read_toml, field as checked
from ..program.judge.deviations import deviation_lines   # the edition's name for it
from ..program.runs.readings import second_looks
from ..program.runs.readings_record import Consequence, read_readings as read_record_of_readings

__all__ = ["OcrJudgement", "Routine", "Coverage", "Moment", "read_judgements", "judgement_entries",
           "read_routines", "read_meanings", "read_moments", "SystemVariables", "ForLoop", "Quote", "read_quotes", "quoted_parts", "quotes_in",
           "deviation_lines", "read_coverage", "inline_code", "read_readings", "ReadingView", "READING_VERDICTS"]


@dataclass
class OcrJudgement:
    """A judgement on the OCR (an entry of basic/RECONSTRUCTION.md), not a comparison's judgement."""
    line: int
    ocr: str = ""                    # the OCR rows, joined by ⏎ as the log quotes them
    reconstruction: str = ""
    kinds: list[str] = field(default_factory=list)
    evidence: str = ""
    file_line: int = 0               # the line of its `### <line>` heading in the log

    @property
    def ocr_rows(self) -> list[str]:
        return self.ocr.split("\u23ce")


_HEADING = re.compile(r"^###\s+(\d+)\s*$")
_CODE_SPAN = re.compile(r"^`(.*)`\s*$")
_FIELD = re.compile(r"^- (OCR|Reconstruction|Kind|Evidence): ?(.*)$")
_REQUIRED = (("OCR", "ocr"), ("Reconstruction", "reconstruction"), ("Kind", "kinds"), ("Evidence", "evidence"))


def judgement_entries(path: Path) -> tuple[dict[int, OcrJudgement], list[str]]:
    """The `### <line>` entries of basic/RECONSTRUCTION.md (its 'Format of an entry') and every problem
    of form found, each 'FILE:LINE: what is wrong', for tools/ocr_diff.py, which reports them all.

    The one parser of the log; `read_judgements` is it for the edition, refusing the first problem."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{path}: {exc.strerror}") from None
    out: dict[int, OcrJudgement] = {}
    problems: list[str] = []
    current: OcrJudgement | None = None
    for k, line in enumerate(text.splitlines(), 1):
        m = _HEADING.match(line)
        if m:
            number = int(m.group(1))
            if number in out:
                problems.append(f"{path}:{k}: a second entry for line {number}")
            current = out[number] = OcrJudgement(number, file_line=k)
            continue
        if line.startswith(("# ", "## ")):
            current = None
            continue
        m = _FIELD.match(line)
        if current is None or not m:
            continue
        key, value = m.groups()
        if key in ("OCR", "Reconstruction"):
            span = _CODE_SPAN.match(value)
            if not span:
                problems.append(f"{path}:{k}: {key} of line {current.line} must be one code span")
                continue
            setattr(current, "ocr" if key == "OCR" else "reconstruction", span.group(1))
        elif key == "Kind":
            current.kinds = [x.strip() for x in value.split(",") if x.strip()]
        else:
            current.evidence = value
    for j in out.values():
        lacking = [name for name, attr in _REQUIRED if not getattr(j, attr)]
        if lacking:
            problems.append(f"{path}:{j.file_line}: the entry for line {j.line} lacks {', '.join(lacking)}")
    return out, problems


#: the verdicts of `cribbage-zx readings` as the edition words them (harness/program/runs/readings.py's KINDS)
READING_VERDICTS = {"stops": "the program stops", "play": "the play differs", "picture": "the picture differs",
                    "identical": "identical in its games", "untested": "untested", "stores-alike": "stored alike",
                    "rom-rejects": "the ROM rejects it", "not-tokenised": "does not tokenise"}


def looked_again(path: Path) -> set[str]:
    """The readings basic/RECONSTRUCTION.md has taken a second look at (its `- Second look:` lines)."""
    try:
        return set(second_looks(Path(path).read_text(encoding="utf-8")))
    except OSError as exc:
        raise InputError(f"{path}: {exc.strerror}") from None


@dataclass(frozen=True)
class ReadingView:
    """One reading of docs/data/readings.json as the listing shows it beside its line: what it changes (its
    Consequence) in the edition's words."""
    consequence: Consequence
    verdict: str                     # READING_VERDICTS' words for its kind
    vanish_playing: list[str]        # deviations that vanish while the program plays on (a second look)
    vanish_stops: list[str]          # ... and those that vanish only because the program stops
    looked: bool                     # basic/RECONSTRUCTION.md has looked at the reading again



def read_readings(path: Path, looked: AbstractSet[str] = frozenset()) -> dict[int, list[ReadingView]]:
    """docs/data/readings.json (written by `cribbage-zx readings`, read by its one reader): line -> what each
    of its readings changes; *looked*: the readings basic/RECONSTRUCTION.md has looked at again (looked_again)."""
    out: dict[int, list[ReadingView]] = {}
    for c in read_record_of_readings(path).readings:
        if c.kind not in READING_VERDICTS:
            raise InputError(f"{path}: reading {c.id}: unknown verdict {c.kind!r}")
        playing = c.playing()
        out.setdefault(c.line, []).append(ReadingView(c, READING_VERDICTS[c.kind], playing,
                                                      [d for d in c.vanish if d not in playing], c.id in looked))
    return out


def read_judgements(path: Path) -> dict[int, OcrJudgement]:
    """The entries of basic/RECONSTRUCTION.md; an InputError names the first problem (FILE:LINE)."""
    out, problems = judgement_entries(path)
    if problems:
        raise InputError(problems[0])
    return out


def inline_code(text: str) -> list[tuple[bool, str]]:
    """Split Markdown text on backticks: [(is_code, text), ...] for the templates to render."""
    parts = text.split("`")
    return [(i % 2 == 1, p) for i, p in enumerate(parts) if p]


@dataclass
class Routine:
    line: int
    title: str
    summary: str
    inputs: str
    outputs: str
    end: int | None = None          # the last line of the routine (set against the listing)
    header: str | None = None       # the REM text of its first line, if it opens with one
    header_english: str | None = None   # that REM's English (basic/translation.tsv)

    def holds(self, line: int) -> bool:
        """Whether *line* is one of the routine's (its end once set against the listing, else its first)."""
        return self.line <= line <= (self.end if self.end is not None else self.line)


@dataclass(frozen=True)
class Section:
    title: str
    routines: tuple[int, ...]             # the first lines of its routines


@dataclass
class Routines:
    routines: list[Routine]
    differences: dict[str, list[int]]     # difference kind -> the lines that compute it
    sections: list[Section] = field(default_factory=list)


def read_routines(path: Path) -> Routines:
    """basic/subroutines.toml: the routines (each its first line, title, summary, inputs and outputs), the lines
    that compute each kind of difference, and the sections the routines are grouped in."""
    data = read_toml(path)
    routines = []
    for i, entry in enumerate(data.get("routine", [])):
        missing = [k for k in ("line", "title", "summary", "inputs", "outputs") if k not in entry]
        if missing:
            raise InputError(f"{path}: routine #{i + 1} ({entry.get('line', '?')}) lacks {', '.join(missing)}")
        at = f"{path}: routine #{i + 1}"
        routines.append(Routine(checked(entry, "line", int, at), checked(entry, "title", str, at),
                                checked(entry, "summary", str, at), checked(entry, "inputs", str, at),
                                checked(entry, "outputs", str, at)))
    numbers = [r.line for r in routines]
    if numbers != sorted(set(numbers)):
        raise InputError(f"{path}: routine lines must increase without repeats: {numbers}")
    differences = {str(k): [int(n) for n in v] for k, v in data.get("differences", {}).items()}
    sections = [_section(entry, f"{path}: section #{i + 1}") for i, entry in enumerate(data.get("section", []))]
    placed: dict[int, str] = {}
    for section in sections:
        for line in section.routines:
            if line not in numbers:
                raise InputError(f"{path}: section {section.title!r} names {line}, which starts no routine")
            if line in placed:
                raise InputError(f"{path}: routine {line} is in sections {placed[line]!r} and {section.title!r}")
            placed[line] = section.title
    if sections and set(placed) != set(numbers):
        unplaced = sorted(set(numbers) - set(placed))
        raise InputError(f"{path}: routines in no section: {', '.join(map(str, unplaced))}")
    return Routines(routines, differences, sections)


def _section(entry: dict[str, object], where: str) -> Section:
    """A `[[section]]` of basic/subroutines.toml: its title and the first lines of its routines."""
    if "title" not in entry or "routines" not in entry:
        raise InputError(f"{where} lacks title or routines")
    lines: list[object] = checked(entry, "routines", list, where)
    return Section(checked(entry, "title", str, where),
                   tuple(expect(n, int, f"{where}.routines[{k}]") for k, n in enumerate(lines)))


def read_meanings(path: Path) -> dict[str, str]:
    """basic/variables.toml: each variable's name -> what it means."""
    data = read_toml(path)
    for name, meaning in data.items():
        if not isinstance(meaning, str) or not meaning.strip():
            raise InputError(f"{path}: {name!r} must be a non-empty string, the variable's meaning")
    return dict(data)


@dataclass(frozen=True)
class SystemVariables:
    """The system variables that map the 48K's memory at a moment (their names in the ZX Spectrum manual:
    PROG, VARS, E_LINE, STKEND, RAMTOP, UDG and CHARS)."""
    prog: int
    vars: int
    e_line: int
    stkend: int
    ramtop: int
    udg: int
    chars: int | None = None


#: the system variables a moment must have for its map of memory, in SystemVariables' order
MAP_NAMES = ("PROG", "VARS", "E_LINE", "STKEND", "RAMTOP", "UDG")


@dataclass(frozen=True)
class ForLoop:
    """A FOR loop's control variable at a moment (tools/write_variable_values.py's {"for", "to", "step",
    "line"}): its value, its limit, its step and the line the loop goes back to."""
    value: int | float
    limit: int | float
    step: int | float
    line: int


@dataclass(frozen=True)
class Moment:
    id: str
    what: str
    line: int
    values: dict[str, JsonValue | ForLoop]   # variable name -> value as tools/write_variable_values.py wrote it
    system: SystemVariables | None = None    # None: the moment lacks one of MAP_NAMES (no map of memory)
    places: dict[str, tuple[int, int]] = field(default_factory=dict)   # variable name -> (address, bytes)


def read_moments(path: Path) -> list[Moment]:
    """basic/variable_values.json: the variables at named moments of a game."""
    data: dict[str, object] = expect(read_json(path, InputError), dict, str(path))
    moments: list[object] = checked(data, "moments", list, str(path))
    return [_moment(m, f"{path}: moments[{i}]") for i, m in enumerate(moments)]


def _moment(found: object, where: str) -> Moment:
    """One moment of basic/variable_values.json: its values, system variables and the variables' places."""
    m: dict[str, object] = expect(found, dict, where)
    areas: dict[str, object] = checked(m, "areas", dict, where, {})
    addresses = {str(k): expect(v, int, f"{where}.areas.{_key(k)}") for k, v in areas.items()}
    known = [a for name in MAP_NAMES if isinstance(a := addresses.get(name), int)]
    system = None
    if len(known) == len(MAP_NAMES):
        prog, vars_, e_line, stkend, ramtop, udg = known
        system = SystemVariables(prog, vars_, e_line, stkend, ramtop, udg, addresses.get("CHARS"))
    places: dict[str, object] = checked(m, "places", dict, where, {})
    values: dict[str, object] = checked(m, "values", dict, where)
    return Moment(checked(m, "id", str, where), checked(m, "what", str, where), checked(m, "line", int, where),
                  {str(k): _value(v, f"{where}.values.{_key(k)}") for k, v in values.items()}, system,
                  {str(k): _place(v, f"{where}.places.{_key(k)}") for k, v in places.items()})


def _value(found: object, where: str) -> JsonValue | ForLoop:
    """A variable's value: a number, a string's codes, an array's values (nested lists), or a FOR loop's."""
    if not isinstance(found, dict):
        value: JsonValue = expect(found, (int, float, str, list, type(None)), where)
        return value
    number = (int, float)
    return ForLoop(checked(found, "for", number, where), checked(found, "to", number, where),
                   checked(found, "step", number, where), checked(found, "line", int, where))


def _place(found: object, where: str) -> tuple[int, int]:
    """A variable's place: [its first byte's address, its bytes]."""
    pair: list[object] = expect(found, list, where)
    if len(pair) != 2:
        raise InputError(f"{where}: expected [address, bytes], found {len(pair)} numbers")
    return expect(pair[0], int, f"{where}[0]"), expect(pair[1], int, f"{where}[1]")


@dataclass(frozen=True)
class Quote:
    as_read: str                 # the Russian as the OCR reads it
    corrected: str | None        # the same with the OCR's misread letters put right (None: nothing to put right)
    english: str


QUOTED = re.compile(r"«(.*?)»(?!»)")


def read_quotes(path: Path) -> dict[str, Quote]:
    """basic/quotes.toml: each quoted Russian text -> its correction and English."""
    data = read_toml(path)
    out: dict[str, Quote] = {}
    for i, entry in enumerate(data.get("quote", [])):
        if not entry.get("as_read") or not entry.get("english"):
            raise InputError(f"{path}: quote #{i + 1} lacks as_read or english")
        at = f"{path}: quote #{i + 1}"
        quote = Quote(checked(entry, "as_read", str, at), checked(entry, "corrected", str, at, None),
                      checked(entry, "english", str, at))
        if quote.as_read in out:
            raise InputError(f"{path}: quote #{i + 1} is given twice: {quote.as_read!r}")
        if quote.corrected == quote.as_read:
            raise InputError(f"{path}: quote #{i + 1}: corrected is the same as as_read (leave it out)")
        out[quote.as_read] = quote
    return out


def quoted_parts(text: str, quotes: dict[str, Quote]) -> list[tuple[bool, str, Quote | None]]:
    """*text* split into plain runs and its «quotes»: (is_quote, text, the quote's entry or None), in order."""
    out: list[tuple[bool, str, Quote | None]] = []
    pos = 0
    for m in QUOTED.finditer(text):
        if m.start() > pos:
            out.append((False, text[pos:m.start()], None))
        out.append((True, m.group(1), quotes.get(m.group(1))))
        pos = m.end()
    if pos < len(text):
        out.append((False, text[pos:], None))
    return out


def quotes_in(text: str) -> list[str]:
    return QUOTED.findall(text or "")




@dataclass
class Coverage:
    source: str
    statements_run: int
    statements_total: int
    ifs_both: int
    ifs_total: int
    counts: dict[str, int]
    never_run: set[str]
    ifs: dict[str, tuple[int, int]]
    explained_by: dict[str, str] = field(default_factory=dict)   # never-run item -> the note that explains it
    unexplained: list[str] = field(default_factory=list)         # never-run items no note explains

    @property
    def peak(self) -> int:
        return max(self.counts.values(), default=0)


def _key(key: str) -> str:
    """A key of a JSON object as an error line names it: as it is, or repr-quoted when it is not printable (a
    newline in a key must not break the one line)."""
    return key if key.isprintable() else repr(key)


def read_coverage(path: Path) -> Coverage | None:
    """The `coverage` of a regress report.json (or a bare coverage object); None if the file has none.

    Every field is checked: a coverage of the wrong form is a InputError naming the file and the field."""
    data = read_json(path, InputError)
    if not isinstance(data, dict):
        raise InputError(f"{path}: expected a regress report.json or a coverage object, found "
                         f"{type(data).__name__ if data is not None else 'null'}")
    cov, at = data.get("coverage"), f"{path}: coverage"
    if not (isinstance(cov, dict) and "counts" in cov):
        cov = data if "counts" in data else None
    if cov is None:
        return None                    # no statement counts (a sweep's "coverage" counts cases, not statements)

    def ints(key: str, default: int | None = None) -> int:
        value: int = checked(cov, key, int, at, **({} if default is None else {"default": default}), error=InputError)
        return value

    def pair(value: object, k: str) -> tuple[int, int]:
        v: list[object] = expect(value, list, f"{at}.ifs.{k}", InputError)
        if len(v) != 2:
            raise InputError(f"{at}.ifs.{k}: expected [times true, times false], found {len(v)} numbers")
        return (expect(v[0], int, f"{at}.ifs.{k}[0]", InputError), expect(v[1], int, f"{at}.ifs.{k}[1]", InputError))

    counts = checked(cov, "counts", dict, at, error=InputError)
    return Coverage(str(path), ints("statements_run"), ints("statements_total"), ints("ifs_both", 0),
                    ints("ifs_total", 0),
                    {k: expect(v, int, f"{at}.counts.{_key(k)}", InputError) for k, v in counts.items()},
                    {expect(v, str, f"{at}.never_run[{i}]", InputError)
                     for i, v in enumerate(checked(cov, "never_run", list, at, [], InputError))},
                    {k: pair(v, _key(k)) for k, v in checked(cov, "ifs", dict, at, {}, InputError).items()},
                    {k: expect(v, str, f"{at}.explained_by.{_key(k)}", InputError)
                     for k, v in checked(cov, "explained_by", dict, at, {}, InputError).items()},
                    [expect(v, str, f"{at}.unexplained[{i}]", InputError)
                     for i, v in enumerate(checked(cov, "unexplained", list, at, [], InputError))])
