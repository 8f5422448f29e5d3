"""cribbage-zx html writes the edition and prints its time (the edition itself: tests/edition/test_edition.py)."""
from __future__ import annotations


import pytest

from harness.errors import InputError


def test_html_command_writes_the_edition_and_prints_its_time(tmp_path, monkeypatch, capsys):
    from harness.commands.html import main
    monkeypatch.chdir(tmp_path)
    assert main([]) == 0
    assert (tmp_path / "out" / "html" / "listing.html").exists()
    assert " s" in capsys.readouterr().out
    with pytest.raises(InputError, match="--coverage missing.json: no such file"):
        main(["--coverage", "missing.json"])
