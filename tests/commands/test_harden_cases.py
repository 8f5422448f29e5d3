"""Issue 34's cases outside the pack, the JSON readers and Ctrl-C: each planted and seen as one line (exit 2,
naming the file or option, a value quoted at most a few dozen characters), each beside a near miss."""
from __future__ import annotations

import json
import os

import pytest

from harness import cli
from harness.errors import InputError
from harness.runtime import outdir
from harness.runtime.validate import quoted


def run(argv, capsys) -> tuple[int, str]:
    with pytest.raises(SystemExit) as done:
        cli.run(argv)
    return done.value.code, capsys.readouterr().err


@pytest.fixture
def read_only(tmp_path, monkeypatch):
    """A folder that cannot be written, on a read-only file system (as root, permissions alone would not do:
    the system's own answers for it are planted)."""
    folder = tmp_path / "ro"
    folder.mkdir()
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: (not (mode & os.W_OK) or Path(p) != folder)
                        and real_access(p, mode, **kw))
    monkeypatch.setattr(outdir, "on_read_only_fs", lambda p: Path(p) == folder)
    return folder


from pathlib import Path


# ---------------------------------------------------------------- play --record (case 3)
def test_play_record_onto_a_file_that_is_not_a_key_record_is_refused_before_the_game(tmp_path, capsys):
    mine = tmp_path / "notes.json"
    mine.write_text('{"my": "notes"}')
    code, err = run(["play", "--record", str(mine)], capsys)
    assert (code, err) == (2, f"cribbage-zx play: --record {mine}: holds a file this tool did not write (not a key "
                              f"record); refusing to replace it (move it away or choose another name); or give "
                              f"--replace\n")
    assert mine.read_text() == '{"my": "notes"}'


def test_play_record_onto_an_earlier_record_or_with_replace_is_taken(tmp_path):
    from harness.play.record import KeyRecord, check_record_path
    earlier = tmp_path / "keys.json"
    KeyRecord("0" * 64, 1, [(1, ("A",))], 5).write(earlier)
    assert check_record_path(earlier) == earlier                    # a record of ours: replaced at the end
    mine = tmp_path / "notes.json"
    mine.write_text("mine")
    assert check_record_path(mine, replace=True) == mine
    assert check_record_path(tmp_path / "new.json") == tmp_path / "new.json"


def test_play_record_into_a_read_only_folder_is_found_before_the_game(read_only, capsys):
    code, err = run(["play", "--record", str(read_only / "keys.json")], capsys)
    assert (code, err) == (2, f"cribbage-zx play: --record {read_only / 'keys.json'}: its folder is not writable "
                              f"(a read-only file system); choose another place\n")


def test_play_replace_without_record_is_refused(capsys):
    assert run(["play", "--replace"], capsys) == (2, "cribbage-zx play: --replace goes with --record FILE or --record-rzx FILE\n")


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "0"])
def test_play_seconds_must_be_a_finite_positive_number(capsys, value):
    code, err = run(["play", "--seconds", value], capsys)
    assert code == 2 and "--seconds" in err and len(err.splitlines()) == 1


