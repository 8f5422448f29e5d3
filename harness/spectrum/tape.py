"""TAP files: the blocks the Spectrum's SAVE writes and LOAD reads.

A TAP file is a sequence of blocks, each stored as a 2-byte little-endian
length, then that many bytes: a flag byte (0x00 header, 0xFF data), the
data, and a checksum byte (XOR of the flag and all data bytes).  A header
block's data is 17 bytes: type (0 program, 1 number array, 2 character
array, 3 code), a 10-byte name padded with spaces, the data length, and
two parameters (little-endian words):

* program: param1 = autostart line (32768 or more: none), param2 = length
  of the program without its variables;
* code: param1 = start address, param2 = 32768.

This module checks lengths and checksums so that a damaged tape fails
loudly here rather than as a puzzling "R Tape loading error" later.
"""

from __future__ import annotations

import os
from typing import Iterable
from dataclasses import dataclass

from ..errors import HarnessError

__all__ = [
    "TapeError", "TapeBlock", "Header", "read_tap", "write_tap",
    "program_header", "code_header", "parse_header",
    "FLAG_HEADER", "FLAG_DATA", "TYPE_PROGRAM", "TYPE_NUMBER_ARRAY",
    "TYPE_CHAR_ARRAY", "TYPE_CODE", "NO_AUTOSTART",
]

FLAG_HEADER = 0x00
FLAG_DATA = 0xFF
TYPE_PROGRAM = 0
TYPE_NUMBER_ARRAY = 1
TYPE_CHAR_ARRAY = 2
TYPE_CODE = 3
NO_AUTOSTART = 0x8000
HEADER_LENGTH = 17
NAME_LENGTH = 10


class TapeError(HarnessError, ValueError):
    """A TAP file that is truncated or corrupt; says where and what."""


def _checksum(flag: int, data: bytes) -> int:
    value = flag
    for b in data:
        value ^= b
    return value


@dataclass(frozen=True)
class TapeBlock:
    """One tape block: flag byte and data (without length or checksum)."""

    flag: int
    data: bytes

    def __post_init__(self) -> None:
        if not 0 <= self.flag <= 0xFF:
            raise ValueError(f"flag must be a byte, not {self.flag}")
        object.__setattr__(self, "data", bytes(self.data))

    @property
    def checksum(self) -> int:
        return _checksum(self.flag, self.data)

    def to_bytes(self) -> bytes:
        """The block as stored in a TAP file: length, flag, data, checksum."""
        length = len(self.data) + 2
        if length > 0xFFFF:
            raise ValueError(f"block of {len(self.data)} data bytes is too long for TAP")
        return length.to_bytes(2, "little") + bytes([self.flag]) + self.data + bytes([self.checksum])


@dataclass(frozen=True)
class Header:
    """The 17 data bytes of a header block, decoded.

    ``name`` is the 10-character name with trailing spaces removed (bytes
    as Latin-1, so any name round-trips).
    """

    type: int
    name: str
    length: int
    param1: int
    param2: int

    def to_block(self) -> TapeBlock:
        return TapeBlock(FLAG_HEADER, bytes([self.type]) + _name_bytes(self.name)
                         + self.length.to_bytes(2, "little")
                         + self.param1.to_bytes(2, "little")
                         + self.param2.to_bytes(2, "little"))

    @property
    def autostart_line(self) -> int | None:
        """Program headers: the LINE to run after loading, or None."""
        return self.param1 if self.param1 < NO_AUTOSTART else None


def _name_bytes(name: str | bytes) -> bytes:
    raw = name if isinstance(name, bytes) else name.encode("latin-1")
    if len(raw) > NAME_LENGTH:
        raise ValueError(f"tape name {name!r} is longer than {NAME_LENGTH} characters")
    return raw.ljust(NAME_LENGTH, b" ")


def _word(value: int, what: str) -> int:
    if not 0 <= value <= 0xFFFF:
        raise ValueError(f"{what} {value} does not fit in 16 bits")
    return value


def program_header(name: str | bytes, data_len: int, autostart_line: int | None = None,
                   vars_offset: int | None = None) -> TapeBlock:
    """Header for a BASIC program of *data_len* bytes (program + variables).

    *vars_offset* is the program's length without variables (default: all
    of it); *autostart_line* None means no autostart (32768).
    """
    auto = NO_AUTOSTART if autostart_line is None else autostart_line
    if autostart_line is not None and not 0 <= autostart_line <= 9999:
        raise ValueError(f"autostart line {autostart_line} is not in 0..9999")
    return Header(TYPE_PROGRAM, _name_bytes(name).decode("latin-1").rstrip(" "),
                  _word(data_len, "length"), auto,
                  _word(data_len if vars_offset is None else vars_offset, "vars offset")).to_block()


