"""RZX 0.13 input recordings: a snapshot, then every frame's instruction-fetch count and port readings.

An RZX file lets another emulator replay a run exactly: it starts from the
snapshot and, for each frame, executes that many instruction fetches (M1
cycles, a prefix counting as one; the interrupt's acknowledge does not
count), answers every IN with the next recorded byte, then raises the
frame's interrupt. Timing (contended memory, T-states) drops out: only the
order of instructions and the inputs matter.

Layout (little-endian), as the format's 0.13 specification defines it:

* header: ``RZX!``, major 0, minor 13, flags (dword; 0: not signed);
* blocks: ID byte, block length (dword, counting these 5 bytes), fields:

  - 0x10 creator: 20-byte ASCIIZ name, major and minor version (words), then the creator's own data
    (any length: this tool's names the game recorded; other readers skip it);
  - 0x30 snapshot: flags (dword; bit 0 an external file's descriptor,
    bit 1 zlib-compressed), extension (4 bytes, ``z80`` and NUL), the
    uncompressed length (dword), the snapshot;
  - 0x80 input recording: frames (dword), a reserved byte, the T-state
    counter at its start (dword), flags (dword; bit 1 compressed), then per
    frame the fetch count (word), the number of IN readings (word; 65535:
    the same readings as the frame before) and the readings.

No PyPI library writes RZX (SkoolKit's rzxplay.py reads it and can write
one back after playback, but has no API for a recording made elsewhere), so
this module is the project's own small reader and writer; Debian's
``rzxdump`` and SkoolKit read what it writes (tests/spectrum/test_rzx.py).
"""
from __future__ import annotations

import zlib
from dataclasses import dataclass, field

from ..errors import InputError

SIGNATURE = b"RZX!"
VERSION = (0, 13)
ID_CREATOR, ID_SNAPSHOT, ID_INPUT = 0x10, 0x30, 0x80
COMPRESSED = 0x02
SAME_AS_LAST = 0xFFFF
MAX_FETCHES = 0xFFFF
CREATOR = "cribbage-zx"


@dataclass(frozen=True)
class RzxFrame:
    """One frame: the instruction fetches before its interrupt and the bytes its INs read, in order."""
    fetches: int
    inputs: bytes = b""


@dataclass
class Rzx:
    """What an RZX file holds: the creator, one snapshot (its extension and bytes), the frames."""
    snapshot: bytes
    frames: list[RzxFrame] = field(default_factory=list)
    snapshot_ext: str = "z80"
    creator: str = CREATOR
    creator_version: tuple[int, int] = (0, 1)
    tstates: int = 0                       # the T-state counter when the recording starts
    custom: bytes = b""                    # the creator block's own data after its version (the format's "custom data")

    @property
    def fetches(self) -> int:
        return sum(f.fetches for f in self.frames)

    @property
    def inputs(self) -> int:
        return sum(len(f.inputs) for f in self.frames)


# ---------------------------------------------------------------- writing
def _block(block_id: int, body: bytes) -> bytes:
    return bytes([block_id]) + (len(body) + 5).to_bytes(4, "little") + body


def write_rzx(rzx: Rzx, compress: bool = True) -> bytes:
    """The RZX file of *rzx*: header, creator, snapshot, one input recording block."""
    name = rzx.creator.encode("ascii")
    if len(name) > 19:
        raise InputError(f"creator name {rzx.creator!r} is longer than 19 characters")
    ext = rzx.snapshot_ext.encode("ascii")
    if not 1 <= len(ext) <= 3:
        raise InputError(f"snapshot extension {rzx.snapshot_ext!r} is not 1-3 characters")
    if len(rzx.custom) > MAX_CUSTOM:
        raise InputError(f"the creator's data is {len(rzx.custom)} bytes, more than the {MAX_CUSTOM} this tool writes")
    creator = (name.ljust(20, b"\0") + b"".join(v.to_bytes(2, "little") for v in rzx.creator_version)
               + rzx.custom)
    snap = zlib.compress(rzx.snapshot, 9) if compress else rzx.snapshot
    snapshot = ((COMPRESSED if compress else 0).to_bytes(4, "little") + ext.ljust(4, b"\0")
                + len(rzx.snapshot).to_bytes(4, "little") + snap)
    frames = bytearray()
    previous: bytes | None = None
    for i, frame in enumerate(rzx.frames):
        if not 0 <= frame.fetches <= MAX_FETCHES:
            raise InputError(f"frame {i}: {frame.fetches} fetches do not fit the word the format has for them")
        if len(frame.inputs) >= SAME_AS_LAST:
            raise InputError(f"frame {i}: {len(frame.inputs)} port readings do not fit a word")
        frames += frame.fetches.to_bytes(2, "little")
        if frame.inputs and frame.inputs == previous:
            frames += SAME_AS_LAST.to_bytes(2, "little")
        else:
            frames += len(frame.inputs).to_bytes(2, "little") + frame.inputs
            previous = frame.inputs
    data = zlib.compress(bytes(frames), 9) if compress else bytes(frames)
    recording = (len(rzx.frames).to_bytes(4, "little") + b"\0" + rzx.tstates.to_bytes(4, "little")
                 + (COMPRESSED if compress else 0).to_bytes(4, "little") + data)
    return (SIGNATURE + bytes(VERSION) + bytes(4) + _block(ID_CREATOR, creator)
            + _block(ID_SNAPSHOT, snapshot) + _block(ID_INPUT, recording))


