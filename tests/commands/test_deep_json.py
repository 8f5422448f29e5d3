"""One reader discipline for every JSON file we read (issue 34, case 4): a file nested 100,000 deep is
refused in one line naming it, never a RecursionError; one nested as deep as MAX_DEPTH is still read.

Every reader here goes through harness/runtime/validate.parse_json (or read_json), as the readers of
report.json, transcripts and coverage did already.
"""
from __future__ import annotations

import json

import pytest

from harness.errors import InputError, OutputError
from harness.runtime import outdir
from harness.runtime.validate import MAX_DEPTH, parse_json, read_json

DEEP = "[" * 100_000 + "]" * 100_000
DEEP_OBJECT = '{"a": ' * 100_000 + "1" + "}" * 100_000
REFUSED = f"not JSON this tool reads: nested more than {MAX_DEPTH} deep"


@pytest.mark.parametrize("text", [DEEP, DEEP_OBJECT, "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)])
def test_parse_json_refuses_deep_nesting_in_one_line(text):
    with pytest.raises(InputError) as refused:
        parse_json(text, "FILE")
    assert str(refused.value) == f"FILE: {REFUSED}"


def test_parse_json_reads_nesting_as_deep_as_the_limit_and_names_a_syntax_errors_line():
    assert parse_json("[" * MAX_DEPTH + "]" * MAX_DEPTH, "FILE") == json.loads("[" * MAX_DEPTH + "]" * MAX_DEPTH)
    with pytest.raises(InputError, match=r"^FILE:2: not JSON: Expecting value$"):
        parse_json('{"a":\n}', "FILE")
    with pytest.raises(InputError, match=r"^FILE:7: not JSON: Expecting value$"):
        parse_json("[", "FILE:7", one_line=True)


def test_a_judgements_file_nested_deep_is_refused_naming_its_line(tmp_path):
    from harness.program.judge.judgements import read_judgements
    path = tmp_path / "game-000.judgements.jsonl"
    path.write_text(DEEP + "\n")
    with pytest.raises(InputError) as refused:
        read_judgements(path)
    assert str(refused.value) == f"{path}:1: {REFUSED}"


def test_a_transcript_nested_deep_is_refused_naming_its_line():
    import io
    from harness.program.records.events import read_jsonl
    with pytest.raises(InputError) as refused:
        read_jsonl(io.StringIO('{"kind": "header", "schema": 1}\n' + DEEP + "\n"))
    assert str(refused.value) == f"line 2: {REFUSED}"


def test_a_sweep_chunk_nested_deep_is_done_again(tmp_path):
    from harness.program.runs import sweep_chunks
    path = sweep_chunks.chunk_path(tmp_path, 0)
    path.write_text(DEEP)
    assert sweep_chunks.read_chunk(tmp_path, "play", 0, [(5, [1, 2])]) == (None, f"unreadable ({REFUSED})")


def test_a_sweeps_params_json_nested_deep_is_refused_and_a_list_too(tmp_path):
    from harness.commands import sweep as sweep_cmd
    from harness.commands.cliargs import naming_flags
    from harness.program.runs import sweep
    (tmp_path / "params.json").write_text(DEEP)
    with pytest.raises(InputError) as refused:
        sweep.check_same_sweep(tmp_path, {"kind": "play"})
    assert (str(refused.value), refused.value.fix) == (f"{tmp_path / 'params.json'}: {REFUSED}", "replace")
    with pytest.raises(InputError) as refused, naming_flags(sweep_cmd.FLAGS):    # the command's words
        sweep.check_same_sweep(tmp_path, {"kind": "play"})
    assert str(refused.value) == f"{tmp_path / 'params.json'}: {REFUSED}; use --replace to start afresh"
    (tmp_path / "params.json").write_text("[1]")
    with pytest.raises(InputError, match=r"params.json: expected an object, found a list \[\.\.\.\]; use --replace"), \
            naming_flags(sweep_cmd.FLAGS):
        sweep.check_same_sweep(tmp_path, {"kind": "play"})
    (tmp_path / "params.json").write_text('{"kind": "play"}')               # the near miss: the same sweep
    sweep.check_same_sweep(tmp_path, {"kind": "play"})


def test_a_replay_record_nested_deep_is_refused_naming_the_option_and_file(tmp_path):
    from harness.play.record import KeyRecord
    path = tmp_path / "keys.json"
    path.write_text(DEEP)
    from harness.commands.cliargs import naming_flags
    from harness.commands.play import FLAG_WORDS
    with pytest.raises(InputError) as refused, naming_flags(FLAG_WORDS):     # the play command's words
        KeyRecord.read(path)
    assert str(refused.value) == f"--replay {path}: {REFUSED}"
    good = KeyRecord("0" * 64, 7, [(3, ("A",))], 10)
    good.write(path)
    assert KeyRecord.read(path) == good


def test_a_run_record_nested_deep_makes_the_folder_refused(tmp_path):
    (tmp_path / ".cribbage-zx-run").write_text(DEEP)
    with pytest.raises(OutputError) as refused:
        with outdir.claimed(tmp_path, "regress", replace=True):
            pass
    assert str(refused.value) == f"{tmp_path}: its record .cribbage-zx-run is unreadable; choose another --out"


def test_a_pack_manifest_nested_deep_is_a_problem_of_the_pack(tmp_path):
    from harness.program.runs import pack
    (tmp_path / "manifest.json").write_text(DEEP)
    assert pack.verify(tmp_path) == [f"{tmp_path / 'manifest.json'}: {REFUSED} (not a pack manifest)"]


def test_a_tapes_fingerprint_nested_deep_is_not_trusted(tmp_path):
    from harness.program.model.build import fingerprint_path, tape_record
    tape = tmp_path / "t.tap"
    tape.write_bytes(b"\x13\x00")
    fingerprint_path(tape).write_text(DEEP)
    assert tape_record(tape)["fingerprint"] is None


def test_read_json_names_the_file(tmp_path):
    (tmp_path / "x.json").write_text(DEEP)
    with pytest.raises(OutputError, match=rf"^{tmp_path / 'x.json'}: {REFUSED}$"):
        read_json(tmp_path / "x.json", OutputError)


def test_a_number_of_more_digits_than_python_converts_is_one_line():
    with pytest.raises(InputError) as refused:
        parse_json('{"seed": ' + "1" * 5000 + "}", "FILE")
    assert str(refused.value).startswith("FILE: not JSON this tool reads: 'Exceeds the limit (4300 digits)")
    assert len(str(refused.value)) < 150
