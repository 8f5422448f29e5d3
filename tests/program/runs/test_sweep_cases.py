"""A play sweep's cases come from a table cached in the sweeps' folder, by range: the parent never builds
them, the workers do, and they are the cases the sweep always ran (in the same order, in the same chunks)."""
import json
import random

import pytest

from harness.errors import MachineError
from harness.program.runs import play_cases, play_situations, sweep, sweep_chunks

# situations of several suffix lengths (the ranks of the series; weights differ so a mix-up shows)
SITUATIONS = {(0, 2, (7,), 2): [3, (7, 7)], (15, 2, (5, 10), 1): [5, (5, 10)],
              (31, 4, (1, 10), 1): [2, (10, 10, 10, 1)], (0, 3, (3, 1, 2), 1): [7, (3, 1, 2)],
              (0, 2, (4, 9), 1): [11, (4, 9)], (0, 4, (2, 3, 4, 5), 1): [13, (2, 3, 4, 5)],
              (0, 3, (6, 8, 9), 1): [17, (6, 8, 9)]}


@pytest.fixture
def small_table(monkeypatch):
    monkeypatch.setattr(play_situations, "play_table", lambda: play_situations.table_of(dict(SITUATIONS)))
    play_cases.clear_caches()
    yield
    play_cases.clear_caches()


def expected_items(max_suffix: int, sample: int, seed: int) -> list:
    """The cases written out by hand: the short situations in key order, then a seeded sample of the rest."""
    keys = sorted(SITUATIONS)
    short = [k for k in keys if len(k[2]) <= max_suffix]
    longer = [k for k in keys if len(k[2]) > max_suffix]
    picked = [longer[i] for i in random.Random(seed).sample(range(len(longer)), min(sample, len(longer)))]
    return [(SITUATIONS[k][0], list(SITUATIONS[k][1])) for k in short + picked]


@pytest.mark.parametrize("max_suffix,sample,seed", [(7, 0, 1), (2, 1, 3), (2, 2, 5), (1, 0, 1)])
def test_the_chunks_are_ranges_of_the_sweeps_cases_in_order(tmp_path, small_table, max_suffix, sample, seed):
    path, _ = play_cases.ensure_cases(tmp_path)
    choice = play_cases.PlayChoice(max_suffix=max_suffix, sample=sample, seed=seed)
    chunks, coverage, _ = play_cases.play_chunks(path, 2, None, choice)
    want = expected_items(max_suffix, sample, seed)
    assert all(isinstance(c, play_cases.CaseRange) and len(c) <= 2 for c in chunks)
    assert [item for c in chunks for item in c.items()] == want
    assert coverage["situations_run"] == len(want) and coverage["situations"] == len(SITUATIONS)
    assert coverage["series_covered"] == sum(w for w, _ in want)
    assert sweep_chunks.sweep_items("play", choice)[0] == want


def test_a_limit_cuts_the_cases_and_changes_the_fingerprint(tmp_path, small_table):
    path, _ = play_cases.ensure_cases(tmp_path)
    whole, _, whole_sha = play_cases.play_chunks(path, 3, None)
    cut, _, cut_sha = play_cases.play_chunks(path, 3, 4)
    assert [i for c in cut for i in c.items()] == [i for c in whole for i in c.items()][:4]
    assert cut_sha != whole_sha and play_cases.play_chunks(path, 2, None)[2] == whole_sha    # the cases, not the chunks


def test_the_table_is_enumerated_once_per_sweeps_folder(tmp_path, small_table, monkeypatch):
    path, _ = play_cases.ensure_cases(tmp_path)
    assert path.parent == tmp_path and path.name.startswith("play-cases-")
    before = path.stat().st_mtime_ns

    def never():
        raise AssertionError("enumerated again")
    monkeypatch.setattr(play_cases, "enumerate_in_child", lambda p: never())
    assert play_cases.ensure_cases(tmp_path) == (path, None) and path.stat().st_mtime_ns == before


def test_another_table_is_another_cache(tmp_path, small_table, monkeypatch):
    first, _ = play_cases.ensure_cases(tmp_path)
    monkeypatch.setattr(play_situations, "play_table", lambda: play_situations.table_of({(0, 2, (7,), 2): [3, (7, 7)]}))
    second, _ = play_cases.ensure_cases(tmp_path)
    assert second != first
    chunks, coverage, _ = play_cases.play_chunks(second, 5, None)
    assert coverage["situations"] == 1 and chunks[0].items() == [(3, [7, 7])]


