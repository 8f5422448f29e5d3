"""The tape as other machines take it: WAV with the ROM's timings, TZX, and .z80 snapshots of our machine.

The tape under test and "the first session" played on our machine, which the
other emulators must reproduce, are tests/helpers.py's (shared with the Fuse
and SkoolKit tests).
"""
from __future__ import annotations

import wave
from pathlib import Path

import numpy as np
import pytest

from harness.errors import InputError, MachineError, UsageError
from harness.commands import snapshot as snapshot_cmd_cmd
from harness.commands import build as build_mod_cmd
from harness.program.model import snapshot as snapshot_cmd
from harness.spectrum import audio, tzx, z80snap
from harness.spectrum.machine import Spectrum48
from harness.spectrum.tape import read_tap
from helpers import (ANSWERS, DEAL_LINE, MUGGINS, WELCOME, first_session, game_listing, game_tape, new_machine,
                     start_loading)


# ---------------------------------------------------------------- the first session itself
def test_the_first_session_shows_the_welcome_asks_muggins_and_deals():
    session = first_session(game_tape())
    welcome, muggins = session.steps[0], session.steps[1]
    assert (welcome.kind, welcome.line) == ("input", 7060)
    assert all(any(text in row for row in welcome.rows) for text in WELCOME)
    assert (muggins.kind, muggins.line) == ("input", 7405) and any(MUGGINS in r for r in muggins.rows)
    assert [s.answer for s in session.steps] == list(ANSWERS)
    assert session.deal.line > DEAL_LINE or session.deal.line < 7000   # waiting after the deal


# ---------------------------------------------------------------- WAV
def test_block_pulses_follow_the_rom_timings():
    header = read_tap(game_tape())[0]
    pulses = audio.block_pulses(header)
    assert pulses[:8063] == [2168] * 8063                    # header pilot
    assert pulses[8063:8065] == [667, 735]                   # sync
    flag = pulses[8065:8081]                                 # flag byte 0x00: eight 0 bits
    assert flag == [855] * 16
    assert len(pulses) == 8063 + 2 + 16 * (1 + 17 + 1)       # flag, 17 header bytes, checksum
    data = read_tap(game_tape())[1]
    assert audio.block_pulses(data)[:3223] == [2168] * 3223  # data pilot
    assert audio.block_pulses(data)[3225:3227] == [1710, 1710]   # flag 0xFF starts with a 1 bit


