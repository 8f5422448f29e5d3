"""Issue 34's "must be made clear" cases of this round: each planted and seen as one line (exit 2, naming the
folder, file or option) or as the clear result, each beside a near miss that must still work.

strength --from of two tapes; html --report on each kind of folder; TLS files that are not PEM; an --out inside
another run's folder; bench's options of another bench; a 5,000-digit literal in the listing."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness import cli
from harness.errors import InputError, OutputError, UsageError
from harness.runtime import outdir


def run(argv, capsys) -> tuple[int, str]:
    with pytest.raises(SystemExit) as done:
        cli.run(argv)
    return done.value.code, capsys.readouterr().err


def one_line(err: str) -> str:
    assert err.endswith("\n") and err.count("\n") == 1, err
    return err[:-1]


# ---------------------------------------------------------------- strength --from: one tape a study
def _strength_folder(folder: Path, sha: str | None) -> Path:
    with outdir.claimed(folder, "strength") as written:
        report = {"run": {}} if sha is None else {"run": {}, "tape": {"path": "t.tap", "sha256": sha}}
        (written / "report.json").write_text(json.dumps(report))
    return folder


def test_strength_from_runs_of_two_tapes_is_refused_naming_both_folders(tmp_path):
    from harness.program.runs.strength import one_tape
    a = _strength_folder(tmp_path / "a", "a" * 64)
    b = _strength_folder(tmp_path / "b", "b" * 64)
    with pytest.raises(InputError) as refused:
        one_tape([a, b])
    assert str(refused.value) == (f"the runs in {a} and {b} played different tapes (SHA-256 aaaaaaaaaaaa… and "
                                  f"bbbbbbbbbbbb…): not one study; study each alone")
    old = _strength_folder(tmp_path / "old", None)            # a run from before the tape was recorded
    with pytest.raises(InputError, match=rf"^{old}: its report.json names no tape"):
        one_tape([a, old])
    same = _strength_folder(tmp_path / "same", "a" * 64)       # the near miss: two runs of one tape
    assert one_tape([a, same]) == {"path": "t.tap", "sha256": "a" * 64}


@pytest.mark.parametrize("lines, said", [
    (['{"kind": "cut", "player_rank": 5, "computer_rank": 9}'], "no header line: not a transcript of a strength or "
                                                                 "regress run"),
    (['{"kind": "header", "schema": SCHEMA}'], "its header names no seed, player, game: not a transcript of a "
                                               "strength or regress run"),
    (['{"kind": "header", "schema": SCHEMA, "seed": 1, "player": "ev", "game": 0}'],
     "a header and no events: the game was not played"),
])
def test_strength_from_a_transcript_without_header_or_events_is_one_line(tmp_path, capsys, lines, said):
    from harness.program.records.events import SCHEMA_VERSION
    folder = _strength_folder(tmp_path / "a", "a" * 64)
    (folder / "game-000.jsonl").write_text("\n".join(lines).replace("SCHEMA", str(SCHEMA_VERSION)) + "\n")
    code, err = run(["strength", "--from", str(folder), "--out", str(tmp_path / "again")], capsys)
    assert (code, one_line(err)) == (2, f"cribbage-zx: {folder / 'game-000.jsonl'}: {said}")


# ---------------------------------------------------------------- html --report: each folder its own page
def _strength_report() -> dict:
    from harness.program.runs.strength import summarise
    return summarise([], [], ("ev",)).as_json()


def test_html_report_on_a_strength_folder_draws_its_strength_page(tmp_path, capsys):
    from harness.commands.html import main
    folder = tmp_path / "strength"
    with outdir.claimed(folder, "strength") as written:
        (written / "report.json").write_text(json.dumps(_strength_report()))
        (written / "game-000.jsonl").write_text('{"kind": "header", "schema": 1}\n')
    with pytest.warns(UserWarning):                            # matplotlib: an empty plot has no legend
        assert main(["--report", str(folder)]) == 0
    assert capsys.readouterr().out.startswith(f"report: {folder / 'strength.html'} in ")
    page = (folder / "strength.html").read_text(encoding="utf-8")
    assert "Too few games for a verdict" in page
    assert not (folder / "report.html").exists()               # no regress page (its FAIL) for a strength run


def test_html_report_on_a_strength_folder_with_another_report_is_one_line(tmp_path, capsys):
    folder = tmp_path / "strength"
    with outdir.claimed(folder, "strength") as written:
        (written / "report.json").write_text(json.dumps({"games": 3}))
    code, err = run(["html", "--report", str(folder)], capsys)
    assert (code, one_line(err)) == (2, f"cribbage-zx: {folder / 'report.json'}: strength report: no opponents")
    assert not (folder / "strength.html").exists()


def test_html_report_on_a_sweeps_folder_draws_its_reports_facts(tmp_path, capsys):
    from harness.commands.html import main
    sweeps = tmp_path / "sweep"
    from harness.program.runs import sweep
    show = sweep.SweepReport(sweep="show", items=1234, chunks=2, coverage={"cases": 1234}, cases_checked=1234,
                             chunks_missing=[], harness_failures=0, harness_failure_details=[], weight_checked=5000,
                             wall_s_this_run=3.5, workers=2, groups=[], unexplained_groups=0, tape=None,
                             basic_coverage=sweep.BasicCoverage(3, [10, 20], {}))
    discard = sweep.DiscardReport(sweep.DiscardRole(25, 0.5, 0.8), sweep.DiscardRole(25, 0.25, 0.84))
    sweeps = tmp_path / "sweep"
    with outdir.claimed(sweeps, "sweep") as written:
        (written / "show-report.json").write_text(json.dumps(show.as_json()))
        (written / "discard-report.json").write_text(json.dumps(discard.as_json()))
    with outdir.claimed(sweeps / "show", "sweep") as chunks:  # its folder of chunks, inside it
        (chunks / "params.json").write_text("{}")
    assert main(["--report", str(sweeps)]) == 0
    page = (sweeps / "report.html").read_text(encoding="utf-8")
    assert "<title>Sweep report" in page and "FAIL" not in page and "PASS" not in page
    assert "show-report.json" in page and "cases checked" in page and "1,234" in page or "1234" in page
    assert "discard-report.json" in page and "best choice share" in page
    (sweeps / "discard-report.json").write_text(json.dumps({"samples": 50, "agree": 41}))   # not a discard report
    code, err = run(["html", "--report", str(sweeps)], capsys)
    assert code == 2 and "discard-report.json: discard report: no dealer" in one_line(err)
    code, err = run(["html", "--report", str(sweeps / "show")], capsys)      # the chunks: pointed to the parent
    assert (code, one_line(err)) == (2, f"cribbage-zx: --report {sweeps / 'show'}: the chunks of one sweep; its "
                                        f"report is in the sweeps' folder: --report {sweeps}")


def test_html_report_on_an_empty_sweeps_folder_or_an_edition_is_one_line(tmp_path, capsys):
    sweeps = tmp_path / "sweep"
    with outdir.claimed(sweeps, "sweep") as written:
        (written / "show").mkdir()
    code, err = run(["html", "--report", str(sweeps)], capsys)
    assert (code, one_line(err)) == (2, f"cribbage-zx: {sweeps}: no sweep report here (show-report.json, "
                                        f"play-report.json, discard-report.json); a sweep writes them into its "
                                        f"--out when it ends")
    edition = tmp_path / "html"
    with outdir.claimed(edition, "html") as written:
        (written / "index.html").write_text("<html></html>")
    code, err = run(["html", "--report", str(edition)], capsys)
    assert (code, one_line(err)) == (2, f"cribbage-zx html: --report {edition}: holds a `cribbage-zx html` run, not "
                                        f"a fairness, regress, strength or sweep run (the folders --report draws "
                                        f"a page of)")


def test_html_help_says_which_folders_report_takes():
    from harness.commands.html import add_arguments
    from harness.commands.cliargs import ArgParser
    parser = ArgParser(prog="cribbage-zx html", error_class=UsageError)
    add_arguments(parser)
    words = " ".join(parser.format_help().split())
    assert ("RUN_DIR/report.html for a regress or fairness run and for a sweep's --out (its *-report.json), "
            "RUN_DIR/strength.html for a strength run") in words


# ---------------------------------------------------------------- TLS files that are not what they say
@pytest.fixture(scope="module")
def pem(tmp_path_factory):
    """A certificate and its key (distributed's temporary ones), and a second key that is not its."""
    security = pytest.importorskip("distributed.security").Security
    folder = tmp_path_factory.mktemp("pem")
    first, second = security.temporary(), security.temporary()
    (folder / "cert.pem").write_text(first.tls_client_cert)
    (folder / "key.pem").write_text(first.tls_client_key)
    (folder / "other-key.pem").write_text(second.tls_client_key)
    (folder / "bad.pem").write_text("-----BEGIN CERTIFICATE-----\nnot base64 at all\n-----END CERTIFICATE-----\n")
    return folder


@pytest.mark.parametrize("which, option, said", [
    (0, "--tls-ca-file", "holds no PEM certificate that can be read"),
    (1, "--tls-cert", "holds no PEM certificate that can be read"),
    (2, "--tls-key", "holds no PEM private key that can be read without a password"),
])
def test_a_bad_pem_file_is_named_with_its_option(pem, which, option, said):
    from harness.runtime.jobs import checked_scheduler
    files = [str(pem / "cert.pem"), str(pem / "cert.pem"), str(pem / "key.pem")]
    files[which] = str(pem / "bad.pem")
    with pytest.raises(ValueError) as refused:
        checked_scheduler("tls://192.0.2.1:8786", *files)
    assert str(refused.value).startswith(f"{option} {pem / 'bad.pem'}: {said} (")
    assert "_" not in str(refused.value).split("(")[-1]         # OpenSSL's reason in words
    assert "\n" not in str(refused.value)


def test_a_key_of_another_certificate_is_named_and_the_right_files_are_taken(pem, capsys):
    from harness.runtime.jobs import checked_scheduler
    cert, key, other = (str(pem / n) for n in ("cert.pem", "key.pem", "other-key.pem"))
    with pytest.raises(ValueError, match=rf"^--tls-key {other}: is not the key of --tls-cert {cert}$"):
        checked_scheduler("tls://192.0.2.1:8786", cert, cert, other)
    s = checked_scheduler("tls://192.0.2.1:8786", cert, cert, key)           # the near miss: the right pair
    assert (s.tls_ca_file, s.tls_cert, s.tls_key) == (cert, cert, key)
    code, err = run(["regress", "--games", "1", "--scheduler", "tls://192.0.2.1:8786", "--tls-ca-file",
                     str(pem / "bad.pem"), "--tls-cert", cert, "--tls-key", key], capsys)   # on the command line
    assert code == 2 and f"--tls-ca-file {pem / 'bad.pem'}: holds no PEM certificate" in one_line(err)


# ---------------------------------------------------------------- an --out inside another run's folder
def test_an_out_inside_another_runs_folder_is_refused_naming_it(tmp_path, capsys):
    run_dir = tmp_path / "regress"
    with outdir.claimed(run_dir, "regress") as written:
        (written / "report.json").write_text("{}")
    code, err = run(["regress", "--games", "1", "--out", str(run_dir / "again")], capsys)
    assert (code, one_line(err)) == (2, f"cribbage-zx regress: --out {run_dir / 'again'}: is inside {run_dir}, the folder of a "
                                        f"`cribbage-zx regress` run; choose a place outside it")
    assert not (run_dir / "again").exists()
    code, err = run(["html", "--out", str(run_dir / "deep" / "edition")], capsys)  # any depth, any command
    assert one_line(err) == (f"cribbage-zx html: --out {run_dir / 'deep' / 'edition'}: is inside {run_dir}, the folder of a "
                             f"`cribbage-zx regress` run; choose a place outside it")
    with pytest.raises(OutputError, match=rf"^{run_dir / 'pack'}: is inside {run_dir}, the folder of"):
        outdir.check_whole(run_dir / "pack", "build")                     # build --pack's folder too


def test_a_folder_beside_a_run_and_a_sweeps_chunks_are_taken(tmp_path):
    run_dir = tmp_path / "regress"
    with outdir.claimed(run_dir, "regress") as written:
        (written / "report.json").write_text("{}")
    with outdir.claimed(tmp_path / "beside", "regress") as beside:           # the near miss: a sibling
        (beside / "report.json").write_text("{}")
    sweeps = tmp_path / "sweep"
    with outdir.claimed(sweeps, "sweep") as written:
        (written / "show-report.json").write_text("{}")
    with outdir.claimed(sweeps / "show", "sweep") as chunks:                 # a sweep's own folder of chunks
        (chunks / "chunk-0000.json").write_text("{}")
    with pytest.raises(OutputError, match="is inside"):                     # ... but not a regress in it
        with outdir.claimed(sweeps / "show" / "x", "regress"):
            pass


# ---------------------------------------------------------------- bench: one bench and its own options
@pytest.mark.parametrize("argv, said", [
    (["--games", "5"], "--games is for --runner, not the default bench (give --runner with it)"),
    (["--cores", "--runner"], "--cores and --runner are 2 benches: give one of them (each runs alone)"),
    (["--web", "--cores"], "--web and --cores are 2 benches: give one of them (each runs alone)"),
    (["--cores", "--games", "3"], "--games is for --runner, not --cores (give --runner with it)"),
    (["--cores", "--workers", "4"], "--workers is for the default bench or --runner, not --cores"),
    (["--runner", "--dask-games", "4"], "--dask-games is for the default bench, not --runner"),
    (["--web", "--no-command"], "--no-command is for the default bench, not --web"),
])
def test_bench_options_of_another_bench_are_refused_before_it_starts(capsys, argv, said):
    code, err = run(["bench", *argv], capsys)
    assert (code, one_line(err)) == (2, f"cribbage-zx: {said}")


def test_bench_runner_takes_its_games_and_the_default_its_defaults(monkeypatch):
    from harness.commands import bench
    from harness.bench import runner
    seen = {}
    monkeypatch.setattr(runner, "bench_runner", lambda games, workers, dask: seen.update(games=games, workers=workers)
                        or {"transcripts_identical": True})
    monkeypatch.setattr(runner, "format_result", lambda result: "figures")
    assert bench.main(["--runner", "--games", "3", "--no-dask"]) == 0
    assert seen == {"games": 3, "workers": 2}
    parser = __import__("harness.commands.cliargs", fromlist=["x"]).command_parser(bench, "cribbage-zx bench",
                                                                                   UsageError)
    args = parser.parse_args([])
    bench.check_options(args)
    assert (args.games, args.workers, args.dask_games) == (20, 2, 2)


# ---------------------------------------------------------------- a 5,000-digit literal in the listing
def test_a_5000_digit_literal_is_quoted_once_and_short(tmp_path, capsys):
    listing = tmp_path / "huge.bas"
    listing.write_text(f"10 LET A={'9' * 5000}\n", encoding="utf-8")
    code, err = run(["build", "--listing", str(listing), "-o", str(tmp_path / "t.tap")], capsys)
    line = one_line(err)
    assert code == 2 and len(line) - len(str(listing)) < 200, len(line)     # the folder's name is pytest's
    assert line == (f"cribbage-zx: {listing}:1:10 (BASIC line 10): number '{'9' * 40}'... (5,000 characters): too "
                    f"big for the Spectrum (the ROM stops with «6 Number too big»)")
    assert not (tmp_path / "t.tap").exists()


def test_long_literals_that_are_numbers_are_encoded_and_huge_ones_said_short():
    from harness.spectrum.floats import encode, encode_literal
    assert encode_literal("1." + "5" * 5000) == encode(1.5555555555555556)     # 5,000 digits: still 1.55...
    assert encode_literal("0." + "0" * 5000 + "1") == bytes(5)                  # below the smallest: 0, as the ROM
    assert encode_literal("1E38") == encode(10 ** 38)
    for text in ("9" * 5000, "1E999999999"):                                   # no 10**999999999 computed
        with pytest.raises(OverflowError) as big:
            encode_literal(text)
        assert len(str(big.value)) < 80 and "too big for the Spectrum" in str(big.value)
    with pytest.raises(ValueError) as bad:
        encode_literal("1." * 3000)
    assert str(bad.value) == f"not a number literal: '{'1.' * 20}'... (6,000 characters)"
