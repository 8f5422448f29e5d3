"""`build` refuses what the ROM refuses, and no failed build or write ever replaces a good file."""
import errno
import os

import pytest

from harness.errors import InputError
from harness.commands import build as build_mod_cmd
from harness.runtime import atomic
from harness.program.model import build as build_mod
from harness.spectrum import audio
from harness.spectrum.tape import read_tap

GOOD = "# a comment line, as listings may have\n10 PRINT AT 2,28;\"E\"\n20 GO TO 10\n"


@pytest.fixture
def old_tape(tmp_path):
    """A good tape already in place: the thing a refused build must not touch."""
    path = tmp_path / "game.tap"
    listing = tmp_path / "good.bas"
    listing.write_text(GOOD, encoding="utf-8")
    assert build_mod_cmd.main(["-o", str(path), "--listing", str(listing)]) == 0
    return path


def _untouched(path, before: bytes, mtime: int):
    assert path.read_bytes() == before and path.stat().st_mtime_ns == mtime
    assert [p.name for p in path.parent.iterdir() if p.name.endswith(".part")] == []


def _refused(tmp_path, old_tape, source: str, message: str):
    listing = tmp_path / "bad.bas"
    listing.write_text(source, encoding="utf-8")
    before, mtime = old_tape.read_bytes(), old_tape.stat().st_mtime_ns
    with pytest.raises(InputError) as refused:
        build_mod_cmd.main(["-o", str(old_tape), "--listing", str(listing)])
    assert message in str(refused.value)
    assert "\n" not in str(refused.value)
    _untouched(old_tape, before, mtime)
    return str(refused.value)


def test_a_good_listing_builds(old_tape):
    blocks = read_tap(old_tape)
    assert len(blocks) == 4 and blocks[3].data == build_mod.build().font


def test_a_line_the_rom_rejects_is_refused_with_file_line_and_the_spot(tmp_path, old_tape):
    source = "# the same listing with the ; missing\n10 PRINT AT 2,28 \"E\"\n20 GO TO 10\n"
    _refused(tmp_path, old_tape, source,
             "bad.bas:2: line 10: the ROM's syntax check rejects it at the ?: 10 PRINT AT 2,28?\"E\"")


def test_every_rejected_line_is_counted(tmp_path, old_tape):
    source = "10 LET A=(1\n20 PRINT 1\n30 GO TO\n"
    message = _refused(tmp_path, old_tape, source, "bad.bas:1: line 10: the ROM's syntax check rejects it")
    assert message.endswith("10 LET A=(1? (and 1 more line(s))")


def test_a_line_the_rom_would_store_differently_is_refused(tmp_path, old_tape):
    # the tokeniser keeps "2 3" as two numbers; typed in, the ROM reads the one number 23
    _refused(tmp_path, old_tape, "10 LET X=2 3\n", "bad.bas:1: line 10: the ROM stores it as")


def test_an_empty_listing_is_refused(tmp_path, old_tape):
    _refused(tmp_path, old_tape, "# nothing but a comment\n\n", "bad.bas: is not a BASIC listing file (it holds no "
                                                                  "program lines)")


def _rems(lines: int) -> str:
    return "".join(f"{10 * (i + 1)} REM {'X' * 90}\n" for i in range(lines))


def test_a_program_too_big_to_load_is_refused(tmp_path, old_tape):
    _refused(tmp_path, old_tape, "2 STOP\n" + _rems(500),
             "cannot LOAD in a 48K Spectrum: the ROM reports «4 Out of memory")


def test_a_big_program_that_fits_is_built(tmp_path):
    listing = tmp_path / "big.bas"
    listing.write_text("2 STOP\n" + _rems(400), encoding="utf-8")     # about 38 KB: fits
    result = build_mod.build(listing)
    assert len(result.program) > 38_000


# ------------------------------------------------------------------ atomic writes
def test_a_failed_write_leaves_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "report.json"
    atomic.write_json(path, {"run": 1})

    def disk_full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(OSError, match="No space left"):
        atomic.write_json(path, {"run": 2})
    monkeypatch.undo()
    assert path.read_text(encoding="utf-8") == '{"run": 1}'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json"]


def test_an_atomic_write_replaces_the_file_whole_with_the_usual_mode(tmp_path):
    path = tmp_path / "sub" / "x.bin"
    atomic.write_bytes(path, b"one")
    atomic.write_bytes(path, b"two")
    assert path.read_bytes() == b"two"
    mask = os.umask(0)
    os.umask(mask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~mask
    assert sorted(p.name for p in path.parent.iterdir()) == ["x.bin"]


def test_a_build_whose_wav_fails_midway_keeps_the_old_wav(tmp_path, old_tape, monkeypatch):
    wav = tmp_path / "game.wav"
    wav.write_bytes(b"RIFF\0\0\0\0WAVE the old wav")          # a WAV of ours: build may replace it
    real = audio.write_wav

    def dies_after_writing(path, blocks, **kw):
        real(path, blocks, **kw)                     # the temporary file is complete...
        raise OSError(errno.ENOSPC, "No space left on device")   # ...and then the disk fills
    monkeypatch.setattr(audio, "write_wav", dies_after_writing)
    listing = tmp_path / "good.bas"
    with pytest.raises(OSError):
        build_mod_cmd.main(["-o", str(old_tape), "--listing", str(listing), "--wav", str(wav)])
    assert wav.read_bytes() == b"RIFF\0\0\0\0WAVE the old wav"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".part")] == []