def test_an_unreadable_cache_is_enumerated_again_and_said_so(tmp_path, small_table, capsys):
    path, _ = play_cases.ensure_cases(tmp_path)
    good = path.read_bytes()
    play_cases.clear_caches()
    path.write_bytes(good[: len(good) // 2])
    again, said = play_cases.ensure_cases(tmp_path)
    assert again == path and said is not None and said.startswith(f"{path}: unreadable (")
    assert said.endswith("); enumerating the play situations again") and path.read_bytes() == good
    assert capsys.readouterr().err == ""                # the library prints nothing: run_sweep reports it


def test_a_readable_cache_is_used_as_it_is(tmp_path, small_table, capsys):
    play_cases.ensure_cases(tmp_path)
    play_cases.clear_caches()
    assert play_cases.ensure_cases(tmp_path)[1] is None
    assert capsys.readouterr().err == ""


def test_a_failed_enumeration_is_one_error_naming_the_file(tmp_path, monkeypatch):
    def broken():
        raise MemoryError("no room")
    monkeypatch.setattr(play_situations, "play_table", broken)
    with pytest.raises(MachineError, match=r"play-cases-.*\.npz: the play situations could not be enumerated"):
        play_cases.ensure_cases(tmp_path)
    assert not list(tmp_path.glob("play-cases-*"))


def test_a_worker_without_the_file_enumerates_the_same_table_itself(tmp_path, small_table):
    path, _ = play_cases.ensure_cases(tmp_path)
    chunks, _, _ = play_cases.play_chunks(path, 3, None)
    want = [c.items() for c in chunks]
    path.unlink()                                   # a Dask worker on another machine
    play_cases.clear_caches()
    assert [c.items() for c in chunks] == want


def test_a_worker_whose_code_enumerates_another_table_refuses(tmp_path, small_table, monkeypatch):
    path, _ = play_cases.ensure_cases(tmp_path)
    chunks, _, _ = play_cases.play_chunks(path, 3, None)
    path.unlink()
    play_cases.clear_caches()
    monkeypatch.setattr(play_situations, "play_table", lambda: play_situations.table_of({(0, 2, (7,), 2): [3, (7, 7)]}))
    with pytest.raises(MachineError, match="is not on this worker, and its code enumerates another table"):
        chunks[0].items()


def _no_jobs(monkeypatch, tmp_path) -> list:
    """run_jobs replaced by one that runs nothing and keeps the jobs it was handed; no tape to load."""
    handed = []

    def recording(func, jobs, setup, workers, scheduler):
        handed.extend(jobs)
        import contextlib
        return contextlib.closing(x for x in ())
    monkeypatch.setattr(sweep, "run_jobs", recording)
    monkeypatch.setattr("harness.program.model.build.ensure_tape", lambda *a, **k: _tape(tmp_path))
    monkeypatch.setattr(sweep, "tape_record", lambda *a: None)
    return handed


def test_an_unreadable_cache_is_said_through_the_progress_reporter_once(tmp_path, small_table, monkeypatch, capsys):
    from harness.runtime.outdir import claimed
    with claimed(tmp_path / "out", "sweep", resume=True):
        path, _ = play_cases.ensure_cases(tmp_path / "out")
    play_cases.clear_caches()
    path.write_bytes(path.read_bytes()[:100])
    _no_jobs(monkeypatch, tmp_path)
    sweep.run_sweep("play", tmp_path / "out", sweep.SweepSettings(chunk=3, progress=False))
    err = capsys.readouterr().err
    assert err.count(f"{path}: unreadable (") == 1 and err.endswith("; enumerating the play situations again\n")
    # near miss: the cache now readable, nothing is said
    sweep.run_sweep("play", tmp_path / "out", sweep.SweepSettings(chunk=3, progress=False))
    assert capsys.readouterr().err == ""


def test_the_parent_hands_out_ranges_and_builds_no_case(tmp_path, small_table, monkeypatch):
    from harness.runtime.outdir import claimed
    with claimed(tmp_path / "out", "sweep", resume=True):
        play_cases.ensure_cases(tmp_path / "out")        # made beforehand; the run below must not build cases
    handed = _no_jobs(monkeypatch, tmp_path)
    monkeypatch.setattr(play_cases, "cases_at", lambda *a: pytest.fail("the parent built cases"))
    report = sweep.run_sweep("play", tmp_path / "out", sweep.SweepSettings(workers=2, chunk=3, progress=False))
    assert [(j.index, len(j.cases)) for j in handed] == [(0, 3), (1, 3), (2, 1)]
    assert all(isinstance(j.cases, play_cases.CaseRange) for j in handed)
    assert report.chunks_missing == [0, 1, 2] and report.items == 7
    params = json.loads((tmp_path / "out" / "play" / "params.json").read_text())
    assert params["chunk"] == 3 and params["items"] == 7


def _tape(tmp_path):
    from harness.spectrum.tape import FLAG_DATA, TapeBlock, program_header, write_tap
    tape = tmp_path / "unused.tap"
    tape.write_bytes(write_tap([program_header("UNUSED", 1), TapeBlock(FLAG_DATA, b"\x0d")]))
    return tape


@pytest.mark.parametrize("cases,size", [(1, 1), (512, 1), (1023, 1), (1024, 2), (46_136, 90), (54_120, 105),
                                        (512 * 400, 400), (544_816, 400)])
def test_the_default_chunk_keeps_64_workers_busy_and_is_at_most_400(cases, size):
    assert play_cases.auto_chunk(cases) == size
    chunks = -(-cases // size)
    assert size == 400 or chunks >= 8 * 64 or size == 1


def test_a_corrupt_chunk_is_said_once_through_the_progress_reporter_and_computed_again(tmp_path, small_table,
                                                                                      monkeypatch, capsys):
    handed = _no_jobs(monkeypatch, tmp_path)
    settings = sweep.SweepSettings(chunk=3, progress=False)
    sweep.run_sweep("play", tmp_path / "out", settings)
    assert capsys.readouterr().err == ""                   # near miss: no chunk file yet, nothing said
    corrupt = sweep_chunks.chunk_path(tmp_path / "out" / "play", 1)
    corrupt.write_text('{"index": 1, "items_sha"')
    handed.clear()
    sweep.run_sweep("play", tmp_path / "out", settings)
    said = capsys.readouterr().err.splitlines()
    assert len(said) == 1 and said[0].startswith(f"{corrupt}: unreadable (") and "not JSON" in said[0]
    assert said[0].endswith("); computing it again")
    assert [j.index for j in handed] == [0, 1, 2]
