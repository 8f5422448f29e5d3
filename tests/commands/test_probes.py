"""Issue 19's probes, each as a user typed it: one line on stderr, exit status 2, and nothing lost or written.

Every case is the real command line through `harness.cli.run` (in this process, so the table runs in
seconds): a setup makes the files the probe needs and returns the arguments; the case says what the one
line must contain; and afterwards every file the setup made is as it was and no output folder appeared
where none was asked for. The worker and display probes, which need real processes, follow the table.
"""
from __future__ import annotations

import checkout
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from harness.errors import InputError, OutputError
from harness import cli
from harness.runtime.outdir import claimed
from harness.spectrum.tape import FLAG_DATA, TapeBlock, program_header, write_tap

ROOT = checkout.ROOT
TINY_TAPE = write_tap([program_header("TINY", 1), TapeBlock(FLAG_DATA, b"\r")])   # well formed, never played

#: a file that looks like a PEM (the path contract reads that far); what the probes try is the options around it
PEM = b"-----BEGIN CERTIFICATE-----\nx\n-----END CERTIFICATE-----\n"


def _regress_folder(folder: Path) -> Path:
    with claimed(folder, "regress"):
        (folder / "game-000.jsonl").write_text("{}\n")
        (folder / "report.json").write_text("{}")
    return folder


def _report_folder(tmp: Path, report, transcript: str | None = None) -> Path:
    with claimed(tmp / "run", "regress"):
        (tmp / "run" / "report.json").write_text(json.dumps(report))
        if transcript is not None:
            (tmp / "run" / "game-000.jsonl").write_text(transcript)
    return tmp / "run"


def _transcripts(tmp: Path, *lines: str) -> Path:
    folder = tmp / "runs"
    folder.mkdir()
    (folder / "game-000.jsonl").write_text("".join(line + "\n" for line in lines))
    return folder


HEADER = '{"kind": "header", "schema": 1, "seed": 1}'


def _file(tmp: Path, name: str, data: bytes) -> Path:
    (tmp / name).write_bytes(data)
    return tmp / name


