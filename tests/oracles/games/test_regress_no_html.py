"""regress --no-html writes the records of games it plays and names the command that renders them."""


from harness.commands import regress as regress_command


# ------------------------------------------------------------------ stand-in games: failures and folders
# (tests/conftest.py's stand_in_games: each game a copy of one real game's record, game 1 raising)


def test_no_html_writes_the_records_and_names_the_command_that_renders_them(tmp_path, good_tape, stand_in_games,
                                                                           monkeypatch, capsys):
    from harness.edition import report as html_report
    rendered = []
    monkeypatch.setattr(html_report, "write_report_html", lambda out: rendered.append(out))
    args = ["--games", "1", "--workers", "1", "--tape", str(good_tape), "--quiet"]
    assert regress_command.main(args + ["--out", str(tmp_path / "a"), "--no-html"]) == 0
    assert rendered == [] and (tmp_path / "a" / "report.json").exists()
    assert (tmp_path / "a" / "game-000.judgements.jsonl").exists()
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"report: {tmp_path / 'a' / 'report.json'} (report.html: cribbage-zx html --report {tmp_path / 'a'})")
    # the near miss: without it the run renders its folder
    assert regress_command.main(args + ["--out", str(tmp_path / "b")]) == 0
    assert rendered == [tmp_path / "b"]
