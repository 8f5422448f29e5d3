"""`cribbage-zx bench --web`: play.html in headless chromium against the embedded machine, in figures.

One key record (`record_game`: no instructions, no muggins, the cut, two discards, a card: ~2,100 frames)
is replayed three times by each: the page's Session.step at full speed (zxPage.stepTimed, after
zxPage.prepareReplay has loaded the tape; the CPU time of the page's main thread from the DevTools
protocol, in thread ticks) and the embedded machine's PlaySession.step (its process CPU time); the wall
clock of both is printed too, for a loaded machine's sake. Frames a second, as multiples of real time (50 frames a second), medians of three; the title's
time from opening the page (navigation start to the first question drawn on the canvas), median of three
fresh loads; the page's weight and the module's. `write_doc` puts the figures into docs/BROWSER.md
between its two markers, so the page says what was measured, and when.
"""
from __future__ import annotations

import dataclasses
import json
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from ..errors import UsageError
from ..play.record import KeyRecord
from ..play.session import PlaySession
from ..play.settings import PlaySettings
from ..bench.figures import write_figures

if TYPE_CHECKING:
    from playwright.sync_api import CDPSession
    from playwright.sync_api._context_manager import PlaywrightContextManager

REAL_FPS = 50
RUNS = 3
MARK_BEGIN, MARK_END = "<!-- bench --web: begin -->", "<!-- bench --web: end -->"
#: the game of the benchmark and of tests/test_web.py: Spectrum keys tapped, then the program run to its next wait
GAME_KEYS = (("N", "ENTER"), ("N", "ENTER"), ("M",), ("ENTER",), ("SPACE", "ENTER"), ("SPACE",))
SEED = 4242


def record_game(tape: Path, path: Path, seed: int = SEED) -> Path:
    """Play GAME_KEYS on the embedded machine and write their key record (play --record's format) to *path*."""
    s = PlaySession(PlaySettings(tape=tape, seed=seed, record=path, scale=1))
    for keys in GAME_KEYS:
        for key in keys:
            s.tap(key)
        s.run_until_wait()
    s.close()
    return path


def _browser() -> tuple[Callable[[], PlaywrightContextManager], str]:
    """playwright's entry and Debian's chromium: a UsageError saying which is missing."""
    try:
        # lazy: playwright (0.1 s) is optional: a UsageError says how to install it
        from playwright.sync_api import sync_playwright
    except ImportError as exc:
        raise UsageError("bench --web: playwright is not installed (pip install '.[test]')") from exc
    chromium = shutil.which("chromium")
    if chromium is None:
        raise UsageError("bench --web: Debian's chromium is not installed (tools/install-system-deps.sh)")
    return sync_playwright, chromium


def _task_cpu(cdp: CDPSession) -> float:
    """The page's main thread's CPU seconds in tasks so far (CDP Performance.getMetrics, threadTicks)."""
    metrics: list[dict[str, object]] = cdp.send("Performance.getMetrics").get("metrics", [])
    for m in metrics:
        value = m.get("value")
        if m.get("name") == "TaskDuration" and isinstance(value, (int, float)):
            return float(value)
    raise UsageError("bench --web: the browser's Performance.getMetrics has no TaskDuration")


@dataclass(frozen=True)
class WebFigures:
    """What bench_web measured, in the order `--json` prints it (as_json)."""
    frames: int
    page_fps: int
    page_x_real_time: float
    embedded_fps: int
    embedded_x_real_time: float
    page_over_embedded: float
    page_wall_fps: int
    embedded_wall_fps: int
    title_s: float
    page_kb: int
    wasm_kb: float
    runs: int
    page_fps_runs: list[int]
    embedded_fps_runs: list[int]
    title_s_runs: list[float]

    def as_json(self) -> dict[str, object]:
        return dataclasses.asdict(self)