# ---------------------------------------------------------------- --replay's checks
def _record(tmp_path, **change):
    from harness.play.record import FORMAT, VERSION
    data = {"format": FORMAT, "version": VERSION, "tape_sha256": "0" * 64, "seed": 7, "frames": 10,
            "keys": [[1, ["A"]], [3, []]], **change}
    path = tmp_path / "keys.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("change, said", [
    ({"seed": 65536}, "seed 65536 is not 0..65535 (SEED is two bytes)"),
    ({"seed": -1}, "seed -1 is not 0..65535 (SEED is two bytes)"),
    ({"keys": [[1, ["NOT A KEY"]]]}, "keys[0] (frame 1): 'NOT A KEY' is not a 48K key"),
    ({"keys": [[1, ["X" * 100_000]]]}, "keys[0] (frame 1): 'XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX'... "
                                       "(100,000 characters) is not a 48K key"),
    ({"frames": -3}, "frames -3 is negative"),
    ({"keys": [[3, ["A"]], [1, []]]}, "the key changes are not in frame order"),
])
def test_a_replay_record_is_checked_whole_when_read(tmp_path, change, said):
    """The reader names the file and marks the fix "replay"; the play command names its --replay."""
    from harness.commands.cliargs import naming_flags
    from harness.commands.play import FLAG_WORDS
    from harness.play.record import KeyRecord
    path = _record(tmp_path, **change)
    with pytest.raises(InputError) as refused:
        KeyRecord.read(path)
    assert (str(refused.value), refused.value.fix) == (f"{path}: {said}", "replay")
    with pytest.raises(InputError) as worded, naming_flags(FLAG_WORDS):
        KeyRecord.read(path)
    assert str(worded.value) == f"--replay {path}: {said}"


def test_a_good_replay_record_is_read(tmp_path):
    from harness.play.record import KeyRecord
    record = KeyRecord.read(_record(tmp_path, seed=65535, keys=[[0, ["CAPS SHIFT", "SPACE"]]]))
    assert (record.seed, record.changes) == (65535, [(0, ("CAPS SHIFT", "SPACE"))])


# ---------------------------------------------------------------- raw [Errno N] texts
def test_an_output_under_a_file_says_which_path_is_a_file(tmp_path, capsys):
    (tmp_path / "t.tap").write_bytes(b"")
    code, err = run(["build", "-o", str(tmp_path / "t.tap" / "x.tap")], capsys)
    assert (code, err) == (2, f"cribbage-zx build: --output {tmp_path / 't.tap' / 'x.tap'}: cannot be made: t.tap "
                              f"is a file, not a folder\n")


def test_a_missing_font_names_the_file_and_no_errno(tmp_path, capsys):
    code, err = run(["build", "-o", str(tmp_path / "t.tap"), "--font", str(tmp_path / "none.txt")], capsys)
    assert (code, err) == (2, f"cribbage-zx build: --font {tmp_path / 'none.txt'}: no such file\n")


def test_outputs_in_a_read_only_folder_are_said_as_such(read_only, tmp_path, capsys):
    for argv, named in ((["build", "-o", str(read_only / "t.tap")], f"build: --output {read_only / 't.tap'}"),
                        (["build", "-o", str(tmp_path / "t.tap"), "--pack", str(read_only / "pack")],
                         f"build: --pack {read_only / 'pack'}"),
                        (["snapshot", "--at", "10", str(read_only / "s.z80")], f"snapshot: OUTPUT {read_only / 's.z80'}"),
                        (["regress", "--games", "1", "--out", str(read_only / "run")], f"regress: --out {read_only / 'run'}")):
        code, err = run(argv, capsys)
        assert (code, err) == (2, f"cribbage-zx {named}: its folder is not writable "
                                  f"(a read-only file system); choose another place\n"), argv
        assert "Errno" not in err


def test_a_dangling_symlink_out_says_where_it_points(tmp_path, capsys):
    link = tmp_path / "out"
    link.symlink_to(tmp_path / "nowhere")
    code, err = run(["regress", "--games", "1", "--out", str(link)], capsys)
    assert (code, err) == (2, f"cribbage-zx regress: --out {link}: is a symlink to {tmp_path / 'nowhere'}, which "
                              f"does not exist; remove the link or create its target\n")
    (tmp_path / "nowhere").mkdir()                                  # the near miss: a link to a folder
    with outdir.claimed(link, "regress") as folder:
        (folder / "x").write_text("x")
    assert (tmp_path / "nowhere" / "x").exists()


