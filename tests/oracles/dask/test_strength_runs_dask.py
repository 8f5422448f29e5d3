"""Dask gives the local pool's strength figures and transcripts (the runs themselves: tests/oracles/games/test_strength_runs.py)."""
from pathlib import Path

import pytest

from harness.program.runs import strength
from harness.edition.strength import write_strength_page

OPPONENTS = ("ev", "greedy")
ENGINE_GAMES = 10


@pytest.fixture(scope="module")
def tape(tape_path) -> Path:
    return tape_path()              # the session's one built tape (tests/conftest.py)


@pytest.fixture(scope="module")
def local_run(tape, tmp_path_factory):
    out = tmp_path_factory.mktemp("strength") / "local"
    report = strength.run(1, 7, 2, out, OPPONENTS, engine_games=ENGINE_GAMES, tap=tape, progress=False,
                          page=write_strength_page)
    return out, report


def _without_run(report: dict) -> dict:
    return {k: v for k, v in report.items() if k != "run"}


def _transcripts(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(out.glob("game-*.jsonl"))}


@pytest.mark.slow   # an oracle: a Dask LocalCluster
def test_dask_gives_the_local_pools_figures_and_transcripts(local_run, tape, tmp_path):
    pytest.importorskip("distributed")
    out, report = local_run
    dask = strength.run(1, 7, 2, tmp_path / "dask", OPPONENTS, engine_games=ENGINE_GAMES, tap=tape, progress=False,
                        scheduler="local", page=False)
    assert _without_run(dask) == _without_run(report)
    assert _transcripts(tmp_path / "dask") == _transcripts(out)
    assert dask["run"]["scheduler"] == "local"
