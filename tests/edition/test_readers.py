"""Every reader fed generated and mutated files (Hypothesis): a correct result or one clean line, never a traceback.

Each property starts from a good file of its kind (a real tape, .z80, transcript, report, coverage,
sweep chunk, listing line, translation row), mutates it (bytes flipped, cut, inserted; JSON values
swapped for others of any type) or generates one from nothing, and asserts the reader either returns
a result or raises its own domain error (a `HarnessError`) as one line naming the file. Where the
reader returns records, none is silently dropped: a transcript yields one event per event line.
"""
from __future__ import annotations

import checkout
import json
import re

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings, strategies as st

from harness.errors import HarnessError, InputError

ROOT = checkout.ROOT
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _clean(exc: BaseException, name: str | None = None) -> None:
    """A reader's refusal as the command line shows it: its domain error, one line, naming the file."""
    assert isinstance(exc, HarnessError), f"{type(exc).__name__}: {exc}"
    text = str(exc)
    assert text and "\n" not in text, text
    if name is not None:
        assert name in text, text


@st.composite
def mutated(draw, good: bytes) -> bytes:
    """*good* with a few bytes flipped, cut out or put in, or cut short."""
    data = bytearray(good)
    for _ in range(draw(st.integers(1, 4))):
        if not data:
            break
        at = draw(st.integers(0, len(data) - 1))
        how = draw(st.sampled_from(["flip", "cut", "insert", "truncate"]))
        if how == "flip":
            data[at] ^= draw(st.integers(1, 255))
        elif how == "cut":
            del data[at:at + draw(st.integers(1, 8))]
        elif how == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=8))
        else:
            del data[at:]
    return bytes(data)


JSON = st.recursive(st.none() | st.booleans() | st.integers(-5, 70000) | st.floats(allow_nan=False) | st.text(max_size=6),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                    max_leaves=8)


@st.composite
def json_mutated(draw, good):
    """*good* (a JSON value) with some values, anywhere in it, replaced by any JSON, or keys dropped."""
    def walk(v):
        if draw(st.integers(0, 9)) == 0:
            return draw(JSON)
        if isinstance(v, dict):
            keep = {k: walk(x) for k, x in v.items() if draw(st.integers(0, 11)) != 0}
            return keep
        if isinstance(v, list):
            return [walk(x) for x in v[:4]]
        return v
    return walk(good)


# ------------------------------------------------------------------ tapes
@pytest.fixture(scope="module")
def tape_bytes() -> bytes:
    from harness.program.model.build import build
    return build(check=False).tap


@FAST
@given(data=st.data())
def test_a_tape_reader_gives_blocks_or_one_line_naming_the_file(tmp_path, tape_bytes, data):
    from harness.spectrum.tape import read_program_tape, read_tap
    raw = data.draw(mutated(tape_bytes[:400] + tape_bytes[-200:]) | mutated(tape_bytes) | st.binary(max_size=64))
    path = tmp_path / "t.tap"
    path.write_bytes(raw)
    try:
        blocks = read_tap(path)
    except Exception as exc:
        _clean(exc, str(path))
    else:
        assert b"".join(b.to_bytes() for b in blocks) == raw          # every byte is in a block: nothing dropped
    try:
        assert read_program_tape(path) == raw
    except Exception as exc:
        _clean(exc, str(path))


# ------------------------------------------------------------------ .z80
@pytest.fixture(scope="module")
def z80_bytes() -> bytes:
    from harness.spectrum import z80snap
    from harness.spectrum.machine import Spectrum48
    m = Spectrum48(fast=True)
    m.boot()
    return z80snap.write_z80(z80snap.from_machine(m))


@FAST
@given(data=st.data())
def test_the_z80_reader_gives_a_snapshot_or_one_line_naming_the_file(tmp_path, z80_bytes, data):
    from harness.spectrum.z80snap import read_z80
    path = tmp_path / "s.z80"
    path.write_bytes(data.draw(mutated(z80_bytes) | st.binary(max_size=90)))
    try:
        snap = read_z80(path)
    except Exception as exc:
        _clean(exc, "s.z80")
    else:
        assert len(snap.ram) == 49152


# ------------------------------------------------------------------ transcripts
GOOD_TRANSCRIPT = (ROOT / "tests" / "data" / "example-deal.jsonl").read_text(encoding="utf-8")