@pytest.mark.parametrize("bits", [8, 16])
def test_wav_read_back_matches_the_pulses_to_a_fraction_of_a_sample(tmp_path, bits):
    wav_path = tmp_path / f"game{bits}.wav"
    blocks = read_tap(game_tape())
    info = audio.write_wav(wav_path, blocks, bits=bits)
    with wave.open(str(wav_path)) as w:
        assert (w.getframerate(), w.getnchannels(), w.getsampwidth()) == (44100, 1, bits // 8)
        assert w.getnframes() == info.samples
    got = audio.split_blocks(audio.wav_pulses(wav_path))
    assert [len(b) for b in got] == [len(audio.block_pulses(b)) for b in blocks]
    worst = max(np.abs(np.array(g) - audio.block_pulses(b)).max() for g, b in zip(got, blocks))
    assert worst < 20          # T-states; one sample is 79.4


# ---------------------------------------------------------------- TZX
TZX_HEADER = [   # (offset, bytes, what)
    (0, b"ZXTape!", "signature"),
    (7, b"\x1a", "end-of-text marker"),
    (8, b"\x01\x14", "version 1.20"),
    (10, b"\x10", "first block: standard speed data"),
    (11, (1000).to_bytes(2, "little"), "pause after it, ms"),
    (13, (19).to_bytes(2, "little"), "length: flag, 17 header bytes, checksum"),
    (15, b"\x00\x00CRIBBAGE  ", "flag 0x00, type 0 (program), the name"),
]


def test_tzx_header_and_first_block():
    data = tzx.tap_to_tzx(read_tap(game_tape()))
    for offset, expected, what in TZX_HEADER:
        assert data[offset:offset + len(expected)] == expected, what


def test_direct_recording_block_fields():
    block = tzx.direct_recording([79 * 3, 79 * 11], end=79 * 20, tstates_per_sample=79, pause_ms=5)
    assert block[0] == 0x15
    assert block[1:3] == (79).to_bytes(2, "little")          # T-states per sample
    assert block[3:5] == (5).to_bytes(2, "little")           # pause
    assert block[5] == 4                                     # 20 samples: 8 + 8 + 4 bits
    assert block[6:9] == (3).to_bytes(3, "little")           # 3 data bytes
    assert block[9:] == bytes([0b00011111, 0b11100000, 0b00000000])   # low, high from sample 3, low from 11


# ---------------------------------------------------------------- the build command's exports
def test_build_writes_wav_and_tzx(tmp_path, capsys):
    listing = tmp_path / "game.bas"
    listing.write_text(game_listing(), encoding="utf-8")
    tap, wav, tzx_path = tmp_path / "g.tap", tmp_path / "g.wav", tmp_path / "g.tzx"
    assert build_mod_cmd.main(["-o", str(tap), "--listing", str(listing), "--wav", str(wav),
                           "--wav-bits", "16", "--tzx", str(tzx_path)]) == 0
    blocks = read_tap(tap)
    assert tzx_path.read_bytes() == tzx.tap_to_tzx(blocks)
    with wave.open(str(wav)) as w:
        assert (w.getframerate(), w.getsampwidth(), w.getnchannels()) == (44100, 2, 1)
    assert len(audio.split_blocks(audio.wav_pulses(wav))) == 4
    out = capsys.readouterr().out
    assert str(wav) in out and "44100 Hz 16-bit mono" in out and "TZX 1.20" in out


def test_build_refuses_other_sample_sizes(tmp_path):
    with pytest.raises(UsageError, match="--wav-bits"):
        build_mod_cmd.main(["-o", str(tmp_path / "g.tap"), "--wav", str(tmp_path / "g.wav"), "--wav-bits", "24"])


def test_wav_errors_name_the_file(tmp_path):
    bad = tmp_path / "not.wav"
    bad.write_bytes(b"RIFF....WAVEjunk")
    with pytest.raises(InputError, match="not.wav"):
        audio.wav_edges(bad)
    with pytest.raises(InputError, match="24-bit"):
        audio.write_wav(tmp_path / "x.wav", [], bits=24)


# ---------------------------------------------------------------- .z80 snapshots
def _distinct_registers(m: Spectrum48) -> None:
    values = {"a": 0x12, "f": 0x34, "bc": 0x5678, "hl": 0x9ABC, "sp": 0xDEF0, "i": 0x3F, "r": 0xA5,
              "de": 0x1357, "alt_bc": 0x2468, "alt_de": 0x369C, "alt_hl": 0x48AD, "alt_af": 0x5A6B,
              "iy": 0x5C3A, "ix": 0x7E8F}
    for name, value in values.items():
        m.cpu.set(name, value)
    m.cpu.pc = 0x1234
    m.s.border = 5
    m.place_in_frame(40_000)


Z80_HEADER = [   # (offset, value, what) in a version 3 file
    (0, 0x12, "A"),
    (1, 0x34, "F"),
    (2, 0x78, "C"), (3, 0x56, "B"),
    (4, 0xBC, "L"), (5, 0x9A, "H"),
    (6, 0x00, "PC low: 0 marks version 2 or 3"), (7, 0x00, "PC high"),
    (8, 0xF0, "SP low"), (9, 0xDE, "SP high"),
    (10, 0x3F, "I"),
    (11, 0x25, "R, bits 0-6"),
    (12, 0x01 | 5 << 1, "bit 0: bit 7 of R; bits 1-3: border 5"),
    (13, 0x57, "E"), (14, 0x13, "D"),
    (15, 0x68, "C'"), (16, 0x24, "B'"),
    (17, 0x9C, "E'"), (18, 0x36, "D'"),
    (19, 0xAD, "L'"), (20, 0x48, "H'"),
    (21, 0x5A, "A'"), (22, 0x6B, "F'"),
    (23, 0x3A, "IY low"), (24, 0x5C, "IY high"),
    (25, 0x8F, "IX low"), (26, 0x7E, "IX high"),
    (27, 1, "IFF1"), (28, 1, "IFF2"),
    (29, 1, "interrupt mode 1, no issue 2 emulation"),
    (30, 54, "extra header length: version 3"), (31, 0, ""),
    (32, 0x34, "PC low"), (33, 0x12, "PC high"),
    (34, 0, "hardware: 48K"),
    (55, (17472 - 40_000 % 17472 - 1) & 0xFF, "T-states: count-down in the quarter frame, low"),
    (56, (17472 - 40_000 % 17472 - 1) >> 8, "... high"),
    (57, (40_000 // 17472 + 3) % 4, "... and the quarter"),
    (86, 0xFF, "first memory block: stored as it is"), (87, 0xFF, ""),
    (88, 8, "... page 8 (0x4000)"),
]


def test_z80_header_bytes(booted_snapshot):
    m = Spectrum48()
    m.restore(booted_snapshot)
    _distinct_registers(m)
    data = z80snap.write_z80(z80snap.from_machine(m), compressed=False)
    for offset, value, what in Z80_HEADER:
        assert data[offset] == value, f"byte {offset} ({what}): {data[offset]:#04x}, expected {value:#04x}"
    assert len(data) == 86 + 3 * (3 + 16384)


COMPRESSION = [   # (raw, packed, why)
    (b"\x01\x02\x03", b"\x01\x02\x03", "nothing repeats"),
    (b"\x00" * 4, b"\x00" * 4, "a run of four stays as it is"),
    (b"\x00" * 5, b"\xed\xed\x05\x00", "a run of five is packed"),
    (b"\xed\xed", b"\xed\xed\x02\xed", "two EDs are always packed"),
    (b"\xed" + b"\x00" * 6, b"\xed\x00\xed\xed\x05\x00", "a lone ED takes the next byte along (the format's own example)"),
    (b"\x07" * 300, b"\xed\xed\xff\x07\xed\xed\x2d\x07", "runs longer than 255 are split"),
    (b"\x01\xed", b"\x01\xed", "a lone ED at the end"),
]


@pytest.mark.parametrize("raw,packed,why", COMPRESSION)
def test_z80_compression(raw, packed, why):
    assert z80snap.compress(raw) == packed, why
    assert z80snap.decompress(packed) == raw, why


def test_z80_compression_round_trips_random_memory():
    rng = np.random.default_rng(7)
    data = bytes(rng.choice([0x00, 0xED, 0x55, 0xFF], size=20_000, p=[0.4, 0.3, 0.2, 0.1]).astype(np.uint8))
    assert z80snap.decompress(z80snap.compress(data), len(data)) == data


@pytest.mark.parametrize("compressed", [True, False])
def test_z80_round_trip_of_a_machine(booted_snapshot, compressed):
    m = Spectrum48()
    m.restore(booted_snapshot)
    _distinct_registers(m)
    snap = z80snap.read_z80(z80snap.write_z80(z80snap.from_machine(m), compressed))
    assert snap == z80snap.from_machine(m)
    restored = z80snap.to_machine(snap)
    for name in snap.regs:
        assert restored.cpu.get(name) == m.cpu.get(name), name
    assert z80snap.interrupt_mode(restored) == 1 and restored.s.border == 5 and restored.s.t == 40_000


def test_z80_versions_1_and_2_are_read():
    ram = bytes(range(256)) * 192
    head = bytearray(30)
    head[0], head[6:8], head[12], head[29] = 0x42, (0x8000).to_bytes(2, "little"), 0x20 | 3 << 1, 2
    v1 = bytes(head) + z80snap.compress(ram) + b"\x00\xed\xed\x00"
    snap = z80snap.read_z80(v1)
    assert (snap.version, snap.regs["a"], snap.regs["pc"], snap.border, snap.int_mode, snap.ram) == (1, 0x42, 0x8000, 3, 2, ram)
    head[6:8], head[12] = b"\x00\x00", 3 << 1
    extra = bytearray(23)
    extra[0:2] = (0x9000).to_bytes(2, "little")
    blocks = b"".join(b"\xff\xff" + bytes([page]) + ram[o:o + 0x4000] for page, o in ((8, 0), (4, 0x4000), (5, 0x8000)))
    snap = z80snap.read_z80(bytes(head) + (23).to_bytes(2, "little") + bytes(extra) + blocks)
    assert (snap.version, snap.regs["pc"], snap.ram) == (2, 0x9000, ram)


def test_z80_errors_say_what_and_where(booted_snapshot):
    m = Spectrum48()
    m.restore(booted_snapshot)
    good = bytearray(z80snap.write_z80(z80snap.from_machine(m)))
    bad_mode = bytearray(good)
    bad_mode[34] = 4                                       # a 128K
    with pytest.raises(InputError, match="hardware mode 4 at byte 34"):
        z80snap.read_z80(bytes(bad_mode))
    with pytest.raises(InputError, match="page 5 at byte"):
        z80snap.read_z80(bytes(good[:-10]))                 # the last block cut short
    with pytest.raises(InputError, match="shorter than the 30-byte header"):
        z80snap.read_z80(b"\x00" * 12)


def test_a_halted_cpu_is_saved_on_its_halt(booted_snapshot):
    m = Spectrum48()
    m.restore(booted_snapshot)
    m.write(0x8000, b"\xfb\x76\x00")                      # EI; HALT
    m.cpu.pc = 0x8000
    m.place_in_frame()
    m.run_frame()                                          # halted until the next interrupt
    assert z80snap.is_halted(m) and m.cpu.pc == 0x8002
    assert z80snap.from_machine(m).regs["pc"] == 0x8001


# ---------------------------------------------------------------- cribbage-zx snapshot
def _snapshot_cmd(tmp_path, *args) -> Path:
    tape = tmp_path / "game.tap"
    tape.write_bytes(game_tape())
    out = tmp_path / "deal.z80"
    answers = [a for text in ANSWERS for a in ("--answer", text)]
    assert snapshot_cmd_cmd.main(["--tape", str(tape), *args, *answers, str(out)]) == 0
    return out


def test_snapshot_command_stops_at_the_deal_and_the_machine_continues_identically(tmp_path, capsys):
    out = _snapshot_cmd(tmp_path, "--at", str(DEAL_LINE))
    assert f"line {DEAL_LINE}:1" in capsys.readouterr().out
    ours = new_machine()
    start_loading(ours, game_tape())
    snapshot_cmd.run_to_line(ours, DEAL_LINE, None, list(ANSWERS))
    restored = z80snap.load(out, fast=True)
    assert restored.ppc == DEAL_LINE and restored.cpu.pc == ours.cpu.pc
    a, b = ours.run_until_wait(), restored.run_until_wait()
    assert a.wait == b.wait
    for name in z80snap.from_machine(ours).regs:
        assert ours.cpu.get(name) == restored.cpu.get(name), name
    assert ours.read(0x4000, 0xC000) == restored.read(0x4000, 0xC000)


def test_snapshot_command_errors(tmp_path):
    tape = tmp_path / "game.tap"
    tape.write_bytes(game_tape())
    with pytest.raises(MachineError, match="waits for INPUT at line 7060.*no --answer is left"):
        snapshot_cmd_cmd.main(["--tape", str(tape), "--at", str(DEAL_LINE), str(tmp_path / "x.z80")])
    with pytest.raises(InputError, match="--tape .*none.tap: no such file$"):
        snapshot_cmd_cmd.main(["--tape", str(tmp_path / "none.tap"), "--at", "10", str(tmp_path / "x.z80")])
    with pytest.raises(UsageError, match="--at"):
        snapshot_cmd_cmd.main(["--tape", str(tape), str(tmp_path / "x.z80")])


def test_snapshot_command_is_in_the_cli():
    from harness.cli import COMMANDS
    assert COMMANDS["snapshot"][0] == "harness.commands.snapshot"
