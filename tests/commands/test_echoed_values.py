"""A value echoed in a refusal is cut to 40 characters (and its length said): a 30 MB argument never reaches
stderr whole; a short one is echoed as it is."""
from __future__ import annotations

import pytest

from harness import cli
from harness.errors import UsageError


@pytest.mark.parametrize("argv", [["sweep", "x" * 5000], ["regress", "--strategy", "y" * 5000],
                                  ["readings", "--entries", "z" * 5000], ["play", "--replay-to", "w" * 5000]])
def test_a_long_value_is_cut_in_the_one_line(argv):
    with pytest.raises(UsageError) as refused:
        cli.main(argv)
    line = str(refused.value)
    assert "\n" not in line and len(line) < 400, line
    assert "5,000 characters" in line and argv[-1][:40] in line and argv[-1][:41] not in line


def test_a_short_value_is_echoed_whole():
    with pytest.raises(UsageError) as refused:
        cli.main(["sweep", "shw"])
    assert "'shw'" in str(refused.value)
