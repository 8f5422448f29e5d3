"""`html --report` on a recorded run whose RZX is another game's: one line naming the file, exit 2, before any
page is written (the checks themselves, each refusal beside its near miss: tests/edition/test_watch_records.py);
the near miss, the game's own recording, draws the pages and the game page says why it has no player."""
from __future__ import annotations

import json

import pytest

from harness import cli
from harness.commands import html as html_command
from harness.edition import report as report_module
from harness.edition.report import write_report_html
from harness.program.records.frames import GameId, frames_name, frames_record, rzx_tag, write_frames
from harness.program.runs import regress
from harness.spectrum.rzx import Rzx, RzxFrame, write_rzx

GAME = "game-000"


@pytest.fixture
def run(stand_in_games, good_tape, tmp_path, monkeypatch):
    """A stand-in regress run of one game; html --report draws it with no player and no edition or plots."""
    monkeypatch.setattr(report_module, "write_site", lambda *args, **kwargs: None)
    monkeypatch.setattr(report_module, "fairness_plots", lambda run: ([], None))
    monkeypatch.setattr(report_module.plots, "score_race", lambda *args, **kwargs: None)
    monkeypatch.setattr(report_module, "write_report_html", write_report_html)    # stand_in_games' stand-in undone
    monkeypatch.setattr(html_command, "write_report_html", write_report_html)
    monkeypatch.setattr(html_command, "report_player", lambda: (None, "no player in this test"))
    regress.run(1, 1, 1, tmp_path / "run", regress.RegressOptions(tap=good_tape, progress=False))
    return tmp_path / "run"


def _record(folder, game: int) -> GameId:
    """game-000.rzx and its frames file, naming game *game* of the transcript's seed and the run's tape."""
    lines = (folder / f"{GAME}.jsonl").read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    tape = json.loads((folder / "report.json").read_text(encoding="utf-8"))["tape"]["sha256"]
    gid = GameId(game, head["seed"], tape)
    data = write_rzx(Rzx(snapshot=b"SNAP", frames=[RzxFrame(1)] * 3, custom=rzx_tag(gid)))
    (folder / f"{GAME}.rzx").write_bytes(data)
    write_frames(folder / frames_name(0), frames_record(game, list(range(len(lines) - 1)), 0, gid.seed, tape, data))
    return GameId(head["game"], head["seed"], tape)


def _html(folder, capsys) -> tuple[int, list[str]]:
    with pytest.raises(SystemExit) as done:
        cli.run(["html", "--report", str(folder)])
    return done.value.code, capsys.readouterr().err.splitlines()


def test_another_games_recording_is_refused_in_one_line(run, capsys):
    own = _record(run, 5)
    code, err = _html(run, capsys)
    assert code == 2
    assert err[-1] == (f"cribbage-zx: {run / GAME}.rzx: a recording of game 5 (seed {own.seed}), not of "
                       f"{GAME}.jsonl's game {own.game} (seed {own.seed})")
    assert not (run / f"{GAME}.html").exists()


def test_the_games_own_recording_draws_the_pages_saying_why_there_is_no_player(run, capsys):
    own = _record(run, 0)
    assert own.game == 0
    code, err = _html(run, capsys)
    assert code == 0 and err == ["cribbage-zx html: no player in this test"]
    assert '<p class="missing" id="no-watch">No replay: no player in this test.</p>' in \
        (run / f"{GAME}.html").read_text(encoding="utf-8")
