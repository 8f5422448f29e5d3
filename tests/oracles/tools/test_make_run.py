"""The first steps as a newcomer takes them: the checkout's files as a clone holds them (no .venv, no build/, no
out/), `make run` there, then every command the README shows, in that copy, as it shows it.

`make run` installs, builds both tapes, plays and checks the games, exits 0, and prints only the project's own
lines (no setuptools warning, no pip notice, no recipe echoed by make). Then each command line the README shows
(its code blocks and code spans: `cribbage-zx ...`, `.venv/bin/...`, `make ...`, Fuse's `cd roms && fuse-sdl
...`) is run in the copy: to its end where it ends in a few CPU-s; a long one is started as shown and stopped
with Ctrl-C once it is under way (its first progress, exit 130 as docs/RUNS.md says) or given the option that
bounds it (`--games`, `--limit`; named in HOW); a window or a server until it shows what it should (Fuse's
screen read to the English title, the play window's seed in its title, the server's page fetched). `make test`
and `make test-all` are this suite, not run again. A command the README gains fails
`test_every_command_the_readme_shows_has_a_way_to_run` until it is given one here. (pip, a fresh virtual
environment, Fuse, Xvfb: an oracle.)"""
from __future__ import annotations

import os
import re
import select
import shutil
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

import numpy as np
import pytest

import checkout
from helpers import FUSE_TOOLS, STARTS, read_xwd, tools_or_skip
from waiting import Budget, Exited, read_line, window_appears

pytestmark = pytest.mark.slow
ROOT = checkout.ROOT
README = (ROOT / "README.md").read_text(encoding="utf-8")
COPY_IGNORE = shutil.ignore_patterns(".git", ".venv", "build", "out", "*.egg-info", "__pycache__", ".pytest_cache",
                                     ".mypy_cache")
#: every line `make run` may print: the install's one line, a tape built, regress's progress and summary
OURS = (re.compile(r"installing cribbage-zx and what it needs into \.venv \(a few minutes the first time\)$"),
        re.compile(r"build/cribbage(-en)?\.tap: program \"CRIBBAGE\" LINE 2, 611 lines, \d+ bytes; \"chr\" CODE 64600,768$"),
        re.compile(r"(\[[#.]{30}\] \d+/\d+ games, [\d.]+ s)+$"),
        re.compile(r"[a-zA-Z /(),.:'-]+?\s{2,}[\d./ ]+$"),        # a summary row: words, then its figure
        re.compile(r"  [DF]\d+\s+\d+$"),
        re.compile(r"report: out/regress/report\.html \(the data: report\.json beside it\)$"))

#: how each command line the README shows is run after `make run`: "end" (to its end, exit 0), "interrupt"
#: (Ctrl-C once under way), or a named way; the arguments added to bound it beside
HOW: dict[str, tuple[str, list[str]]] = {
    "make run": ("the fixture", []),
    "make test": ("not run: this suite's quick tier", []),
    "make test-all": ("not run: this suite", []),
    "make mutation": ("not run: hours of mutants (tools/mutation.py, tests/project/test_mutation_tool.py)", []),
    ".venv/bin/cribbage-zx": ("end", ["--version"]),                  # the tool itself, as the README names it
    "cribbage-zx": ("activated", ["--version"]),                      # after `. .venv/bin/activate`
    ". .venv/bin/activate": ("activated", ["--version"]),
    ".venv/bin/cribbage-zx COMMAND --help": ("each command's help", []),
    ".venv/bin/pytest tests/program/judge": ("end", ["-q", "-p", "no:cacheprovider"]),
    "cd roms && fuse-sdl --machine 48 --rom-48 48.rom --auto-load --tape ../build/cribbage-en.tap": ("fuse", []),
    ".venv/bin/cribbage-zx build": ("end", []),
    ".venv/bin/cribbage-zx build --lang en": ("end", []),
    ".venv/bin/cribbage-zx play": ("window", []),
    ".venv/bin/cribbage-zx html": ("end", []),
    ".venv/bin/cribbage-zx html --serve": ("serve", ["--port", "0"]),     # a free port: no other run's
    ".venv/bin/cribbage-zx regress --rzx --replace": ("end", ["--games", "1"]),
    ".venv/bin/cribbage-zx html --report DIR": ("end", []),
    ".venv/bin/cribbage-zx regress --thorough --replace": ("interrupt", []),
    ".venv/bin/cribbage-zx sweep show": ("end", ["--limit", "300"]),
    "sweep play": ("end", ["--limit", "300"]),
    "cribbage-zx --version": ("activated", []),
}
#: a placeholder of the README, as the copy after `make run` fills it
PLACEHOLDERS = {"DIR": "out/regress"}
#: the order the commands run in (a later one reads what an earlier one wrote: html --report reads regress's)
ORDER = [c for c in HOW if not HOW[c][0].startswith(("not run", "the fixture"))]


