"""Harness failures (a game that cannot be played) make regress's exit status non-zero."""


from harness.commands import regress as regress_command


# ------------------------------------------------------------------ stand-in games: failures and folders
# (tests/conftest.py's stand_in_games: each game a copy of one real game's record, game 1 raising)


def test_harness_failures_make_the_exit_status_non_zero(tmp_path, good_tape, stand_in_games, capsys):
    assert regress_command.main(["--games", "2", "--workers", "1", "--tape", str(good_tape),
                         "--out", str(tmp_path / "a"), "--quiet"]) == 1
    assert regress_command.main(["--games", "1", "--workers", "1", "--tape", str(good_tape),     # game 0 alone: clean
                         "--out", str(tmp_path / "b"), "--quiet"]) == 0
