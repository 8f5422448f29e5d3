"""The touch row's table (harness/play/waits.py TOUCH_KEYS): every wait of the program has the keys a thumb
needs there, named as the Spectrum names them, and each presses the Spectrum's own keys."""
from __future__ import annotations

from harness.play import waits
from harness.program.model import decisions
from harness.program.model import program as P
from harness.spectrum.keyboard import KEY_POSITIONS, parse_combo
from harness.web.page import facts


def test_every_wait_of_the_listing_has_touch_keys(built_tape):
    lines = {d.line for d in decisions.decision_points(built_tape.program)}
    assert len(lines) >= 15
    assert waits.missing_touch_keys(lines) == []
    assert waits.missing_touch_keys(set(decisions.CHOICES)) == []


def test_a_wait_left_out_of_the_table_is_named_and_an_extra_row_is_not():
    table = dict(waits.TOUCH_KEYS)
    del table[P.CUT_WAIT]
    assert waits.missing_touch_keys(set(decisions.CHOICES), table) == [P.CUT_WAIT]
    table = {**waits.TOUCH_KEYS, 99999: ("ENTER",)}          # near miss: a row for no wait is no gap
    assert waits.missing_touch_keys(set(decisions.CHOICES), table) == []
    assert waits.missing_touch_keys({P.ASK_AGAIN}, {P.ASK_AGAIN: ()}) == [P.ASK_AGAIN]   # an empty row is a gap


def test_the_rows_are_the_keys_each_wait_reads():
    assert waits.touch_keys(P.ASK_INSTRUCTIONS) == ("Y", "N", "DELETE", "ENTER")
    assert set(waits.touch_keys(P.ASK_CLAIM)) == set("0123456789") | {"DELETE", "ENTER"}
    for line in P.SELECTOR_WAITS:
        assert waits.touch_keys(line) == ("SPACE", "ENTER")
    for line in (P.CUT_WAIT, P.NEXT_DEAL_WAIT, P.SHOW_PAUSE, P.FINAL_BOARD_PAUSE, *P.INSTRUCTION_PAGE_WAITS):
        assert waits.touch_keys(line) == ("ANY KEY",)
    assert "SPACE" in waits.touch_keys(P.DEMO_PAUSE) and len(waits.touch_keys(P.DEMO_PAUSE)) >= 2
    assert waits.touch_keys(None) == ()                              # running: no row of its own
    assert waits.touch_keys(12345, "input")[:4] == ("Y", "N", "DELETE", "ENTER")   # an unknown INPUT


def test_each_touch_key_presses_the_spectrums_keys_of_its_name():
    combos = waits.TOUCH_COMBOS
    assert parse_combo(combos["DELETE"]) == {"CAPS SHIFT", "0"}       # the 48K's DELETE is CAPS SHIFT+0
    for label in ("Y", "N", "ENTER", "SPACE", *"0123456789"):
        assert parse_combo(combos[label]) == {label}
    for row in waits.TOUCH_KEYS.values():
        for label in row:
            assert parse_combo(combos[label]) <= set(KEY_POSITIONS), label
    f = facts()
    assert f["touch_keys"][str(P.CUT_WAIT)] == ["ANY KEY"] and f["touch_combos"]["DELETE"] == "CAPS SHIFT+0"
