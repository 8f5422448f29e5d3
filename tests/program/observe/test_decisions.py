"""Every place the listing waits for a person is in the choices table, has a handler in the driver, and is
reached by the thorough set; the scan finds waits and nothing else (strings, PAUSE n, other GO SUBs)."""
import checkout
import json

from harness.program.model import program as P
from harness.program.model.decisions import CHOICES, DecisionPoint, decision_points
from harness.program.observe.driver import GameDriver
from harness.program.observe.players import RandomPlayer
from harness.resources import LISTING
from harness.spectrum.basic import tokenise_program
from harness.spectrum.machine import Spectrum48

ROOT = checkout.ROOT
POINTS = decision_points(tokenise_program(LISTING.read_text(encoding="utf-8")))
INSTRUCTION_PAGES = {9065, 9250, 9540}          # PAUSE 0 between the instruction pages: any key
READ_ONCE = {9095, 9160}                        # INKEY$ read once after a PAUSE 0, not a loop


def test_the_scan_finds_waits_and_nothing_else():
    program = tokenise_program('10 INPUT A\n20 PAUSE 5: PAUSE 0\n30 PRINT "INPUT";INKEY$\n'
                               '40 GO SUB 3700: GO SUB 370\n50 REM INPUT\n')
    assert decision_points(program) == [DecisionPoint(10, 1, "input"), DecisionPoint(20, 2, "pause"),
                                        DecisionPoint(30, 1, "inkey"), DecisionPoint(40, 1, "select")]


def test_the_listing_has_exactly_the_waits_of_the_choices_table():
    assert sorted({p.line for p in POINTS}) == sorted(CHOICES)
    assert len(POINTS) == 23


def test_the_driver_has_a_handler_for_every_wait():
    driver = GameDriver(Spectrum48(fast=True), RandomPlayer(), seed=1)
    for p in POINTS:
        if p.kind == "input":
            assert p.line in driver._inputs, p
        elif p.kind == "select":
            assert p.line in driver._selector, p
        elif p.kind == "pause":
            assert ("pause", p.line) in driver._waits or p.line in INSTRUCTION_PAGES, p
        else:
            assert ("inkey", p.line) in driver._waits or p.line in READ_ONCE, p
    assert {line for kind, line in driver._waits if kind == "inkey"} == {3725, 3730, 3750, P.CUT_WAIT,
                                                                            P.NEXT_DEAL_WAIT}


def test_the_thorough_set_reaches_every_wait():
    never = set(json.loads((ROOT / "docs" / "data" / "coverage.json").read_text(encoding="utf-8"))["thorough"]["never_run"])
    assert [p for p in POINTS if f"{p.line}:{p.statement}" in never] == []
