"""Prove that basic/cribbage.bas differs from the OCR'd magazine listing only by
known OCR confusions or by judgements logged in basic/RECONSTRUCTION.md.

    python -m tools.ocr_diff [--ocr basic/ocr/listing.txt] [--bas basic/cribbage.bas]
                             [--log basic/RECONSTRUCTION.md] [-v] [--line N]
    python -m tools.ocr_diff --excerpt-from SEED     (rewrites basic/ocr/listing.txt)

The OCR is kept in the project as basic/ocr/listing.txt: the rows of the
magazine scan (the seed text) that hold the listing, verbatim, under a
provenance header naming the seed file, its SHA-256 and the line range, and
the SHA-256 of the rows themselves (so an edit to the OCR is caught).
``--ocr`` also accepts the whole seed text.

Steps:

1. Extract the listing from the OCR text (from the row ``1 GO ТО 10`` up to
   ``КОММЕНТАРИЙ.``).  Rows that start with a number followed by a word are
   candidate line starts; numbers the OCR split (``24 00``, ``904 s``) give a
   second candidate.  The longest strictly increasing chain of candidates is
   the set of line starts; every other row is a continuation of the line above
   (the magazine printed 32 columns, so a long line spans several rows).
2. Align every OCR line with the .bas line of the same number by a weighted
   edit distance whose cheap operations are the OCR confusions in CONFUSIONS
   (data, one commented row per confusion).  Case and Cyrillic/Latin
   look-alikes are folded before the alignment.  Spaces outside strings are
   cosmetic (the ROM does not store them); spaces inside strings and REM text
   are not, and any difference there needs a judgement.
3. Everything the confusion table cannot explain must be covered by a
   judgement entry for that line in RECONSTRUCTION.md whose OCR and
   Reconstruction fields match the current OCR and .bas text exactly.
   Anything else is reported and the exit status is 1; so is a judgement that
   explains nothing any more (stale).
"""
from __future__ import annotations

import argparse
import functools
import re
import sys
import hashlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from harness.errors import InputError
from harness.runtime import atomic
from harness import resources
from harness.edition.notes import OcrJudgement, judgement_entries

DEFAULT_OCR = resources.data_path("basic/ocr/listing.txt")
DEFAULT_BAS = resources.LISTING
DEFAULT_LOG = resources.data_path("basic/RECONSTRUCTION.md")

ROW_BREAK = "\u00b6"     # marks where the OCR broke a BASIC line into rows
ROW_JOIN = "\u23ce"      # how multi-row OCR text is quoted in the log

# ---------------------------------------------------------------------------
# Normalisation: letters are compared upper case, and Cyrillic capitals that
# look like Latin ones are compared as the Latin letter ("skeleton").
# ---------------------------------------------------------------------------
LOOKALIKE = {
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O",
    "Р": "P", "С": "C", "Т": "T", "Х": "X", "У": "Y",
}


def skel(unit: str) -> str:
    if len(unit) != 1:          # UDG escape such as "\a": compared as itself
        return unit
    u = unit.upper()
    if len(u) != 1:
        u = unit
    return LOOKALIKE.get(u, u)


