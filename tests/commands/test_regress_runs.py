"""regress and sweep as a user runs them: no hang, no mixed results, failures named at once.

The hangs of the old process pool (a worker that cannot start was respawned
forever) are run as the real command in a child process with a hard timeout:
each must end with one line naming the reason and a non-zero status. Ctrl-C
is SIGINT to that process. Harness failures and folder handling are checked
in this process with stand-in games (no emulator), so they take milliseconds.
"""
import checkout
import json
import signal
import subprocess
import sys
import time

import pytest

from harness.errors import OutputError
from harness.program.model.build import build
from harness.program.runs import regress, sweep, sweep_chunks
from harness.runtime.outdir import claimed
from helpers import interrupt_when

ROOT = checkout.ROOT
HANG_BUDGET_S = 30


def _cli(args, cwd=ROOT, timeout=HANG_BUDGET_S, prelude=""):
    code = f"{prelude}\nfrom harness.cli import run\nrun({list(map(str, args))!r})"
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=timeout)


def _one_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    return lines[0]


# ------------------------------------------------------------------ the hangs, now one line and an exit status
def test_a_truncated_tape_ends_the_run_at_once(tmp_path, good_tape):
    bad = tmp_path / "truncated.tap"
    bad.write_bytes(good_tape.read_bytes()[:10_000])
    done = _cli(["regress", "--games", "4", "--workers", "2", "--tape", bad, "--out", tmp_path / "out", "--quiet"])
    assert done.returncode == 2
    line = _one_line(done.stderr)          # checked whole before any worker starts, naming the file
    assert f"{bad}: block 1 at byte offset 21: truncated block" in line
    assert not (tmp_path / "out").exists()


def test_a_missing_rom_ends_the_run_at_once(tmp_path, good_tape):
    prelude = ("import pathlib, harness.spectrum.rom as rom\n"
               f"rom.DEFAULT_ROM = pathlib.Path({str(tmp_path / 'no-roms' / '48.rom')!r})")
    done = _cli(["regress", "--games", "4", "--workers", "2", "--tape", good_tape, "--out", tmp_path / "out",
                 "--quiet"], prelude=prelude)
    assert done.returncode == 2
    line = _one_line(done.stderr)
    assert "could not start: InputError" in line and "no-roms/48.rom: cannot read the 48K ROM" in line


def test_a_listing_that_does_not_load_ends_the_run_at_once(tmp_path):
    listing = tmp_path / "stops.bas"
    listing.write_text("2 PRINT 1/0\n", encoding="utf-8")        # accepted by the ROM, stops when run
    tape = tmp_path / "stops.tap"
    tape.write_bytes(build(listing).tap)
    done = _cli(["regress", "--games", "4", "--workers", "2", "--tape", tape, "--out", tmp_path / "out", "--quiet"])
    assert done.returncode == 2
    line = _one_line(done.stderr)
    assert "could not start" in line and "stopped with report «6 Number too big, 2:1»" in line


def test_a_missing_tape_file_is_named(tmp_path):
    done = _cli(["regress", "--tape", tmp_path / "none.tap", "--out", tmp_path / "out"])
    assert done.returncode == 2
    assert "--tape " in _one_line(done.stderr) and "none.tap: no such file" in _one_line(done.stderr)


# ------------------------------------------------------------------ Ctrl-C
def test_ctrl_c_stops_a_sweep_with_130_and_keeps_its_chunks(tmp_path, good_tape):
    out_dir = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, "-m", "harness.cli", "sweep", "show", "--workers", "2", "--chunk", "10",
                             "--limit", "4000", "--tape", str(good_tape), "--out", str(out_dir), "--quiet"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _, err = interrupt_when(proc, lambda: any((out_dir / "show").glob("chunk-*.json")))
    assert proc.returncode == 130, err
    kept = sorted((out_dir / "show").glob("chunk-*.json"))
    assert 1 <= len(kept) < 400
    for path in kept:                                   # whole chunks only: written atomically
        assert json.loads(path.read_text(encoding="utf-8"))["cases"] == 10


