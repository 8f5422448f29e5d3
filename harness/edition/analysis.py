"""What can be worked out from the listing alone: who reaches a line, which lines no path reaches, where
each variable is set and read.

Control flow is followed line by line from the entry points (the first line,
where RUN starts, and the autostart of a `SAVE ... LINE n`: line 2 here): a line reaches
the targets of its literal GO TO / GO SUB / RUN, and the next line unless an
unconditional GO TO, RETURN, STOP or RUN ends it; a GO SUB comes back to the
statement after it. Statements after a GO TO, RETURN, STOP or RUN in the same
line are unreachable too, even after THEN: a true IF has jumped away and a
false one skips the rest of its line. What no path reaches is dead code (DATA lines are
read, not run, and are not counted).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from .source import ENDS_FLOW, Jump, Listing, Statement, Token


@dataclass
class Reference:
    line: int
    statement: int
    how: str            # set, read, dim, loop, input, read-data, def-fn

    @property
    def key(self) -> str:
        return f"{self.line}:{self.statement}"


@dataclass
class Variable:
    name: str           # X, X$, X(), X$(), FN T
    kind: str           # number, string, numeric array, string array, function
    sets: list[Reference] = field(default_factory=list)
    reads: list[Reference] = field(default_factory=list)
    dims: tuple[str, ...] = ()      # an array's dimensions as its DIM writes them

    @property
    def anchor_group(self) -> str:
        """The variables page's anchor of the name as written (X and X() share one)."""
        base = self.name[:-2] if self.name.endswith("()") else self.name
        return "v-" + base.replace("$", "S").replace(" ", "-")


@dataclass
class Analysis:
    incoming: dict[int, list[Jump]]            # line -> jumps that reach it (and the fall-through)
    reachable_lines: set[int]
    dead_statements: set[str]                  # "LINE:STMT" no path reaches
    variables: dict[str, Variable]
    unresolved: list[Jump]                     # jumps to a line number with no line at or after it


def analyse(listing: Listing) -> Analysis:
    incoming: dict[int, list[Jump]] = defaultdict(list)
    unresolved = []
    numbers = [ln.number for ln in listing.lines]
    successors: dict[int, list[int]] = defaultdict(list)
    for i, ln in enumerate(listing.lines):
        for j in ln.jumps:
            if j.kind == "restore":
                target = listing.line_at_or_after(j.target)
                if target is None:
                    unresolved.append(j)
                else:
                    incoming[target].append(j)
                continue
            target = listing.line_at_or_after(j.target)
            if target is None:
                unresolved.append(j)
                continue
            incoming[target].append(j)
            successors[ln.number].append(target)
        if ln.falls_through and i + 1 < len(numbers):
            nxt = numbers[i + 1]
            incoming[nxt].append(Jump(ln.number, len(ln.statements), nxt, "falls through"))
            successors[ln.number].append(nxt)
    reachable: set[int] = set()
    entries = {listing.lines[0].number} if listing.lines else set()
    entries |= {n for n in (listing.line_at_or_after(j.target) for ln in listing.lines for j in ln.jumps
                            if j.kind == "autostart") if n is not None}
    todo = sorted(entries)
    while todo:
        n = todo.pop()
        if n in reachable:
            continue
        reachable.add(n)
        todo.extend(successors[n])
    dead: set[str] = set()
    for ln in listing.lines:
        if ln.number not in reachable:
            if all(s.command == "DATA" for s in ln.statements):
                continue               # read through RESTORE/READ, never run: data, not dead code
            dead.update(s.key for s in ln.statements)
            continue
        ended = False
        for s in ln.statements:
            if ended:
                dead.add(s.key)
            elif s.command in ENDS_FLOW:
                # after a jump nothing more of the line runs: a true IF has jumped away, a false IF
                # skips the rest of its line
                ended = True
    return Analysis(dict(incoming), reachable, dead, _variables(listing), unresolved)


def _words(s: Statement) -> list[Token]:
    return [t for t in s.tokens if t.kind not in ("space",) and not (t.kind == "punct" and t.text == ":")]


def _variables(listing: Listing) -> dict[str, Variable]:
    arrays = set()
    for s in listing.statements:
        words = _words(s)
        if s.command == "DIM" and len(words) > 1:
            arrays.add(words[1].text)
    found: dict[str, Variable] = {}

    def ref(name: str, kind: str, s: Statement, how: str, setting: bool) -> None:
        var = found.setdefault(name, Variable(name, kind))
        bucket = var.sets if setting else var.reads
        if not any(r.key == s.key and r.how == how for r in bucket):
            bucket.append(Reference(s.line, s.index, how))

    for s in listing.statements:
        words = _words(s)
        command = s.command
        params: set[str] = set()
        if command == "DEF FN":
            # DEF FN T(X)=...: X is the function's own parameter, not the program's X
            params = set(_fn_params(words))
        for i, w in enumerate(words):
            if w.kind == "fn":
                ref("FN " + w.text, "function", s, "def-fn" if command == "DEF FN" else "read",
                    command == "DEF FN")
                continue
            if w.kind != "variable" or w.text in params:
                continue
            subscripted = i + 1 < len(words) and words[i + 1].text == "("
            name = w.text
            is_string = name.endswith("$")
            if name in arrays and (subscripted or command == "DIM" or is_string):
                key, kind = name + "()", "string array" if is_string else "numeric array"
            else:
                key, kind = name, "string" if is_string else "number"
            first = i == 1
            if command == "LET" and first:
                ref(key, kind, s, "set", True)
            elif command == "FOR" and first:
                ref(key, kind, s, "loop", True)
            elif command == "NEXT" and first:
                ref(key, kind, s, "loop", True)
            elif command == "DIM" and first:
                ref(key, kind, s, "dim", True)
                found[key].dims = _dims(words[i + 1:])
            elif command == "INPUT" and not subscripted:
                ref(key, kind, s, "input", True)
            elif command == "READ":
                ref(key, kind, s, "read-data", True)
            else:
                ref(key, kind, s, "read", False)
    return dict(sorted(found.items(), key=lambda kv: (kv[0].startswith("FN"), kv[0])))


def _dims(words: list[Token]) -> tuple[str, ...]:
    """DIM A(6) / DIM T(2,3): the dimensions between the parentheses after the name, as written."""
    if not words or words[0].text != "(":
        return ()
    out, current = [], ""
    for w in words[1:]:
        if w.text == ")":
            break
        if w.text == ",":
            out.append(current)
            current = ""
        else:
            current += w.text
    out.append(current)
    return tuple(out)


def _fn_params(words: list[Token]) -> list[str]:
    """The parameter names between the first ( and ) after DEF FN name."""
    out, inside = [], False
    for w in words[2:]:
        if w.text == "(" and not inside:
            inside = True
            continue
        if w.text == ")" and inside:
            break
        if inside and w.kind == "variable":
            out.append(w.text)
    return out