# ---------------------------------------------------------------------------
# The OCR confusion table.  (ocr, bas, class, where): ``ocr`` is what the OCR
# printed and ``bas`` what the listing had, both in skeleton form (upper case,
# Cyrillic look-alikes as Latin); ``where`` is "code" (outside strings and REM
# text), "text" (inside a string or REM text) or "any".
# ---------------------------------------------------------------------------
CONFUSIONS: list[tuple[str, str, str, str]] = [
    # digit one, capital I and lower-case l print alike (the magazine even
    # adds hints such as REM (FL=0)); lower-case l is "L" after case folding.
    ("1", "I", "1/I/l", "any"),
    ("I", "1", "1/I/l", "any"),
    ("L", "1", "1/I/l", "any"),        # LET Y-l  ->  LET Y=1
    ("L", "I", "1/I/l", "any"),        # FOR I-ZX / YolNT Y -> Y<>INT Y
    ("!", "I", "1/I/l", "any"),        # ;!$ -> ;I$
    # the loop variable J comes out as the digit 3 (FOR 3=1+1 TO 6)
    ("3", "J", "3/J", "any"),
    # zero and the letter O (both cases; Cyrillic О folds to O)
    ("0", "O", "0/O", "any"),          # LET 0$ -> LET O$
    ("O", "0", "0/O", "any"),          # LET DONE-O -> DONE=0
    ("B", "8", "B/8", "any"),          # GO SUB В (Cyrillic Ve) -> GO SUB 8
    ("8", "B", "B/8", "any"),
    ("Z", "2", "Z/2", "any"),
    ("2", "Z", "Z/2", "any"),
    ("S", "5", "S/5", "any"),
    ("5", "S", "S/5", "any"),
    # the dollar sign of string variables
    ("S", "$", "$", "any"),            # M S -> M$, INKEYS -> INKEY$
    ("T", "$", "$", "any"),            # Ht(l) -> H$(1), Mt -> M$
    ("»", "$", "$", "any"),            # X» -> X$
    ("I", "$", "$", "any"),            # RI(C(X)) -> R$(C(X))
    ("*", "$", "$", "any"),            # м* -> M$
    # the equals sign
    ("-", "=", "-/=", "any"),          # LET X-1 -> LET X=1
    ("—", "=", "-/=", "any"),          # em dash: LET P—P+2
    ("-=", "=", "-/=", "any"),         # LET C-=5
    ("=-", "=", "-/=", "any"),
    ("«", "=", "«/=", "any"),          # SUM-I(X)«15
    ("«=", "=", "«/=", "any"),         # FOR X«=1
    ("»", "=", "»/=", "any"),          # H$(5)»H$(1)
    ("^", "=", "^/=", "any"),          # LET NOB^0
    # multiplication and addition signs
    ("»", "*", "*/»/«/+", "any"),      # (X>9)»10
    ("«", "*", "*/»/«/+", "any"),      # X«4-4
    ("*", "+", "*/»/«/+", "any"),      # SUM-SUM*I(Y) -> SUM=SUM+I(Y)
    # the rows of asterisks in REM headers come out as dots and bullets
    (".", "*", "rem-stars", "text"),
    ("•", "*", "rem-stars", "text"),
    ("♦", "*", "rem-stars", "text"),
    # statement and print separators
    (".", ":", "separator", "code"),   # LET S=...F5. LET CR=0
    (",", ":", "separator", "code"),
    (";", ":", "separator", "code"),   # POKE 23658,8; INPUT
    ("'", ":", "separator", "code"),   # DIM H(8)' DIM
    ("-", ":", "separator", "code"),   # LET P=0- LET F=0
    ("J", ":", "separator", "code"),   # " ХОД! "j RETURN
    (".", ";", "separator", "code"),   # PRINT AT 3,0. OVER 1
    (",", ";", "separator", "code"),   # PRINT TAB 25, PAPER 6
    (":", ";", "separator", "code"),   # PRINT AT 6,9:" "
    ("J", ";", "separator", "code"),
    (".", ",", "separator", "code"),   # AT 0.0 -> AT 0,0
    # a colon (or semicolon) lost between two statements or print items
    ("", ":", "lost-separator", "code"),
    ("", ";", "lost-separator", "code"),
    # the not-equal token <> printed as one round glyph
    ("O", "<>", "<>", "code"),         # Z<>0 as ZOO, HGO<>X as HGOOX
    # the quotation mark
    ("II", '"', "quote", "any"),       # ii / II
    ("■", '"', "quote", "any"),
    ("■■", '"', "quote", "any"),
    ("•I", '"', "quote", "any"),
    (",,", '"', "quote", "any"),       # low double comma
    ("»", '"', "quote", "any"),        # INKEY$<>"»
    ("И", '"', "quote", "any"),        # a lone closing quote read as и
    # the apostrophe (PRINT newline) printed as 1 or a blob
    ("1", "'", "apostrophe", "code"),
    ("■", "'", "apostrophe", "code"),
    ("•", "'", "apostrophe", "code"),
    # Y printed as the yen sign (Cyrillic У folds to Y already)
    ("¥", "Y", "Y", "any"),
    # stray marks of the scan
    ("■", "", "noise", "any"),
    # Cyrillic text: Б read as В (the article itself writes КРИВ for КРИБ),
    # З read as the digit 3 and dots printed as low lines
    ("B", "Б", "Б/В", "text"),
    ("3", "З", "З/3", "text"),
    ("_", ".", "dots", "text"),
]