# ---------------------------------------------------------------- reading
#: the most a block may inflate to: a 48K snapshot is under 50 KB (a 128K one under 140 KB), and a recorded
#: game's frames well under a MB (the pack's 28,490 frames, 9.5 minutes, are 367 KB); a file that would
#: inflate past these is refused rather than filling the memory (a 194 KB file can inflate to 200 MB)
MAX_SNAPSHOT = 1 << 20
MAX_CUSTOM = 4096          # the creator block's own data: this tool's is a line of JSON
MAX_FRAMES_DATA = 32 << 20


def _inflate(data: bytes, where: str, limit: int) -> bytes:
    inflater = zlib.decompressobj()
    try:
        out = inflater.decompress(data, limit)
        if not inflater.unconsumed_tail:
            out += inflater.flush()
        if inflater.unconsumed_tail or len(out) > limit:
            raise InputError(f"{where}: inflates to more than {limit:,} bytes (the most this reader takes)")
        return out
    except zlib.error as exc:
        raise InputError(f"{where}: compressed data does not inflate ({exc})") from None


def read_rzx(data: bytes, name: str = "<bytes>") -> Rzx:
    """Parse an RZX file holding one snapshot and input recording blocks (their frames joined)."""
    if data[:4] != SIGNATURE or len(data) < 10:
        raise InputError(f"{name}: not an RZX file (no 'RZX!' header)")
    if data[4] != 0:
        raise InputError(f"{name}: RZX version {data[4]}.{data[5]} at byte 4 (this reader takes 0.x)")
    if int.from_bytes(data[6:10], "little") & 1:
        raise InputError(f"{name}: signed RZX files (flags bit 0 at byte 6) are not taken")
    rzx: Rzx | None = None
    creator, version, custom = "", (0, 0), b""
    frames: list[RzxFrame] = []
    tstates = None
    i = 10
    while i < len(data):
        if i + 5 > len(data):
            raise InputError(f"{name}: block header cut short at byte {i}")
        block_id, length = data[i], int.from_bytes(data[i + 1:i + 5], "little")
        where = f"{name}: block 0x{block_id:02X} at byte {i}"
        if length < 5 or i + length > len(data):
            raise InputError(f"{where}: length {length} runs past the end of the file ({len(data)} bytes)")
        body = data[i + 5:i + length]
        if block_id == ID_CREATOR:
            creator, version, custom = _creator_block(body, where)
        elif block_id == ID_SNAPSHOT:
            snap, ext = _snapshot_block(body, where)
            if rzx is None:
                rzx = Rzx(snapshot=snap, snapshot_ext=ext)
        elif block_id == ID_INPUT:
            if rzx is None:
                raise InputError(f"{where}: an input recording before any snapshot")
            block_tstates = _input_block(body, where, frames)
            if tstates is None:
                tstates = block_tstates
        i += length
    if rzx is None:
        raise InputError(f"{name}: no snapshot block")
    rzx.frames, rzx.creator, rzx.creator_version, rzx.tstates = frames, creator, version, tstates or 0
    rzx.custom = custom
    return rzx


def _creator_block(body: bytes, where: str) -> tuple[str, tuple[int, int], bytes]:
    """A creator block's body: the creator's name, its version (major, minor) and its custom data."""
    if len(body) < 24:
        raise InputError(f"{where}: a creator block needs 24 bytes, has {len(body)}")
    creator = body[:20].split(b"\0")[0].decode("ascii", "replace")
    version = (int.from_bytes(body[20:22], "little"), int.from_bytes(body[22:24], "little"))
    return creator, version, bytes(body[24:24 + MAX_CUSTOM])


def _snapshot_block(body: bytes, where: str) -> tuple[bytes, str]:
    """A snapshot block's body: the snapshot, inflated, and its file type ("z80")."""
    if len(body) < 12:
        raise InputError(f"{where}: a snapshot block needs 12 bytes of fields, has {len(body)}")
    flags = int.from_bytes(body[0:4], "little")
    if flags & 1:
        raise InputError(f"{where}: the snapshot is an external file (flags bit 0), not taken")
    ext = body[4:8].split(b"\0")[0].decode("ascii", "replace").lower()
    size = int.from_bytes(body[8:12], "little")
    snap = _inflate(body[12:], where, MAX_SNAPSHOT) if flags & COMPRESSED else body[12:]
    if len(snap) != size:
        raise InputError(f"{where}: snapshot is {len(snap)} bytes, the block says {size}")
    return snap, ext


def _input_block(body: bytes, where: str, frames: list[RzxFrame]) -> int:
    """An input recording block's body: its frames added to *frames*; the T-state its first frame starts at."""
    if len(body) < 13:
        raise InputError(f"{where}: an input recording block needs 13 bytes of fields, has {len(body)}")
    count = int.from_bytes(body[0:4], "little")
    tstates = int.from_bytes(body[5:9], "little")
    flags = int.from_bytes(body[9:13], "little")
    raw = _inflate(body[13:], where, MAX_FRAMES_DATA) if flags & COMPRESSED else body[13:]
    j, previous = 0, b""
    for k in range(count):
        if j + 4 > len(raw):
            raise InputError(f"{where}: frame {k} of {count} cut short at byte {j} of the frame data")
        fetches = int.from_bytes(raw[j:j + 2], "little")
        n = int.from_bytes(raw[j + 2:j + 4], "little")
        j += 4
        if n == SAME_AS_LAST:
            inputs = previous
        else:
            inputs = raw[j:j + n]
            if len(inputs) != n:
                raise InputError(f"{where}: frame {k}: {n} port readings, {len(inputs)} present")
            j += n
            previous = inputs
        frames.append(RzxFrame(fetches, inputs))
    if j != len(raw):
        raise InputError(f"{where}: {len(raw) - j} bytes after the last of its {count} frames")
    return tstates