@FAST
@given(data=st.data())
def test_the_transcript_reader_gives_every_event_or_one_line(data):
    import io
    from harness.program.records.events import read_jsonl
    lines = GOOD_TRANSCRIPT.splitlines()
    chosen = [json.loads(line) for line in lines[: data.draw(st.integers(1, min(30, len(lines))))]]
    doc = data.draw(json_mutated(chosen))
    doc = doc if isinstance(doc, list) else [doc]
    text = "".join(json.dumps(x) + "\n" for x in doc)
    if data.draw(st.booleans()):
        text = data.draw(mutated(text.encode())).decode("utf-8", "replace")
    try:
        head, events = read_jsonl(io.StringIO(text))
    except Exception as exc:
        _clean(exc, "line ")
    else:
        records = [ln for ln in text.splitlines() if ln.strip()]
        headers = sum(1 for ln in records if json.loads(ln).get("kind") == "header")
        assert len(events) == len(records) - headers                # no event silently dropped


def test_a_transcript_that_is_not_utf8_names_its_line(tmp_path):
    from harness.program.records.events import InputError, read_jsonl
    path = tmp_path / "g.jsonl"
    path.write_bytes(GOOD_TRANSCRIPT.encode()[:200] + b"\xff\xfe\n")
    with open(path, encoding="utf-8") as f, pytest.raises(InputError, match="not UTF-8"):
        read_jsonl(f)


# ------------------------------------------------------------------ report.json and coverage
GOOD_COVERAGE = {"coverage": {"statements_run": 2, "statements_total": 3, "ifs_both": 0, "ifs_total": 1,
                              "counts": {"10:1": 4, "20:1": 1}, "never_run": ["30:1"], "ifs": {"20:1": [1, 0]},
                              "explained_by": {"30:1": "dead"}, "unexplained": []}}


@FAST
@given(doc=json_mutated(GOOD_COVERAGE) | JSON)
def test_the_coverage_reader_gives_coverage_or_one_line_naming_the_field(tmp_path, doc):
    from harness.edition.notes import read_coverage
    path = tmp_path / "c.json"
    path.write_text(json.dumps(doc))
    try:
        cov = read_coverage(path)
    except Exception as exc:
        _clean(exc, "c.json")
    else:
        if cov is not None:
            assert all(isinstance(v, int) for v in cov.counts.values())
            assert all(len(v) == 2 for v in cov.ifs.values())


GAME = {"index": 0, "seed": 1, "strategy": "random", "winner": "player", "scores": {"computer": 90, "player": 121},
        "completed": True, "deals": 7, "score_events": 40, "documented": {"D1": 1}, "unexplained": [],
        "basic_errors": [], "timeout": None, "failure": None, "emulated_s": 500.5, "wall_s": 4.2,
        "adversarial_tries": [], "findings": {}, "games_played": 1, "wins": [], "pictures": 9,
        "screen_checks": 90, "screen_differences": 0}
COVERAGE = {"statements_run": 5, "statements_total": 9, "ifs_both": 1, "ifs_total": 2, "never_run": ["6:1"],
            "one_way": [], "unexplained": [], "explained_by": {"6:1": "N1"}, "counts": {"10:1": 3},
            "ifs": {"10:1": [1, 2]}, "choices": {"cut": 1}, "pictures_at": {"cut 7060": 2}}
GOOD_REPORT = {"games": 1, "ended": "complete", "played": 1, "completed": 1, "deals": 7, "actions": 80,
               "score_events": 40, "checks": 60, "pictures": 9, "screen_checks": 90, "screen_differences": 0,
               "screen_unexplained": 0, "screen_cpu_share": 0.02, "documented_differences": 1,
               "documented_by_deviation": {"D1": 1}, "unexplained_differences": 0, "basic_errors": 0, "timeouts": 0,
               "harness_failures": 0, "harness_failure_details": [], "wall_s": 5.0, "emulated_s": 500.5,
               "wall_s_per_game": 4.2, "workers": 1, "scheduler": None, "deviations": {}, "findings": {},
               "documented_by_rules": {"standard": {"D1": 1}}, "unexplained_by_rules": {"standard": 0},
               "per_game": [GAME], "thorough": False, "accelerate": True, "jobs_cpu_s": 4.0,
               "tape": {"path": "t.tap", "sha256": "ab", "fingerprint": None}, "coverage": COVERAGE,
               "report_schema": 1}


@FAST
@given(doc=json_mutated(GOOD_REPORT) | JSON)
def test_the_report_reader_gives_a_report_or_one_line_naming_the_field(tmp_path, doc):
    from harness.program.runs.regress import read_report
    path = tmp_path / "report.json"
    path.write_text(json.dumps(doc))
    try:
        report = read_report(path)
    except Exception as exc:
        _clean(exc, "report.json")
    else:
        assert all(isinstance(g.index, int) for g in report.per_game)


def test_the_good_report_is_read_whole(tmp_path):
    """The near miss of the property above: the unmutated report reads back as the same object."""
    from harness.program.runs.regress import read_report
    path = tmp_path / "report.json"
    path.write_text(json.dumps(GOOD_REPORT))
    assert read_report(path).as_json() == GOOD_REPORT


