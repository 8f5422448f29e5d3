"""Typed records to JSON and back: one writer (`plain`) and one reader (`record`) for every frozen dataclass
a run writes (the judgements, report.json), so what is written and what is read cannot drift.

`record(cls, data, where)` builds a *cls* from a JSON object: every field typed by its annotation (nested
dataclasses, enums, tuples, lists, dicts, unions with None), none missing unless it has a default, none
unknown; anything else is an InputError naming the place (``FILE: a.b[3].c``). A caller whose records hold a
type this module does not know (the program side's events) passes `Codec`s for it, keyed by its base class.
"""
from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, TypeVar, Union, overload

from ..errors import InputError
from .validate import JsonValue, expect, read_json

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

RecordT = TypeVar("RecordT")


@dataclass(frozen=True)
class Codec:
    """How values of a class (and its subclasses) go to JSON and come back: *write(value)*, and
    *read(cls, data, where)* for the annotated class *cls*. (*write* takes a value of its own class, which a
    table of codecs keyed by class cannot name: its parameter is left open.)"""
    write: Callable[[Any], object]
    read: Callable[[type, object, str], object]


Codecs = Mapping[type, Codec]
NO_CODECS: Codecs = {}


@overload
def plain(value: DataclassInstance, codecs: Codecs = NO_CODECS) -> dict[str, object]: ...
@overload
def plain(value: object, codecs: Codecs = NO_CODECS) -> object: ...
def plain(value: object, codecs: Codecs = NO_CODECS) -> object:
    """*value* as JSON data: enums by value, dataclasses as objects of their fields, tuples as lists (a record
    gives its object, which the writer hands to json.dumps)."""
    for base, codec in codecs.items():
        if isinstance(value, base):
            return codec.write(value)
    if isinstance(value, Enum):
        member: object = value.value
        return member
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name), codecs) for f in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        return [plain(v, codecs) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v, codecs) for k, v in value.items()}
    return value


_HINTS: dict[type, dict[str, object]] = {}


def hints(cls: type) -> dict[str, object]:
    """The resolved annotations of a dataclass's fields (cached)."""
    if cls not in _HINTS:                         # JsonObject's own "JsonValue" resolves here, not in cls's module
        _HINTS[cls] = typing.get_type_hints(cls, localns={"JsonValue": JsonValue})
    return _HINTS[cls]


#: the kinds JsonValue is the union of (get_type_hints gives a copy of it, so it is known by its options)
_JSON_KINDS = {type(None), bool, int, float, str, list, dict}


def _is_json_value(tp: object) -> bool:
    return {typing.get_origin(o) or o for o in typing.get_args(tp)} == _JSON_KINDS


def typed(tp: object, value: object, where: str, codecs: Codecs = NO_CODECS) -> Any:
    """*value* (JSON) as the annotated type *tp*, or an InputError naming *where* (a value of a type known only
    when it runs: the one reader's result its caller's annotation names)."""
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType) and _is_json_value(tp):
        return value                              # arbitrary JSON, kept as it is (its reader narrows it)
    if origin in (Union, types.UnionType):
        options = typing.get_args(tp)
        if value is None and type(None) in options:
            return None
        return typed(next(o for o in options if o is not type(None)), value, where, codecs)
    if tp is Any:
        return value
    if isinstance(tp, type):
        for base, codec in codecs.items():
            if issubclass(tp, base):
                return codec.read(tp, value, where)
    if isinstance(tp, type) and issubclass(tp, Enum):
        try:
            return tp(value)
        except ValueError:
            raise InputError(f"{where}={value!r} is not one of {[e.value for e in tp]}") from None
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return record(tp, value, where, codecs=codecs)
    if origin is tuple:
        if not isinstance(value, list):
            raise InputError(f"{where}: {value!r} is not a list")
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(typed(args[0], v, f"{where}[{i}]", codecs) for i, v in enumerate(value))
        if len(args) != len(value):
            raise InputError(f"{where}: {len(value)} values, not {len(args)}")
        return tuple(typed(a, v, f"{where}[{i}]", codecs) for i, (a, v) in enumerate(zip(args, value)))
    if origin is list:
        if not isinstance(value, list):
            raise InputError(f"{where}: {value!r} is not a list")
        (arg,) = typing.get_args(tp) or (object,)
        return [typed(arg, v, f"{where}[{i}]", codecs) for i, v in enumerate(value)]
    if origin is dict:
        if not isinstance(value, dict):
            raise InputError(f"{where}: {value!r} is not an object")
        _, arg = typing.get_args(tp) or (str, object)
        return {k: typed(arg, v, f"{where}.{k}", codecs) for k, v in value.items()}
    if tp is float and isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    if tp in (int, str, bool, float) and (type(value) is not tp):
        raise InputError(f"{where}: {value!r} is not {tp.__name__}")
    return value


def _fields(cls: type) -> tuple[dataclasses.Field[object], ...]:
    if not dataclasses.is_dataclass(cls):
        raise TypeError(f"{cls.__name__} is not a dataclass")
    return dataclasses.fields(cls)


def record(cls: type[RecordT], data: object, where: str, skip: tuple[str, ...] = (),
           given: Mapping[str, object] | None = None, codecs: Codecs = NO_CODECS) -> RecordT:
    """A record of *cls* from a JSON object: every field typed, none missing (without a default), none unknown;
    *given* fields are already typed, *skip* keys are not fields."""
    if not isinstance(data, dict):
        raise InputError(f"{where}: {data!r} is not an object")
    given = given or {}
    data = {k: v for k, v in data.items() if k not in skip and k not in given}
    fields_of = hints(cls)
    args: dict[str, object] = dict(given)
    for f in _fields(cls):
        if f.name in given:
            continue
        if f.name not in data:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise InputError(f"{where}: no {f.name}")
            continue
        args[f.name] = typed(fields_of[f.name], data.pop(f.name), f"{where}.{f.name}", codecs)
    if data:
        raise InputError(f"{where}: unknown fields {sorted(data)}")
    return cls(**args)


def read_record(cls: type[RecordT], path: Path, what: str) -> RecordT:
    """A JSON file a command wrote, as its record: *path* read through the checked reader, an object, then
    `record`'s field checks; any fault is an InputError naming the file (and *what* it should be)."""
    found: RecordT = record(cls, expect(read_json(path), dict, str(path)), f"{path}: {what}")
    return found
