"""Tape audio: TAP blocks -> WAV with the ROM's own timings, and WAV -> edge times, so a real 48K can load the game.

The 48K ROM's SA-BYTES writes a block as a pilot tone of 2168-T-state
half-periods (8063 of them before a header, 3223 before data), two sync
half-periods of 667 and 735 T-states, then every byte (flag, data, checksum)
MSB first, each bit as two equal half-periods: 855 T-states for 0, 1710 for 1,
at 3.5 MHz. LD-BYTES at the other end only times the gaps between edges, so
the signal is kept here as a list of edge-to-edge durations ("pulses", like
Debian's tape2pulses prints) and rendered by integrating the square wave over
each sample period: an edge inside a sample gives an in-between value, which
keeps its timing finer than the sample grid. The reader goes the other way
(threshold crossings, interpolated between samples), so our WAV, Debian's
tape2wav output or a recording can be compared pulse by pulse, or handed to a
loader that reads TZX (see `tzx.direct_recording`).

Levels: the lead-in silence is low and every edge toggles; a standard block
has an odd number of pulses, so each pause after a block is low as well.
"""
from __future__ import annotations

import os
import wave
from dataclasses import dataclass
from typing import Iterable

import numpy as np
import numpy.typing as npt

from ..errors import InputError
from .tape import TapeBlock

CPU_HZ = 3_500_000            # T-states per second of a 48K
SAMPLE_RATE = 44_100
PILOT = 2168                  # pilot half-period, T-states
PILOT_HEADER = 8063           # pilot half-periods before a header block (flag < 128)
PILOT_DATA = 3223             # ... before any other block
SYNC1, SYNC2 = 667, 735       # the two sync half-periods
ZERO, ONE = 855, 1710         # half-periods of a 0 bit and a 1 bit
PAUSE_MS = 1000               # silence after each block (as in TAP -> TZX conversions)
LEAD_IN_MS = 200              # silence before the first block, so a player does not clip it


def block_pulses(block: TapeBlock) -> list[int]:
    """The half-periods SA-BYTES writes for one block: pilot, two syncs, then two per bit."""
    raw = bytes([block.flag]) + block.data + bytes([block.checksum])
    pilot = PILOT_HEADER if block.flag < 0x80 else PILOT_DATA
    pulses = [PILOT] * pilot + [SYNC1, SYNC2]
    for byte in raw:
        for bit in range(7, -1, -1):
            half = ONE if byte >> bit & 1 else ZERO
            pulses += (half, half)
    return pulses


