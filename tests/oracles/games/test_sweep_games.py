"""The sweeps on the machine: the numpy table of play situations is the walk of every series; a small sweep runs, resumes and reports."""

import pytest

from harness.program.runs import play_situations, sweep


def test_a_small_sweep_runs_resumes_and_reports(tmp_path):
    report = sweep.run_sweep("show", tmp_path, sweep.SweepSettings(workers=1, chunk=20, progress=False, limit=40))
    assert report.cases_checked == 40 and report.unexplained_groups == 0
    chunks = sorted((tmp_path / "show").glob("chunk-*.json"))
    assert len(chunks) == 2
    chunks[1].unlink()                                   # an interrupted sweep...
    again = sweep.run_sweep("show", tmp_path, sweep.SweepSettings(workers=1, chunk=20, progress=False, limit=40))
    assert again.cases_checked == 40                  # ...redoes only what was lost
    assert (tmp_path / "show-report.json").exists()


@pytest.mark.slow
def test_the_numpy_table_of_play_situations_is_the_walk_of_every_series():
    """play_keys (from play_table, a few seconds) against play_keys_walk, the definition (18 CPU s):
    the same situations, series counts and first examples."""
    fast = play_situations.play_keys()
    assert len(fast) == 544_816 and sum(w for w, _ in fast.values()) == 12_892_167
    assert fast == play_situations.play_keys_walk()
