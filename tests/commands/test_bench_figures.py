"""The default bench's figures as text (format_bench) and a page's block rewritten by the bench (write_figures):
figures made by hand, and the lines they must print; a page without its markers refused in one line."""
from __future__ import annotations

import checkout

import pytest

from harness.bench.figures import BENCH_BEGIN, BENCH_END, format_bench, write_figures
from harness.commands import bench as command
from harness.errors import UsageError

ROOT = checkout.ROOT
RUN = {"emulated_s": 10.0, "wall_s": 0.5, "x_realtime": 20.0}
FIGURES = {"boot": RUN, "basic": dict(RUN, x_realtime=40.0), "raw_core": dict(RUN, x_realtime=50.0),
           "core_t_per_cpu_s": 400_000_000,
           "game": {"game_cpu_s": 5.0, "t_states": 1_800_000_000, "core_s": 4.5, "game_over_core": 1.11,
                    "accelerated_cpu_s": 4.5, "accelerator_gain": 0.1, "identical": True},
           "command": {"games": 2, "core_s": 4.5, "with_html_cpu_s": 9.0, "with_html_over_core": 2.0, "no_html_cpu_s": 6.3,
                       "no_html_over_core": 1.4},
           "dask": None, "dask_left_out": "--no-dask"}


def test_the_figures_print_as_the_bench_prints_them():
    lines = format_bench(FIGURES).splitlines()
    assert lines[0] == "boot         10.00 emulated s    0.5000 wall s     20.0x real time"
    assert "harness/raw core on BASIC: 80.0%" in lines
    assert "core: 400 M T-states per CPU second (bare core, BASIC benchmark, median of 3)" in lines
    assert ("game: 5.00 CPU s for 1.800 G T-states, which the bare core runs in 4.50 s: 1.11x the core "
            "(median of 3)") in lines
    assert ("command: `regress --games 2`: 9.00 CPU s where the bare core needs 4.50: 2.00x the core (50% of its "
            "speed); with --no-html 6.30 CPU s, 1.40x (a fresh process each, start-up and children included, "
            "median of 3)") in lines
    assert lines[-2:] == ["accelerator: 4.50 CPU s, 10.0% less; results identical (transcript, frames, profile, "
                          "screens)", "dask: left out (--no-dask)"]
    different = dict(FIGURES, game=dict(FIGURES["game"], identical=False))      # planted: results that differ
    assert "results DIFFERENT" in format_bench(different)
    assert "command:" not in format_bench(dict(FIGURES, command=None))         # near miss: --no-command


def test_a_pages_block_is_replaced_and_the_rest_kept(tmp_path):
    page = tmp_path / "PAGE.md"
    page.write_text(f"# head\n{BENCH_BEGIN}\nold figures\n{BENCH_END}\ntail\n", encoding="utf-8")
    write_figures(page, "cribbage-zx bench", "core: 1 M")
    text = page.read_text(encoding="utf-8")
    assert text.startswith(f"# head\n{BENCH_BEGIN}\n```\n$ cribbage-zx bench   # ") and text.endswith(
        f"\ncore: 1 M\n```\n{BENCH_END}\ntail\n")
    assert "old figures" not in text


@pytest.mark.parametrize("body", [f"{BENCH_BEGIN}\n", f"{BENCH_END}\n{BENCH_BEGIN}\n", "no markers\n"])
def test_a_page_without_its_block_is_refused_in_one_line_and_left_alone(tmp_path, body):
    page = tmp_path / "PAGE.md"
    page.write_text(body, encoding="utf-8")
    with pytest.raises(UsageError, match=r"^--write-doc .*PAGE\.md: no <!-- bench: begin --> \.\.\. "):
        write_figures(page, "cribbage-zx bench", "x")
    assert page.read_text(encoding="utf-8") == body


@pytest.mark.parametrize("extra", [["--cores"], ["--runner"], ["--json"]])
def test_write_doc_with_another_form_of_bench_is_refused(extra, tmp_path):
    (tmp_path / "P.md").write_text(f"{BENCH_BEGIN}\n{BENCH_END}\n")
    with pytest.raises(UsageError, match="^--write-doc goes with the default bench or --web"):
        command.main(["--write-doc", str(tmp_path / "P.md"), *extra])


def test_the_performance_page_has_the_block_a_bench_run_wrote():
    page = (ROOT / "docs" / "PERFORMANCE.md").read_text(encoding="utf-8")
    block = page.split(BENCH_BEGIN, 1)[1].split(BENCH_END, 1)[0]
    assert block.startswith("\n```\n$ cribbage-zx bench") and "\ncore: " in block and "\ngame: " in block


def test_the_web_figures_print_and_go_to_json_in_the_benchs_order():
    from harness.web.bench import WebFigures, format_web
    web = WebFigures(2100, 5000, 100.0, 4000, 80.0, 1.25, 4900, 3900, 0.8, 900, 450.5, 3, [5000, 5100, 4900],
                     [4000, 4100, 3900], [0.8, 0.9, 0.7])
    assert list(web.as_json()) == ["frames", "page_fps", "page_x_real_time", "embedded_fps", "embedded_x_real_time",
                                   "page_over_embedded", "page_wall_fps", "embedded_wall_fps", "title_s", "page_kb",
                                   "wasm_kb", "runs", "page_fps_runs", "embedded_fps_runs", "title_s_runs"]
    lines = format_web(web).splitlines()
    assert lines[0] == ("play.html in headless chromium against the embedded machine, a key record of 2100 frames "
                        "replayed (medians of 3):")
    assert lines[1] == "  page        5000 frames/s = 100.0x real time   (CPU time; runs [5000, 5100, 4900])"
    assert lines[-1] == "  page weight: 900 KB (the module 450.5 KB, the ROM and both tapes inside, base64)"


def test_the_verdict_fails_on_a_game_or_dask_run_that_differs_and_left_out_is_the_last_key():
    """bench's exit code is figures_agree's: a planted difference in the accelerated game, or in Dask's
    transcripts, fails it; Dask left out (None) does not. Why Dask is missing is the last key, only if it is."""
    import json
    from harness.bench.figures import bench_figures, figures_agree
    from harness.bench.runner import runner_agrees, runner_figures
    fig = {k: v for k, v in FIGURES.items() if k != "dask_left_out"} | {"dask": {"transcripts_identical": True}}
    assert figures_agree(fig) and "dask_left_out" not in bench_figures(dict(fig), None)     # the near misses
    assert figures_agree(dict(fig, dask=None))
    assert not figures_agree(dict(fig, game=dict(FIGURES["game"], identical=False)))
    assert not figures_agree(dict(fig, dask={"transcripts_identical": False}))
    left = bench_figures(dict(fig, dask=None), "--no-dask")
    assert list(json.loads(json.dumps(left)))[-2:] == ["dask", "dask_left_out"] and left["dask_left_out"] == "--no-dask"
    assert runner_agrees(runner_figures({"transcripts_identical": True}, None))
    assert not runner_agrees({"transcripts_identical": False})
    assert runner_figures({"transcripts_identical": True}, "--no-dask") == {"transcripts_identical": True,
                                                                            "dask_left_out": "--no-dask"}
