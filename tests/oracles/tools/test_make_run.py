"""`make run` on a fresh copy of the checkout (no .venv, no build/, no out/), as a newcomer runs it: it installs,
builds both tapes, plays and checks the games, exits 0, and prints only the project's own lines: no setuptools
warning, no pip notice, no recipe echoed by make. (pip and a fresh virtual environment: an oracle.)"""
from __future__ import annotations

import checkout
import os
import re
import shutil
import subprocess

import pytest

pytestmark = pytest.mark.slow
ROOT = checkout.ROOT
COPY_IGNORE = shutil.ignore_patterns(".git", ".venv", "build", "out", "*.egg-info", "__pycache__", ".pytest_cache",
                                     ".mypy_cache")
#: every line `make run` may print: the install's one line, a tape built, regress's progress and summary
OURS = (re.compile(r"installing cribbage-zx and what it needs into \.venv \(a few minutes the first time\)$"),
        re.compile(r"build/cribbage(-en)?\.tap: program \"CRIBBAGE\" LINE 2, 611 lines, \d+ bytes; \"chr\" CODE 64600,768$"),
        re.compile(r"(\[[#.]{30}\] \d+/\d+ games, [\d.]+ s)+$"),
        re.compile(r"[a-zA-Z /(),.:'-]+?\s{2,}[\d./ ]+$"),        # a summary row: words, then its figure
        re.compile(r"  [DF]\d+\s+\d+$"),
        re.compile(r"report: out/regress/report\.html \(the data: report\.json beside it\)$"))


def foreign_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.strip() and not any(p.match(line) for p in OURS)]


def test_a_foreign_line_is_told_from_the_projects():
    ours = ("installing cribbage-zx and what it needs into .venv (a few minutes the first time)\n"
            'build/cribbage-en.tap: program "CRIBBAGE" LINE 2, 611 lines, 19447 bytes; "chr" CODE 64600,768\n'
            "unexplained differences                                       0\n  D12       61\n")
    assert foreign_lines(ours) == []
    planted = "  !!\n  Please be careful with folders in your working directory with the same\n"
    assert foreign_lines(ours + planted) == planted.splitlines()
    assert foreign_lines("$(VENV)/bin/cribbage-zx build\n") == ["$(VENV)/bin/cribbage-zx build"]


def test_make_run_on_a_fresh_copy_prints_only_the_projects_lines(tmp_path):
    copy = tmp_path / "cribbage-zx"
    shutil.copytree(ROOT, copy, ignore=COPY_IGNORE)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "MAKEFLAGS", "MAKELEVEL")}
    done = subprocess.run(["make", "run"], cwd=copy, env=env, capture_output=True, text=True, timeout=3600)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-3000:]
    assert foreign_lines(output) == []
    assert (copy / "build" / "cribbage.tap").exists() and (copy / "build" / "cribbage-en.tap").exists()
    assert "unexplained differences" in output and (copy / "out" / "regress" / "report.html").exists()
