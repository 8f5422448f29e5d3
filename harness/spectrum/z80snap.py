""".z80 snapshots (version 3, 48K) to and from the embedded machine, so a moment of play can be opened in Fuse, SkoolKit or any emulator, and theirs in ours.

Layout (all words little-endian), as documented with the format:

* bytes 0-29: A F BC HL PC(0: see below) SP I R, a flag byte (bit 0: bit 7
  of R; bits 1-3: border; bit 5: version 1 data compressed), DE BC' DE' HL'
  A' F' IY IX IFF1 IFF2, and a mode byte (bits 0-1: interrupt mode);
* bytes 30-31: length of the extra header (23 in version 2, 54 or 55 in 3);
  PC follows, then the hardware mode (0, 1 or 3 mean a 48K in version 3;
  0 or 1 in version 2), and in version 3 the T-states since the interrupt as
  a count-down within the current quarter frame (bytes 55-56) and the
  quarter (byte 57);
* memory blocks: length (0xFFFF: 16384 bytes stored as they are), page
  (8: 0x4000, 4: 0x8000, 5: 0xC000), data. Compressed data writes a run of
  5 or more equal bytes, or of 2 or more 0xED, as ED ED count byte; a lone
  0xED takes the byte after it along unrun. Version 1 files hold the 48K in
  one such stream ending 00 ED ED 00.

The machine's state that the format has no field for: a halted CPU is saved
with PC on its HALT (so it halts again), and a snapshot taken between two
frames (the coming interrupt not yet taken) is saved at the last T-state of
the frame, so that other emulators take the interrupt next, as ours does.
The core's interrupt mode and halt flag live only in its packed state
(`interrupt_mode`, `is_halted` below).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..errors import InputError
from .core import packed_state
from .machine import FRAME_T, MachineOptions, Spectrum48

if TYPE_CHECKING:
    from typing_extensions import Unpack

RAM_START = 0x4000
PAGES = ((8, 0x4000), (4, 0x8000), (5, 0xC000))   # (.z80 page number, address) of a 48K
PAGE_SIZE = 0x4000
QUARTER = FRAME_T // 4
EXTRA_V2, EXTRA_V3 = 23, 54
MODES_48K = {23: (0, 1), 54: (0, 1, 3), 55: (0, 1, 3)}

# Offsets in the core's packed state (see z80._machine.Z80State).
_STATE_HALTED = 41
_STATE_INT_MODE = 42

# Register names in the 30-byte header: (name, offset, size).
HEADER_FIELDS = (
    ("a", 0, 1), ("f", 1, 1), ("bc", 2, 2), ("hl", 4, 2), ("sp", 8, 2), ("i", 10, 1),
    ("de", 13, 2), ("alt_bc", 15, 2), ("alt_de", 17, 2), ("alt_hl", 19, 2),
    ("iy", 23, 2), ("ix", 25, 2),
)


@dataclass
class Z80Snapshot:
    """A 48K machine state as a .z80 holds it: registers, interrupt state, border, T-states, RAM."""
    regs: dict[str, int]                     # a f bc de hl ix iy sp pc i r alt_af alt_bc alt_de alt_hl
    iff1: bool = True
    iff2: bool = True
    int_mode: int = 1
    border: int = 7
    tstates: int = 0                         # since the frame's interrupt, 0..69887
    ram: bytes = field(default=bytes(0xC000), repr=False)   # 0x4000-0xFFFF
    issue2: bool = False
    version: int = 3

    def memory(self, rom: bytes) -> bytes:
        """The 64K address space: *rom* then the RAM (for screen readers and diffs)."""
        return bytes(rom[:RAM_START]) + self.ram


# ---------------------------------------------------------------- the core's packed state
def _state(machine: Spectrum48) -> memoryview:
    return packed_state(machine.cpu, "a .z80 snapshot").state_view


def interrupt_mode(machine: Spectrum48) -> int:
    return _state(machine)[_STATE_INT_MODE]


def _set_int_mode(machine: Spectrum48, mode: int) -> None:
    _state(machine)[_STATE_INT_MODE] = mode


def is_halted(machine: Spectrum48) -> bool:
    return bool(_state(machine)[_STATE_HALTED])


def _set_halted(machine: Spectrum48, halted: bool) -> None:
    _state(machine)[_STATE_HALTED] = int(halted)


# ---------------------------------------------------------------- machine <-> snapshot
def from_machine(machine: Spectrum48) -> Z80Snapshot:
    """The machine's state now (call it between run calls, with no key held)."""
    cpu = machine.cpu
    regs = {name: cpu.get(name) for name in
            ("a", "f", "bc", "de", "hl", "ix", "iy", "sp", "pc", "i", "r",
             "alt_af", "alt_bc", "alt_de", "alt_hl")}
    if is_halted(machine):
        regs["pc"] = (regs["pc"] - 1) & 0xFFFF           # the core keeps PC past the HALT
    tstates = machine.s.t if machine.mid_frame else FRAME_T - 1
    return Z80Snapshot(regs=regs, iff1=bool(cpu.get("iff1")), iff2=bool(cpu.get("iff2")),
                       int_mode=interrupt_mode(machine), border=machine.s.border,
                       tstates=min(max(tstates, 0), FRAME_T - 1), ram=machine.read(RAM_START, 0xC000))


