"""A recorded game's RZX and frames file are its own (issue 45, item 4): the report's pages set them against the
game they lie beside (the transcript's game and seed, report.json's tape, the frames of that very RZX) and refuse
another game's, another seed's, another tape's or another recording's in one line naming the file, with or
without a player to show; the right files (the near miss) get the player. A game page without a player says
why on the page; files older than these names are said to name nothing rather than refused.

The run is a stand-in regress game (tests/conftest.py); its RZX and frames file are made here by hand (a
recording of a few empty frames: the player is a stand-in too, so nothing replays them)."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from harness.edition import report as report_module
from harness.edition.report import write_report_html
from harness.errors import InputError
from harness.program.records.frames import GameId, frames_name, frames_record, rzx_tag, write_frames
from harness.program.runs import regress
from harness.spectrum.rzx import Rzx, RzxFrame, write_rzx

GAME = "game-000"
PLAYER = '<section id="watch">the stand-in player</section>'


class Run:
    """The stand-in run's folder and what its game is: the transcript's game and seed, the run's tape."""

    def __init__(self, folder: Path):
        self.folder = folder
        lines = (folder / f"{GAME}.jsonl").read_text(encoding="utf-8").splitlines()
        head = json.loads(lines[0])
        self.events = len(lines) - 1
        self.game = GameId(head["game"], head["seed"],
                           json.loads((folder / "report.json").read_text(encoding="utf-8"))["tape"]["sha256"])
        self.rzx, self.frames = folder / f"{GAME}.rzx", folder / frames_name(0)

    def record(self, gid: GameId | None = None, frames_of: GameId | None = None, rzx_bytes: bytes | None = None,
               old_frames: bool = False) -> None:
        """game-000.rzx naming *gid* (None: naming nothing, as before issue 45) and its frames file naming
        *frames_of* (default: the RZX's game) and the RZX's bytes (or *rzx_bytes*'s); *old_frames*: schema 1."""
        data = write_rzx(Rzx(snapshot=b"SNAP", frames=[RzxFrame(1)] * 3,
                             custom=rzx_tag(gid) if gid is not None else b""))
        self.rzx.write_bytes(data)
        of = frames_of or gid or self.game
        record = frames_record(of.game, list(range(self.events)), 0, of.seed, of.tape_sha256,
                               rzx_bytes if rzx_bytes is not None else data)
        if old_frames:
            record = {"schema": 1, "game": of.game, "events": record["events"], "frames": record["frames"]}
        write_frames(self.frames, record)

    def page(self) -> str:
        return (self.folder / f"{GAME}.html").read_text(encoding="utf-8")


@pytest.fixture
def run(stand_in_games, good_tape, tmp_path, monkeypatch) -> Run:
    monkeypatch.setattr(report_module, "write_site", lambda *args, **kwargs: None)   # the edition, the plots:
    monkeypatch.setattr(report_module, "fairness_plots", lambda run: ([], None))       # tests of their own
    monkeypatch.setattr(report_module.plots, "score_race", lambda *args, **kwargs: None)
    regress.run(1, 1, 1, tmp_path / "run", regress.RegressOptions(tap=good_tape, progress=False))
    return Run(tmp_path / "run")


def _write(run: Run, player: bool = True, no_player: str | None = None) -> None:
    write_report_html(run.folder, player=(lambda w: PLAYER) if player else None, no_player=no_player)


def test_the_games_own_recording_gets_the_player(run):
    """The near miss of every refusal below: the RZX and frames file naming this game, seed, tape and RZX."""
    run.record(run.game)
    _write(run)
    page = run.page()
    assert PLAYER in page and 'id="no-watch"' not in page and "watch-note" not in page


def _refused(run: Run, player: bool = True) -> str:
    with pytest.raises(InputError) as refused:
        _write(run, player)
    assert not (run.folder / f"{GAME}.html").exists()           # refused before any page is written
    return str(refused.value)


@pytest.mark.parametrize("player", [True, False])
def test_another_games_recording_is_refused_in_one_line(run, player):
    g = run.game
    run.record(GameId(g.game + 5, g.seed + 1, g.tape_sha256))
    assert _refused(run, player) == (f"{run.rzx}: a recording of game {g.game + 5} (seed {g.seed + 1}), not of "
                                     f"{GAME}.jsonl's game {g.game} (seed {g.seed})")


