"""`cribbage-zx play --hash`: the moment's frame and hash without a window (what play.html shows for the same
link); what it does not go with is one line (the equality with the page is tests/oracles/browser/test_web_phone.py's)."""
from __future__ import annotations

import pytest


@pytest.mark.parametrize("argv, said", [
    (["--hash"], "--hash: give --replay FILE (played to its end) or --seed N (the first question)"),
    (["--hash", "--seed", "1", "--load", "x.z80"], "--hash plays without a window from the tape: not with --load"),
    (["--hash", "--seed", "1", "--record", "out.json"], "not with --record"),
])
def test_play_hash_refuses_in_one_line(argv, said, capsys, tmp_path, monkeypatch):
    from harness.commands import play
    monkeypatch.chdir(tmp_path)
    # a .z80 the path contract takes (a version 3 header, pages 4, 5, 8): what is refused is --hash with --load
    (tmp_path / "x.z80").write_bytes(bytes(30) + (54).to_bytes(2, "little") + (0x1234).to_bytes(2, "little")
                                     + bytes(52) + b"".join(b"\xff\xff" + bytes([p]) + bytes(16384) for p in (4, 5, 8)))
    assert play.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert said in err and "\n" not in err
