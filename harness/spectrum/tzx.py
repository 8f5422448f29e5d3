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
"""
from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

from ..errors import HarnessError
from .tape import TapeBlock

SIGNATURE = b"ZXTape!\x1a"
VERSION = (1, 20)
HEADER = SIGNATURE + bytes(VERSION)
ID_STANDARD = 0x10
ID_DIRECT = 0x15
PAUSE_MS = 1000


class TzxError(HarnessError, ValueError):
    """A block that does not fit the TZX fields (says which block and why)."""


def standard_block(block: TapeBlock, pause_ms: int = PAUSE_MS, index: int = 0) -> bytes:
    """Block 0x10 for one TAP block."""
    raw = block.to_bytes()[2:]                 # flag, data, checksum: the TAP block without its length
    if len(raw) > 0xFFFF:
        raise TzxError(f"block {index}: {len(raw)} bytes do not fit a standard speed data block")
    if not 0 <= pause_ms <= 0xFFFF:
        raise TzxError(f"block {index}: pause {pause_ms} ms is not a word")
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
        raise TzxError(f"{tstates_per_sample} T-states per sample is not a word")
    n = int(end // tstates_per_sample)
    if n <= 0:
        raise TzxError("a direct recording needs at least one sample")
    times = np.arange(n, dtype=np.float64) * tstates_per_sample
    levels = (np.searchsorted(np.asarray(edges, dtype=np.float64), times, side="right") % 2).astype(np.uint8)
    data = np.packbits(levels).tobytes()
    if len(data) > 0xFFFFFF:
        raise TzxError(f"{len(data)} bytes do not fit a direct recording block")
    used = n % 8 or 8
    return (bytes([ID_DIRECT]) + tstates_per_sample.to_bytes(2, "little") + pause_ms.to_bytes(2, "little")
            + bytes([used]) + len(data).to_bytes(3, "little") + data)


def tzx_file(blocks: Iterable[bytes]) -> bytes:
    """A TZX file from already-encoded blocks."""
    return HEADER + b"".join(blocks)
