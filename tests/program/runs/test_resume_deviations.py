"""`readings --resume` refuses a record whose reconstruction games end with the same scores but another count
of documented deviations (issue 51): the program changed under the record even though the scores did not.
Planted both ways (one more, one fewer); the near miss, the same scores and the same count, is merged.
The reconstruction's game is written out here by hand; readings.run is replaced (no emulator)."""
from __future__ import annotations

import dataclasses

import pytest

from harness.errors import InputError
from harness.program.runs import readings as R
from harness.program.runs.readings_games import FRAMES_FACTOR, FRAMES_MARGIN
from harness.program.runs.readings_record import (BUDGET, BaseGame, Consequence, CpuSeconds, ReadingsRecord, Reading,
                                                  RecordPlan)

GAME = BaseGame(0, 11, "random", {"computer": 121, "player": 99}, {"D1": 3}, 500)
PLAN = RecordPlan(games=1, seed=1, thorough=False, frames_budget=[FRAMES_FACTOR, FRAMES_MARGIN])


def _consequence(rid: str, kind: str, detail: str = "") -> Consequence:
    return Consequence(rid, int(rid.split(".")[0]), "ocr", "", "", True, kind, detail)


def _record() -> ReadingsRecord:
    return ReadingsRecord(schema=1, ended="stopped",
                          readings=[_consequence("1310.a", "identical"), _consequence("9010.b", "untested", BUDGET)],
                          counts={"identical": 1, "untested": 1}, plan=PLAN, base_games=[GAME], variant_games=1,
                          shared_tapes=0, cpu_s=CpuSeconds(total=10.0, rom_checks=1.0, games=9.0))


def _resume(monkeypatch, documented: int) -> ReadingsRecord:
    def fake_run(todo, tape, plan, note):
        return ReadingsRecord(schema=1, ended="complete", plan=PLAN, variant_games=1, shared_tapes=0,
                              base_games=[dataclasses.replace(GAME, documented={"D1": documented})],
                              readings=[_consequence("9010.b", "identical")], counts={},
                              cpu_s=CpuSeconds(total=2.0, rom_checks=0.5, games=1.5))
    monkeypatch.setattr(R, "run", fake_run)
    readings = [Reading(int(i.split(".")[0]), i, "ocr", "", "", True) for i in ("1310.a", "9010.b")]
    return R.resume(_record(), readings, R.BaseTape(b"tape"), R.Plan())


@pytest.mark.parametrize("documented", [4, 2])
def test_the_same_scores_with_other_documented_deviations_are_refused(monkeypatch, documented):
    with pytest.raises(InputError) as refused:
        _resume(monkeypatch, documented)
    message = str(refused.value)
    assert "\n" not in message and "game 0 (seed 11)" in message
    assert f"{{'D1': {documented}}} documented deviation(s) now, {{'D1': 3}} in the record" in message, message


def test_near_miss_the_same_scores_and_deviations_are_merged(monkeypatch):
    merged = _resume(monkeypatch, 3)
    assert [c.kind for c in merged.readings] == ["identical", "identical"]
    assert merged.base_games == [GAME] and merged.ended == "complete"
