"""`readings --resume` refuses a record whose reconstruction games end with the same scores but another count
of documented deviations (issue 51): the program changed under the record even though the scores did not.
Planted both ways (one more, one fewer); the near miss, the same scores and the same count, is merged.
The reconstruction's game is written out here by hand; readings.run is replaced (no emulator)."""
from __future__ import annotations

import pytest

from harness.errors import InputError
from harness.program.runs import readings as R

GAME = {"index": 0, "seed": 11, "strategy": "random", "scores": [121, 99], "documented": 3, "lines_run": 500}


def _consequence(rid: str, kind: str, detail: str = "") -> dict:
    return {"id": rid, "line": int(rid.split(".")[0]), "source": "ocr", "what": "", "text": "", "entry": True,
            "kind": kind, "detail": detail, "games": [], "moments": [], "kept": [], "vanish": [], "appear": []}


def _record() -> dict:
    return {"schema": 1, "ended": "stopped",
            "readings": [_consequence("1310.a", "identical"), _consequence("9010.b", "untested", R.BUDGET)],
            "counts": {"identical": 1, "untested": 1},
            "plan": {"games": 1, "seed": 1, "thorough": False, "frames_budget": [R.FRAMES_FACTOR, R.FRAMES_MARGIN]},
            "base_games": [dict(GAME)], "variant_games": 1, "shared_tapes": 0,
            "cpu_s": {"total": 10.0, "rom_checks": 1.0, "games": 9.0}}


def _resume(monkeypatch, documented: int) -> dict:
    def fake_run(todo, tape, plan, note):
        return {"ended": "complete", "plan": {"thorough": False}, "variant_games": 1, "shared_tapes": 0,
                "base_games": [dict(GAME, documented=documented)],
                "readings": [_consequence("9010.b", "identical")],
                "cpu_s": {"total": 2.0, "rom_checks": 0.5, "games": 1.5}}
    monkeypatch.setattr(R, "run", fake_run)
    readings = [R.Reading(int(i.split(".")[0]), i, "ocr", "", "", True) for i in ("1310.a", "9010.b")]
    return R.resume(_record(), readings, b"tape", R.Plan())


@pytest.mark.parametrize("documented", [4, 2])
def test_the_same_scores_with_other_documented_deviations_are_refused(monkeypatch, documented):
    with pytest.raises(InputError) as refused:
        _resume(monkeypatch, documented)
    message = str(refused.value)
    assert "\n" not in message and "game 0 (seed 11)" in message
    assert f"{documented} documented deviation(s) now, 3 in the record" in message, message


def test_near_miss_the_same_scores_and_deviations_are_merged(monkeypatch):
    merged = _resume(monkeypatch, 3)
    assert [c["kind"] for c in merged["readings"]] == ["identical", "identical"]
    assert merged["base_games"] == [GAME] and merged["ended"] == "complete"
