"""harness/web/compare.py's checks by hand (issue 51): the checkpoints spread over a record, the watch page's
judgement frames against the expected ones, and the page's checkpoints against the embedded machine's, each
difference planted both ways beside its near miss. Small made-up checkpoints; no browser, no emulator."""
from __future__ import annotations

import base64

import numpy as np
import pytest

from harness.errors import InputError
from harness.web.compare import Checkpoint, canvas_rgb, checkpoint_frames, differences, watch_differences


def test_the_checkpoints_are_spread_over_the_record_the_last_at_its_end():
    assert checkpoint_frames(120) == [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120]
    assert checkpoint_frames(12) == list(range(1, 13))                      # near miss: as short as allowed
    assert checkpoint_frames(100, count=3) == [33, 67, 100]
    with pytest.raises(InputError, match="^a record of 11 frames is too short for 12 checkpoints$"):
        checkpoint_frames(11)


# --------------------------------------------------------------------------------------- the judgements' frames
def test_each_judgement_at_its_frame_passes_and_one_frame_off_either_way_does_not():
    expected = {1: 50, 2: 50, 3: 900}
    assert watch_differences(expected, {"1": 50, "2": 50, "3": 900}) == []
    assert watch_differences(expected, {"1": 50, "2": 51, "3": 900}) == [
        "judgement 2: shown at frame 51, its action is at frame 50"]
    assert watch_differences(expected, {"1": 50, "2": 50, "3": 899}) == [
        "judgement 3: shown at frame 899, its action is at frame 900"]


def test_a_judgement_never_shown_and_one_made_up_are_each_a_line():
    expected = {1: 50, 2: 60}
    assert watch_differences(expected, {"1": 50}) == ["judgement 2: never shown (due at frame 60)"]
    assert watch_differences(expected, {"1": 50, "2": 60, "3": 70, "9": 1}) == [
        "judgement 3: shown at frame 70, and there is no such judgement",
        "judgement 9: shown at frame 1, and there is no such judgement"]
    assert watch_differences({}, {}) == []


# --------------------------------------------------------------------------------------- checkpoints
RAM_LEN = 0xC000


def _checkpoint(frame: int, ram: bytes, screen: np.ndarray, ppc: int = 2720, status: str = "",
                real_time: str | None = None) -> Checkpoint:
    return Checkpoint(frame, ram, screen, ppc, status, real_time)


def _page(frame: int, ram: bytes, screen: np.ndarray, highlighted: int = 2720, **more) -> dict:
    full = bytes(0x4000) + ram                       # the page gives the 64K
    rgba = np.concatenate([screen, np.full(screen.shape[:2] + (1,), 255, dtype=np.uint8)], axis=2)
    return {"frame": frame, "ram": base64.b64encode(full).decode(), "canvas": base64.b64encode(rgba.tobytes()).decode(),
            "highlighted": highlighted, **more}


@pytest.fixture
def machine():
    ram = bytes((i * 7) & 0xFF for i in range(RAM_LEN))
    screen = np.zeros((256, 320, 3), dtype=np.uint8)
    screen[100:110, 40:60] = (0, 0, 205)
    return ram, screen


def test_the_same_checkpoints_pass(machine):
    ram, screen = machine
    assert differences([_checkpoint(10, ram, screen)], [_page(10, ram, screen)]) == []
    # near miss: a page that gives no status line nor turbo reason is not held to the window's
    assert differences([_checkpoint(10, ram, screen, status="x", real_time="beep")], [_page(10, ram, screen)]) == []


@pytest.mark.parametrize("at", [0, 0x1234, RAM_LEN - 1])
def test_one_byte_of_ram_changed_is_found_at_its_address(machine, at):
    ram, screen = machine
    changed = bytearray(ram)
    changed[at] ^= 0x01
    assert differences([_checkpoint(10, ram, screen)], [_page(10, bytes(changed), screen)]) == [
        f"frame 10: RAM differs at 1 bytes, the first at {0x4000 + at:#06x}"]
    # the other way: the machine's byte is the changed one
    assert differences([_checkpoint(10, bytes(changed), screen)], [_page(10, ram, screen)]) == [
        f"frame 10: RAM differs at 1 bytes, the first at {0x4000 + at:#06x}"]