def to_machine(snap: Z80Snapshot, machine: Spectrum48 | None = None,
               **machine_args: Unpack[MachineOptions]) -> Spectrum48:
    """Put *snap* into *machine* (a new Spectrum48(**machine_args) by default) and return it.

    The machine resumes inside the frame at the snapshot's T-state, its
    interrupt taken; at the frame's last T-state it resumes at the frame's
    end instead, the interrupt due (see the module's note). Its own frame
    counter starts again from 0.
    """
    m = machine or Spectrum48(**machine_args)
    m.write(RAM_START, snap.ram)
    cpu = m.cpu
    for name, value in snap.regs.items():
        if name != "pc":
            cpu.set(name, value)
    cpu.pc = snap.regs["pc"]
    cpu.set("iff1", int(snap.iff1))
    cpu.set("iff2", int(snap.iff2))
    _set_int_mode(m, snap.int_mode)
    _set_halted(m, False)
    m.s.border = snap.border
    if snap.tstates >= FRAME_T - 1:
        m.place_at_frame_start()
    else:
        m.place_in_frame(snap.tstates)
    m.s.at_bp = False
    m.s.frames = 0
    m.keyboard.release_all()
    return m


# ---------------------------------------------------------------- compression
def compress(data: bytes) -> bytes:
    """The .z80 run-length coding: ED ED n b for runs of 5+ (or 2+ of 0xED), at most 255 long."""
    out = bytearray()
    i, n = 0, len(data)
    while i < n:
        b = data[i]
        run = 1
        while i + run < n and run < 255 and data[i + run] == b:
            run += 1
        if run >= 5 or (b == 0xED and run >= 2):
            out += bytes((0xED, 0xED, run, b))
            i += run
        elif b == 0xED:
            out.append(0xED)                   # a lone ED: the next byte is never the start of a run
            if i + 1 < n:
                out.append(data[i + 1])
            i += 2
        else:
            out.append(b)
            i += 1
    return bytes(out)


def decompress(data: bytes, size: int | None = None, where: str = "") -> bytes:
    """Undo `compress`; with *size*, the result must be exactly that long."""
    out = bytearray()
    i, n = 0, len(data)
    while i < n:
        if data[i] == 0xED and i + 1 < n and data[i + 1] == 0xED:
            if i + 3 >= n:
                raise InputError(f"{where}: ED ED run cut short at byte {i}")
            count, value = data[i + 2], data[i + 3]
            if count == 0:
                raise InputError(f"{where}: ED ED 00 {value:02X} at byte {i}")
            out += bytes([value]) * count
            i += 4
        else:
            out.append(data[i])
            i += 1
    if size is not None and len(out) != size:
        raise InputError(f"{where}: {len(out)} bytes after decompression, expected {size}")
    return bytes(out)


