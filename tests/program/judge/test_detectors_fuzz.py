"""The comparison never crashes: truncated, shuffled, thinned and random transcripts are judged to the
end; an internal error is a "harness" difference naming the event it failed on, never an exception.
(Kept apart from tests/test_detectors.py, which `make mutation` runs once per mutant.)"""
import copy
import json
import random

import checkout

import pytest

from harness.cribbage import ARTICLE, STANDARD
from harness.program.judge.compare import compare
from harness.program.records.events import event_from_json

#: the example deal (tests/data/example-deal.jsonl), the transcript the detectors' tests plant their faults in
BASE = [json.loads(line) for line in (checkout.DATA / "example-deal.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()]


# ---------------------------------------------------------------------------------------------- never crashes
def _never_raises(dicts, rules=STANDARD):
    events = []
    for d in dicts:
        try:
            events.append(event_from_json(d))
        except ValueError:
            continue                  # not an event of the schema: the reader refuses it, one line
    return compare(events, rules)


@pytest.mark.parametrize("cut", range(0, len(BASE) + 1, 1))
def test_a_truncated_transcript_is_judged_without_a_harness_failure(cut):
    result = _never_raises(BASE[:cut])
    assert [d for d in result.differences if d.kind == "harness"] == []


def test_shuffled_and_dropped_transcripts_never_crash():
    rng = random.Random(1)
    harness = 0
    for _ in range(300):
        dicts = copy.deepcopy(BASE)
        how = rng.randrange(3)
        if how == 0:
            rng.shuffle(dicts)
        elif how == 1:
            dicts = [d for d in dicts if rng.random() > 0.3]
        else:
            i, j = rng.randrange(len(dicts)), rng.randrange(len(dicts))
            dicts[i], dicts[j] = dicts[j], dicts[i]
        result = _never_raises(dicts, rng.choice([STANDARD, ARTICLE]))
        for d in result.differences:
            if d.kind == "harness":
                harness += 1
                assert isinstance(d.at, int) and d.facts.event == dicts[d.at]["kind"]
    print(f"harness differences over 300 scrambled transcripts: {harness}")


CARDS = [r + s for r in "A23456789TJQK" for s in "CDHS"]


def _random_event(rng):
    who = rng.choice(["computer", "player"])
    kind = rng.choice(["cut", "deal", "discard", "starter", "play", "go", "reset", "score", "show", "claim",
                       "refused", "win", "tally", "options", "rigged", "screen"])
    cards = rng.sample(CARDS, 12)
    return {
        "cut": {"player_rank": rng.randint(1, 13), "computer_rank": rng.randint(1, 13)},
        "deal": {"n": 1, "dealer": who, "computer": cards[:6], "player": cards[6:]},
        "discard": {"who": who, "cards": cards[:2]},
        "starter": {"card": cards[0]},
        "play": {"who": who, "card": cards[0], "count": rng.randint(0, 31)},
        "go": {"who": who, "count": rng.randint(0, 31)},
        "reset": {"count": rng.randint(0, 31)},
        "score": {"who": who, "points": rng.randint(0, 29), "before": rng.randint(0, 130),
                  "context": rng.choice(["play", "go", "reset", "heels", "show", "unknown"])},
        "show": {"hand": rng.choice(["computer", "player", "crib"]), "fifteens": rng.randint(0, 16),
                 "pairs": rng.choice([0, 2, 4, 6, 12]), "runs": rng.randint(0, 12), "flush": rng.choice([0, 4, 5]),
                 "nobs": rng.randint(0, 1), "ranks": [1, 2, 3, 4, 5], "suits": [1, 2, 3, 4, 1]},
        "claim": {"claimed": rng.randint(0, 50)},
        "refused": {"who": who, "card": cards[0], "count": rng.randint(0, 31)},
        "win": {"who": who, "computer": rng.randint(0, 130), "player": rng.randint(0, 130)},
        "tally": {"computer": rng.randint(0, 3), "player": rng.randint(0, 3)},
        "options": {"muggins": rng.random() < 0.5},
        "rigged": {"dealer": who},
        "screen": {"what": rng.choice(["count", "board scores", "hand", "show breakdown", "games tally"]),
                   "rows": [[rng.randint(0, 23), "".join(rng.choice("ВСЕГО 0123456789=-") for _ in range(32))]],
                   "variables": {}},
    }[kind] | {"kind": kind}


def test_random_transcripts_never_crash():
    rng = random.Random(7)
    harness = 0
    for _ in range(200):
        dicts = [_random_event(rng) for _ in range(rng.randint(1, 40))]
        result = _never_raises(dicts)
        harness += sum(1 for d in result.differences if d.kind == "harness")
        for d in result.differences:
            assert d.kind.split(":")[0] in {"play", "go", "show", "heels", "legality", "flow", "outcome", "screen",
                                            "harness", "reset", "unknown"}
    print(f"harness differences over 200 random transcripts: {harness}")