def test_the_screen_two_rows_off_is_found_and_its_first_row_named(machine):
    ram, screen = machine
    shown = screen.copy()
    shown[200, 5] = (205, 0, 0)
    shown[31, 300] = (1, 0, 0)                  # one value of one pixel, in the border
    assert differences([_checkpoint(4, ram, screen)], [_page(4, ram, shown)]) == [
        "frame 4: the screen differs on 2 pixel rows, the first 31"]


def test_the_highlighted_line_the_status_and_the_turbo_reason_are_each_compared(machine):
    ram, screen = machine
    ours = [_checkpoint(4, ram, screen, ppc=2720, status="waiting", real_time="beep")]
    assert differences(ours, [_page(4, ram, screen, highlighted=2721, status="waiting", real_time="beep")]) == [
        "frame 4: the listing highlights line 2721, PPC is 2720"]
    assert differences(ours, [_page(4, ram, screen, status="running", real_time="beep")]) == [
        "frame 4: the status line says 'running', the window's 'waiting'"]
    assert differences(ours, [_page(4, ram, screen, status="waiting", real_time=None)]) == [
        "frame 4: turbo keeps real time for None, the window for 'beep'"]
    assert differences(ours, [_page(4, ram, screen, status="waiting", real_time="beep")]) == []


def test_checkpoints_at_other_frames_are_one_line_and_nothing_else(machine):
    ram, screen = machine
    ours = [_checkpoint(10, ram, screen), _checkpoint(20, ram, screen)]
    other = bytes(RAM_LEN)
    assert differences(ours, [_page(10, other, screen), _page(21, other, screen)]) == [
        "checkpoints at frames [10, 21], expected [10, 20]"]
    assert differences(ours, [_page(10, ram, screen)]) == ["checkpoints at frames [10], expected [10, 20]"]
    # each checkpoint is compared, not only the first
    assert differences(ours, [_page(10, ram, screen), _page(20, other, screen)])[0].startswith("frame 20: RAM differs")


def test_a_canvas_of_the_wrong_size_is_refused():
    with pytest.raises(InputError, match="^the canvas gave 4 bytes, not 327680$"):
        canvas_rgb(base64.b64encode(bytes(4)).decode())


def test_the_frames_against_the_machine_want_one_frame_an_event():
    from harness.web.compare import picture_frame_differences
    with pytest.raises(InputError, match="^1 frames for 0 events$"):
        picture_frame_differences([], [1], b"")


def test_a_page_checkpoint_of_another_form_is_refused_naming_its_field(machine):
    ram, screen = machine
    page = _page(10, ram, screen)
    del page["ram"]
    with pytest.raises(InputError, match=r"^the page's checkpoints\[0\]\.ram: missing$"):
        differences([_checkpoint(10, ram, screen)], [page])
    with pytest.raises(InputError, match=r"checkpoints\[0\]\.highlighted"):
        differences([_checkpoint(10, ram, screen)], [_page(10, ram, screen, highlighted="2720")])
    # near miss: a highlighted line of null (none yet) is read, and differs from PPC
    assert differences([_checkpoint(10, ram, screen)], [_page(10, ram, screen, highlighted=None)]) == [
        "frame 10: the listing highlights line None, PPC is 2720"]


_GOOD = {"frame": 1, "ram": "r", "canvas": "c", "highlighted": None, "status": "s", "real_time": "t"}


@pytest.mark.parametrize("page, told", [
    ({}, "W: expected a list, found an object {}"),
    ([_GOOD, [1]], "W[1]: expected an object, found a list [...]"),
    ([dict(_GOOD, frame="1")], 'W[0].frame: expected a whole number, found a string "1"'),
    ([dict(_GOOD, ram=2)], "W[0].ram: expected a string, found a whole number 2"),
    ([dict(_GOOD, canvas=1)], "W[0].canvas: expected a string, found a whole number 1"),
    ([dict(_GOOD, highlighted="1")], 'W[0].highlighted: expected a whole number or null, found a string "1"'),
    ([dict(_GOOD, status=1)], "W[0].status: expected a string, found a whole number 1"),
    ([dict(_GOOD, real_time=1)], "W[0].real_time: expected a string or null, found a whole number 1"),
])
def test_a_page_checkpoint_of_the_wrong_form_is_refused_naming_its_place(page, told):
    from harness.web.compare import page_checkpoints
    with pytest.raises(InputError) as refused:
        page_checkpoints(page, "W")
    assert str(refused.value) == told