def shown_lines(readme: str) -> set[str]:
    """The command lines the README shows: code spans and code-block lines that start with `make `, `cd roms`,
    `. .venv`, `.venv/bin/` or `cribbage-zx`, or a
    command named after another's (`sweep play` beside `sweep show`); a comment after # dropped."""
    blocks = re.findall(r"^```[^\n]*\n(.*?)^```", readme, re.M | re.S)
    spans = re.findall(r"`([^`\n]+)`", re.sub(r"^```.*?^```", "", readme, flags=re.M | re.S))
    lines = [line.split("#")[0].strip() for block in blocks for line in block.splitlines()] + spans
    start = re.compile(r"^(make |cd roms|\. \.venv|\.venv/bin/|cribbage-zx\b|sweep \w+$)")
    return {line for line in lines if start.match(line) and not re.search(r"[|…]", line)}


def test_every_command_the_readme_shows_has_a_way_to_run():
    assert shown_lines(README) == set(HOW)


def test_a_new_command_in_the_readme_is_caught_and_prose_is_not():
    planted = README + "\nThen `.venv/bin/cribbage-zx stats --games 3`.\n\n```\nmake clean   # start again\n```\n"
    assert shown_lines(planted) - shown_lines(README) == {".venv/bin/cribbage-zx stats --games 3", "make clean"}
    near = README + "\nThe `regress` command, the `sweep show|play|discard` table row, `build/cribbage.tap`.\n"
    assert shown_lines(near) == shown_lines(README)


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


