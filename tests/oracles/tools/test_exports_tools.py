"""The exported tape formats against Debian's and SkoolKit's tools: tape2pulses, tapinfo, tape2wav, and the ROM loader in tap2sna loading the TZX and the WAV."""
from __future__ import annotations


import numpy as np

from harness.spectrum import audio, tzx
from harness.spectrum.charset import koi7_char
from harness.spectrum.screen import read_screen
from harness.spectrum.tape import read_tap
from helpers import (first_session, game_tape, run_tool, tap2sna, tool)


def test_our_pulses_equal_debian_tape2pulses(tmp_path):
    """libspectrum (Fuse's tape library) turns the same TAP into exactly our pulses, block by block."""
    tap = tmp_path / "game.tap"
    tap.write_bytes(game_tape())
    out = tmp_path / "pulses.txt"
    run_tool(tool("tape2pulses"), tap, out)
    theirs = [int(line.split(":")[0]) for line in out.read_text().splitlines() if line.strip()]
    ours = [audio.block_pulses(b) for b in read_tap(tap)]
    assert audio.split_blocks(theirs) == ours
    pauses = [p for p in theirs if p > 20_000]
    assert pauses == [audio.PAUSE_MS * 3500] * len(ours)     # a 1000 ms pause after every block


def test_wav_agrees_with_debian_tape2wav(tmp_path):
    """tape2wav (libspectrum) point-samples the same pulses: the same pulse counts, each within a sample."""
    tap = tmp_path / "game.tap"
    tap.write_bytes(game_tape())
    theirs_path, ours_path = tmp_path / "tape2wav.wav", tmp_path / "ours.wav"
    run_tool(tool("tape2wav"), tap, theirs_path)
    audio.write_wav(ours_path, read_tap(tap))
    theirs = audio.split_blocks(audio.wav_pulses(theirs_path))
    ours = audio.split_blocks(audio.wav_pulses(ours_path))
    assert len(theirs) == len(ours) == 4
    for i, (t, o) in enumerate(zip(theirs, ours)):
        # tape2wav starts high with no edge before the first pilot pulse: one pulse fewer in block 0
        o = o[1:] if i == 0 and len(o) == len(t) + 1 else o
        assert len(t) == len(o), f"block {i}: {len(t)} pulses in tape2wav's WAV, {len(o)} in ours"
        assert np.abs(np.array(t) - np.array(o)).max() < 80 + 20


def test_the_wav_loads_through_the_rom_loader_in_tap2sna(tmp_path):
    """WAV -> our edge reader -> TZX direct recording -> SkoolKit runs the ROM's LD-BYTES on it."""
    wav_path = tmp_path / "game.wav"
    audio.write_wav(wav_path, read_tap(game_tape()))
    edges = audio.wav_edges(wav_path)
    recording = tmp_path / "from-wav.tzx"
    recording.write_bytes(tzx.tzx_file([tzx.direct_recording(edges, edges[-1] + 3500)]))
    m = tap2sna(recording, tmp_path / "from-wav.z80")
    stop = m.run_until_wait()
    expected = first_session(game_tape()).steps[0]
    assert (stop.wait.kind, stop.wait.line) == ("input", expected.line)
    assert [r.rstrip() for r in read_screen(m.mem, font_text=koi7_char).rows] == expected.rows


def test_tapinfo_lists_the_tzx_as_the_tap(tmp_path):
    path = tmp_path / "game.tzx"
    path.write_bytes(tzx.tap_to_tzx(read_tap(game_tape())))
    out = run_tool(tool("tapinfo.py"), path)
    assert "Version: 1.20" in out
    assert out.count("Standard speed data (0x10)") == 4
    assert "Program: CRIBBAGE" in out and "LINE: 2" in out
    assert "Bytes: chr" in out and "CODE: 64600,768" in out
    program = read_tap(game_tape())[1]
    assert f"Length: {len(program.data) + 2}" in out


def test_the_tzx_loads_through_the_rom_loader_like_the_tap(tmp_path):
    path = tmp_path / "game.tzx"
    path.write_bytes(tzx.tap_to_tzx(read_tap(game_tape())))
    m = tap2sna(path, tmp_path / "tzx.z80")
    m.run_until_wait()
    rows = read_screen(m.mem, font_text=koi7_char).rows
    assert [r.rstrip() for r in rows] == first_session(game_tape()).steps[0].rows
