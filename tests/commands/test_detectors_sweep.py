"""The sweeps' detection without the emulator: the machine's side of `cribbage-zx sweep` replaced by a
Python "program" (the engine, right or with a planted fault), so the comparison of each case, the
chunks, the grouping by cause, the classification and the exit status run as in a real sweep, in
milliseconds. tests/test_sweep_detection.py plants the faults in the BASIC listing itself."""
import json
from functools import lru_cache

import pytest

from harness.errors import OutputError
from harness.program.runs import play_situations, sweep, sweep_cases, sweep_chunks
from harness.commands import sweep as sweep_command

# A handful of play situations in place of the 544,816 (ranks of the series; each stands for 1 series):
# a pair, a fifteen, a 31, a run and nothing.
SITUATIONS = {(0, 2, (7,), 2): [1, (7, 7)], (15, 2, (5, 10), 1): [1, (5, 10)],
              (31, 4, (1, 10), 1): [1, (10, 10, 10, 1)], (0, 3, (3, 1, 2), 1): [1, (3, 1, 2)],
              (0, 2, (4, 9), 1): [1, (4, 9)]}


_REAL_SHOW_CASES = sweep_cases.show_cases


class _Machine:
    m = None


MACHINE = _Machine()        # stands for the worker's Subroutine: every call must be handed it


class NoProfile:
    """Stands for the BASIC statement profiler, which needs a machine."""

    def __init__(self, *args):
        pass

    def start(self, machine):
        pass

    def stop(self):
        return sweep_chunks.Profile()          # nothing run on a machine


@lru_cache(maxsize=1)
def all_show_cases() -> tuple:
    return tuple(_REAL_SHOW_CASES())


# ------------------------------------------------------------------------------------ no emulator
# The same sweeps with the machine's side replaced by a Python "program" (the engine, with or
# without a planted fault): the comparison, the chunks, the summary and the exit status run as in
# a real sweep, in milliseconds.
@pytest.fixture
def no_machine(monkeypatch, tmp_path):
    from harness.spectrum.tape import FLAG_DATA, TapeBlock, program_header, write_tap
    tape = tmp_path / "unused.tap"                 # a well-formed program tape, never loaded
    tape.write_bytes(write_tap([program_header("UNUSED", 1), TapeBlock(FLAG_DATA, b"\x0d")]))
    monkeypatch.setattr("harness.program.model.build.ensure_tape", lambda *a, **k: tape)
    monkeypatch.setattr(sweep_chunks, "load_worker", lambda kind, *args: sweep_chunks.SweepWorker(kind, MACHINE, {}))
    if hasattr(sweep_chunks, "Profiler"):                 # no machine, so no statements to count
        monkeypatch.setattr(sweep_chunks, "Profiler", NoProfile)
    monkeypatch.setattr(play_situations, "play_table", lambda: play_situations.table_of(dict(SITUATIONS)))
    monkeypatch.setattr(sweep_chunks, "show_cases", lambda: list(all_show_cases()[:40]))


def sweep_main(capsys, tmp_path, what: str, *extra: str) -> tuple[int, str, dict]:
    out_dir = tmp_path / "out"
    tmp_path.mkdir(exist_ok=True)                  # an output folder's parent exists (the path contract)
    status = sweep_command.main([what, "--out", str(out_dir), "--workers", "1", "--quiet", *extra])
    report = json.loads((out_dir / f"{what}-report.json").read_text())
    return status, capsys.readouterr().out, report


def _pair_counts_three(sub, series):
    """A play scorer that pegs a pair 3 (a royal pair, a double pair royal scored right)."""
    points = sweep_cases.engine_play(series)
    return points + 1 if len(series) >= 2 and series[-1] == series[-2] and series[-3:-2] != series[-1:] else points


