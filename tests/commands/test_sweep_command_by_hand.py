"""`cribbage-zx sweep`'s own work by hand (issue 36): what it hands the sweep, what it prints and writes, and
its exit status, with the sweep itself replaced by a report written out here. No emulator, no pool."""
import argparse
import json

import pytest

from harness.commands import sweep as command
from harness.program.runs.play_cases import PlayChoice
from harness.program.runs.sweep import BasicCoverage, DiscardReport, DiscardRole, SweepGroup, SweepReport
from harness.errors import OutputError
from harness.runtime.outdir import claimed


def args(tmp_path, **kw):
    base = dict(what="play", tape=None, out=tmp_path / "out", samples=5, seed=7, quick=False, max_suffix=6,
                sample=0, workers=2, chunk=None, quiet=True, limit=None, scheduler=None, replace=False,
                accelerate=False)
    return argparse.Namespace(**{**base, **kw})


def report(**kw):
    """A SweepReport as run_sweep returns it: what the command reads set, *kw* changed."""
    base = dict(sweep="play", items=12, chunks=1, coverage={}, cases_checked=12, chunks_missing=[],
                harness_failures=0, harness_failure_details=[], weight_checked=40, wall_s_this_run=1.0, workers=2,
                groups=[], unexplained_groups=0, tape=None, basic_coverage=BasicCoverage(0, [], {}))
    return SweepReport(**{**base, **kw})


@pytest.fixture
def handed(monkeypatch):
    """run_sweep replaced: the keywords it was called with, and the report it returns (set by the test)."""
    seen = {"report": report()}

    def fake(what, out, settings):
        seen.update(what=what, out=out, settings=settings)
        return seen["report"]
    monkeypatch.setattr(command, "run_sweep", fake)
    return seen


def test_a_play_sweep_is_handed_its_options_and_a_show_sweep_none(tmp_path, handed):
    assert command.execute(args(tmp_path)) == 0
    got = handed["settings"]
    assert got.play == PlayChoice(max_suffix=6, sample=0, seed=7) and got.progress is False
    assert handed["what"] == "play" and got.workers == 2
    assert (got.scheduler, got.accelerate, got.limit, got.chunk, got.replace, got.tap) \
        == (None, False, None, None, False, None)
    command.execute(args(tmp_path, what="show", quiet=False))
    assert handed["settings"].play is None and handed["settings"].progress is True


def test_every_option_of_the_command_reaches_the_sweep(tmp_path, handed):
    command.execute(args(tmp_path, scheduler="tls://10.0.0.1:8786", accelerate=True, limit=30, chunk=10,
                         replace=True, tape="mine.tap", workers=3))
    got = handed["settings"]
    assert (got.scheduler, got.accelerate, got.limit, got.chunk, got.replace, got.tap) \
        == ("tls://10.0.0.1:8786", True, 30, 10, True, "mine.tap")
    assert got.workers == 3 and handed["out"] == tmp_path / "out"


def test_quick_is_the_short_suffix_and_the_sample(tmp_path, handed):
    command.execute(args(tmp_path, quick=True))
    assert (handed["settings"].play.max_suffix, handed["settings"].play.sample) == (4, 4000)


def test_what_it_prints_of_the_report(tmp_path, handed, capsys):
    handed["report"] = report(groups=[SweepGroup(cause=["play", 3, 2], cases=2, weight=9, deviation=None,
                                                 example={"program": 2, "engine": 3, "weight": 5}),
                                      SweepGroup(cause=["hand", "flush", 4, 0], cases=1, weight=1, deviation="D9",
                                                 example={"name": "ж"})], unexplained_groups=1)
    command.execute(args(tmp_path))
    out = capsys.readouterr().out.splitlines()
    assert out == ["play: 12 cases checked (weight 40), 2 disagreement group(s), 1 unexplained, 0 harness failure(s)",
                   "  ['play', 3, 2]: 2 cases, weight 9, deviation -; example {\"program\": 2, \"engine\": 3, \"weight\": 5}",
                   "  ['hand', 'flush', 4, 0]: 1 cases, weight 1, deviation D9; example {\"name\": \"ж\"}",
                   f"report: {tmp_path / 'out' / 'play-report.json'}"]


@pytest.mark.parametrize("fault, status", [({}, 0), ({"unexplained_groups": 1}, 1), ({"harness_failures": 1}, 1),
                                           ({"chunks_missing": [3]}, 1),
                                           ({"groups": [SweepGroup(["play", 1, 1], 1, 1, {}, "D1")]}, 0)])
def test_the_exit_status_is_one_for_anything_unexplained_failed_or_missing(tmp_path, handed, fault, status):
    """The last row is the near miss: a group explained by a deviation leaves the status 0."""
    handed["report"] = report(**fault)
    assert command.execute(args(tmp_path)) == status


def test_a_discard_sweep_writes_and_prints_its_report(tmp_path, monkeypatch, capsys):
    made = {"samples": 0}

    def discard(samples, seed, tape):
        made.update(samples=samples, seed=seed, tape=tape)
        return DiscardReport(DiscardRole(samples, 0.5, 0.75), DiscardRole(3, 0.0, 1.0))
    monkeypatch.setattr(command, "discard_report", discard)
    monkeypatch.setattr(command, "tape_bytes", lambda tape: b"TAPE:" + tape.encode())
    with claimed(tmp_path / "out", "sweep"):             # a sweeps' folder already (another kind's report in it)
        (tmp_path / "out" / "show-report.json").write_text("{}")
    a = args(tmp_path, what="discard", tape="mine.tap")
    assert command.execute(a) == 0
    assert made == {"samples": 5, "seed": 7, "tape": b"TAPE:mine.tap"}
    text = (tmp_path / "out" / "discard-report.json").read_text(encoding="utf-8")
    written = {"dealer": {"hands": 5, "mean_points_given_away": 0.5, "best_choice_share": 0.75},
               "pone": {"hands": 3, "mean_points_given_away": 0.0, "best_choice_share": 1.0}}
    assert json.loads(text) == written and text.startswith('{\n "dealer": {\n  "hands": 5')
    assert capsys.readouterr().out == json.dumps(written, indent=1) + "\n"
    assert command.execute(a) == 0                       # the folder of an earlier sweep is resumed, not refused


def test_a_discard_sweep_refuses_a_folder_of_another_command(tmp_path, monkeypatch):
    """The near miss of the resumed sweeps' folder above: a regress run's folder is not a sweep's."""
    monkeypatch.setattr(command, "discard_report",
                        lambda samples, seed, tape: DiscardReport(DiscardRole(samples, 0.0, 1.0), DiscardRole(0, 0.0, 0.0)))
    monkeypatch.setattr(command, "tape_bytes", lambda tape: b"TAPE")
    with claimed(tmp_path / "out", "regress"):
        (tmp_path / "out" / "report.json").write_text("{}")
    with pytest.raises(OutputError, match="regress"):
        command.execute(args(tmp_path, what="discard"))
    assert not (tmp_path / "out" / "discard-report.json").exists()
