"""The linter, run: `ruff check` with pyproject.toml's [tool.ruff] passes over harness/, tools/ and tests/, every
rule family chosen there says why in a comment, and a planted fault of each kind is caught (ruff is a program,
not Python: the oracles' tools)."""
from __future__ import annotations

import checkout
import re
import subprocess
import sys
import tomllib

ROOT = checkout.ROOT
CONFIG = ROOT / "pyproject.toml"


def _ruff(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ruff", "check", "--config", str(CONFIG), "--no-cache",
                           "--output-format", "concise", *args], cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_the_checkout_passes_the_configured_rules():
    done = _ruff("harness", "tools", "tests")
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_chosen_rule_says_why():
    lint = tomllib.loads(CONFIG.read_text(encoding="utf-8"))["tool"]["ruff"]["lint"]
    text = CONFIG.read_text(encoding="utf-8")
    for rule in lint["select"] + lint.get("ignore", []):
        line = next(line for line in text.splitlines() if re.match(rf'\s*"{rule}",', line))
        assert re.search(r"#\s*\S", line), f"pyproject.toml: the rule {rule} has no reason beside it"


PLANTED = {
    "F401": "import json\n",
    "E711": "def f(x):\n    return x == None\n",
    "E731": "square = lambda x: x * x\n",
    "RUF100": "import json  # noqa: F401\n\nprint(json)\n",
    "W291": "x = 1 \n",
}


def test_a_planted_fault_of_each_kind_is_caught_and_its_mended_form_passes(tmp_path):
    for rule, source in PLANTED.items():
        path = tmp_path / f"planted_{rule.lower()}.py"
        path.write_text(source, encoding="utf-8")
        done = _ruff(str(path))
        assert done.returncode == 1 and f" {rule} " in done.stdout, (rule, done.stdout + done.stderr)
    mended = tmp_path / "mended.py"
    mended.write_text("import json\n\n\ndef square(x):\n    return x * x if x is not None else json.dumps(x)\n",
                      encoding="utf-8")
    done = _ruff(str(mended))
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_test_module_may_import_after_skipping_itself():
    """tests/**: E402 is off (pytest.importorskip comes first); elsewhere the same layout is a fault."""
    source = "import pytest\n\nyaml = pytest.importorskip('yaml')\n\nimport json\n\nprint(json, yaml)\n"

    def as_file(name: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "ruff", "check", "--config", str(CONFIG), "--no-cache",
                               "--output-format", "concise", "--stdin-filename", name, "-"],
                              input=source, cwd=ROOT, capture_output=True, text=True, timeout=300)

    assert as_file("tests/play/test_planted.py").returncode == 0
    assert " E402 " in as_file("harness/play/planted.py").stdout
