"""BASIC variables in the VARS area, read and written by name.

The ROM keeps six kinds of variable, told apart by the top three bits of the
first byte (ZX Spectrum manual, chapter 24). Names follow BASIC: ``X``,
``SUM`` (numbers, also FOR-loop variables), ``A$`` (strings), ``P()`` (numeric
arrays), ``H$()`` (character arrays). Strings are given as text with one
character per byte (``chr(code)``), so the codes survive unchanged.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Iterator, Literal, Sequence, TypeAlias, Union

from ..errors import MachineError
from .floats import Number, decode, encode
from .workspace import NoRoom, resize

if TYPE_CHECKING:
    from .machine import Spectrum48

#: a BASIC value as `get` gives it: a number, a text, or an array as (nested) lists of numbers or texts
BasicValue: TypeAlias = Union[int, float, str, list["BasicValue"]]

#: what `set` takes: a number, a text (or its bytes), or an array's values as (nested) sequences
NewValue: TypeAlias = Union[Number, str, bytes, Sequence["NewValue"]]

#: what a variables-area entry holds (Variable.kind)
VariableKind = Literal["number", "for", "string", "array", "chararray"]

KIND_BITS: dict[int, VariableKind] = {
    0b011: "number",        # one-letter numeric variable: letter, 5-byte value
    0b101: "number",        # longer name: letter, more letters/digits (last +128), value
    0b100: "array",         # numeric array: letter, length, dims count, dims, 5-byte elements
    0b111: "for",           # FOR control variable: value, limit, step, loop line, statement
    0b010: "string",        # string: letter, length, characters
    0b110: "chararray",     # character array: letter, length, dims count, dims, characters
}


class VariableError(MachineError, KeyError):
    """A variable that does not exist, or a value that does not fit it."""

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass
class Variable:
    kind: VariableKind
    name: str             # BASIC form: 'X', 'SUM', 'A$', 'P()', 'H$()'
    addr: int             # first byte of the entry
    size: int             # bytes of the whole entry
    value_addr: int       # first byte of the value/elements
    dims: tuple[int, ...] = ()

    @property
    def key(self) -> str:
        return self.name.upper()


@dataclass(frozen=True)
class ForLoop:
    value: float
    limit: float
    step: float
    line: int
    statement: int


def _letter(b: int) -> str:
    return chr(0x40 + (b & 0x1F))


def scan(mem: Sequence[int], vars_addr: int, end: int) -> list[Variable]:
    """Walk the variables area from *vars_addr* to its 0x80 end marker."""
    return list(iter_scan(mem, vars_addr, end))


def iter_scan(mem: Sequence[int], vars_addr: int, end: int) -> Iterator[Variable]:
    """The variables one by one, as the walk meets them (find stops at the one it wants)."""
    a = vars_addr
    while a < end and mem[a] != 0x80:
        b = mem[a]
        kind = KIND_BITS.get(b >> 5)
        if kind is None:
            raise VariableError(f"corrupt variables area: byte {b:#04x} at {a}")
        if kind == "number" and b >> 5 == 0b101:
            name, p = _letter(b), a + 1
            while True:
                c = mem[p]
                name += chr(c & 0x7F).upper()
                p += 1
                if c & 0x80:
                    break
            yield Variable(kind, name, a, p + 5 - a, p)
            a = p + 5
        elif kind == "number":
            yield Variable(kind, _letter(b), a, 6, a + 1)
            a += 6
        elif kind == "for":
            yield Variable(kind, _letter(b), a, 19, a + 1)
            a += 19
        elif kind == "string":
            n = mem[a + 1] | mem[a + 2] << 8
            yield Variable(kind, _letter(b) + "$", a, 3 + n, a + 3)
            a += 3 + n
        else:
            n = mem[a + 1] | mem[a + 2] << 8
            ndims = mem[a + 3]
            dims = tuple(mem[a + 4 + 2 * i] | mem[a + 5 + 2 * i] << 8 for i in range(ndims))
            name = _letter(b) + ("$()" if kind == "chararray" else "()")
            yield Variable(kind, name, a, 3 + n, a + 4 + 2 * ndims, dims)
            a += 3 + n


def _nest(flat: Sequence[BasicValue], dims: tuple[int, ...]) -> list[BasicValue]:
    if len(dims) <= 1:
        return list(flat)
    step = len(flat) // dims[0]
    return [_nest(flat[i * step:(i + 1) * step], dims[1:]) for i in range(dims[0])]


def _flatten(value: NewValue) -> list[NewValue]:
    if isinstance(value, (list, tuple)):
        out: list[NewValue] = []
        for v in value:
            out.extend(_flatten(v))
        return out
    return [value]


class BasicVariables:
    """Read and write the BASIC variables of a machine."""

    def __init__(self, machine: Spectrum48) -> None:
        self.m = machine

    def all(self) -> list[Variable]:
        return scan(self.m.mem, self.m.peek("VARS"), self.m.peek("E_LINE"))

    def names(self) -> list[str]:
        return [v.name for v in self.all()]

    def find(self, name: str) -> Variable:
        key = name.replace(" ", "").upper()
        for v in iter_scan(self.m.mem, self.m.peek("VARS"), self.m.peek("E_LINE")):
            if v.key == key:
                return v
        raise VariableError(f"no BASIC variable {name!r}; the program has: {', '.join(self.names()) or 'none'}")

    def __contains__(self, name: str) -> bool:
        try:
            self.find(name)
            return True
        except VariableError:
            return False

    def get(self, name: str) -> BasicValue | ForLoop:
        """The value: a number, a text, a (nested) list for arrays, a ForLoop for a FOR variable."""
        return self._value(self.find(name))

    def values(self, names: Iterable[str]) -> dict[str, BasicValue | ForLoop]:
        """Several variables read at one walk of the variables area: name -> value, as `get` gives it
        (a name the program has not made yet is left out)."""
        wanted = {n.replace(" ", "").upper(): n for n in names}
        found: dict[str, BasicValue | ForLoop] = {}
        for v in self.all():
            name = wanted.get(v.key)
            if name is not None and name not in found:
                found[name] = self._value(v)
        return found

    def _value(self, v: Variable) -> BasicValue | ForLoop:
        mem = self.m.mem
        if v.kind == "number":
            return decode(bytes(mem[v.value_addr:v.value_addr + 5]))
        if v.kind == "for":
            p = v.value_addr
            return ForLoop(decode(bytes(mem[p:p + 5])), decode(bytes(mem[p + 5:p + 10])),
                           decode(bytes(mem[p + 10:p + 15])), mem[p + 15] | mem[p + 16] << 8, mem[p + 17])
        if v.kind == "string":
            return "".join(chr(c) for c in mem[v.value_addr:v.addr + v.size])
        if v.kind == "array":
            n = (v.addr + v.size - v.value_addr) // 5
            flat: list[BasicValue] = [decode(bytes(mem[v.value_addr + 5 * i:v.value_addr + 5 * i + 5])) for i in range(n)]
            return _nest(flat, v.dims)
        text = "".join(chr(c) for c in mem[v.value_addr:v.addr + v.size])
        if len(v.dims) == 1:                      # DIM A$(6): one fixed-length string
            return text
        width = v.dims[-1]
        strings: list[BasicValue] = [text[i:i + width] for i in range(0, len(text), width)]
        return _nest(strings, v.dims[:-1])

    def number(self, name: str) -> int | float:
        """A numeric variable's value, whether it was last assigned by LET or is a FOR loop's counter."""
        value = self.get(name)
        if isinstance(value, ForLoop):
            return value.value
        if not isinstance(value, (int, float)):
            raise VariableError(f"{name} is not a number")
        return value

    def numbers(self, name: str) -> list[int | float]:
        """A numeric array's elements in order (a DIM A(2, 3) gives six), as `get` reads them."""
        v = self.find(name)
        if v.kind != "array":
            raise VariableError(f"{v.name} is not an array")
        mem = self.m.mem
        return [decode(bytes(mem[a:a + 5])) for a in range(v.value_addr, v.addr + v.size - 4, 5)]

    def set(self, name: str, value: NewValue) -> None:
        """Assign like LET: numbers and FOR values in place, strings resized, arrays element for element."""
        try:
            v = self.find(name)
        except VariableError:
            self._create(name, value)
            return
        if v.kind in ("number", "for"):
            self.m.write(v.value_addr, encode(_number(value, v.name)))
        elif v.kind == "string":
            data = _text_bytes(value)
            self._room(v.value_addr, v.size - 3, len(data))
            self.m.write(v.addr + 1, len(data).to_bytes(2, "little"))
            self.m.write(v.value_addr, data)
        elif v.kind == "array":
            flat = _flatten(value)
            n = (v.addr + v.size - v.value_addr) // 5
            if len(flat) != n:
                raise VariableError(f"{v.name} has {n} elements (DIM {v.dims}), got {len(flat)} values")
            self.m.write(v.value_addr, b"".join(encode(_number(x, v.name)) for x in flat))
        else:
            width = v.dims[-1]
            flat = _flatten(value)
            n = (v.addr + v.size - v.value_addr) // width
            if len(flat) != n:
                raise VariableError(f"{v.name} has {n} strings (DIM {v.dims}), got {len(flat)}")
            data = b"".join(_text_bytes(s)[:width].ljust(width, b" ") for s in flat)
            self.m.write(v.value_addr, data)

    def set_element(self, name: str, index: tuple[int, ...] | int, value: NewValue) -> None:
        """A(i) = value (1-based, as in BASIC), or A$(i) = text for a character array."""
        v = self.find(name)
        idx = (index,) if isinstance(index, int) else tuple(index)
        dims = v.dims if v.kind == "array" else v.dims[:-1]
        if len(idx) != len(dims) or any(not 1 <= i <= d for i, d in zip(idx, dims)):
            raise VariableError(f"{v.name}{idx} is outside DIM {v.dims} (3 Subscript wrong)")
        flat = 0
        for i, d in zip(idx, dims):
            flat = flat * d + (i - 1)
        if v.kind == "array":
            a = v.value_addr + 5 * flat
            self.m.write(a, encode(_number(value, v.name)))
        elif v.kind == "chararray":
            width = v.dims[-1]
            a = v.value_addr + width * flat
            self.m.write(a, _text_bytes(value)[:width].ljust(width, b" "))
        else:
            raise VariableError(f"{v.name} is not an array")

    def _room(self, at: int, old: int, new: int) -> None:
        try:
            resize(self.m, at, old, new)
        except NoRoom as exc:
            raise VariableError(str(exc)) from exc

    def _create(self, name: str, value: NewValue) -> None:
        key = name.replace(" ", "").upper()
        at = self.m.peek("E_LINE") - 1  # the 0x80 end marker
        if key.endswith("$") and len(key) == 2 and key[0].isalpha():
            data = _text_bytes(value)
            entry = bytes([0x40 | (ord(key[0]) & 0x1F)]) + len(data).to_bytes(2, "little") + data
        elif key.isalnum() and key[0].isalpha() and not key.endswith("$"):
            if len(key) == 1:
                entry = bytes([0x60 | (ord(key) & 0x1F)]) + encode(_number(value, key))
            else:
                rest = key[1:].lower().encode("ascii")
                entry = bytes([0xA0 | (ord(key[0]) & 0x1F)]) + rest[:-1] + bytes([rest[-1] | 0x80]) + encode(_number(value, key))
        else:
            raise VariableError(f"no variable {name!r}, and arrays must be DIMensioned by the program")
        self._room(at, 0, len(entry))
        self.m.write(at, entry)


def _number(value: NewValue, name: str) -> Number:
    """A value given for a numeric variable or element, which must be a number."""
    if isinstance(value, (str, bytes, Sequence)):
        raise VariableError(f"{name} holds a number, not {value!r}")
    return value


def _text_bytes(value: object) -> bytes:
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    s = str(value)
    if any(ord(ch) > 255 for ch in s):
        raise VariableError(f"text {s!r} has characters beyond one byte; encode it to program codes first")
    return bytes(ord(ch) for ch in s)
