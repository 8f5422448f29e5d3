"""The tape is built again when what it is made from changes (builds through the ROM's acceptance check)."""
from __future__ import annotations

import hashlib
import json




# ------------------------------------------------------------------ a tape that is always current
def test_the_tape_is_rebuilt_when_what_it_is_made_from_changes(tmp_path, monkeypatch):
    from harness.program.model import build as B
    built = []
    real_build = B.build
    monkeypatch.setattr(B, "build", lambda **k: built.append(k) or real_build(**k))
    tape = tmp_path / "cribbage.tap"
    B.ensure_tape(tape)
    B.ensure_tape(tape)
    assert len(built) == 1                                    # current: not rebuilt
    stamp = json.loads((tmp_path / "cribbage.tap.fingerprint").read_text())
    assert stamp["tape_sha256"] == hashlib.sha256(tape.read_bytes()).hexdigest() and "harness/spectrum/basic.py" in stamp["inputs"]
    real = B.fingerprint
    monkeypatch.setattr(B, "fingerprint", lambda lang="ru": {**real(lang), "fingerprint": "a changed tokeniser"})
    B.ensure_tape(tape)
    assert len(built) == 2                                    # a source changed: rebuilt (file times unchanged)
    tape.write_bytes(tape.read_bytes()[:-1] + b"\x00")
    B.ensure_tape(tape)
    assert len(built) == 3                                    # the tape itself was changed: rebuilt