# classes that are not differences at all after normalisation
NEUTRAL = {"case", "look-alike", "space-outside-string", "row-break"}
# classes that are not confusions: a judgement must cover them
NEEDS_JUDGEMENT = {"unexplained", "string-space"}
# judgement kinds that document a line without explaining a difference
NOTE_KINDS = {"logic-preserved", "note"}

COST_PAIR = 1.0
COST_SPACE = 0.1
COST_STRING_SPACE = 5.0
COST_FALLBACK = 10.0


# ---------------------------------------------------------------------------
# OCR extraction
# ---------------------------------------------------------------------------
_DIGITISH = {"s": "5", "S": "5", "o": "0", "O": "0", "о": "0", "О": "0",
             "l": "1", "I": "1", "з": "3", "З": "3"}
_CAND = re.compile(r"^(\d{1,4})(?: ([0-9sSoOоОlIзЗ]{1,3}))? +(?=[^\W\d_])")


@dataclass
class OcrLine:
    number: int
    rows: list[str]                    # verbatim OCR rows
    first_row_index: int               # index in the seed's listing rows
    body: str = ""                     # text after the number, rows joined
    split_number: str | None = None    # e.g. "24 00" when the OCR split it

    @property
    def verbatim(self) -> str:
        return ROW_JOIN.join(self.rows)


@dataclass
class Extraction:
    lines: dict[int, OcrLine]
    continuation_notes: list[str] = field(default_factory=list)
    unplaced: list[str] = field(default_factory=list)


def _listing_span(rows: list[str]) -> tuple[int, int]:
    """[start, end) of the listing rows: from ``1 GO ТО 10`` to the row before ``КОММЕНТАРИЙ``."""
    start = None
    for i, row in enumerate(rows):
        s = row.strip()
        if re.match(r"^1\s+GO\s*[TТ][OО]\s+10\b", s, re.I):
            start = i
            break
    if start is None:
        raise ValueError("listing start (1 GO TO 10) not found")
    end = len(rows)
    for i in range(start, len(rows)):
        if rows[i].strip().startswith("КОММЕНТАРИЙ"):
            end = i
            break
    return start, end


def listing_rows(seed_text: str) -> list[str]:
    rows = seed_text.splitlines()
    start, end = _listing_span(rows)
    return [r.rstrip() for r in rows[start:end]]


# ---------------------------------------------------------------------------
# basic/ocr/listing.txt: the listing rows of the scan with their provenance
# ---------------------------------------------------------------------------
SCAN_MARK = "--- the scan follows ---"
PROVENANCE_FIELDS = ("source", "source-sha256", "lines", "body-sha256")


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


LISTING_NOTE = ("The magazine listing of «КРИБЕДЖ» as the OCR read it: the rows of the scan from\n"
                "\"1 GO ТО 10\" to the row before \"КОММЕНТАРИЙ.\", verbatim (OCR errors and all).\n"
                "tools/ocr_diff.py checks basic/cribbage.bas against it.")


def excerpt(seed_text: str, seed_name: str) -> str:
    """basic/ocr/listing.txt for a seed: the listing rows verbatim under a provenance header (the seed's
    name and SHA-256, the line range, the rows' own SHA-256)."""
    rows = seed_text.splitlines(keepends=True)
    start, end = _listing_span([r.rstrip("\n") for r in rows])
    body = "".join(r if r.endswith("\n") else r + "\n" for r in rows[start:end])
    comment = "".join("; %s\n" % line for line in LISTING_NOTE.splitlines())
    return (comment + "; Written by `python tools/ocr_diff.py --excerpt-from SEED`; refused if the rows\n"
            "; no longer match body-sha256.\n"
            f"source: {seed_name}\n"
            f"source-sha256: {_sha256(seed_text)}\n"
            f"lines: {start + 1}-{end}\n"
            f"body-sha256: {_sha256(body)}\n"
            f"{SCAN_MARK}\n" + body)