def code_header(name: str | bytes, start: int, length: int) -> TapeBlock:
    """Header for a block of machine code / bytes (``SAVE "name" CODE start,length``)."""
    return Header(TYPE_CODE, _name_bytes(name).decode("latin-1").rstrip(" "),
                  _word(length, "length"), _word(start, "start"), 0x8000).to_block()


def parse_header(block: TapeBlock) -> Header:
    """Decode a header block; ValueError if it is not one."""
    if block.flag != FLAG_HEADER or len(block.data) != HEADER_LENGTH:
        raise ValueError(f"not a header block: flag {block.flag:#04x}, "
                         f"{len(block.data)} data bytes (want 0x00 and {HEADER_LENGTH})")
    d = block.data
    return Header(d[0], d[1:11].decode("latin-1").rstrip(" "),
                  int.from_bytes(d[11:13], "little"), int.from_bytes(d[13:15], "little"),
                  int.from_bytes(d[15:17], "little"))


def read_tap(path_or_bytes: str | os.PathLike[str] | bytes | bytearray, name: str | None = None) -> list[TapeBlock]:
    """Read all blocks, checking each length prefix and checksum (errors name *name*, or the file)."""
    if isinstance(path_or_bytes, (bytes, bytearray, memoryview)):
        raw, source = bytes(path_or_bytes), name or "<bytes>"
    else:
        source = name or os.fspath(path_or_bytes)
        try:
            with open(path_or_bytes, "rb") as f:
                raw = f.read()
        except OSError as exc:
            raise TapeError(f"{source}: cannot read the tape: {exc.strerror}") from None
    if raw.startswith(b"ZXTape!"):
        raise TapeError(f"{source}: is a TZX file, not a TAP (cribbage-zx build writes the TAP)")
    blocks: list[TapeBlock] = []
    offset = 0
    while offset < len(raw):
        index = len(blocks)
        where = f"{source}: block {index} at byte offset {offset}"
        if offset + 2 > len(raw):
            raise TapeError(f"{where}: truncated length prefix (1 byte left)")
        length = int.from_bytes(raw[offset:offset + 2], "little")
        if length < 2:
            raise TapeError(f"{where}: block length {length} is too short "
                            "for a flag and a checksum")
        body = raw[offset + 2:offset + 2 + length]
        if len(body) < length:
            raise TapeError(f"{where}: truncated block: length prefix says {length} bytes, "
                            f"only {len(body)} left")
        flag, data, checksum = body[0], body[1:-1], body[-1]
        expected = _checksum(flag, data)
        if checksum != expected:
            raise TapeError(f"{where}: bad checksum {checksum:#04x} at byte offset "
                            f"{offset + 1 + length}, XOR of the block is {expected:#04x}")
        blocks.append(TapeBlock(flag, data))
        offset += 2 + length
    return blocks


def read_program_tape(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a TAP whose first file is a BASIC program (a header and its data block), checked
    whole: an empty, truncated or foreign file is a TapeError naming it, before any machine loads it."""
    source = os.fspath(path)
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except IsADirectoryError:
        raise TapeError(f"{source}: is a folder, not a tape") from None
    except FileNotFoundError:
        raise TapeError(f"{source}: no such tape file") from None
    except OSError as exc:
        raise TapeError(f"{source}: cannot read the tape: {exc.strerror}") from None
    if not raw:
        raise TapeError(f"{source}: empty, not a tape")
    blocks = read_tap(raw, source)
    if len(blocks) < 2:
        raise TapeError(f"{source}: {len(blocks)} block, a program needs a header and a data block")
    try:
        head = parse_header(blocks[0])
    except ValueError as exc:
        raise TapeError(f"{source}: block 0: {exc}") from None
    if head.type != 0:
        raise TapeError(f"{source}: block 0: the first file is not a BASIC program (type {head.type})")
    if blocks[1].flag != FLAG_DATA or len(blocks[1].data) != head.length:
        raise TapeError(f"{source}: block 1: expected the program's {head.length} data bytes, found "
                        f"{len(blocks[1].data)} with flag {blocks[1].flag:#04x}")
    return raw


def write_tap(blocks: Iterable[TapeBlock]) -> bytes:
    """The TAP file for *blocks* (an iterable of TapeBlock)."""
    return b"".join(block.to_bytes() for block in blocks)
