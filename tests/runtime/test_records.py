"""runtime/records.py: a record's fields of arbitrary JSON (JsonValue, JsonObject) come back as they were
written, while a field of a narrower type still refuses what it does not hold."""
from __future__ import annotations

import json
from dataclasses import dataclass
from enum import Enum

import pytest

from harness.errors import InputError
from harness.runtime.records import plain, record
from harness.runtime.validate import JsonObject, JsonValue


class Colour(Enum):
    RED = "red"


@dataclass(frozen=True)
class Facts:
    tape: JsonObject
    tries: list[JsonValue]
    names: dict[str, str]
    colour: Colour
    pair: tuple[int, int]
    note: JsonObject | None = None


def test_arbitrary_json_fields_come_back_as_written():
    facts = Facts(tape={"path": "a.tap", "sha256": "00", "size": 3, "ok": True, "parts": [1, "x", None]},
                  tries=[1, "two", 3.5, None, [True], {"k": [2]}], names={"a": "b"}, colour=Colour.RED, pair=(1, 2),
                  note={"n": 1})
    data = json.loads(json.dumps(plain(facts)))
    assert data["colour"] == "red" and data["pair"] == [1, 2]
    assert record(Facts, data, "facts") == facts
    assert record(Facts, {k: v for k, v in data.items() if k != "note"}, "facts").note is None


def test_a_narrower_field_still_refuses_a_value_of_another_kind():
    data = json.loads(json.dumps(plain(Facts(tape={}, tries=[], names={"a": "b"}, colour=Colour.RED, pair=(1, 2)))))
    with pytest.raises(InputError, match=r"facts\.names\.a: 3 is not str"):
        record(Facts, dict(data, names={"a": 3}), "facts")
    with pytest.raises(InputError, match=r"facts\.tape: .* is not an object"):
        record(Facts, dict(data, tape=[1]), "facts")


def test_a_record_whose_module_names_only_json_object_is_read(monkeypatch):
    """JsonObject's own "JsonValue" is resolved by the reader, not looked up in the record's module (sweep.py
    imports JsonObject alone)."""
    import sys
    import types
    module = types.ModuleType("records_only_json_object")
    monkeypatch.setitem(sys.modules, module.__name__, module)
    exec("from __future__ import annotations\n"
         "from dataclasses import dataclass\n"
         "from harness.runtime.validate import JsonObject\n"
         "@dataclass(frozen=True)\n"
         "class Only:\n"
         "    tape: JsonObject | None\n", module.__dict__)
    only = module.Only
    assert record(only, {"tape": {"sha256": "00", "parts": [1, None]}}, "only") == only({"sha256": "00",
                                                                                         "parts": [1, None]})
    assert "JsonValue" not in module.__dict__