# ---------------------------------------------------------------- writing
def write_z80(snap: Z80Snapshot, compressed: bool = True) -> bytes:
    """The version 3 .z80 file of a 48K state."""
    r = snap.regs
    head = bytearray(30)
    for name, offset, size in HEADER_FIELDS:
        head[offset:offset + size] = (r[name] & (0xFF if size == 1 else 0xFFFF)).to_bytes(size, "little")
    head[11] = r["r"] & 0x7F
    head[12] = (r["r"] >> 7 & 1) | (snap.border & 7) << 1
    head[21], head[22] = r["alt_af"] >> 8 & 0xFF, r["alt_af"] & 0xFF
    head[27], head[28] = int(snap.iff1), int(snap.iff2)
    head[29] = (snap.int_mode & 3) | (4 if snap.issue2 else 0)
    extra = bytearray(EXTRA_V3)                # bytes 32..85 of the file
    extra[0:2] = (r["pc"] & 0xFFFF).to_bytes(2, "little")
    extra[2] = 0                               # hardware: 48K
    extra[5] = 0x03                            # R and LDIR emulation on
    t = snap.tstates % FRAME_T
    extra[23:25] = (QUARTER - t % QUARTER - 1).to_bytes(2, "little")
    extra[25] = (t // QUARTER + 3) % 4
    out = head + EXTRA_V3.to_bytes(2, "little") + extra
    for page, addr in PAGES:
        data = snap.ram[addr - RAM_START:addr - RAM_START + PAGE_SIZE]
        packed = compress(data) if compressed else None
        if packed is None or len(packed) >= PAGE_SIZE:
            out += b"\xff\xff" + bytes([page]) + data
        else:
            out += len(packed).to_bytes(2, "little") + bytes([page]) + packed
    return bytes(out)


def save(machine: Spectrum48, path: str | os.PathLike[str], compressed: bool = True) -> Z80Snapshot:
    """Write the machine's state to *path*; returns what was written."""
    snap = from_machine(machine)
    with open(path, "wb") as f:
        f.write(write_z80(snap, compressed))
    return snap


# ---------------------------------------------------------------- reading
def read_z80(source: str | os.PathLike[str] | bytes) -> Z80Snapshot:
    """Parse a 48K .z80 of version 1, 2 or 3."""
    if isinstance(source, (bytes, bytearray)):
        data, name = bytes(source), "<bytes>"
    else:
        name = os.fspath(source)
        with open(name, "rb") as f:
            data = f.read()
    if len(data) < 30:
        raise InputError(f"{name}: {len(data)} bytes, shorter than the 30-byte header")
    h = data[:30]
    flags = 1 if h[12] == 0xFF else h[12]      # 255 means 1, for old files
    regs = {fname: int.from_bytes(h[off:off + size], "little") for fname, off, size in HEADER_FIELDS}
    regs["r"] = (h[11] & 0x7F) | (flags & 1) << 7
    regs["alt_af"] = h[21] << 8 | h[22]
    pc = int.from_bytes(h[6:8], "little")
    tstates, version = 0, 1
    if pc:
        ram = _version1_ram(data[30:], flags, name)
    else:
        version, pc, tstates, ram = _version2_or_3(data, name)
    regs["pc"] = pc
    return Z80Snapshot(regs=regs, iff1=bool(h[27]), iff2=bool(h[28]), int_mode=h[29] & 3,
                       border=flags >> 1 & 7, tstates=tstates, ram=ram, issue2=bool(h[29] & 4),
                       version=version)


def _version1_ram(body: bytes, flags: int, name: str) -> bytes:
    """A version 1 file's memory (the 48K's RAM), after its header."""
    if flags & 0x20:
        if body[-4:] != b"\x00\xed\xed\x00":
            raise InputError(f"{name}: version 1 data does not end with 00 ED ED 00")
        return decompress(body[:-4], 0xC000, f"{name}: version 1 memory")
    if len(body) != 0xC000:
        raise InputError(f"{name}: version 1 memory is {len(body)} bytes, expected 49152")
    return body


def _version2_or_3(data: bytes, name: str) -> tuple[int, int, int, bytes]:
    """A version 2 or 3 file's extra header and memory blocks: (version, PC, T-states, the 48K's RAM)."""
    if len(data) < 32:
        raise InputError(f"{name}: the extra header's length is missing (byte 30)")
    extra_len = int.from_bytes(data[30:32], "little")
    if extra_len not in MODES_48K:
        raise InputError(f"{name}: extra header of {extra_len} bytes at byte 30 "
                            f"(version 2 has 23, version 3 has 54 or 55)")
    extra = data[32:32 + extra_len]
    if len(extra) < extra_len:
        raise InputError(f"{name}: the extra header is cut short at byte {len(data)}")
    version = 2 if extra_len == EXTRA_V2 else 3
    pc = int.from_bytes(extra[0:2], "little")
    if extra[2] not in MODES_48K[extra_len]:
        raise InputError(f"{name}: hardware mode {extra[2]} at byte 34 is not a 48K "
                            f"(this reader takes 48K snapshots only)")
    tstates = 0
    if version == 3:
        low = int.from_bytes(extra[23:25], "little")
        tstates = ((extra[25] + 1) % 4 + 1) * QUARTER - (low + 1)
        tstates = min(max(tstates, 0), FRAME_T - 1)
    ram_pages = _memory_blocks(data, 32 + extra_len, name)
    missing = [p for p, _ in PAGES if p not in ram_pages]
    if missing:
        raise InputError(f"{name}: no memory block for page(s) {missing} (a 48K needs 4, 5 and 8)")
    return version, pc, tstates, b"".join(ram_pages[p] for p, _ in PAGES)


def _memory_blocks(data: bytes, i: int, name: str) -> dict[int, bytes]:
    """The memory blocks from byte *i* to the end, each inflated: page number -> its 16K."""
    ram_pages: dict[int, bytes] = {}
    while i < len(data):
        if i + 3 > len(data):
            raise InputError(f"{name}: memory block header cut short at byte {i}")
        length, page = int.from_bytes(data[i:i + 2], "little"), data[i + 2]
        where = f"{name}: memory block for page {page} at byte {i}"
        if length == 0xFFFF:
            chunk = data[i + 3:i + 3 + PAGE_SIZE]
            if len(chunk) != PAGE_SIZE:
                raise InputError(f"{where}: {len(chunk)} of 16384 bytes present")
            i += 3 + PAGE_SIZE
        else:
            raw = data[i + 3:i + 3 + length]
            if len(raw) != length:
                raise InputError(f"{where}: {len(raw)} of {length} bytes present")
            chunk = decompress(raw, PAGE_SIZE, where)
            i += 3 + length
        ram_pages[page] = chunk
    return ram_pages

def load(path: str | os.PathLike[str], machine: Spectrum48 | None = None,
         **machine_args: Unpack[MachineOptions]) -> Spectrum48:
    """A machine (new, or *machine*) in the state saved in the .z80 at *path*."""
    return to_machine(read_z80(path), machine, **machine_args)