def read_ocr(path: Path) -> str:
    """The OCR text to extract from: the rows of a listing file (checked against its header), or a whole seed."""
    text = Path(path).read_text(encoding="utf-8")
    head, mark, body = text.partition("\n" + SCAN_MARK + "\n")
    if not mark:
        return text                      # a whole seed text, no provenance header
    fields: dict[str, str] = {}
    for k, line in enumerate(head.splitlines(), 1):
        if line.startswith(";") or not line.strip():
            continue
        name, sep, value = line.partition(":")
        if not sep or name not in PROVENANCE_FIELDS:
            raise ValueError("%s:%d: expected one of %s, got %r" % (path, k, ", ".join(PROVENANCE_FIELDS), line))
        fields[name] = value.strip()
    missing = [f for f in PROVENANCE_FIELDS if f not in fields]
    if missing:
        raise ValueError("%s: the provenance header lacks %s" % (path, ", ".join(missing)))
    span = re.fullmatch(r"(\d+)-(\d+)", fields["lines"])
    if not span or int(span.group(2)) - int(span.group(1)) + 1 != len(body.splitlines()):
        raise ValueError("%s: the header says lines %s of %s, the file holds %d rows"
                         % (path, fields["lines"], fields["source"], len(body.splitlines())))
    if _sha256(body) != fields["body-sha256"]:
        raise ValueError("%s: the scan rows do not match their body-sha256 (edited by hand?); "
                         "rewrite it with --excerpt-from SEED" % path)
    return body


def _candidates(row: str) -> list[tuple[int, str, str | None]]:
    """(number, body, split-text) alternatives for a row that may start a line."""
    m = _CAND.match(row)
    if not m:
        return []
    out = []
    n1, g2 = m.group(1), m.group(2)
    rest = row[m.end():]
    if g2:
        joined = n1 + "".join(_DIGITISH.get(c, c) for c in g2)
        if len(joined) <= 4 and joined.isdigit():
            out.append((int(joined), rest, n1 + " " + g2))
        # the first number alone, if what follows it is a word
        body = row[len(n1):].lstrip()
        if re.match(r"[^\W\d_]", body):
            out.append((int(n1), body, None))
    else:
        out.append((int(n1), rest, None))
    return [c for c in out if 1 <= c[0] <= 9999]


def extract(seed_text: str) -> Extraction:
    rows = listing_rows(seed_text)
    cands = []      # (row index, number, body, split)
    for i, row in enumerate(rows):
        for n, body, split in _candidates(row.strip()):
            cands.append((i, n, body, split))
    # longest chain, strictly increasing in row and in number
    best = [1] * len(cands)
    prev = [-1] * len(cands)
    for k, (ri, n, _, split) in enumerate(cands):
        for j in range(k):
            rj, nj = cands[j][0], cands[j][1]
            if rj < ri and nj < n and best[j] + 1 > best[k]:
                best[k] = best[j] + 1
                prev[k] = j
    if not cands:
        return Extraction({}, unplaced=list(rows))
    k = max(range(len(cands)), key=lambda x: (best[x], -x))
    chain = []
    while k >= 0:
        chain.append(k)
        k = prev[k]
    chain.reverse()
    chosen = {cands[k][0]: cands[k] for k in chain}
    ex = Extraction({})
    current: OcrLine | None = None
    for i, row in enumerate(rows):
        if i in chosen:
            _, n, body, split = chosen[i]
            current = OcrLine(n, [row.strip()], i, body.strip(), split)
            ex.lines[n] = current
            continue
        if not row.strip():
            continue
        if current is None:
            ex.unplaced.append(row)
            continue
        if any(c[0] == i for c in cands):
            ex.continuation_notes.append(
                "row %r looks like a line start but breaks the line order: "
                "read as a continuation of line %d" % (row.strip(), current.number))
        current.rows.append(row.strip())
        current.body += ROW_BREAK + row.strip()
    return ex