def clean_copy(to: Path) -> Path:
    """The files a clone of this checkout holds, as the checkout has them now (git's tracked files; without git,
    the tree without what a run or an install writes)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached"], cwd=ROOT, capture_output=True)
    if listed.returncode != 0:
        shutil.copytree(ROOT, to, ignore=COPY_IGNORE)
        return to
    for name in filter(None, listed.stdout.decode().split("\0")):
        source = ROOT / name
        if source.is_file():                                    # a file deleted in the work tree is not copied
            (to / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, to / name)
    return to


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "MAKEFLAGS", "MAKELEVEL") and not k.startswith("PYTEST_")}
    return dict(env, **extra)


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> tuple[Path, str]:
    """A clean copy after `make run`: (its folder, what make run printed)."""
    copy = clean_copy(tmp_path_factory.mktemp("clone") / "cribbage-zx")
    done = subprocess.run(["make", "run"], cwd=copy, env=clean_env(), capture_output=True, text=True, timeout=3600)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-3000:]
    return copy, output


def test_make_run_on_a_fresh_copy_prints_only_the_projects_lines(made):
    copy, output = made
    assert foreign_lines(output) == []
    assert (copy / "build" / "cribbage.tap").exists() and (copy / "build" / "cribbage-en.tap").exists()
    assert "unexplained differences" in output and (copy / "out" / "regress" / "report.html").exists()


def argv(command: str, extra: list[str]) -> list[str]:
    words = [PLACEHOLDERS.get(w, w) for w in command.split()]
    if words[0] == "sweep":                                     # named beside a whole command line
        words = [".venv/bin/cribbage-zx", *words]
    return words + extra


def run(copy: Path, words: list[str], timeout: float = 1800) -> subprocess.CompletedProcess:
    return subprocess.run(words, cwd=copy, env=clean_env(HOME=str(copy.parent)), capture_output=True, text=True,
                          timeout=timeout)


def stop(proc: subprocess.Popen, sig: int = signal.SIGTERM) -> int:
    if proc.poll() is None:
        os.killpg(proc.pid, sig)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return proc.returncode


class Xvfb:
    """An X server of its own for one command (its display in .env)."""

    def __init__(self, size: str):
        self.proc = subprocess.Popen(["Xvfb", "-displayfd", "1", "-screen", "0", f"{size}x24", "-nolisten", "tcp"],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        display = read_line(self.proc.stdout, 30, "Xvfb reporting its display").decode().strip()
        self.display = ":" + display

    def env(self, home: Path) -> dict[str, str]:
        return clean_env(DISPLAY=self.display, HOME=str(home), SDL_AUDIODRIVER="dummy")

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@pytest.mark.parametrize("command", ORDER)
def test_each_command_the_readme_shows_runs_after_make_run(made, command):
    copy, _ = made
    how, extra = HOW[command]
    if how == "end":
        done = run(copy, argv(command, extra))
        assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
        return CHECK_AFTER.get(command, lambda c, d: None)(copy, done)
    if how == "activated":
        done = run(copy, ["bash", "-c", ". .venv/bin/activate && cribbage-zx --version"])
        assert done.returncode == 0 and re.match(r"cribbage-zx \d+\.\d+\.\d+", done.stdout), done.stdout + done.stderr
        return None
    if how == "each command's help":
        names = re.findall(r"^\| `([a-z]+)`", README.split("## Commands", 1)[1].split("\n## ", 1)[0], re.M)
        assert len(names) >= 10
        for name in names:
            done = run(copy, [".venv/bin/cribbage-zx", name, "--help"], timeout=120)
            assert done.returncode == 0 and done.stdout.startswith("usage: cribbage-zx"), (name, done.stderr)
        return None
    runner = {"interrupt": interrupted, "window": play_window, "serve": served, "fuse": fuse_title}[how]
    return runner(copy, command, extra)


def _regress_wrote_a_player(copy: Path, done) -> None:
    run_folder = copy / "out" / "regress"
    assert (run_folder / "game-000.rzx").stat().st_size > 0 and (run_folder / "report.html").exists()


def _tapes_as_make_run_built(copy: Path, done) -> None:
    assert re.search(r"build/cribbage(-en)?\.tap: program \"CRIBBAGE\" LINE 2, 611 lines", done.stdout), done.stdout


def _edition_written(copy: Path, done) -> None:
    html = copy / "out" / "html"
    assert (html / "play.html").stat().st_size > 100_000 and (html / "index.html").exists()


def _version(copy: Path, done) -> None:
    version = re.search(r'^__version__ = "([^"]+)"', (copy / "harness" / "__init__.py").read_text(), re.M)[1]
    assert done.stdout.strip() == f"cribbage-zx {version}"


def _judge_folder_passed(copy: Path, done) -> None:
    ran = re.search(r"^cost: (\d+) tests", done.stdout, re.M)             # the suite's own last line (-q)
    assert ran and int(ran[1]) > 100 and "FAILED" not in done.stdout, done.stdout[-2000:]


CHECK_AFTER = {
    ".venv/bin/cribbage-zx": _version,
    ".venv/bin/cribbage-zx build": _tapes_as_make_run_built,
    ".venv/bin/cribbage-zx build --lang en": _tapes_as_make_run_built,
    ".venv/bin/cribbage-zx html": _edition_written,
    ".venv/bin/cribbage-zx regress --rzx --replace": _regress_wrote_a_player,
    ".venv/bin/pytest tests/program/judge": _judge_folder_passed,
}


def interrupted(copy: Path, command: str, extra: list[str]) -> None:
    """Started as shown; Ctrl-C once its first game is under way (the progress bar drawn): exit 130, one line."""
    proc = subprocess.Popen(argv(command, extra), cwd=copy, env=clean_env(HOME=str(copy.parent)),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    budget = Budget(300, f"`{command}` under way")
    seen = b""
    try:
        while b"games" not in seen:
            assert proc.poll() is None, f"`{command}` ended ({proc.returncode}) before it was under way: {seen!r}"
            assert not budget.expired(), f"{budget.message()}: {seen!r}"
            if select.select([proc.stdout], [], [], 1.0)[0]:
                seen += os.read(proc.stdout.fileno(), 65536)
        time.sleep(5)                                           # a few seconds into its games
        code = stop(proc, signal.SIGINT)
        seen += proc.stdout.read() or b""
        assert code == 130, seen.decode(errors="replace")[-2000:]
        assert "interrupted" in seen.decode(errors="replace") and "Traceback" not in seen.decode(errors="replace")
    finally:
        stop(proc, signal.SIGKILL)


def play_window(copy: Path, command: str, extra: list[str]) -> None:
    """The window opens with the game's seed in its title and F10 closes it (exit 0)."""
    tools_or_skip(("Xvfb", "xdotool"), "xvfb xdotool")
    x = Xvfb("1280x800")
    proc = None
    try:
        env = x.env(copy.parent)
        proc = subprocess.Popen(argv(command, extra), cwd=copy, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, start_new_session=True)
        window = window_appears(["--class", "^cribbage-zx$"], env, 60, "the play window", process=proc)
        name = subprocess.run(["xdotool", "getwindowname", window], env=env, capture_output=True, text=True).stdout
        assert re.search(r"seed (\d+) \(replay with --seed \1\)", name), name      # the title names its deal
        time.sleep(2)
        subprocess.run(["xdotool", "mousemove", "--window", window, "20", "20", "sleep", "0.5", "key", "F10"],
                       env=env, timeout=30, check=True)                 # focus follows the pointer (no WM)
        proc.wait(timeout=60 * max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1)))
        assert proc.returncode == 0, proc.stdout.read().decode(errors="replace")[-2000:]
    finally:
        if proc is not None:
            stop(proc)
        x.close()


