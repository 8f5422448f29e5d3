"""Dask gives the local pool's strength figures and transcripts (the runs themselves: tests/oracles/games/test_strength_runs.py)."""

import pytest

from harness.program.runs import strength

from helpers import STRENGTH_ENGINE_GAMES as ENGINE_GAMES
from helpers import STRENGTH_OPPONENTS as OPPONENTS
from helpers import strength_transcripts, without_run


@pytest.mark.slow   # an oracle: a Dask LocalCluster
def test_dask_gives_the_local_pools_figures_and_transcripts(strength_local_run, strength_tape, tmp_path):
    pytest.importorskip("distributed")
    out, report = strength_local_run
    dask = strength.run(1, 7, 2, tmp_path / "dask", strength.StrengthOptions(
        opponents=OPPONENTS, engine_games=ENGINE_GAMES, tap=strength_tape, progress=False, scheduler="local"),
        page=False).as_json()
    assert without_run(dask) == without_run(report)
    assert strength_transcripts(tmp_path / "dask") == strength_transcripts(out)
    assert dask["run"]["scheduler"] == "local"