# ---------------------------------------------------------------------------
# .bas side
# ---------------------------------------------------------------------------
def read_bas(path: Path) -> dict[int, str]:
    out: dict[int, str] = {}
    for k, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        m = re.match(r"^(\d+) (.*)$", line)
        if not m:
            raise ValueError("%s:%d: not a numbered line: %r" % (path, k, line))
        out[int(m.group(1))] = m.group(2)
    return out


def bas_units(body: str) -> tuple[list[str], list[str]]:
    """Split a .bas body into units (a UDG escape is one unit) with contexts:
    'code', 'text' (inside a string or REM text) or 'quote'."""
    units, ctx = [], []
    i, in_str, in_rem = 0, False, False
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            m = re.match(r"\\(\{\d+\}|[a-uA-U\\])", body[i:])
            unit = m.group(0) if m else body[i:i + 2]
            units.append(unit)
            ctx.append("text")
            i += len(unit)
            continue
        if in_rem:
            units.append(ch)
            ctx.append("text")
        elif ch == '"':
            units.append(ch)
            ctx.append("quote")
            in_str = not in_str
        elif in_str:
            units.append(ch)
            ctx.append("text")
        else:
            units.append(ch)
            ctx.append("code")
            if body[i:i + 3] == "REM" and (i == 0 or not body[i - 1].isalnum()) \
                    and (i + 3 == len(body) or body[i + 3] == " "):
                units[-1:] = ["R", "E", "M"]
                ctx[-1:] = ["code"] * 3
                i += 3
                if i < len(body):          # the one separating space
                    units.append(" ")
                    ctx.append("code")
                    i += 1
                in_rem = True
                continue
        i += 1
    return units, ctx


# ---------------------------------------------------------------------------
# alignment
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Item:
    cls: str
    ocr: str
    bas: str
    pos: int            # index in the .bas units


_PAIRS_BY_FIRST: dict[str, list[tuple[str, str, str, str]]] = {}
_INSERTIONS: list[tuple[str, str, str, str]] = []
for _p in CONFUSIONS:
    if _p[0]:
        _PAIRS_BY_FIRST.setdefault(_p[0][0], []).append(_p)
    else:
        _INSERTIONS.append(_p)


def _where_ok(where: str, ctxs: list[str]) -> bool:
    if where == "any":
        return True
    if where == "text":
        return bool(ctxs) and all(c == "text" for c in ctxs)
    return all(c != "text" for c in ctxs)


def _gap_ctx(ctx: list[str], j: int) -> str:
    """Context of a position between bas units j-1 and j."""
    left = ctx[j - 1] if j > 0 else "code"
    right = ctx[j] if j < len(ctx) else "code"
    return "text" if "text" in (left, right) else "code"