@pytest.mark.parametrize("program,status,causes", [
    (lambda sub, series: sweep_cases.engine_play(series), 0, []),
    (_pair_counts_three, 1, [["play", 2, 3]]),
    (lambda sub, series: 0, 1, [["play", 2, 0], ["play", 3, 0]]),
], ids=["right", "a pair pegs 3", "nothing ever scores"])
def test_the_play_sweep_reports_what_a_wrong_scorer_does(monkeypatch, capsys, tmp_path, no_machine,
                                                         program, status, causes):
    monkeypatch.setattr(sweep_chunks, "program_play", program)
    got, out, report = sweep_main(capsys, tmp_path, "play")
    assert got == status
    assert sorted(g["cause"] for g in report["groups"]) == causes
    assert report["unexplained_groups"] == len(causes)
    assert report["cases_checked"] == len(SITUATIONS) and report["weight_checked"] == len(SITUATIONS)
    assert f"{len(causes)} disagreement group(s), {len(causes)} unexplained" in out


def test_the_play_groups_count_cases_and_weights(monkeypatch, capsys, tmp_path, no_machine):
    monkeypatch.setattr(play_situations, "play_table", lambda: play_situations.table_of({(0, 2, (7,), 2): [5, (7, 7)], (0, 2, (8,), 2): [3, (8, 8)],
                                                     (0, 2, (4, 9), 1): [2, (4, 9)]}))
    monkeypatch.setattr(sweep_chunks, "program_play", lambda sub, series: 7 if series[0] == series[1] else 0)
    status, out, report = sweep_main(capsys, tmp_path, "play")
    assert status == 1
    assert [(g["cause"], g["cases"], g["weight"], g["deviation"]) for g in report["groups"]] == \
        [(["play", 2, 7], 2, 8, None)]
    assert report["weight_checked"] == 10 and report["cases_checked"] == 3
    assert "['play', 2, 7]: 2 cases, weight 8, deviation -" in out


def _wrong_show(component: str, by: int):
    def program(sub, case, crib):
        got = dict(sweep_cases.engine_show(case, crib))
        got[component] += by
        return got
    return program


@pytest.mark.parametrize("component", sweep_cases.COMPONENTS)
def test_the_show_sweep_names_the_component_a_wrong_scorer_gets_wrong(monkeypatch, capsys, tmp_path, no_machine,
                                                                       component):
    monkeypatch.setattr(sweep_chunks, "program_show", _wrong_show(component, 1))
    status, out, report = sweep_main(capsys, tmp_path, "show", "--limit", "12")
    assert status == 1 and report["cases_checked"] == 12
    assert {tuple(g["cause"][:2]) for g in report["groups"]} == {("hand", component)}
    assert all(g["cause"][3] == g["cause"][2] + 1 and g["deviation"] is None for g in report["groups"])
    assert sum(g["cases"] for g in report["groups"]) == 12
    assert sum(g["weight"] for g in report["groups"]) == report["weight_checked"] > 0


def test_the_show_sweep_is_clean_when_the_scorer_is_right(monkeypatch, capsys, tmp_path, no_machine):
    monkeypatch.setattr(sweep_chunks, "program_show", lambda sub, case, crib: sweep_cases.engine_show(case, crib))
    status, out, report = sweep_main(capsys, tmp_path, "show", "--limit", "12")
    assert status == 0 and report["groups"] == [] and report["unexplained_groups"] == 0
    assert report["cases_checked"] == 12


def test_a_wrong_crib_flush_is_reported_as_the_crib(monkeypatch, capsys, tmp_path, no_machine):
    """The crib is swept only on four-card flushes; a scorer that gives the crib its 4 is caught."""
    def program(sub, case, crib):
        got = dict(sweep_cases.engine_show(case, crib))
        if crib and case.flush == "four":
            got["flush"] = 4
        return got
    monkeypatch.setattr(sweep_chunks, "program_show", program)
    monkeypatch.setattr(sweep_chunks, "show_cases", lambda: [c for c in all_show_cases() if c.flush == "four"][:3])
    status, out, report = sweep_main(capsys, tmp_path, "show")
    assert status == 1
    assert [g["cause"] for g in report["groups"]] == [["crib", "flush", 0, 4]]
    assert report["groups"][0]["cases"] == 3 and report["cases_checked"] == 6   # 3 as hands, 3 as cribs