def test_a_session_played_by_hand_beside_the_games_judgements_is_refused(run):
    """play --record-rzx's recording (no game, the game's own seed and tape) copied in as the game's RZX, the
    frames file the game's: refused in one line naming the RZX, before any page."""
    g = run.game
    run.record(GameId(None, g.seed, g.tape_sha256), frames_of=g)
    assert _refused(run) == (f"{run.rzx}: a recording of a session played by hand (seed {g.seed}), not of "
                             f"{GAME}.jsonl's game {g.game} (seed {g.seed})")


def test_a_recording_of_the_same_game_number_and_another_seed_is_refused(run):
    g = run.game
    run.record(GameId(g.game, g.seed + 1, g.tape_sha256))
    assert _refused(run) == (f"{run.rzx}: a recording of game {g.game} (seed {g.seed + 1}), not of {GAME}.jsonl's "
                             f"game {g.game} (seed {g.seed})")


def test_a_recording_on_another_tape_is_refused(run):
    g = run.game
    run.record(GameId(g.game, g.seed, "0" * 64))
    assert _refused(run) == (f"{run.rzx}: a recording on the tape of SHA-256 000000000000…, not on the run's "
                             f"({g.tape_sha256[:12]}…, report.json)")


def test_another_games_frames_beside_the_games_recording_are_refused(run):
    g = run.game
    run.record(g, frames_of=GameId(g.game + 2, g.seed + 7, g.tape_sha256))
    assert _refused(run) == (f"{run.frames}: the frames of game {g.game + 2} (seed {g.seed + 7}), not of "
                             f"{GAME}.jsonl's game {g.game} (seed {g.seed})")


def test_the_frames_of_another_recording_are_refused(run):
    run.record(run.game, rzx_bytes=b"another recording")
    theirs = hashlib.sha256(b"another recording").hexdigest()
    here = hashlib.sha256(run.rzx.read_bytes()).hexdigest()
    assert _refused(run) == (f"{run.frames}: the frames of another recording (RZX SHA-256 {theirs[:12]}…), "
                             f"not of {GAME}.rzx ({here[:12]}…)")


def test_files_older_than_the_names_are_said_to_name_nothing(run):
    """An RZX with no creator data and a schema-1 frames file (the game number only) still get the player;
    the page says what was not checked. A schema-1 file of another game is still refused."""
    run.record(None, frames_of=run.game, old_frames=True)
    _write(run)
    page = run.page()
    assert PLAYER in page
    assert f"{GAME}.rzx names no game (recorded before recordings named theirs): it is not checked against " \
           f"{GAME}.jsonl." in page
    assert f"{frames_name(0)} names no seed, tape or recording (written before frames files named them): only " \
           f"its game number is checked." in page
    run.record(None, frames_of=GameId(run.game.game + 1), old_frames=True)
    (run.folder / f"{GAME}.html").unlink()
    assert _refused(run) == (f"{run.frames}: the frames of game {run.game.game + 1}, not of {GAME}.jsonl's "
                             f"game {run.game.game} (seed {run.game.seed})")


def test_a_game_page_without_its_player_says_why(run):
    run.record(run.game)
    _write(run, player=False, no_player="the WebAssembly core is not built (no clang)")
    assert '<p class="missing" id="no-watch">No replay: the WebAssembly core is not built (no clang).</p>' \
        in run.page()
    run.frames.unlink()
    _write(run)
    assert (f'<p class="missing" id="no-watch">No replay: {GAME}.rzx is here but not {frames_name(0)}, which '
            f'places each judgement on the recording&#39;s frames.</p>') in run.page()
    run.rzx.unlink()
    run.record(run.game)
    run.rzx.unlink()
    _write(run)
    assert f'<p class="missing" id="no-watch">No replay: there is no {GAME}.rzx in this folder.</p>' in run.page()
    assert PLAYER not in run.page()


def test_a_run_that_recorded_nothing_says_nothing_of_a_player(run):
    _write(run)
    assert 'id="no-watch"' not in run.page() and PLAYER not in run.page()
