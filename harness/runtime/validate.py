"""Checks for what the readers read: one line naming the file, the field and what was expected.

Every reader of a file the tools wrote earlier (a report.json, a coverage
file, a transcript, a sweep chunk) or a person edits (the listing, the
translation table) may meet anything: a truncated write from another tool, a
hand edit, a file of another kind. These helpers turn "not what we expected"
into the reader's own domain error, naming the place as ``FILE: a.b[3].c``,
instead of an AttributeError three calls later or a silently skipped record.
"""
from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any, Mapping, TypeVar, Union, overload

from ..errors import InputError

__all__ = ["describe", "expect", "field", "quoted", "shown_path", "MAX_BYTES", "parse_json", "read_json", "read_text", "read_toml",
           "MAX_DEPTH", "JsonValue", "JsonObject"]

#: a value as JSON holds it. What a writer hands to json.dumps, and what a reader has after its checks, is
#: typed with these rather than left open: mypy then asks the reader to narrow (isinstance) before it
#: subscripts.
#: A writer whose values are typed dicts (invariant in mypy) may use ``dict[str, object]`` instead.
JsonValue = Union[None, bool, int, float, str, list["JsonValue"], dict[str, "JsonValue"]]
JsonObject = dict[str, JsonValue]

#: the deepest nesting of arrays and objects a reader takes: every file the tools write is under 10 deep, and
#: a deeper one (a hostile or broken file) would otherwise reach Python's recursion limit in a reader
MAX_DEPTH = 100
#: how much of a value an error line quotes
QUOTE_CHARS = 40
#: how long a path an error line names whole (a checkout's or a test's folder is under it; a 30 MB argument
#: is not)
PATH_CHARS = 160
#: the largest file read_text reads: every file the tools read is well under it (a coverage report, a
#: 100,000-game report.json); a larger one is refused in one line rather than read into memory
MAX_BYTES = 64 * 2**20


def quoted(value: object, limit: int = QUOTE_CHARS) -> str:
    """*value* as an error line quotes it: repr-quoted, at most *limit* characters of it, "..." and the full
    length when cut (a 30 MB field must not reach stderr whole)."""
    if not isinstance(value, str):                # a number or an error: as it prints, cut the same way
        text = str(value)
        return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"
    if len(value) <= limit:
        return repr(value)
    return f"{value[:limit]!r}... ({len(value):,} characters)"


def shown_path(path: object, limit: int = PATH_CHARS) -> str:
    """A path as an error line names it: as it is when printable, else repr-quoted; a longer one than *limit*
    keeps its start and its last 40 characters (the file's name), "..." between and its full length."""
    text = str(path)
    shown = text if text.isprintable() else repr(text)
    if len(shown) <= limit:
        return shown
    return f"{shown[:limit - QUOTE_CHARS - 3]}...{shown[-QUOTE_CHARS:]} ({len(text):,} characters)"


_NAMES = {dict: "an object", list: "a list", str: "a string", int: "a whole number", float: "a number",
          bool: "true or false", type(None): "null"}


def describe(value: object) -> str:
    """What a JSON value is, in a few words (with a short sample)."""
    if isinstance(value, (dict, list)):
        sample = ("{...}" if value else "{}") if isinstance(value, dict) else ("[...]" if value else "[]")
    else:
        text = json.dumps(value, ensure_ascii=False, default=str)
        sample = text if len(text) <= 24 else text[:21] + "..."
    return f"{_NAMES.get(type(value), type(value).__name__)} {sample}"


def _matches(value: object, kinds: tuple[type, ...]) -> bool:
    if isinstance(value, bool):
        return bool in kinds
    if isinstance(value, int) and float in kinds:
        return True
    return isinstance(value, kinds)


#: the kinds a checked value was found to be of (`expect`, `field`): its static type is their union
K1 = TypeVar("K1")
K2 = TypeVar("K2")
K3 = TypeVar("K3")
K4 = TypeVar("K4")
K5 = TypeVar("K5")
#: what `field` gives for a missing key when it is given one
Default = TypeVar("Default")
_Error = type[Exception]


@overload
def expect(value: object, kinds: type[K1], where: str, error: _Error = InputError) -> K1: ...
@overload
def expect(value: object, kinds: tuple[type[K1], type[K2]], where: str, error: _Error = InputError) -> K1 | K2: ...
@overload
def expect(value: object, kinds: tuple[type[K1], type[K2], type[K3]], where: str,
           error: _Error = InputError) -> K1 | K2 | K3: ...
@overload
def expect(value: object, kinds: tuple[type[K1], type[K2], type[K3], type[K4]], where: str,
           error: _Error = InputError) -> K1 | K2 | K3 | K4: ...
