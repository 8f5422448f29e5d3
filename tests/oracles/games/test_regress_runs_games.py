"""Regress runs that play games: Ctrl-C stops it with 130 and keeps the finished games; a game that raises is a harness failure reported at once; a corrupt or mismatched chunk is computed again."""
import checkout
import json
import subprocess
import sys

import pytest

from harness.program.runs import regress, sweep
from helpers import interrupt_when

ROOT = checkout.ROOT


# ------------------------------------------------------------------ Ctrl-C
# ------------------------------------------------------------------ stand-in games: failures and folders
# (tests/conftest.py's stand_in_games: each game a copy of one real game's record, game 1 raising)


def test_ctrl_c_stops_regress_with_130_and_keeps_the_finished_games(tmp_path, good_tape):
    out_dir = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, "-m", "harness.cli", "regress", "--games", "8", "--workers", "2",
                             "--tape", str(good_tape), "--out", str(out_dir), "--quiet"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _, err = interrupt_when(proc, lambda: any(out_dir.glob("game-*.jsonl")))
    assert proc.returncode == 130, err
    assert "interrupted" in err
    report = json.loads((out_dir / "report.json").read_text(encoding="utf-8"))
    assert report["ended"] == "interrupted" and 1 <= report["played"] < 8
    assert {f"game-{g['index']:03d}.jsonl" for g in report["per_game"]} <= {p.name for p in out_dir.glob("*.jsonl")}


@pytest.mark.parametrize("workers", [1, 2])
def test_a_game_that_raises_is_a_harness_failure_reported_at_once(tmp_path, good_tape, stand_in_games, capsys,
                                                                  workers):
    report = regress.run(5, 10, workers, tmp_path / "out", regress.RegressOptions(tap=good_tape, progress=False))
    err = capsys.readouterr().err
    seed1, seed3 = regress.spread_seed(11), regress.spread_seed(13)
    assert report.harness_failures == 2
    assert report.harness_failure_details == [
        regress.HarnessFailure(1, seed1, "greedy", "RuntimeError: the driver lost track at deal 3"),
        regress.HarnessFailure(3, seed3, "random", "budget of 60 s exceeded at deal 9")]
    assert (f"cribbage-zx regress: game 1 (seed {seed1}, greedy): harness failure: "
            "RuntimeError: the driver lost track at deal 3") in err
    if workers == 1:                                       # in order: reported before game 2 even starts
        assert err.index(f"game 1 (seed {seed1}") < err.index("game 2 started")
    assert report.played == 4
    assert sorted(p.name for p in (tmp_path / "out").glob("*.jsonl")) == [
        f"game-{n:03d}.{kind}jsonl" for n in (0, 2, 3, 4) for kind in ("", "judgements.")]
    saved = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    assert saved["harness_failures"] == 2 and saved["ended"] == "complete"


# ------------------------------------------------------------------ sweep chunks on resume
def _settings(tape) -> sweep.SweepSettings:
    return sweep.SweepSettings(workers=1, chunk=10, progress=False, limit=30, tap=tape)


def test_a_corrupt_or_mismatched_chunk_is_computed_again_and_a_good_one_kept(tmp_path, good_tape, capsys):
    first = sweep.run_sweep("show", tmp_path, _settings(good_tape))
    assert first.cases_checked == 30 and first.chunks_missing == []
    folder = tmp_path / "show"
    good, corrupt, mismatched = (folder / f"chunk-{i:04d}.json" for i in range(3))
    kept_mtime = good.stat().st_mtime_ns
    corrupt.write_text(corrupt.read_text()[:25])                       # a torn write of an older version
    tampered = json.loads(mismatched.read_text())
    tampered["weight"] += 4                                            # counts a deal it never checked
    mismatched.write_text(json.dumps(tampered))
    capsys.readouterr()
    again = sweep.run_sweep("show", tmp_path, _settings(good_tape))
    err = capsys.readouterr().err
    assert f"{corrupt}: unreadable" in err and f"{mismatched}: does not match its cases (weight)" in err
    assert str(good) not in err and good.stat().st_mtime_ns == kept_mtime
    assert again.cases_checked == 30 and again.weight_checked == first.weight_checked
    assert json.loads(mismatched.read_text())["weight"] == tampered["weight"] - 4