# ------------------------------------------------------------------ sweep chunks
@FAST
@given(data=st.data())
def test_a_sweep_chunk_is_used_only_when_whole_and_otherwise_done_again(tmp_path, data):
    from harness.program.runs import sweep_chunks
    items = [(5, [1, 2]), (3, [4])]
    good = {"index": 0, "items_sha": sweep_chunks.items_sha(items), "cases": 2, "weight": 8,
            "disagreements": [{"series": [1, 2], "weight": 5, "program": 2, "engine": 0}],
            "profile": {"counts": {"10:1": 1}, "if_true": {}, "if_false": {}}}
    doc = data.draw(json_mutated(good))
    path = sweep_chunks.chunk_path(tmp_path, 0)
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = json.dumps(doc).encode()
    path.write_bytes(data.draw(mutated(raw)) if data.draw(st.booleans()) else raw)
    chunk, why = sweep_chunks.read_chunk(tmp_path, "play", 0, items)       # never raises
    assert (chunk is None) != (why is None)                          # used, or a reason to do it again
    if chunk is not None:
        assert chunk.cases == 2 and all(isinstance(d["program"], int) for d in chunk.disagreements)


# ------------------------------------------------------------------ the listing and the translation table
@FAST
@given(text=st.text(max_size=80) | st.builds(lambda n, body: f"{n} {body}", st.integers(-5, 10005),
                                             st.text(max_size=40)))
def test_the_tokeniser_gives_a_program_or_one_line_naming_the_file(text):
    from harness.spectrum.basic import tokenise_program
    try:
        program = tokenise_program(text, path="l.bas")
    except Exception as exc:
        _clean(exc, "l.bas")
    else:
        assert isinstance(program, bytes)


@FAST
@given(data=st.data())
def test_the_translation_table_gives_rows_or_one_line_naming_the_file(tmp_path, data):
    from harness.program.model.english import read_table
    good = '# a comment\n10\t"ПИКИ"\t"SPADES"\n20\t"Т"\t"A"\n'.encode()
    path = tmp_path / "t.tsv"
    path.write_bytes(data.draw(mutated(good) | st.binary(max_size=40)))
    try:
        rows = read_table(path)
    except Exception as exc:
        _clean(exc, "t.tsv")
    else:
        text = path.read_bytes().decode("utf-8-sig")
        wanted = [ln for ln in text.split("\n") if ln.strip() and not ln.startswith("#")]
        assert len(rows) == len(wanted)                                 # no row silently dropped


def test_read_toml_names_the_file_and_line_and_reads_a_good_file(tmp_path):
    """The one TOML reader (the edition's notes, meanings and quotes): a syntax error and a non-UTF-8 byte are
    one InputError naming file and line; the same file made valid is read as its table."""
    from harness.errors import InputError
    from harness.runtime.validate import read_toml
    bad = tmp_path / "q.toml"
    bad.write_text('[[quote]]\nas_read = "x"\nenglish = \n', encoding="utf-8")
    with pytest.raises(InputError, match=r"q\.toml: .*line 3"):
        read_toml(bad)
    bad.write_bytes(b'[[quote]]\nas_read = "\xff"\n')
    with pytest.raises(InputError, match=r"q\.toml:2: not UTF-8 text"):
        read_toml(bad)
    good = tmp_path / "good.toml"
    good.write_text('[[quote]]\nas_read = "x"\nenglish = "y"\n', encoding="utf-8")
    assert read_toml(good) == {"quote": [{"as_read": "x", "english": "y"}]}


def test_a_run_folders_transcript_header_of_the_wrong_kind_is_named_by_its_file(tmp_path):
    """The game pages read a transcript's header through events.read_header: a seed that is not a whole number
    is refused naming the file, the line and the field; a header naming less gets past the transcripts (to
    the report.json this folder lacks)."""
    from harness.edition.run_records import read_run
    from harness.program.records.events import SCHEMA_VERSION
    event = '{"kind": "cut", "player_rank": 5, "computer_rank": 9}\n'
    (tmp_path / "report.json").write_text("{}", encoding="utf-8")
    path = tmp_path / "game-000.jsonl"
    path.write_text(json.dumps({"kind": "header", "schema": SCHEMA_VERSION, "seed": [7]}) + "\n" + event,
                    encoding="utf-8")
    with pytest.raises(InputError, match=f"^{re.escape(str(path))}: line 1: header.seed: expected a whole number, "
                                         r"found a list \[\.\.\.\]$"):
        read_run(tmp_path)
    path.write_text(json.dumps({"kind": "header", "schema": SCHEMA_VERSION, "player": "greedy"}) + "\n" + event,
                    encoding="utf-8")                                                  # the near miss
    with pytest.raises(InputError) as refused:
        read_run(tmp_path)
    assert "report.json" in str(refused.value) and "game-000.jsonl" not in str(refused.value), refused.value