def test_a_documented_sweep_deviation_is_named_and_does_not_fail_the_sweep(monkeypatch, capsys, tmp_path,
                                                                            no_machine):
    from harness.program.judge import deviations
    monkeypatch.setitem(deviations.SWEEP_DEVIATIONS, "DX", deviations.SweepDeviation(
        "DX", "2000", "a pair counted 3",
        lambda kind, cause, example: kind == "play" and cause == ("play", 2, 3) and example["series"] == [7, 7]))
    monkeypatch.setattr(sweep_chunks, "program_play", _pair_counts_three)
    status, out, report = sweep_main(capsys, tmp_path, "play")
    assert status == 0
    assert [(g["cause"], g["deviation"]) for g in report["groups"]] == [(["play", 2, 3], "DX")]
    assert report["unexplained_groups"] == 0 and "deviation DX" in out
    # a near-miss: the same pair scored 4 is not that deviation
    monkeypatch.setattr(sweep_chunks, "program_play", lambda sub, series: sweep_cases.engine_play(series) + 2
                        if series == (7, 7) else sweep_cases.engine_play(series))
    status, out, report = sweep_main(capsys, tmp_path / "again", "play")
    assert status == 1 and [(g["cause"], g["deviation"]) for g in report["groups"]] == [(["play", 2, 4], None)]


def test_a_case_that_cannot_be_run_is_a_harness_failure_and_fails_the_sweep(monkeypatch, capsys, tmp_path,
                                                                              no_machine):
    def program(sub, series):
        if series == (3, 1, 2):
            raise RuntimeError("planted: the machine stopped")
        return sweep_cases.engine_play(series)
    monkeypatch.setattr(sweep_chunks, "program_play", program)
    status, out, report = sweep_main(capsys, tmp_path, "play", "--chunk", "2")
    assert status == 1
    assert report["groups"] == [] and report["harness_failures"] == 1
    assert "planted: the machine stopped" in json.dumps(report["harness_failure_details"])
    assert report["cases_checked"] == len(SITUATIONS) - 2      # the failed chunk of two is not counted
    assert report["chunks_missing"] == [1]                     # (4, 9) (7, 7) | (3, 1, 2) (5, 10) | (10 10 10 1)
    assert "1 harness failure(s)" in out


def test_a_clean_sweep_says_so_and_exits_0(monkeypatch, capsys, tmp_path, no_machine):
    monkeypatch.setattr(sweep_chunks, "program_play", lambda sub, series: sweep_cases.engine_play(series))
    status, out, report = sweep_main(capsys, tmp_path, "play")
    assert status == 0
    assert out.splitlines()[0] == (f"play: {len(SITUATIONS)} cases checked (weight {len(SITUATIONS)}), "
                                   "0 disagreement group(s), 0 unexplained, 0 harness failure(s)")
    assert report["chunks_missing"] == [] and report["harness_failures"] == 0


def _right_play(sub, series):
    assert sub is MACHINE
    return sweep_cases.engine_play(series)


def _right_show(sub, case, crib):
    assert sub is MACHINE
    return sweep_cases.engine_show(case, crib)


def test_the_report_says_what_was_swept(monkeypatch, capsys, tmp_path, no_machine):
    monkeypatch.setattr(sweep_chunks, "program_play", lambda sub, series: _right_play(sub, series) + (series[0] == 7))
    status, out, report = sweep_main(capsys, tmp_path, "play", "--chunk", "2")
    assert status == 1
    assert (report["sweep"], report["items"], report["chunks"], report["workers"]) == ("play", 5, 3, 1)
    assert report["coverage"]["situations"] == len(SITUATIONS) and report["chunks_missing"] == []
    assert report["cases_checked"] == 5 and report["weight_checked"] == 5
    (g,) = report["groups"]
    assert g["example"] == {"series": [7, 7], "weight": 1, "program": 3, "engine": 2}
    assert out.splitlines()[-1] == f"report: {tmp_path / 'out' / 'play-report.json'}"
    assert json.loads((tmp_path / "out" / "play" / "params.json").read_text())["max_suffix"] == 7