# ------------------------------------------------------------------ two runs, one folder
def test_a_second_run_into_a_busy_folder_fails_at_once_naming_it(tmp_path, good_tape):
    out_dir = tmp_path / "out"
    first = subprocess.Popen([sys.executable, "-m", "harness.cli", "regress", "--games", "6", "--workers", "1",
                              "--tape", str(good_tape), "--out", str(out_dir), "--quiet"],
                             cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not (out_dir / ".cribbage-zx-run").exists():
            assert first.poll() is None and time.monotonic() < deadline, first.communicate()
            time.sleep(0.1)
        second = _cli(["regress", "--games", "1", "--tape", good_tape, "--out", out_dir, "--replace", "--quiet"])
        assert second.returncode == 2
        assert _one_line(second.stderr) == (f"cribbage-zx: {out_dir}: another run is writing into this folder "
                                            f"(pid {first.pid}); wait for it to end or choose another --out")
        assert first.poll() is None                     # the first run goes on, untouched
    finally:
        first.send_signal(signal.SIGINT)
        first.communicate(timeout=30)


def test_claimed_folders_exclude_each_other_and_release_on_exit(tmp_path):
    with claimed(tmp_path / "o", "regress"):
        with pytest.raises(OutputError, match="another run is writing into this folder"):
            with claimed(tmp_path / "o", "regress", resume=True):
                pass
    with claimed(tmp_path / "o", "regress", resume=True):     # free again
        pass


# ------------------------------------------------------------------ stand-in games: failures and folders
# (tests/conftest.py's stand_in_games: each game a copy of one real game's record, game 1 raising)


def test_a_used_folder_is_refused_and_replace_clears_only_what_the_run_wrote(tmp_path, good_tape, stand_in_games):
    out_dir = tmp_path / "out"
    regress.run(3, 1, 1, out_dir, regress.RegressOptions(tap=good_tape, progress=False))   # games 0 and 2 (1 is a stand-in failure)
    (out_dir / "notes.txt").write_text("my notes on that run\n")        # put there by a person
    with pytest.raises(OutputError, match=f"{out_dir}: holds an earlier run .*use --replace"):
        regress.run(1, 1, 1, out_dir, regress.RegressOptions(tap=good_tape, progress=False))
    assert (out_dir / "game-002.jsonl").exists()
    regress.run(1, 1, 1, out_dir, regress.RegressOptions(tap=good_tape, progress=False, replace=True))
    assert sorted(p.name for p in out_dir.iterdir()) == [".cribbage-zx-run", ".lock", "game-000", "game-000.jsonl",
                                                         "game-000.judgements.jsonl", "notes.txt", "report.json"]
    assert (out_dir / "notes.txt").read_text() == "my notes on that run\n"


def test_replace_never_clears_a_folder_no_run_wrote(tmp_path, good_tape, stand_in_games):
    mine = tmp_path / "my-files"
    mine.mkdir()
    (mine / "thesis.tex").write_text("precious")
    with pytest.raises(OutputError, match="holds 1 entry that no cribbage-zx run wrote .thesis.tex."):
        regress.run(1, 1, 1, mine, regress.RegressOptions(tap=good_tape, progress=False, replace=True))
    assert sorted(p.name for p in mine.iterdir()) == ["thesis.tex"]


def test_summarise_counts_a_missing_chunk_instead_of_dropping_it(tmp_path, good_tape):
    sweep.run_sweep("show", tmp_path, sweep.SweepSettings(workers=1, chunk=2, progress=False, limit=4, tap=good_tape))
    (tmp_path / "show" / "chunk-0001.json").unlink()
    items, coverage = sweep_chunks.sweep_items("show")
    chunks = [items[:2], items[2:4]]
    report = sweep.summarise("show", tmp_path / "show", chunks, sweep.SweepFacts(0.0, 1, coverage))
    assert report.chunks_missing == [1] and report.cases_checked == 2


def test_every_report_names_the_tape_it_played(tmp_path, good_tape, stand_in_games):
    import hashlib
    report = regress.run(1, 1, 1, tmp_path / "out", regress.RegressOptions(tap=good_tape, progress=False))
    on_disk = json.loads((tmp_path / "out" / "report.json").read_text())
    assert report.tape == on_disk["tape"] == {"path": str(good_tape), "fingerprint": None,
                                                 "sha256": hashlib.sha256(good_tape.read_bytes()).hexdigest()}
