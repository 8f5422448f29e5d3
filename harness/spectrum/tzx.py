"""TZX 1.20 files: the TAP's blocks as "standard speed data" for emulators and players that want TZX.

A TZX file is the 10-byte header ``ZXTape!`` 0x1A, major 1, minor 20, then
blocks, each an ID byte and its fields (little-endian). Two kinds are made:

* 0x10 standard speed data: pause after the block (ms, word), length (word),
  then the block as in a TAP (flag, data, checksum); a loader plays it with
  the ROM timings (see `audio`);
* 0x15 direct recording: T-states per sample (word), pause (ms, word), bits
  used in the last byte, length (3 bytes), then one bit per sample, MSB first,
  1 = high. It carries any signal, e.g. the edges read back from a WAV by
  `audio.wav_edges`, to a loader that reads TZX but not audio.

And two blocks that describe the tape rather than carry it (for archives):

* 0x32 archive info: length of the rest (word), number of texts, then each
  text as an ID byte, a length byte and ASCII (IDs: 00 title, 01 publisher,
  02 authors, 03 year, 04 language, 05 type, 06 price, 07 loader,
  08 origin, FF comment);
* 0x33 hardware type: number of entries, then each as three bytes: hardware
  type (00 computers), hardware ID (01 ZX Spectrum 48K), and how the tape
  uses it (00 runs on it, may or may not use its features; 01 uses its
  special features; 02 runs but does not use them; 03 does not run).
"""
from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

from ..errors import InputError
from .tape import TapeBlock

SIGNATURE = b"ZXTape!\x1a"
VERSION = (1, 20)
HEADER = SIGNATURE + bytes(VERSION)
ID_STANDARD = 0x10
ID_DIRECT = 0x15
ID_ARCHIVE_INFO = 0x32
ID_HARDWARE = 0x33
TEXT_IDS = {"title": 0x00, "publisher": 0x01, "authors": 0x02, "year": 0x03, "language": 0x04,
            "type": 0x05, "price": 0x06, "loader": 0x07, "origin": 0x08, "comment": 0xFF}
HW_COMPUTER, HW_48K = 0x00, 0x01
RUNS, USES_SPECIAL, RUNS_WITHOUT_SPECIAL, DOES_NOT_RUN = 0x00, 0x01, 0x02, 0x03
PAUSE_MS = 1000


def standard_block(block: TapeBlock, pause_ms: int = PAUSE_MS, index: int = 0) -> bytes:
    """Block 0x10 for one TAP block."""
    raw = block.to_bytes()[2:]                 # flag, data, checksum: the TAP block without its length
    if len(raw) > 0xFFFF:
        raise InputError(f"block {index}: {len(raw)} bytes do not fit a standard speed data block")
    if not 0 <= pause_ms <= 0xFFFF:
        raise InputError(f"block {index}: pause {pause_ms} ms is not a word")
    return bytes([ID_STANDARD]) + pause_ms.to_bytes(2, "little") + len(raw).to_bytes(2, "little") + raw


def tap_to_tzx(blocks: Iterable[TapeBlock], pause_ms: int = PAUSE_MS) -> bytes:
    """The TZX file holding *blocks* as standard speed data, each followed by *pause_ms* of silence."""
    return HEADER + b"".join(standard_block(b, pause_ms, i) for i, b in enumerate(blocks))


def direct_recording(edges: Sequence[float], end: float, tstates_per_sample: int = 79,
                     pause_ms: int = 0) -> bytes:
    """Block 0x15 sampling a signal that starts low at T-state 0 and toggles at each of *edges*, until *end*.

    79 T-states per sample is the nearest to 44.1 kHz; each sample takes the
    level at its start.
    """
    if not 1 <= tstates_per_sample <= 0xFFFF:
        raise InputError(f"{tstates_per_sample} T-states per sample is not a word")
    n = int(end // tstates_per_sample)
    if n <= 0:
        raise InputError("a direct recording needs at least one sample")
    times = np.arange(n, dtype=np.float64) * tstates_per_sample
    levels = (np.searchsorted(np.asarray(edges, dtype=np.float64), times, side="right") % 2).astype(np.uint8)
    data = np.packbits(levels).tobytes()
    if len(data) > 0xFFFFFF:
        raise InputError(f"{len(data)} bytes do not fit a direct recording block")
    used = n % 8 or 8
    return (bytes([ID_DIRECT]) + tstates_per_sample.to_bytes(2, "little") + pause_ms.to_bytes(2, "little")
            + bytes([used]) + len(data).to_bytes(3, "little") + data)


def tzx_file(blocks: Iterable[bytes]) -> bytes:
    """A TZX file from already-encoded blocks."""
    return HEADER + b"".join(blocks)


def archive_info(texts: Sequence[tuple[str, str]]) -> bytes:
    """Block 0x32 from (field, text) pairs, fields named as in TEXT_IDS; each text ASCII, at most 255 bytes."""
    body = bytearray([len(texts)])
    for field, text in texts:
        if field not in TEXT_IDS:
            raise InputError(f"archive info: no field {field!r} (fields: {', '.join(TEXT_IDS)})")
        try:
            raw = text.encode("ascii")
        except UnicodeEncodeError:
            raise InputError(f"archive info {field}: the TZX format holds ASCII text only, not {text!r}") from None
        if len(raw) > 255:
            raise InputError(f"archive info {field}: {len(raw)} bytes, at most 255")
        body += bytes([TEXT_IDS[field], len(raw)]) + raw
    if len(texts) > 255 or len(body) > 0xFFFF:
        raise InputError(f"archive info: {len(texts)} texts, {len(body)} bytes do not fit the block")
    return bytes([ID_ARCHIVE_INFO]) + len(body).to_bytes(2, "little") + bytes(body)


def hardware_type(entries: Sequence[tuple[int, int, int]]) -> bytes:
    """Block 0x33 from (hardware type, hardware ID, use) triples."""
    if not 1 <= len(entries) <= 255 or any(not all(0 <= v <= 255 for v in e) for e in entries):
        raise InputError(f"hardware type: {len(entries)} entries of three bytes each, 1 to 255 of them")
    return bytes([ID_HARDWARE, len(entries)]) + b"".join(bytes(e) for e in entries)