def served(copy: Path, command: str, extra: list[str]) -> None:
    """The server prints its address; play.html comes from it; Ctrl-C stops it."""
    proc = subprocess.Popen(argv(command, extra), cwd=copy, env=clean_env(HOME=str(copy.parent)),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    seen = b""
    try:
        budget = Budget(300, f"`{command}` printing its address")
        while not (m := re.search(r"http://[\d.]+:\d+/\S*", seen.decode(errors="replace"))):
            assert proc.poll() is None and not budget.expired(), seen
            ready, _, _ = select.select([proc.stdout], [], [], 1.0)
            if ready:                                   # the pipe's bytes as they come (no buffered readline)
                seen += os.read(proc.stdout.fileno(), 65536)
        address = m[0].rstrip(".,;)")
        page = address if address.endswith(".html") else address.rstrip("/") + "/play.html"
        with urllib.request.urlopen(page, timeout=60) as reply:
            assert reply.status == 200 and b"<html" in reply.read(4096).lower()
    finally:
        stop(proc, signal.SIGINT)


BORDER_X, BORDER_Y = 32, 24     # Fuse's 320x240 window at the screen's corner


def display_rows(pixels: np.ndarray, memory: bytes) -> list[str]:
    """Fuse's 256x192 display read as text: in each 8x8 cell the commoner colour is paper; the fonts are
    *memory*'s (the game's own, found by CHARS as the program set it)."""
    from harness.spectrum.charset import koi7_char
    from harness.spectrum.screen import read_screen
    rgb = pixels.astype(np.uint32)
    packed = (rgb[:, :, 0] << 16 | rgb[:, :, 1] << 8 | rgb[:, :, 2]).reshape(24, 8, 32, 8).transpose(0, 2, 1, 3)
    display = bytearray(6144)
    for r in range(24):
        for c in range(32):
            cell = packed[r, c]
            values, counts = np.unique(cell, return_counts=True)
            paper = values[np.argmax(counts)]
            for y in range(8):
                byte = sum(1 << (7 - x) for x in range(8) if cell[y, x] != paper)
                py = r * 8 + y
                display[((py & 0xC0) << 5) | ((py & 7) << 8) | ((py & 0x38) << 2) | c] = byte
    mem = bytearray(memory)
    mem[0x4000:0x5800] = display
    mem[0x5800:0x5B00] = bytes([0x38]) * 768
    return [row.rstrip() for row in read_screen(mem, font_text=koi7_char).rows]


def fuse_title(copy: Path, command: str, extra: list[str]) -> None:
    """The README's Fuse line word for word under Xvfb, until Fuse's window shows the English edition's title,
    read from Fuse's pixels (each cell's two colours back to bits, the cells matched against the game's font).
    Planted by hand: the line loading the Russian tape instead timed out with the Russian title on the screen."""
    tools_or_skip(FUSE_TOOLS, "fuse-emulator-sdl fuse-emulator-utils xvfb xdotool x11-apps")
    from harness.play.session import PlaySession                      # the title's fonts as our machine has them
    from harness.play.settings import PlaySettings
    ours = PlaySession(PlaySettings(tape=copy / "build" / "cribbage-en.tap", scale=1)).machine.read(0, 0x10000)
    for attempt in range(STARTS):
        x = Xvfb("320x240")
        fuse = None
        log = copy.parent / f"fuse-{attempt}.txt"
        try:
            env = x.env(copy.parent)
            with open(log, "wb") as out:
                fuse = subprocess.Popen(["bash", "-c", command], cwd=copy, env=env, stdout=out,
                                        stderr=subprocess.STDOUT, start_new_session=True)
            try:
                window_appears(["--name", "^Fuse"], env, 30, "Fuse's window appearing", process=fuse)
            except Exited:
                continue                                                 # Fuse's SDL start-up gave up: again
            budget = Budget(120, "Fuse showing the English title")
            rows: list[str] = []
            while not budget.expired():
                shot = subprocess.run(["xwd", "-root", "-silent"], env=env, capture_output=True, timeout=30)
                rows = display_rows(read_xwd(shot.stdout)[BORDER_Y:BORDER_Y + 192, BORDER_X:BORDER_X + 256], ours)
                if any("WELCOME" in r for r in rows) and any("NEED INSTRUCTIONS? (Y/N):" in r for r in rows):
                    break
                time.sleep(0.5)
            else:
                raise AssertionError(f"{budget.message()}: {rows}\n{log.read_text()}")
            assert "couldn't open" not in log.read_text()
            return
        finally:
            if fuse is not None:          # killed: this window's Fuse (1.6.0) stays up on SIGTERM, and stop() gave
                stop(fuse, signal.SIGKILL)  # it 60 s of a 68 s test; nothing here reads what Fuse does at its exit
            x.close()
    raise AssertionError(f"Fuse did not start in {STARTS} attempts")