# ---------------------------------------------------------------- quoting
def test_quoted_cuts_a_long_value_and_keeps_a_short_one():
    assert quoted("abc") == "'abc'"
    assert quoted("x" * 40) == repr("x" * 40)
    assert quoted("x" * 30_000_000) == f"{'x' * 40!r}... (30,000,000 characters)"
    assert quoted(12345) == "12345" and quoted(10 ** 50) == "1" + "0" * 39 + "... (51 characters)"


# ---------------------------------------------------------------- regress --rzx on another core
def test_regress_rzx_on_another_core_is_refused_before_the_run(tmp_path, capsys):
    code, err = run(["regress", "--games", "1", "--rzx", "--core", "skoolkit", "--out", str(tmp_path / "out")],
                    capsys)
    assert (code, err) == (2, "cribbage-zx: --rzx records on the z80 core only, not --core skoolkit\n")
    assert not (tmp_path / "out").exists()


# ---------------------------------------------------------------- fairness --from
def _fairness_run(folder, seed=1, events=True, header=True):
    from harness.program.records.events import Cut, transcript_records, write_transcript
    folder.mkdir(parents=True, exist_ok=True)
    records = transcript_records([Cut(player_rank=5, computer_rank=9)] if events else [], seed=seed,
                                 player="random", game=0)
    write_transcript(folder / "game-000.jsonl", records if header else records[1:])
    return folder


def test_fairness_from_the_same_folder_twice_is_refused_and_two_runs_are_read(tmp_path):
    from harness.program.runs import fairness
    a = _fairness_run(tmp_path / "a")
    with pytest.raises(InputError) as refused:
        fairness.read_runs([a, tmp_path / "." / "a"], given_as="--from")     # the command names its option
    assert str(refused.value) == f"--from {tmp_path / '.' / 'a'}: given twice (as {a}): its games would count twice"
    b = _fairness_run(tmp_path / "b", seed=2)
    assert len(fairness.read_runs([a, b])) == 2                      # the near miss: two runs of other seeds
    c = _fairness_run(tmp_path / "c", seed=1)                        # a copy of a's game
    with pytest.raises(InputError, match=r"c/game-000.jsonl: the game of seed 1 \(random\) is in .*a/game-000"):
        fairness.read_runs([a, c])


def test_fairness_from_an_empty_or_headerless_transcript_is_refused(tmp_path):
    from harness.program.runs import fairness
    with pytest.raises(InputError, match=r"game-000.jsonl: a header and no events: the game was not played"):
        fairness.read_runs([_fairness_run(tmp_path / "e", events=False)])
    with pytest.raises(InputError, match=r"game-000.jsonl: no header line: not a transcript of a regress"):
        fairness.read_runs([_fairness_run(tmp_path / "h", header=False)])


@pytest.mark.parametrize("extra, said", [(["--games", "5"], "--games"), (["--out", "x"], "--out"),
                                         (["--scheduler", "local"], "--scheduler")])
def test_fairness_from_with_options_that_play_new_games_is_refused(tmp_path, capsys, extra, said):
    a = _fairness_run(tmp_path / "a")
    code, err = run(["fairness", "--from", str(a), *extra], capsys)
    assert (code, err) == (2, f"cribbage-zx: --from reads earlier runs: {said} would play new games and does not go "
                              f"with it\n")


def test_scheduler_timeout_reaches_the_address_and_needs_an_address():
    from harness.commands import regress
    from harness.commands.cliargs import command_parser
    from harness.errors import UsageError
    parser = command_parser(regress, "cribbage-zx regress", UsageError)
    given = parser.parse_args(["--scheduler", "tcp://127.0.0.1:8786", "--scheduler-timeout", "1.5"])
    assert given.scheduler.connect_timeout == 1.5
    assert parser.parse_args(["--scheduler", "tcp://127.0.0.1:8786"]).scheduler.connect_timeout == 10.0
    for argv in ([], ["--scheduler", "local"]):
        with pytest.raises(UsageError, match="--scheduler-timeout is for a scheduler's address"):
            parser.parse_args([*argv, "--scheduler-timeout", "1"])