@functools.lru_cache(maxsize=4096)
def align(ocr_body: str, bas_body: str) -> tuple[Item, ...]:
    o = list(ocr_body)
    b, ctx = bas_units(bas_body)
    os_ = [skel(u) for u in o]
    bs = [skel(u) for u in b]
    n, m = len(o), len(b)
    INF = float("inf")
    cost = [[INF] * (m + 1) for _ in range(n + 1)]
    back: list[list[tuple | None]] = [[None] * (m + 1) for _ in range(n + 1)]
    cost[0][0] = 0.0

    def relax(i, j, i2, j2, c, cls):
        v = cost[i][j] + c
        if v < cost[i2][j2]:
            cost[i2][j2] = v
            back[i2][j2] = (i, j, cls)

    for i in range(n + 1):
        for j in range(m + 1):
            if cost[i][j] == INF:
                continue
            if i < n and j < m and os_[i] == bs[j] and o[i] != ROW_BREAK:
                if o[i] == b[j]:
                    cls = None
                elif o[i].upper() == b[j].upper():
                    cls = "case"
                else:
                    cls = "look-alike"
                relax(i, j, i + 1, j + 1, 0.0, cls)
            if i < n and o[i] == ROW_BREAK:
                relax(i, j, i + 1, j, 0.0, "row-break")
                if j < m and b[j] == " ":
                    relax(i, j, i + 1, j + 1, COST_SPACE, "row-break")
            if i < n and o[i] == " ":
                if _gap_ctx(ctx, j) == "code":
                    relax(i, j, i + 1, j, COST_SPACE, "space-outside-string")
                else:
                    relax(i, j, i + 1, j, COST_STRING_SPACE, "string-space")
            if j < m and b[j] == " ":
                if ctx[j] == "text":
                    relax(i, j, i, j + 1, COST_STRING_SPACE, "string-space")
                else:
                    relax(i, j, i, j + 1, COST_SPACE, "space-outside-string")
            if i < n:
                for po, pb, cls, where in _PAIRS_BY_FIRST.get(os_[i], ()):
                    lo, lb = len(po), len(pb)
                    if "".join(os_[i:i + lo]) != po or i + lo > n:
                        continue
                    if lb and (j + lb > m or "".join(bs[j:j + lb]) != pb):
                        continue
                    cx = ctx[j:j + lb] if lb else [_gap_ctx(ctx, j)]
                    if _where_ok(where, cx):
                        relax(i, j, i + lo, j + lb, COST_PAIR, cls)
            for po, pb, cls, where in _INSERTIONS:
                lb = len(pb)
                if j + lb <= m and "".join(bs[j:j + lb]) == pb \
                        and _where_ok(where, ctx[j:j + lb]):
                    relax(i, j, i, j + lb, COST_PAIR, cls)
            if i < n and j < m:
                relax(i, j, i + 1, j + 1, COST_FALLBACK, "unexplained")
            if i < n:
                relax(i, j, i + 1, j, COST_FALLBACK, "unexplained")
            if j < m:
                relax(i, j, i, j + 1, COST_FALLBACK, "unexplained")
    items: list[Item] = []
    i, j = n, m
    while (i, j) != (0, 0):
        pi, pj, cls = back[i][j]
        if cls is not None:
            items.append(Item(cls, "".join(o[pi:i]), "".join(b[pj:j]), pj))
        i, j = pi, pj
    items.reverse()
    return tuple(items)


def fragments(items: list[Item]) -> list[tuple[str, str]]:
    """Group neighbouring items that need a judgement into (ocr, bas) pieces."""
    out: list[tuple[str, str]] = []
    last_end = None
    for it in items:
        if it.cls not in NEEDS_JUDGEMENT:
            continue
        if out and last_end is not None and it.pos <= last_end:
            o, b = out[-1]
            out[-1] = (o + it.ocr, b + it.bas)
        else:
            out.append((it.ocr, it.bas))
        last_end = it.pos + max(1, len(it.bas))
    return out