def _embedded_fps(tape: Path, record_path: Path, frames: int) -> tuple[list[float], list[float]]:
    """The embedded machine's frames a second replaying the key record, RUNS times: by CPU time, by wall clock."""
    embedded, embedded_wall = [], []
    for _ in range(RUNS):
        s = PlaySession(PlaySettings(tape=tape, replay=record_path, scale=1))
        started, wall = time.process_time(), time.perf_counter()
        s.step(frames)
        embedded.append(frames / (time.process_time() - started))
        embedded_wall.append(frames / (time.perf_counter() - wall))
    return embedded, embedded_wall


def bench_web(page_path: Path, tape: Path) -> WebFigures:
    """The figures: page and embedded frames a second (medians of RUNS), the title's time, the weights."""
    sync_playwright, chromium = _browser()
    with tempfile.TemporaryDirectory(prefix="cribbage-zx-bench-web-") as tmp:
        record_path = record_game(tape, Path(tmp) / "keys.json")
        frames = KeyRecord.read(record_path).frames
        record: object = json.loads(record_path.read_text(encoding="utf-8"))    # handed to the page as it is
        embedded, embedded_wall = _embedded_fps(tape, record_path, frames)
    page_fps, page_wall, titles = [], [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            for _ in range(RUNS):
                page = browser.new_page(viewport={"width": 1280, "height": 800})
                page.goto(page_path.as_uri())
                page.wait_for_function("window.zxPage && zxPage.titleAt !== null", timeout=60_000)
                titles.append(page.evaluate("zxPage.titleAt") / 1000)
                page.evaluate("(r) => zxPage.prepareReplay(r)", record)
                cdp = page.context.new_cdp_session(page)
                cdp.send("Performance.enable", {"timeDomain": "threadTicks"})     # durations in CPU time
                before = _task_cpu(cdp)
                page_wall.append(page.evaluate(f"zxPage.stepTimed({frames})"))
                page_fps.append(frames / (_task_cpu(cdp) - before))
                page.close()
        finally:
            browser.close()
    from . import build as wasm_build  # lazy: the wasm build's module only for the figures after the browser runs
    fps, emb = statistics.median(page_fps), statistics.median(embedded)
    return WebFigures(frames, round(fps), round(fps / REAL_FPS, 1), round(emb), round(emb / REAL_FPS, 1),
                      round(fps / emb, 2), round(statistics.median(page_wall)),
                      round(statistics.median(embedded_wall)), round(statistics.median(titles), 2),
                      round(page_path.stat().st_size / 1024), round(len(wasm_build.module_bytes()) / 1024, 1),
                      RUNS, [round(f) for f in page_fps], [round(f) for f in embedded], [round(t, 2) for t in titles])


def format_web(r: WebFigures) -> str:
    return "\n".join([
        f"play.html in headless chromium against the embedded machine, a key record of {r.frames} frames "
        f"replayed (medians of {r.runs}):",
        f"  page      {r.page_fps:>6} frames/s = {r.page_x_real_time:>5}x real time   "
        f"(CPU time; runs {r.page_fps_runs})",
        f"  embedded  {r.embedded_fps:>6} frames/s = {r.embedded_x_real_time:>5}x real time   "
        f"(CPU time; runs {r.embedded_fps_runs})",
        f"  page / embedded: {r.page_over_embedded} (CPU time: the page's main thread's, read through CDP)",
        f"  wall clock on this machine: page {r.page_wall_fps} frames/s, embedded {r.embedded_wall_fps}",
        f"  title from opening the page: {r.title_s} s (runs {r.title_s_runs})",
        f"  page weight: {r.page_kb} KB (the module {r.wasm_kb} KB, the ROM and both tapes inside, base64)",
    ])


def write_doc(doc: Path, r: WebFigures) -> None:
    """Replace the figures between MARK_BEGIN and MARK_END in *doc* (atomically)."""
    write_figures(doc, "cribbage-zx bench --web", format_web(r), MARK_BEGIN, MARK_END)
