"""A mistyped command, option or choice is answered with the nearest one; --version prints the one version."""
from __future__ import annotations

import re

import pytest

from harness import cli
from harness.commands.cliargs import did_you_mean
from harness.errors import UsageError
from helpers import ROOT


def _usage_error(argv: list[str]) -> str:
    with pytest.raises(UsageError) as caught:
        cli.main(argv)
    return str(caught.value)


def test_a_mistyped_command_is_answered_with_the_nearest():
    said = _usage_error(["regres"])
    assert "invalid choice: 'regres'" in said and said.endswith("(did you mean regress?)")
    assert "did you mean" not in _usage_error(["zzzzzz"])              # near miss: nothing is near it


def test_a_mistyped_option_of_a_command_is_answered_with_the_commands_option():
    assert _usage_error(["regress", "--sed", "3"]).endswith("unrecognized arguments: --sed 3 (did you mean --seed?)")
    assert _usage_error(["regress", "--gmes=2"]).endswith("(did you mean --games?)")
    assert "did you mean" not in _usage_error(["regress", "--qqqqqq"])
    assert _usage_error(["build", "--lang", "eng"]).endswith("(did you mean en?)")
    assert _usage_error(["--verison"]).endswith("(did you mean --version?)")


def test_did_you_mean_takes_the_first_word_with_a_near_one_and_says_nothing_otherwise():
    assert did_you_mean(["--xyz", "--workrs"], ["--workers", "--seed"]) == " (did you mean --workers?)"
    assert did_you_mean(["--xyz"], ["--workers", "--seed"]) == ""
    assert did_you_mean([], ["--seed"]) == ""


def test_version_prints_the_version_written_in_harness_init(capsys):
    version = re.search(r'^__version__ = "(.+)"$', (ROOT / "harness" / "__init__.py").read_text(), re.M).group(1)
    with pytest.raises(SystemExit) as done:
        cli.main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out == f"cribbage-zx {version}\n"
    assert "0.2.0" == version and 'dynamic = ["version"]' in (ROOT / "pyproject.toml").read_text()