def tape_pulses(blocks: Iterable[TapeBlock], pause_ms: int = PAUSE_MS,
                lead_in_ms: int = LEAD_IN_MS) -> list[int]:
    """The whole tape as edge-to-edge durations: lead-in, then each block and its pause.

    The first duration is the lead-in (low); every later one starts with an edge.
    """
    if lead_in_ms <= 0:
        raise InputError("the lead-in must be positive: it sets the level of the silences")
    pulses = [lead_in_ms * CPU_HZ // 1000]
    for block in blocks:
        pulses += block_pulses(block)
        pulses.append(pause_ms * CPU_HZ // 1000)
    return pulses


@dataclass(frozen=True)
class WavInfo:
    """What was written: sample rate, bits per sample, samples and the tape's length."""
    rate: int
    bits: int
    samples: int

    @property
    def seconds(self) -> float:
        return self.samples / self.rate


def render(pulses: list[int], rate: int = SAMPLE_RATE) -> np.ndarray:
    """Fraction of each sample period at the high level (0.0-1.0), by exact integration."""
    edges = np.concatenate(([0], np.cumsum(np.asarray(pulses, dtype=np.int64))))
    high = np.zeros(len(edges))
    levels = np.arange(len(pulses)) % 2                       # duration i is high when i is odd
    high[1:] = np.cumsum(np.asarray(pulses, dtype=np.float64) * levels)
    n = int(np.ceil(edges[-1] * rate / CPU_HZ))
    t = np.arange(n + 1, dtype=np.float64) * (CPU_HZ / rate)  # sample boundaries in T-states
    covered = np.interp(t, edges.astype(np.float64), high)    # high time up to each boundary
    return np.diff(covered) * (rate / CPU_HZ)


def write_wav(path: str | os.PathLike[str], blocks: Iterable[TapeBlock], rate: int = SAMPLE_RATE,
              bits: int = 8, amplitude: float = 1.0) -> WavInfo:
    """Write the tape as a mono PCM WAV (8-bit unsigned or 16-bit signed), full scale by default, with the
    usual silences (LEAD_IN_MS before it, PAUSE_MS after each block; other silences: `write_pulses_wav`
    with `tape_pulses`)."""
    return write_pulses_wav(path, tape_pulses(blocks), rate, bits, amplitude)


def write_pulses_wav(path: str | os.PathLike[str], pulses: list[int], rate: int = SAMPLE_RATE,
                     bits: int = 8, amplitude: float = 1.0) -> WavInfo:
    """Write *pulses* (`tape_pulses`) as a mono PCM WAV (8-bit unsigned or 16-bit signed)."""
    if bits not in (8, 16):
        raise InputError(f"{os.fspath(path)}: {bits}-bit samples are not supported (8 or 16)")
    if not 0 < amplitude <= 1:
        raise InputError(f"{os.fspath(path)}: amplitude {amplitude} is not in (0, 1]")
    level = render(pulses, rate) * 2 - 1   # -1 low .. +1 high
    if bits == 8:
        data = np.round(128 + 127 * amplitude * level).astype(np.uint8).tobytes()
    else:
        data = np.round(32767 * amplitude * level).astype("<i2").tobytes()
    with wave.open(os.fspath(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(bits // 8)
        w.setframerate(rate)
        w.writeframes(data)
    return WavInfo(rate, bits, len(level))


def read_wav(path: str | os.PathLike[str]) -> tuple[int, npt.NDArray[np.float64]]:
    """(sample rate, samples as floats) of a PCM WAV's first channel; 8-, 16- or 32-bit."""
    name = os.fspath(path)
    try:
        with wave.open(name, "rb") as w:
            rate, width, channels = w.getframerate(), w.getsampwidth(), w.getnchannels()
            raw = w.readframes(w.getnframes())
    except (wave.Error, EOFError) as exc:
        raise InputError(f"{name}: not a PCM WAV file ({exc})") from exc
    dtypes: dict[int, npt.DTypeLike] = {1: np.uint8, 2: "<i2", 4: "<i4"}
    dtype = dtypes.get(width)
    if dtype is None:
        raise InputError(f"{name}: {8 * width}-bit samples are not supported (8, 16 or 32)")
    samples = np.frombuffer(raw, dtype=dtype).reshape(-1, channels)[:, 0].astype(np.float64)
    return rate, samples


def wav_edges(path: str | os.PathLike[str]) -> npt.NDArray[np.float64]:
    """Times of the signal's edges in T-states: crossings of the level halfway between min and max.

    A sample is taken as the mean over its period (how `render` makes it and
    how a DAC's output averages), so its time is the middle of the period;
    the crossing is interpolated linearly between the two samples around it.
    """
    rate, x = read_wav(path)
    if len(x) < 2 or x.max() == x.min():
        raise InputError(f"{os.fspath(path)}: no signal (the samples never change)")
    threshold = (x.max() + x.min()) / 2
    above = x > threshold
    k = np.nonzero(above[1:] != above[:-1])[0]            # a crossing between samples k and k+1
    frac = (threshold - x[k]) / (x[k + 1] - x[k])
    edges: npt.NDArray[np.float64] = (k + frac + 0.5) * (CPU_HZ / rate)
    return edges


def wav_pulses(path: str | os.PathLike[str]) -> npt.NDArray[np.float64]:
    """Edge-to-edge durations of a WAV in T-states (the silences before the first and after the last edge are not pulses)."""
    return np.diff(wav_edges(path))


def split_blocks(pulses: Iterable[float], gap: float = 20_000) -> list[list[float]]:
    """Group pulses into blocks at every silence longer than *gap* T-states (the pauses)."""
    blocks: list[list[float]] = [[]]
    for p in pulses:
        if p > gap:
            if blocks[-1]:
                blocks.append([])
        else:
            blocks[-1].append(p)
    return [b for b in blocks if b]