# (id, setup(tmp) -> argv, what the one line says, exit status)
CASES = [
    # ---------------------------------------------------------------- data loss
    ("html into a folder of mine", lambda t: ((t / "m").mkdir(), (t / "m" / "thesis.txt").write_text("keep"),
                                              ["html", "--out", t / "m"])[-1],
     "holds 1 entry that no cribbage-zx run wrote (thesis.txt)", 2),
    ("html into a regress run", lambda t: ["html", "--out", _regress_folder(t / "r")],
     "holds a `cribbage-zx regress` run, not a html one", 2),
    ("html into a file", lambda t: ["html", "--out", _file(t, "afile", b"text")], "is a file, not a folder", 2),
    ("html into the current folder", lambda t: (os.chdir(t), _file(t, "x.txt", b"x"), ["html", "--out", "."])[-1],
     "holds 1 entry that no cribbage-zx run wrote", 2),
    ("html under a file", lambda t: ["html", "--out", _file(t, "afile", b"text") / "sub"],
     "afile is a file, not a folder", 2),
    ("sweep into a folder of mine", lambda t: ((t / "m").mkdir(), (t / "m" / "thesis.txt").write_text("keep"),
                                               ["sweep", "show", "--out", t / "m", "--replace", "--quiet",
                                                "--tape", _file(t, "t.tap", TINY_TAPE)])[-1],
     "holds 1 entry that no cribbage-zx run wrote (thesis.txt)", 2),
    ("sweep beside a regress run", lambda t: ["sweep", "show", "--out", _regress_folder(t / "r"), "--quiet",
                                              "--tape", _file(t, "t.tap", TINY_TAPE)],
     "holds a `cribbage-zx regress` run, not a sweep one", 2),
    ("discard report into a regress run", lambda t: ["sweep", "discard", "--out", _regress_folder(t / "r"),
                                                     "--samples", "1", "--tape", _file(t, "t.tap", TINY_TAPE)],
     "holds a `cribbage-zx regress` run", 2),
    ("regress into a file", lambda t: ["regress", "--out", _file(t, "afile", b"text"), "--quiet",
                                       "--tape", _file(t, "t.tap", TINY_TAPE)], "is a file, not a folder", 2),
    ("build over a file that is not a tape", lambda t: ["build", "-o", _file(t, "notes.tap", b"my notes")],
     "holds a file this tool did not write (not a TAP); refusing to replace it", 2),
    ("build into a folder", lambda t: ["build", "-o", (t / "d").mkdir() or t / "d"], "is a folder, not a TAP file", 2),
    ("snapshot over a file that is not a .z80", lambda t: ["snapshot", "--at", "10", _file(t, "s.z80", b"mine")],
     "holds a file this tool did not write (not a .z80)", 2),
    # ---------------------------------------------------------------- readers
    ("listing not UTF-8", lambda t: ["build", "--listing", _file(t, "l.bas", b'10 PRINT "\xff"\n'), "-o", t / "o.tap"],
     "l.bas:1: not UTF-8 text", 2),
    ("LET A=1E99999", lambda t: ["build", "--listing", _file(t, "l.bas", b"10 LET A=1E99999\n"), "-o", t / "o.tap"],
     "l.bas:1:10 (BASIC line 10): number '1E99999': too big for the Spectrum", 2),
    ("html --coverage of another shape", lambda t: ["html", "--out", t / "h", "--coverage",
                                                    _file(t, "c.json", b'{"coverage": {"counts": []}}')],
     "c.json: coverage.counts: expected an object, found a list", 2),
    ("html --coverage with no counts", lambda t: ["html", "--out", t / "h", "--coverage",
                                                  _file(t, "c.json", b'{"games": 3}')],
     "has no statement counts", 2),
    ("html --report of []", lambda t: ["html", "--report", _report_folder(t, [])],
     "report.json: expected an object, found a list", 2),
    ('html --report of {"per_game": 5}', lambda t: ["html", "--report", _report_folder(t, {"per_game": 5})],
     "report.json of schema 0, older than 1, and not readable as it (report: no games)", 2),
    ("html --report, a screen row that is a string", lambda t: [
        "html", "--report", _report_folder(t, {}, HEADER + '\n{"kind": "screen", "what": "count", "rows": ["x"], '
                                                          '"variables": {}}\n')],
     "game-000.jsonl: line 2: screen event: rows=['x']: expected a list of [row, text] pairs", 2),
    ("fairness --from a transcript of [1,2]", lambda t: ["fairness", "--from", _transcripts(t, HEADER, "[1, 2]")],
     "game-000.jsonl: line 2: expected an event object", 2),
    ("fairness --from an unknown card", lambda t: ["fairness", "--from", _transcripts(
        t, HEADER, '{"kind": "starter", "card": "ZZ"}')], "starter event: card='ZZ': bad card token 'ZZ'", 2),
    ("fairness --from a rank that is a string", lambda t: ["fairness", "--from", _transcripts(
        t, HEADER, '{"kind": "cut", "computer_rank": "3", "player_rank": 5}')],
     "cut event: computer_rank='3': expected a whole number", 2),
    ("an empty --tape", lambda t: ["regress", "--out", t / "o", "--tape", _file(t, "e.tap", b""), "--quiet"],
     "e.tap: empty, not a tape", 2),
    ("a TZX as --tape", lambda t: ["regress", "--out", t / "o", "--tape", _file(t, "t.tzx", b"ZXTape!\x1a\x01\x14"),
                                   "--quiet"], "t.tzx: is a TZX file, not a TAP", 2),
    ("a truncated --tape to snapshot", lambda t: ["snapshot", "--at", "10", "--tape", _file(t, "b.tap", TINY_TAPE[:9]),
                                                  t / "s.z80"], "b.tap: block 0 at byte offset 0: truncated block", 2),
    ("snapshot --answer ж", lambda t: ["snapshot", "--at", "10", "--answer", "ж", t / "s.z80"],
     "the Spectrum cannot type 'ж'", 2),
    # ---------------------------------------------------------------- --scheduler
    ("--scheduler 127.0.0.1", lambda t: ["regress", "--scheduler", "127.0.0.1", "--out", t / "o"],
     "argument --scheduler: '127.0.0.1' is not 'local', tcp://HOST:PORT or tls://HOST:PORT", 2),
    ("--scheduler nosuch://x", lambda t: ["sweep", "show", "--scheduler", "nosuch://x", "--out", t / "o"],
     "argument --scheduler: 'nosuch://x' is not", 2),
    ("a plain tcp:// off this machine", lambda t: ["regress", "--scheduler", "tcp://192.0.2.1:8786", "--out", t / "o"],
     "a plain address off this machine", 2),
    ("tls:// with only a certificate", lambda t: ["regress", "--scheduler", "tls://192.0.2.1:8786", "--tls-cert",
                                                  _file(t, "c.pem", PEM), "--out", t / "o"],
     "give --tls-ca-file, --tls-key too", 2),
    ("TLS files for --scheduler local", lambda t: ["fairness", "--scheduler", "local", "--tls-ca-file",
                                                   _file(t, "c.pem", PEM), "--out", t / "o"],
     "--scheduler local makes its own temporary certificate", 2),
]