# ---------------------------------------------------------------------------
# the report
# ---------------------------------------------------------------------------
@dataclass
class Report:
    lines: int = 0
    identical: int = 0
    classes: Counter = field(default_factory=Counter)
    kinds: Counter = field(default_factory=Counter)
    judgements_used: int = 0
    unexplained: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)
    structure: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    per_line: dict[int, list[Item]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not (self.unexplained or self.stale or self.structure)


def compare(seed_text: str, bas: dict[int, str],
            log: dict[int, OcrJudgement]) -> Report:
    ex = extract(seed_text)
    rep = Report()
    rep.notes.extend(ex.continuation_notes)
    for row in ex.unplaced:
        rep.structure.append("OCR row not placed in any line: %r" % row)
    for n in sorted(set(ex.lines) - set(bas)):
        rep.structure.append("line %d is in the OCR but not in the .bas" % n)
    for n in sorted(set(bas) - set(ex.lines)):
        rep.structure.append("line %d is in the .bas but not in the OCR" % n)
    numbers = list(bas)
    if numbers != sorted(numbers) or len(set(numbers)) != len(numbers):
        rep.structure.append("the .bas line numbers are not strictly increasing")
    for n in sorted(set(ex.lines) & set(bas)):
        ocr_line = ex.lines[n]
        items = list(align(ocr_line.body, bas[n]))     # cached: one line's alignment is the same each run
        rep.per_line[n] = items
        rep.lines += 1
        for it in items:
            rep.classes[it.cls] += 1
        if all(it.cls in NEUTRAL for it in items):
            rep.identical += 1
        frags = fragments(items)
        j = log.get(n)
        valid = (j is not None and j.ocr == ocr_line.verbatim
                 and j.reconstruction == "%d %s" % (n, bas[n]))
        if frags:
            if valid:
                rep.judgements_used += 1
            else:
                why = ""
                if j is not None:
                    why = " (the judgement for this line is stale: its %s does not match)" % (
                        "OCR" if j.ocr != ocr_line.verbatim else "Reconstruction")
                rep.unexplained.append(
                    "line %d%s\n    OCR: %s\n    bas: %d %s\n    unexplained: %s" % (
                        n, why, ocr_line.verbatim, n, bas[n],
                        "; ".join("%r -> %r" % f for f in frags)))
        if j is not None:
            if not valid:
                if not frags:
                    rep.stale.append("judgement %d does not match the current OCR/.bas text" % n)
            elif not frags and not set(j.kinds) <= NOTE_KINDS:
                rep.stale.append("judgement %d (%s) explains no difference" % (
                    n, ", ".join(j.kinds)))
            if valid and (frags or set(j.kinds) <= NOTE_KINDS):
                for kd in j.kinds:
                    rep.kinds[kd] += 1
    for n in sorted(set(log) - set(bas)):
        rep.stale.append("judgement %d is for a line that does not exist" % n)
    return rep


def render(rep: Report, ex_lines: int, verbose_lines: set[int] | None = None) -> str:
    out = []
    if verbose_lines:
        for n in sorted(verbose_lines):
            for it in rep.per_line.get(n, []):
                out.append("%5d  %-22s %r -> %r" % (n, it.cls, it.ocr, it.bas))
    for s in rep.notes:
        out.append("note: " + s)
    for s in rep.structure:
        out.append("ERROR: " + s)
    for s in rep.unexplained:
        out.append("UNEXPLAINED: " + s)
    for s in rep.stale:
        out.append("STALE: " + s)
    out.append("OCR lines extracted: %d" % ex_lines)
    out.append("lines compared: %d" % rep.lines)
    out.append("lines identical after normalisation: %d" % rep.identical)
    out.append("differences by class:")
    for cls, k in sorted(rep.classes.items(), key=lambda x: (-x[1], x[0])):
        out.append("  %-22s %5d" % (cls, k))
    out.append("judgements used: %d" % rep.judgements_used)
    out.append("judgements by kind:")
    for kd, k in sorted(rep.kinds.items(), key=lambda x: (-x[1], x[0])):
        out.append("  %-22s %5d" % (kd, k))
    out.append("unexplained lines: %d" % len(rep.unexplained))
    out.append("stale judgements: %d" % len(rep.stale))
    out.append("RESULT: %s" % ("OK" if rep.ok else "FAIL"))
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ocr", type=Path, default=DEFAULT_OCR)
    ap.add_argument("--bas", type=Path, default=DEFAULT_BAS)
    ap.add_argument("--log", type=Path, default=DEFAULT_LOG)
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="print every classified difference")
    ap.add_argument("--line", type=int, action="append",
                    help="print the classified differences of this line")
    ap.add_argument("--excerpt-from", type=Path, metavar="SEED",
                    help="write the listing rows of the seed text SEED, with provenance, to --ocr and stop")
    args = ap.parse_args(argv)
    try:
        if args.excerpt_from:
            text = excerpt(args.excerpt_from.read_text(encoding="utf-8"), args.excerpt_from.name)
            atomic.write_text(args.ocr, text)
            print("%s: %d rows of %s" % (args.ocr, len(read_ocr(args.ocr).splitlines()), args.excerpt_from))
            return 0
        seed = read_ocr(args.ocr)
        log, problems = judgement_entries(args.log) if args.log.exists() else ({}, [])
    except (OSError, ValueError, InputError) as exc:
        print("ocr_diff: %s" % exc, file=sys.stderr)
        return 2
    bas = read_bas(args.bas)
    rep = compare(seed, bas, log)
    rep.structure.extend(problems)
    lines = set(rep.per_line) if args.verbose else set(args.line or [])
    print(render(rep, len(extract(seed).lines), lines))
    return 0 if rep.ok else 1


if __name__ == "__main__":
    sys.exit(main())