@overload
def expect(value: object, kinds: tuple[type[K1], type[K2], type[K3], type[K4], type[K5]], where: str,
           error: _Error = InputError) -> K1 | K2 | K3 | K4 | K5: ...
@overload
def expect(value: object, kinds: tuple[type, ...], where: str, error: _Error = InputError) -> object: ...
def expect(value: object, kinds: type | tuple[type, ...], where: str, error: type[Exception] = InputError) -> object:
    """*value* if it is of *kinds* (bool is never a number here), else *error* naming *where*: a JSON value a
    reader goes on to read, typed as the union of the kinds checked."""
    kinds = kinds if isinstance(kinds, tuple) else (kinds,)
    if not _matches(value, kinds):
        wanted = " or ".join(_NAMES.get(k, k.__name__) for k in kinds)
        raise error(f"{where}: expected {wanted}, found {describe(value)}")
    return value


_MISSING = object()


@overload
def field(obj: Mapping[str, object], key: str, kinds: type[K1], where: str, *, error: _Error = InputError) -> K1: ...
@overload
def field(obj: Mapping[str, object], key: str, kinds: type[K1], where: str, default: Default,
          error: _Error = InputError) -> K1 | Default: ...
@overload
def field(obj: Mapping[str, object], key: str, kinds: tuple[type[K1], type[K2]], where: str, *,
          error: _Error = InputError) -> K1 | K2: ...
@overload
def field(obj: Mapping[str, object], key: str, kinds: tuple[type[K1], type[K2]], where: str, default: Default,
          error: _Error = InputError) -> K1 | K2 | Default: ...
@overload
def field(obj: Mapping[str, object], key: str, kinds: tuple[type, ...], where: str, default: object = _MISSING,
          error: _Error = InputError) -> object: ...
def field(obj: Mapping[str, object], key: str, kinds: type | tuple[type, ...], where: str, default: object = _MISSING,
          error: type[Exception] = InputError) -> object:
    """``obj[key]`` checked to be of *kinds*; a missing key is *default*, or an error if there is none."""
    if key not in obj:
        if default is _MISSING:
            raise error(f"{where}.{key}: missing")
        return default
    return expect(obj[key], kinds, f"{where}.{key}", error)


def read_text(path: str | Path, error: type[Exception] = InputError, what: str = "file",
              max_bytes: int = MAX_BYTES) -> str:
    """A UTF-8 text file (a BOM is dropped) of at most *max_bytes*, or *error* naming the file and the first bad
    byte's line."""
    path = Path(path)
    try:
        with open(path, "rb") as f:
            data = f.read(max_bytes + 1)
        if len(data) > max_bytes:
            raise error(f"{path}: more than {max_bytes:,} bytes: not a {what} this tool reads")
    except IsADirectoryError:
        raise error(f"{path}: is a folder, not a {what}") from None
    except OSError as exc:
        raise error(f"{path}: cannot read it: {exc.strerror}") from None
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise error(f"{path}:{line}: not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})") from None


def _depth(value: object) -> int:
    """How deeply *value*'s arrays and objects nest (a scalar: 0), without recursion."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, depth)
            if depth <= MAX_DEPTH:
                todo.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict) else item))
    return deepest


def parse_json(text: str, where: str, error: type[Exception] = InputError, *, one_line: bool = False) -> Any:
    """*text* as JSON, or *error* naming *where* and the syntax error's line, or nesting deeper than MAX_DEPTH.
    *one_line*: *text* is one line of a JSON Lines file and *where* names it already (``FILE:LINE``). The one
    JSON reader of every file the tools read: its result is arbitrary JSON, left open for the reader's checks."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"{where}{'' if one_line else f':{exc.lineno}'}: not JSON: {exc.msg}") from None
    except RecursionError:
        value = None
        deep = True
    except ValueError as exc:                    # a number of more digits than Python converts (4,300)
        raise error(f"{where}: not JSON this tool reads: {quoted(str(exc).split(';')[0], 60)}") from None
    else:
        deep = _depth(value) > MAX_DEPTH
    if deep:
        raise error(f"{where}: not JSON this tool reads: nested more than {MAX_DEPTH} deep") from None
    return value


def read_json(path: str | Path, error: type[Exception] = InputError) -> Any:
    """A JSON file, or *error* naming the file and the line of the syntax error (parse_json)."""
    return parse_json(read_text(path, error, "JSON file"), str(path), error)


def read_toml(path: str | Path, error: type[Exception] = InputError) -> dict[str, Any]:
    """A TOML file, or *error* naming the file and (tomllib's words) the line and column of the syntax error."""
    text = read_text(path, error, "TOML file")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{path}: {exc}") from None
