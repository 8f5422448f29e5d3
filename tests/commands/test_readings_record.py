"""A readings record names the tape it was measured on (its SHA-256, path and sources' fingerprint), and
`readings --resume` refuses, in one line naming the file and before any game, a record of another tape
and another command's record; the right record (a near miss) is resumed, and a record older than the
tape's fingerprint is said to name no tape rather than crash (issue 45, item 4)."""
from __future__ import annotations

import hashlib
import json

import pytest

from harness import cli
from harness.commands import readings as command
from harness.errors import InputError
from harness.program.runs import readings as R
from harness.program.runs.readings_games import FRAMES_FACTOR, FRAMES_MARGIN
from harness.program.runs.readings_record import TapeRecord, as_json, check_record


@pytest.fixture
def tape(good_tape, monkeypatch):
    """The built tape, as the command's played_tape gives it (no build of build/cribbage.tap here), and no
    game played: a test that reaches R.run fails."""
    data = good_tape.read_bytes()
    monkeypatch.setattr(command, "played_tape", lambda tap=None: (good_tape, data))
    monkeypatch.setattr(R, "run", lambda *a, **k: pytest.fail("a game was played"))
    return good_tape, data


def _record(tape: dict | None) -> dict:
    """A finished readings record (nothing left untested: a resume plays nothing), of *tape*."""
    record = {"schema": 1, "ended": "complete", "command": "cribbage-zx readings --games 1 --seed 1",
              "readings": [{"id": "1310.a", "line": 1310, "source": "ocr", "what": "", "text": "", "entry": True,
                            "kind": "identical", "detail": "", "games": [], "moments": [], "appear": [],
                            "vanish": [], "kept": [], "vanish_playing": []}],
              "counts": {"identical": 1}, "undone": [],
              "plan": {"games": 1, "seed": 1, "thorough": False, "frames_budget": [FRAMES_FACTOR, FRAMES_MARGIN]},
              "base_games": [], "variant_games": 1, "shared_tapes": 0,
              "cpu_s": {"total": 1.0, "rom_checks": 0.5, "games": 0.5}}
    if tape is not None:
        record["tape"] = tape
    return record


def _resume(out, capsys) -> tuple[int, list[str]]:
    with pytest.raises(SystemExit) as done:
        cli.run(["readings", "--resume", "--quiet", "--out", str(out)])
    return done.value.code, capsys.readouterr().err.splitlines()


def test_the_record_names_its_tape():
    data = b"a tape"
    assert R.tape_of(R.BaseTape(data)) == TapeRecord(None, hashlib.sha256(data).hexdigest(), None)
    assert as_json(R.tape_of(R.BaseTape(data))) == {"path": None, "sha256": hashlib.sha256(data).hexdigest(),
                                                    "fingerprint": None}            # null written, not left out


def test_a_record_of_another_tape_is_refused_in_one_line_before_any_game(tape, tmp_path, capsys):
    out = tmp_path / "readings.json"
    other = hashlib.sha256(b"another tape").hexdigest()
    out.write_text(json.dumps(_record({"path": "build/cribbage.tap", "sha256": other, "fingerprint": None}),
                              indent=1, sort_keys=True))
    before = out.read_bytes()
    code, err = _resume(out, capsys)
    now = hashlib.sha256(tape[1]).hexdigest()
    assert code == 2
    assert err == [f"cribbage-zx: {out}: a record of another tape (SHA-256 {other[:12]}…, build/cribbage.tap), "
                   f"not of this one ({now[:12]}…): its readings are not comparable; measure afresh"]
    assert out.read_bytes() == before


def test_the_record_of_this_tape_is_resumed(tape, tmp_path, capsys):
    """The near miss: the same record naming this tape resumes (nothing left to play) and keeps its tape."""
    out = tmp_path / "readings.json"
    named = R.tape_of(R.BaseTape(tape[1], tape[0]))
    assert named.sha256 == hashlib.sha256(tape[1]).hexdigest() and named.path == str(tape[0])
    out.write_text(json.dumps(_record(as_json(named)), indent=1, sort_keys=True))
    code, err = _resume(out, capsys)
    assert code == 0
    assert err == [f"cribbage-zx readings: {out}: no reading left untested by its budget: nothing to play"]
    assert json.loads(out.read_text())["tape"]["sha256"] == named.sha256


def test_a_record_older_than_the_tapes_fingerprint_is_said_to_name_none(tape, tmp_path, capsys):
    out = tmp_path / "readings.json"
    out.write_text(json.dumps(_record(None), indent=1, sort_keys=True))
    code, err = _resume(out, capsys)
    assert code == 0
    assert err[0] == (f"cribbage-zx readings: {out}: the record names no tape (written before readings kept the "
                      f"tape's SHA-256): its reconstruction's games, played again, are the check that the tape "
                      f"is the same")


@pytest.mark.parametrize("planted, said", [
    ({"schema": 1, "games": 1, "per_game": [], "tape": {}}, "not a readings record (a regress or fairness report: "
                                                           "it has per_game)"),
    ({"schema": 1, "command": "cribbage-zx sweep --out x", "plan": {}}, "not a readings record (written by "
                                                                       "`cribbage-zx sweep --out x`)"),
    ({"schema": 1, "base_games": [], "plan": [], "readings": [], "cpu_s": {}},
     "not a readings record as this version writes it ('plan' is not a dict)"),
    ([1, 2], "not a readings record (a JSON list, not an object)")])
def test_another_commands_record_given_to_resume_is_refused_in_one_line(tape, tmp_path, capsys, planted, said):
    """Planted with the head the --out contract recognises (a record of this tool), so the resume itself
    must tell it apart; each one line naming the file, nothing played."""
    out = tmp_path / "readings.json"
    text = json.dumps(planted, indent=1, sort_keys=True)
    out.write_text('{\n "base_games": [],' + text[1:] if isinstance(planted, dict) and "base_games" not in planted
                   else text)
    if isinstance(planted, list):
        with pytest.raises(InputError) as refused:
            check_record(planted, str(out))
        assert str(refused.value) == f"{out}: {said}"
        return
    code, err = _resume(out, capsys)
    assert code == 2
    assert err == [f"cribbage-zx: {out}: {said}"]


def test_resume_and_replace_are_refused_together(tape, tmp_path, capsys):
    out = tmp_path / "readings.json"
    out.write_text(json.dumps(_record(None), indent=1, sort_keys=True))
    with pytest.raises(SystemExit) as done:
        cli.run(["readings", "--resume", "--replace", "--out", str(out)])
    assert done.value.code == 2
    assert capsys.readouterr().err.splitlines() == [
        f"cribbage-zx: --resume continues the record in --out {out}; --replace would start afresh: "
        f"choose one"]
