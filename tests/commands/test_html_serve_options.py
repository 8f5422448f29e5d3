"""`html --serve` with what it does not serve (--report), and `--port` without `--serve`, refused in one line
(what the server serves: tests/web/test_serve_files.py)."""
from __future__ import annotations

import pytest

from harness.commands.html import main
from harness.errors import UsageError


def test_serve_with_report_and_port_without_serve_are_refused_in_one_line(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    (run / ".cribbage-zx-run").write_text('{"command": "regress", "state": "complete", "files": []}')
    with pytest.raises(UsageError, match=r"^--serve serves the edition written to --out; --report draws"):
        main(["--report", str(run), "--serve"])
    with pytest.raises(UsageError, match=r"^--port 8001 is --serve's port: give --serve too$"):
        main(["--port", "8001"])
    with pytest.raises(UsageError, match=r"--port: 70000 is not in 0..65535"):
        main(["--port", "70000", "--serve"])
