"""`pip install .` (not editable) gives a working tool: the wheel carries the listing, the font, the ROM
and the benchmark program as package data, and its commands write under the current directory.

The wheel is built from a copy of the checkout (so no stale setuptools build/ folder can leak into
it), installed into a fresh virtual environment, and run from an unrelated temporary directory.
"""
from __future__ import annotations

import checkout
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = checkout.ROOT
COPY_IGNORE = shutil.ignore_patterns(".git", ".venv", "build", "out", "*.egg-info", "__pycache__",
                                     ".pytest_cache", ".mypy_cache")
DATA_IN_WHEEL = {
    "harness/_data/basic/cribbage.bas": ROOT / "basic" / "cribbage.bas",
    "harness/_data/basic/chr_font.txt": ROOT / "basic" / "chr_font.txt",
    "harness/_data/roms/48.rom": ROOT / "roms" / "48.rom",
    "harness/data/bench.bas": ROOT / "harness" / "data" / "bench.bas",
}

pytestmark = pytest.mark.slow   # an oracle: a wheel built and installed in a fresh venv (pytest -m 'not slow' leaves it out)


def _run(cmd: list[str], cwd: Path, timeout: float) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(map(str, cmd))} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("wheel")
    source = base / "src"
    shutil.copytree(ROOT, source, ignore=COPY_IGNORE)
    done = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(base / "dist"), str(source)],
                base, timeout=600)
    # a folder Python could import but pyproject does not list (e.g. a new data folder) is left out
    assert "Package would be ignored" not in done.stdout + done.stderr, done.stdout + done.stderr
    (found,) = (base / "dist").glob("cribbage_zx-*.whl")
    return found


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory) -> Path:
    env = tmp_path_factory.mktemp("venv") / "v"
    # --without-pip, then this pip installing into it (--python): the venv's own copy of pip (ensurepip, ~5
    # CPU-s, and ~3 more to start it) is not what is tested; the wheel and its dependencies land the same
    _run([sys.executable, "-m", "venv", "--without-pip", str(env)], env.parent, timeout=300)
    # --no-compile: pip would byte-compile every file of numpy, pygame and the rest; Python compiles what it
    # imports when it imports it (the tool runs the same either way)
    _run([sys.executable, "-m", "pip", "--python", str(env / "bin" / "python"), "install", "-q", "--no-compile",
          str(wheel)], env.parent, timeout=900)
    return env


def test_every_package_of_the_checkout_is_in_the_wheel_list():
    """pyproject lists the packages by hand (for the basic/ and roms/ mapping): none may be forgotten."""
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    on_disk = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "harness").rglob("__init__.py")}
    assert on_disk <= listed, f"packages missing from pyproject [tool.setuptools] packages: {on_disk - listed}"


def resources_used(sources) -> set[str]:
    """The ``basic/...`` and ``roms/...`` files the package asks harness.resources for."""
    return {m for text in sources for m in re.findall(r"data_path\(\s*[\"']([^\"']+)[\"']", text)}


def test_the_scan_finds_a_resource_a_module_asks_for():
    assert resources_used(["x = resources.data_path('basic/new.tsv')", "data_path(\n  \"roms/a.rom\")"]) \
        == {"basic/new.tsv", "roms/a.rom"}


def test_wheel_carries_the_data_files_byte_for_byte(wheel):
    used = resources_used(p.read_text(encoding="utf-8") for p in (ROOT / "harness").rglob("*.py"))
    assert "basic/cribbage.bas" in used and "roms/48.rom" in used
    expected = dict(DATA_IN_WHEEL)
    expected.update({"harness/_data/" + rel: ROOT / rel for rel in used})
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        for inside, original in expected.items():
            assert inside in names, f"{inside} missing from {wheel.name}"
            assert z.read(inside) == original.read_bytes(), inside
        assert "harness/cribbage/py.typed" in names
        tracked_py = {p.relative_to(ROOT).as_posix() for p in (ROOT / "harness").rglob("*.py")}
        assert tracked_py <= names, f"modules missing from the wheel: {sorted(tracked_py - names)}"


def test_the_wheel_describes_itself_licence_readme_classifiers_and_the_one_version(wheel):
    version = re.search(r'^__version__ = "(.+)"$', (ROOT / "harness" / "__init__.py").read_text(), re.M).group(1)
    assert wheel.name.startswith(f"cribbage_zx-{version}-")
    with zipfile.ZipFile(wheel) as z:
        (meta,) = [n for n in z.namelist() if n.endswith(".dist-info/METADATA")]
        text = z.read(meta).decode()
        licences = {n.rsplit("/", 1)[1] for n in z.namelist() if "/licenses/" in n}
    head, _, body = text.partition("\n\n")
    fields = [tuple(line.split(": ", 1)) for line in head.splitlines() if ": " in line]
    assert ("Version", version) in fields and ("License-Expression", "MIT") in fields
    assert {("License-File", "LICENSE"), ("License-File", "NOTICE")} <= set(fields) and licences == {"LICENSE", "NOTICE"}
    assert ("Description-Content-Type", "text/markdown") in fields and body.startswith("# cribbage-zx")
    assert ("Classifier", "Topic :: System :: Emulators") in fields and any(k == "Keywords" for k, _ in fields)
    assert ("Author", "the cribbage-zx authors") in fields


def test_installed_tool_builds_and_plays_from_an_unrelated_directory(venv, tmp_path):
    work = tmp_path / "elsewhere"
    work.mkdir()
    python, tool = venv / "bin" / "python", venv / "bin" / "cribbage-zx"
    version = re.search(r'^__version__ = "(.+)"$', (ROOT / "harness" / "__init__.py").read_text(), re.M).group(1)
    assert _run([str(tool), "--version"], work, timeout=60).stdout == f"cribbage-zx {version}\n"
    where = _run([str(python), "-c", "import harness, harness.resources as r; "
                  "print(harness.__file__); print(r.LISTING); print(r.ROM)"], work, timeout=60).stdout.split()
    for path in where:
        assert Path(path).resolve().is_relative_to(venv.resolve()), f"{path} is not inside the installed wheel"

    _run([str(tool), "build", "-o", "X.tap"], work, timeout=300)
    tape = work / "X.tap"
    assert tape.stat().st_size > 19000
    assert tape.read_bytes()[:4] == bytes([19, 0, 0, 0]), "a TAP starting with a 19-byte program header"

    _run([str(tool), "regress", "--games", "1", "--workers", "1"], work, timeout=900)
    report = json.loads((work / "out" / "regress" / "report.json").read_text(encoding="utf-8"))
    assert report, "an empty regress report"
    assert (work / "build" / "cribbage.tap").exists(), "regress builds its tape under the current directory"
