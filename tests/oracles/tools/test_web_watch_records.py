"""The watch page built with the WebAssembly core (clang) from a recorded run: each judgement given at its action's frame; a record pointing at another action, a frames file that does not fit and a game not recorded each said."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from harness.edition.report import write_report_html
from harness.errors import InputError
from harness.program.judge.judgements import read_judgements
from harness.spectrum.rzx import read_rzx
from harness.web.watch import watch_block

from helpers import copy_run
from helpers import shift_action

GAME = "game-000"


def _expected_frames(run: Path) -> dict[int, int]:
    """Each judgement (numbered from 1 in its file) -> the RZX frames played once its action has happened:
    read here from the records, the transcript and the frames file, not from the page's payload."""
    _, judgements = read_judgements(run / f"{GAME}.judgements.jsonl")
    frames = json.loads((run / f"{GAME}.frames.json").read_text())["frames"]
    last = len(frames) - 1
    return {n: max(frames[last if j.action_at is None else j.action_at], 0) + 1 for n, j in enumerate(judgements, 1)}


def test_the_page_is_given_each_judgement_at_its_actions_frame(run):
    """The payload the page replays against: every judgement of the records, at the frame the test reads
    from the frames file (a second reading of the same records, not the page's code)."""
    html = (run / f"{GAME}.html").read_text(encoding="utf-8")
    payload = json.loads(re.search(r'<script type="application/json" id="watch-payload">(.*?)</script>', html,
                                   re.S).group(1).replace("<\\/", "</"))
    assert {e["n"]: e["frame"] for e in payload["entries"]} == _expected_frames(run)
    assert read_rzx(__import__("base64").b64decode(payload["rzx"])).frames == read_rzx((run / f"{GAME}.rzx").read_bytes()).frames


@pytest.mark.parametrize("shift", [1, -3])
def test_a_record_whose_judgement_points_at_another_action_stops_the_watch_page(run, tmp_path, module, shift, no_edition):
    copy = copy_run(run, tmp_path / "copy")
    path = copy / f"{GAME}.judgements.jsonl"
    n, rec = shift_action(path, "show", shift)
    with pytest.raises(InputError) as caught:
        write_report_html(copy, player=lambda w: watch_block(w, module))
    assert str(caught.value).startswith(f"{path}: judgement {n} (show, {rec['rules']} rules) points at event {rec['action_at']} ")
    assert not (copy / f"{GAME}.html").exists()


def test_a_frames_file_that_does_not_fit_the_transcript_is_named(run, tmp_path, module, no_edition):
    copy = copy_run(run, tmp_path / "copy")
    path = copy / f"{GAME}.frames.json"
    data = json.loads(path.read_text())
    for damage, said in [(lambda d: d["frames"].pop(), "frames for a transcript of"),
                         (lambda d: d["frames"].__setitem__(5, d["frames"][4] - 1), "event 5 is at frame"),
                         (lambda d: d.__setitem__("schema", 9), "not a frames file of schema 1")]:
        planted = json.loads(json.dumps(data))
        damage(planted)
        path.write_text(json.dumps(planted))
        with pytest.raises(InputError, match=re.escape(said)) as caught:
            write_report_html(copy, player=lambda w: watch_block(w, module))
        assert str(caught.value).startswith(f"{path}: ")


def test_a_game_the_run_did_not_record_has_no_watch_mode(run, tmp_path, no_edition):
    """The player is asked only for a game with its RZX and frames file (the report without a player is
    test_report_html's: no watch mode there)."""
    assert 'id="watch"' in (run / f"{GAME}.html").read_text(encoding="utf-8")
    copy = copy_run(run, tmp_path / "copy")
    (copy / f"{GAME}.rzx").unlink()
    write_report_html(copy, player=lambda w: pytest.fail("a player for a game with no recording"))
    assert 'id="watch"' not in (copy / f"{GAME}.html").read_text(encoding="utf-8")
