"""The sweeps find a wrong scoring routine: a fault planted in one BASIC line is reported as an
unexplained disagreement and `cribbage-zx sweep` exits non-zero; an edit that changes no score
(the near-miss) leaves the sweep clean and the exit status 0.

The emulator runs only a few dozen cases here (`--limit`, or a handful of play situations in
place of the 544,816), so each sweep takes seconds. tests/commands/test_detectors_sweep.py runs the same
detection with a Python stand-in for the machine, in milliseconds (what `make mutation` runs)."""
import checkout
import json
from pathlib import Path

import pytest

from harness.program.model.build import build
from harness.program.runs import play_situations
from harness.commands import sweep as sweep_command

ROOT = checkout.ROOT
LISTING = ROOT / "basic" / "cribbage.bas"


def planted_tape(tmp_path: Path, line: str, old: str, new: str) -> Path:
    """The tape of the listing with *old* replaced by *new* in BASIC line *line* (exactly once)."""
    lines = LISTING.read_text(encoding="utf-8").splitlines(keepends=True)
    hits = [i for i, text in enumerate(lines) if text.split(" ", 1)[0] == line]
    assert len(hits) == 1, f"line {line} not found once"
    text = lines[hits[0]]
    assert text.count(old) == 1, f"{old!r} not once in {text!r}"
    lines[hits[0]] = text.replace(old, new)
    listing = tmp_path / "cribbage.bas"
    listing.write_text("".join(lines), encoding="utf-8")
    tap = tmp_path / "cribbage.tap"
    tap.write_bytes(build(listing).tap)
    return tap


def run_main(monkeypatch, capsys, tap: Path, argv: list[str]) -> tuple[int, str, dict]:
    monkeypatch.setattr("harness.program.model.build.ensure_tape", lambda *a, **k: tap)
    status = sweep_command.main(argv + ["--workers", "1", "--quiet"])
    out = capsys.readouterr().out
    report = json.loads((Path(argv[argv.index("--out") + 1]) / f"{argv[0]}-report.json").read_text())
    return status, out, report


# ------------------------------------------------------------------------------------ show (4700 with 1000)
SHOW_ARGS = ["--limit", "30"]      # the first cases: A A A A, A A A 2 ... with every starter: pairs in all


@pytest.mark.parametrize("old,new", [("LET P=P+2", "LET P=P+3")], ids=["a pair counts 3"])
def test_a_wrong_show_routine_is_reported_and_the_sweep_fails(tmp_path, monkeypatch, capsys, old, new):
    tap = planted_tape(tmp_path, "1140", old, new)
    status, out, report = run_main(monkeypatch, capsys, tap, ["show", "--out", str(tmp_path / "out")] + SHOW_ARGS)
    assert status == 1
    assert report["cases_checked"] == 30 and report["unexplained_groups"] >= 1
    causes = {tuple(g["cause"][:2]) for g in report["groups"]}
    assert causes == {("hand", "pairs")}
    for g in report["groups"]:
        assert g["deviation"] is None
        assert g["example"]["program"]["pairs"] > g["example"]["engine"]["pairs"]
    assert "unexplained" in out and "'hand', 'pairs'" in out


def test_an_edit_that_scores_the_same_leaves_the_show_sweep_clean(tmp_path, monkeypatch, capsys):
    tap = planted_tape(tmp_path, "1140", "LET P=P+2", "LET P=P+1+1")
    status, out, report = run_main(monkeypatch, capsys, tap, ["show", "--out", str(tmp_path / "out")] + SHOW_ARGS)
    assert status == 0
    assert report["cases_checked"] == 30 and report["groups"] == [] and report["unexplained_groups"] == 0
    assert "0 disagreement group(s), 0 unexplained" in out


# ------------------------------------------------------------------------------------ play (2000)
# A handful of situations in place of the 544,816 (computing them all takes ~40 s): (ranks of the
# series) -> how many series each stands for. A pair, a fifteen, a 31, a run and nothing.
SITUATIONS = {(0, 2, (7,), 2): [1, (7, 7)], (15, 2, (5, 10), 1): [1, (5, 10)],
              (31, 4, (1, 10), 1): [1, (10, 10, 10, 1)], (0, 3, (3, 1, 2), 1): [1, (3, 1, 2)],
              (0, 2, (4, 9), 1): [1, (4, 9)]}


@pytest.fixture
def few_situations(monkeypatch):
    monkeypatch.setattr(play_situations, "play_table", lambda: play_situations.table_of(dict(SITUATIONS)))


def test_a_wrong_play_routine_is_reported_and_the_sweep_fails(tmp_path, monkeypatch, capsys, few_situations):
    tap = planted_tape(tmp_path, "2020", "LET S=2", "LET S=3")         # a fifteen or 31 pegs 3
    status, out, report = run_main(monkeypatch, capsys, tap, ["play", "--out", str(tmp_path / "out")])
    assert status == 1
    assert report["cases_checked"] == len(SITUATIONS)
    assert sorted(tuple(g["cause"]) for g in report["groups"]) == [("play", 2, 3)]
    assert report["groups"][0]["cases"] == 2 and report["unexplained_groups"] == 1
    assert tuple(report["groups"][0]["example"]["series"]) in {(5, 10), (10, 10, 10, 1)}
    assert "['play', 2, 3]: 2 cases" in out


def test_an_edit_that_scores_the_same_leaves_the_play_sweep_clean(tmp_path, monkeypatch, capsys, few_situations):
    tap = planted_tape(tmp_path, "2020", "LET S=2", "LET S=1+1")
    status, out, report = run_main(monkeypatch, capsys, tap, ["play", "--out", str(tmp_path / "out")])
    assert status == 0 and report["groups"] == [] and report["cases_checked"] == len(SITUATIONS)