def test_groups_come_heaviest_first(monkeypatch, capsys, tmp_path, no_machine):
    monkeypatch.setattr(play_situations, "play_table", lambda: play_situations.table_of({(0, 2, (4, 9), 1): [1, (4, 9)], (0, 2, (7,), 2): [9, (7, 7)],
                                                     (0, 2, (8,), 2): [3, (8, 8)], (0, 2, (5, 9), 1): [2, (5, 9)]}))
    monkeypatch.setattr(sweep_chunks, "program_play", lambda sub, series: 5 if series[0] == series[1] else 1)
    status, out, report = sweep_main(capsys, tmp_path, "play", "--chunk", "1")
    assert [(g["cause"], g["cases"], g["weight"]) for g in report["groups"]] == \
        [(["play", 2, 5], 2, 12), (["play", 0, 1], 2, 3)]
    assert report["weight_checked"] == 15 and report["chunks"] == 4


def test_a_show_sweep_of_four_card_flushes_runs_the_crib_too(monkeypatch, capsys, tmp_path, no_machine):
    monkeypatch.setattr(sweep_chunks, "show_cases", lambda: [c for c in all_show_cases() if c.flush == "four"][:4])
    monkeypatch.setattr(sweep_chunks, "program_show", _right_show)
    status, out, report = sweep_main(capsys, tmp_path, "show")
    assert status == 0 and report["cases_checked"] == 8 and report["groups"] == []
    params = json.loads((tmp_path / "out" / "show" / "params.json").read_text())
    assert "max_suffix" not in params and params["kind"] == "show"


def test_progress_goes_to_stderr_unless_quiet(monkeypatch, capsys, tmp_path, no_machine):
    monkeypatch.setattr(sweep_chunks, "program_play", _right_play)
    assert sweep_command.main(["play", "--out", str(tmp_path / "a"), "--workers", "1"]) == 0
    assert "play chunks" in capsys.readouterr().err
    assert sweep_command.main(["play", "--out", str(tmp_path / "b"), "--workers", "1", "--quiet"]) == 0
    assert "play chunks" not in capsys.readouterr().err


def test_the_tape_given_is_the_tape_used(monkeypatch, capsys, tmp_path, no_machine):
    def no_default(*a, **k):
        raise AssertionError("the default tape was built though --tape was given")
    monkeypatch.setattr("harness.program.model.build.ensure_tape", no_default)
    monkeypatch.setattr(sweep_chunks, "program_play", _right_play)
    tape = tmp_path / "given.tap"
    tape.write_bytes((tmp_path / "unused.tap").read_bytes())
    status, out, report = sweep_main(capsys, tmp_path, "play", "--tape", str(tape))
    assert status == 0


def test_replace_starts_a_different_sweep_afresh(monkeypatch, capsys, tmp_path, no_machine):
    monkeypatch.setattr(sweep_chunks, "program_play", _right_play)
    sweep_main(capsys, tmp_path, "play", "--limit", "2")
    with pytest.raises(OutputError, match="holds a different sweep"):
        sweep_main(capsys, tmp_path, "play", "--limit", "3")
    status, out, report = sweep_main(capsys, tmp_path, "play", "--limit", "3", "--replace")
    assert status == 0 and report["cases_checked"] == 3


def test_discard_is_a_report_not_a_sweep(monkeypatch, capsys, tmp_path, no_machine):
    tape = tmp_path / "given.tap"
    tape.write_bytes((tmp_path / "unused.tap").read_bytes())
    given = {}

    def discard(samples, seed, tape_bytes):
        given.update(seed=seed, tape=tape_bytes)
        return sweep.DiscardReport(sweep.DiscardRole(samples, 0.5, 0.25), sweep.DiscardRole(samples, 1.5, 0.0))
    monkeypatch.setattr(sweep_command, "discard_report", discard)
    status = sweep_command.main(["discard", "--out", str(tmp_path / "out"), "--samples", "3", "--seed", "5",
                         "--tape", str(tape), "--quiet"])
    assert status == 0 and given == {"seed": 5, "tape": tape.read_bytes()}
    want = {"dealer": {"hands": 3, "mean_points_given_away": 0.5, "best_choice_share": 0.25},
            "pone": {"hands": 3, "mean_points_given_away": 1.5, "best_choice_share": 0.0}}
    assert (tmp_path / "out" / "discard-report.json").read_text() == json.dumps(want, indent=1)
    assert capsys.readouterr().out == json.dumps(want, indent=1) + "\n"