@pytest.mark.parametrize("setup, says, status", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_probe_ends_in_one_line_and_loses_nothing(tmp_path, capsys, monkeypatch, setup, says, status):
    monkeypatch.chdir(tmp_path)
    argv = [str(a) for a in setup(tmp_path)]
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    handlers = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        with pytest.raises(SystemExit) as done:
            cli.run(argv)
    finally:
        for s, h in handlers.items():
            signal.signal(s, h)
    err = capsys.readouterr().err
    assert done.value.code == status, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and says in lines[0], err
    for path, data in before.items():                         # nothing lost, nothing changed
        assert path.exists() and path.read_bytes() == data, path
    for name in ("o", "h"):
        assert not (tmp_path / name).exists(), f"{name} was written"
    assert not list(tmp_path.rglob(".*.new-*")) and not list(tmp_path.rglob(".*.part"))


def test_a_near_miss_a_listing_with_a_bom_builds(tmp_path, capsys):
    listing = tmp_path / "l.bas"
    listing.write_bytes(b"\xef\xbb\xbf10 PRINT 1\n")
    from harness.commands.build import main
    assert main(["--listing", str(listing), "-o", str(tmp_path / "o.tap")]) == 0
    assert (tmp_path / "o.tap").read_bytes()[:3] == b"\x13\x00\x00"


def test_a_translation_table_that_is_not_utf8_names_its_line(tmp_path):
    from harness.program.model.english import read_table
    table = tmp_path / "t.tsv"
    table.write_bytes(b'# comment\n10\t"\xd0\xb0"\t"a"\n20\t"\xff"\t"b"\n')
    with pytest.raises(InputError, match=r"t\.tsv:3: not UTF-8 text"):
        read_table(table)


def test_a_full_disk_names_the_file_and_leaves_the_old_one(tmp_path, monkeypatch):
    import errno
    from harness.runtime import atomic
    target = tmp_path / "report.json"
    target.write_text("the old report")

    def full(*a, **k):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OutputError, match=f"{target}: cannot write it: No space left on device"):
        atomic.write_text(target, "the new report")
    assert target.read_text() == "the old report" and sorted(p.name for p in tmp_path.iterdir()) == ["report.json"]


def test_a_timeout_screenshot_goes_to_a_private_folder(tmp_path):
    import tempfile
    from harness.spectrum.machine import Spectrum48
    m = Spectrum48()
    m.boot()
    shot = m._timeout_screenshot()
    assert shot is not None and shot.parent != Path(tempfile.gettempdir())
    assert shot.parent.parent == Path(tempfile.gettempdir()) and (shot.parent.stat().st_mode & 0o077) == 0


def test_the_fingerprint_covers_the_translation_table_for_the_english_edition():
    from harness.program.model import build as B
    assert "translation" in B.fingerprint("en")["inputs"] and "translation" not in B.fingerprint("ru")["inputs"]
    assert B.fingerprint("en")["fingerprint"] != B.fingerprint("ru")["fingerprint"]


# ------------------------------------------------------------------ workers die with their parent
def _good_tape(tmp_path: Path) -> Path:
    from harness.program.model.build import build
    tape = tmp_path / "cribbage.tap"
    tape.write_bytes(build(check=False).tap)
    return tape


@pytest.fixture(scope="module")
def real_tape(tmp_path_factory) -> Path:
    return _good_tape(tmp_path_factory.mktemp("tape"))


def test_play_with_an_unreachable_display_is_one_line_at_once(tmp_path, real_tape):
    pytest.importorskip("pygame")
    env = {**os.environ, "DISPLAY": ":99", "SDL_AUDIODRIVER": "dummy"}
    env.pop("WAYLAND_DISPLAY", None)
    env.pop("SDL_VIDEODRIVER", None)
    done = subprocess.run([sys.executable, "-m", "harness.cli", "play", "--tape", str(real_tape)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=5)
    assert done.returncode == 2
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "no display" in lines[0] and ":99" in lines[0], done.stderr
