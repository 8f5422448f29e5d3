"""A sweep's chunks by hand (issue 50's split put them in sweep_chunks.py): the items' fingerprint against JSON
written out here, a show chunk's counts, a chunk file refused for each fault and taken when whole, a
disagreement's shape and weight. No machine: the program's side is the engine's answer or a planted one."""
from __future__ import annotations

import hashlib
import json

import pytest

from harness.program.runs import sweep_cases, sweep_chunks
from harness.program.runs.sweep_cases import ShowCase

FIVES = ShowCase(((5, 1), (5, 2), (5, 3), (11, 4)), (5, 4), "none", 1, 4)
FLUSH = ShowCase(((2, 1), (4, 1), (6, 1), (8, 1)), (13, 4), "four", 0, 12)
ZERO = dict.fromkeys(sweep_cases.COMPONENTS, 0)


def test_the_items_fingerprint_is_the_sha_of_their_json_with_sorted_keys():
    # the JSON written out by hand: a show case's keys sorted, its cards as arrays; a play item as it is
    show = ('[[{"flush": "none", "hand": [[5, 1], [5, 2], [5, 3], [11, 4]], "nobs": 1, "starter": [5, 4], '
            '"weight": 4}, true]]')
    assert sweep_chunks.items_sha([(FIVES, True)]) == hashlib.sha256(show.encode()).hexdigest()
    assert sweep_chunks.items_sha([(3, [1, 2])]) == hashlib.sha256(b"[[3, [1, 2]]]").hexdigest()
    # near miss: the same case scored as a crib is another item
    assert sweep_chunks.items_sha([(FIVES, False)]) != sweep_chunks.items_sha([(FIVES, True)])


class _NoProfile:
    """Stands for the BASIC statement profiler, which needs a machine."""

    def __init__(self, statements):
        pass

    def start(self, machine):
        pass

    def stop(self):
        return sweep_chunks.Profile()


class _Sub:
    m = None                    # stands for the worker's Subroutine, handed to the program's side


def _show_chunk(monkeypatch, items, program):
    monkeypatch.setattr(sweep_chunks, "Profiler", _NoProfile)
    monkeypatch.setattr(sweep_chunks, "program_show", program)
    worker = sweep_chunks.SweepWorker("show", _Sub(), {})               # type: ignore[arg-type]
    return sweep_chunks.run_chunk_on(worker, sweep_chunks.ChunkJob(0, items))


def test_a_show_chunk_counts_every_case_and_adds_their_weights(monkeypatch):
    result = _show_chunk(monkeypatch, [(FIVES, False), (FLUSH, True), (FLUSH, False)],
                         lambda sub, case, crib: sweep_cases.engine_show(case, crib))
    assert (result.cases, result.weight, result.disagreements) == (3, 4 + 12 + 12, [])


def test_a_show_disagreement_is_written_with_its_case_as_json(monkeypatch):
    def wrong(sub, case, crib):
        return {**sweep_cases.engine_show(case, crib), "nobs": 0}
    result = _show_chunk(monkeypatch, [(FIVES, False), (FLUSH, False)], wrong)
    assert result.disagreements == [{"case": {"hand": [[5, 1], [5, 2], [5, 3], [11, 4]], "starter": [5, 4],
                                              "flush": "none", "nobs": 1, "weight": 4}, "crib": False,
                                     "program": {"fifteens": 16, "pairs": 12, "runs": 0, "flush": 0, "nobs": 0},
                                     "engine": {"fifteens": 16, "pairs": 12, "runs": 0, "flush": 0, "nobs": 1}}]


def _chunk(tmp_path, items, **change):
    r = {"index": 2, "items_sha": sweep_chunks.items_sha(items), "cases": len(items), "weight": 16,
         "disagreements": []} | change
    sweep_chunks.chunk_path(tmp_path, 2).write_text(json.dumps(r))
    return sweep_chunks.read_chunk(tmp_path, "show", 2, items)


def test_a_chunk_file_is_taken_when_it_is_the_result_of_its_items(tmp_path):
    items = [(FIVES, False), (FLUSH, False)]
    chunk, why = _chunk(tmp_path, items)
    assert why is None and chunk == sweep_chunks.ChunkResult(2, sweep_chunks.items_sha(items), 2, 16, [], {})


@pytest.mark.parametrize("change,why", [
    ({"weight": 15}, "does not match its cases (weight)"),
    ({"cases": 3, "index": 1}, "does not match its cases (index, cases)"),
    ({"disagreements": [{"program": ZERO, "engine": ZERO}]}, "its disagreements are malformed"),
    ({"extra": 1}, "not a chunk (unknown fields ['extra'])"),
])
def test_a_chunk_file_that_is_not_the_result_of_its_items_is_refused_with_why(tmp_path, change, why):
    assert _chunk(tmp_path, [(FIVES, False), (FLUSH, False)], **change) == (None, why)


def _show(**change):
    return {"crib": False, "case": {"weight": 4}, "program": dict(ZERO), "engine": dict(ZERO)} | change


def _taken(tmp_path, kind, d):
    """Whether read_chunk takes a chunk whose one disagreement is *d* (else it says they are malformed)."""
    items = [(FIVES, False)] if kind == "show" else [(4, [1, 2])]
    r = {"index": 0, "items_sha": sweep_chunks.items_sha(items), "cases": 1, "weight": 4, "disagreements": [d]}
    sweep_chunks.chunk_path(tmp_path, 0).write_text(json.dumps(r))
    chunk, why = sweep_chunks.read_chunk(tmp_path, kind, 0, items)
    assert why in (None, "its disagreements are malformed")
    return chunk is not None


@pytest.mark.parametrize("d", [
    _show(), _show(case={}),                                       # a case without a weight weighs nothing
    _show(crib=True, program={**ZERO, "nobs": 1}),
])
def test_a_well_formed_show_disagreement_is_taken(tmp_path, d):
    assert _taken(tmp_path, "show", d)


@pytest.mark.parametrize("d", [
    _show(crib="yes"), _show(case=[4]), _show(case={"weight": "4"}), _show(case={"weight": True}),
    _show(program={**ZERO, "runs": "3"}), _show(engine={**ZERO, "flush": None}), _show(program=[0] * 5),
    {"crib": False, "case": {"weight": 4}, "engine": ZERO}, ["program", "engine"],
])
def test_a_malformed_show_disagreement_is_refused(tmp_path, d):
    assert not _taken(tmp_path, "show", d)


@pytest.mark.parametrize("d,good", [
    ({"program": 2, "engine": 3, "weight": 5}, True),
    ({"program": 2, "engine": 3, "weight": "5"}, False), ({"program": 2, "engine": 3.0, "weight": 5}, False),
    ({"program": True, "engine": 3, "weight": 5}, False), ({"engine": 3, "weight": 5}, False),
    ("program engine", False),
])
def test_a_play_disagreement_is_taken_only_whole(tmp_path, d, good):
    assert _taken(tmp_path, "play", d) is good


@pytest.mark.parametrize("d,weight", [
    ({"weight": 5, "case": {"weight": 4}}, 5), ({"case": {"weight": 4}}, 4), ({"case": {}}, 0),
    ({"program": 1}, 0), ({"weight": "5"}, 0), ({"case": {"weight": "4"}}, 0),
])
def test_a_disagreement_weighs_its_own_weight_else_its_cases_else_nothing(d, weight):
    assert sweep_chunks.weight_of(d) == weight
