"""Write basic/readings.toml: the other readings the scan admits, for every judgement entry of
basic/RECONSTRUCTION.md and every line where tools/ocr_diff.py applies an OCR confusion.

    python -m tools.write_readings [--check]

A reading is the whole line with one choice made the other way:

- ``ocr``: the line as the OCR shows it (case and Cyrillic look-alikes folded, code in upper case,
  an OCR row break read as one space), where that differs from every single-site reading;
- ``fragment``: one difference the confusion table cannot explain (the part an entry argues) put
  back as the OCR shows it;
- ``confusion``: at one place where the table applies a confusion (the OCR's ``o`` read as ``b``),
  the OCR's own character (``literal``) or each other ``b'`` the table gives for that ``o`` there;
- ``evidence``: an alternative an entry's own evidence names (another padding, another fix), written
  by hand in the ``[[evidence]]`` tables of the file, which this tool keeps as they are.

Generated readings are ``[[reading]]`` tables; ``--check`` exits 1 when the file is not what this
tool would write (tests/test_readings.py runs the same check).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tomllib
from pathlib import Path

from tools import ocr_diff as od
from harness.edition.notes import judgement_entries
from harness.runtime import atomic
from harness import resources

DEFAULT_OUT = resources.data_path("basic/readings.toml")

HEADER = """\
# The other readings the scan admits, line by line: what `cribbage-zx readings` builds a variant tape of.
# Written by `python -m tools.write_readings` from basic/ocr/listing.txt, basic/cribbage.bas,
# basic/RECONSTRUCTION.md and the confusion table of tools/ocr_diff.py; tests/test_readings.py checks it
# is current. Do not edit the [[reading]] tables by hand: the [[evidence]] tables (an alternative an
# entry's evidence names) are kept by the tool as they are; add those by hand.
# id: the line and the first 8 hex digits of the SHA-256 of the variant's text (stable under reordering).
"""


def reading_id(line: int, text: str) -> str:
    return "%d.%s" % (line, hashlib.sha256(text.encode("utf-8")).hexdigest()[:8])


def _spans(items: list[od.Item], units: list[str]) -> list[tuple[od.Item, int, int]]:
    """Each item with the span [start, end) of .bas units it replaced."""
    out = []
    for it in items:
        k = 0
        while "".join(units[it.pos:it.pos + k]) != it.bas:
            k += 1
            if it.pos + k > len(units):
                raise ValueError("item %r does not match the .bas units at %d" % (it, it.pos))
        out.append((it, it.pos, it.pos + k))
    return out


def _as_read(ocr: str, where: str) -> str:
    """OCR text as a reading: a row break as one space; in code, upper case (the listing's convention)."""
    text = ocr.replace(od.ROW_BREAK, " ")
    return text.upper() if where == "code" else text


def _where(ctx: list[str], start: int, end: int) -> str:
    span = ctx[start:end] if end > start else [od._gap_ctx(ctx, start)]
    return "text" if any(c == "text" for c in span) else "code"


def _replace(units: list[str], edits: list[tuple[int, int, str]]) -> str:
    """The units with each [start, end) replaced by its text (edits do not overlap)."""
    out, at = [], 0
    for start, end, text in sorted(edits, key=lambda e: (e[0], e[1])):
        out.append("".join(units[at:start]))
        out.append(text)
        at = max(at, end)
    out.append("".join(units[at:]))
    return "".join(out)


def _show(text: str) -> str:
    return "`%s`" % text if text else "nothing"


def line_readings(number: int, ocr_body: str, bas_body: str) -> list[dict]:
    """The generated readings of one line (without the chosen one, each text once)."""
    units, ctx = od.bas_units(bas_body)
    items = od.align(ocr_body, bas_body)
    spans = _spans(items, units)
    out: dict[str, dict] = {}

    def add(source: str, what: str, edits: list[tuple[int, int, str]]) -> None:
        text = _replace(units, edits)
        if text != bas_body and text not in out:
            out[text] = {"line": number, "id": reading_id(number, text), "source": source, "what": what,
                         "text": text}

    literal_edits = []
    # the differences an entry argues, fragment by fragment (neighbouring items joined, as ocr_diff does)
    groups: list[list[tuple[od.Item, int, int]]] = []
    for it, start, end in spans:
        if it.cls not in od.NEEDS_JUDGEMENT:
            continue
        if groups and start <= groups[-1][-1][2] + (0 if groups[-1][-1][2] > groups[-1][-1][1] else 1):
            groups[-1].append((it, start, end))
        else:
            groups.append([(it, start, end)])
    for g in groups:
        start, end = g[0][1], max(e for _, _, e in g)
        ocr = "".join(it.ocr for it, _, _ in g)
        where = _where(ctx, start, end)
        text = _as_read(ocr, where)
        if where == "text" and ocr.strip(od.ROW_BREAK + " ") == "" and "".join(units[start:end]).strip() == "":
            text = " " if ocr else ""       # padding the OCR squeezed: one space where it saw a gap
        literal_edits.append((start, end, text))
        add("fragment", "%s (the .bas) as the OCR shows it: %s" % (_show("".join(units[start:end])), _show(text)),
            [(start, end, text)])
    for it, start, end in spans:
        if it.cls in od.NEUTRAL or it.cls in od.NEEDS_JUDGEMENT:
            continue
        where = _where(ctx, start, end)
        chosen = "".join(units[start:end])
        literal = _as_read(it.ocr, where)
        literal_edits.append((start, end, literal))
        add("confusion", "the OCR's %s kept as %s, not %s (%s)" % (_show(it.ocr), _show(literal), _show(chosen), it.cls),
            [(start, end, literal)])
        seen = od.skel(it.ocr) if len(it.ocr) == 1 else "".join(od.skel(c) for c in it.ocr)
        cx = ctx[start:end] if end > start else [od._gap_ctx(ctx, start)]
        for po, pb, cls, where_ok in od.CONFUSIONS:
            if po != seen or pb == od.skel(chosen) or not od._where_ok(where_ok, cx):
                continue
            add("confusion", "%s read as %s, not %s (%s)" % (_show(it.ocr), _show(pb), _show(chosen), cls),
                [(start, end, pb)])
    if literal_edits:
        add("ocr", "the whole line as the OCR shows it", literal_edits)
    return list(out.values())


def generate(ocr_path: Path = od.DEFAULT_OCR, bas_path: Path = od.DEFAULT_BAS,
             log_path: Path = od.DEFAULT_LOG) -> list[dict]:
    ex = od.extract(od.read_ocr(ocr_path))
    bas = od.read_bas(bas_path)
    log, problems = judgement_entries(log_path)
    if problems:
        raise ValueError(problems[0])
    out = []
    for n in sorted(set(ex.lines) & set(bas)):
        readings = line_readings(n, ex.lines[n].body, bas[n])
        for r in readings:
            r["entry"] = n in log
        out.extend(readings)
    return out


def _toml_str(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)       # a JSON string is a TOML basic string here


def render(readings: list[dict], evidence: list[dict]) -> str:
    parts = [HEADER]
    for r in readings:
        parts.append("\n[[reading]]\nline = %d\nid = %s\nsource = %s\nentry = %s\nwhat = %s\ntext = %s\n" % (
            r["line"], _toml_str(r["id"]), _toml_str(r["source"]), "true" if r["entry"] else "false",
            _toml_str(r["what"]), _toml_str(r["text"])))
    for e in evidence:
        parts.append("\n[[evidence]]\nline = %d\nid = %s\nwhat = %s\ntext = %s\n" % (
            e["line"], _toml_str(reading_id(e["line"], e["text"])), _toml_str(e["what"]), _toml_str(e["text"])))
    return "".join(parts)


def current_text(out: Path = DEFAULT_OUT) -> str:
    evidence = tomllib.loads(out.read_text(encoding="utf-8")).get("evidence", []) if out.exists() else []
    return render(generate(), evidence)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--check", action="store_true", help="exit 1 if --out is not current")
    args = ap.parse_args(argv)
    text = current_text(args.out)
    if args.check:
        if not args.out.exists() or args.out.read_text(encoding="utf-8") != text:
            print("write_readings: %s is not current: run python -m tools.write_readings" % args.out, file=sys.stderr)
            return 1
        return 0
    atomic.write_text(args.out, text)
    data = tomllib.loads(text)
    print("%s: %d readings of %d lines, %d from the evidence" % (
        args.out, len(data.get("reading", [])), len({r["line"] for r in data.get("reading", [])}),
        len(data.get("evidence", []))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
