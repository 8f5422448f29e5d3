"""Fuse replays a recorded regress game (RZX) to our machine's final screen and BASIC variables.

`regress --rzx` recorded one whole game on our machine (tests/rzx_game.py).
Fuse (Debian's fuse-emulator-sdl, the real 48K ROM) plays it back with
``--playback`` under a private Xvfb, recording its own movie (FMF). At the
end of the playback its debugger (a breakpoint on the event ``rzx:end``)
prints the system variables and the whole BASIC variables area; the movie's
last frame is the display file and attributes. Both must equal ours at the
end of the recording, byte for byte.

Why they can be equal although the two machines differ in timing: Fuse
emulates contended memory, ours does not, so a frame of ours (69,888
T-states of uncontended execution) takes Fuse longer; the RZX file holds
instruction counts, not T-states, so Fuse runs exactly our instructions
between two interrupts and reads our port values, whatever its clock says.
(Fuse warns once that a frame is "longer than 79000 tstates", in a dialog
that the test dismisses: BASIC's program and variables sit in contended RAM.)
"""
from __future__ import annotations


import numpy as np
import pytest

from harness.spectrum.rzx import read_rzx
from rzx_game import recorded_game
from helpers import ROM, STARTS, fuse_tools, read_xwd  # noqa: F401 (fuse_tools: the same autouse check of the tools)

pytestmark = pytest.mark.slow   # an oracle: Fuse under Xvfb (pytest -m 'not slow' leaves it out)

from fuse_playback import SYSVARS_AREA, Playback, word


@pytest.fixture(scope="module")
def playback(tmp_path_factory):
    game = recorded_game()
    work = tmp_path_factory.mktemp("fuse-rzx")
    (work / "game.rzx").write_bytes(game.rzx)
    memory = game.memory
    variables = list(range(word(memory, "VARS"), word(memory, "E_LINE")))
    addresses = list(range(*SYSVARS_AREA)) + variables
    for attempt in range(STARTS):              # Fuse's SDL start-up now and then gives up under a fresh Xvfb
        try:
            fuse = Playback(work, work / "game.rzx", addresses)
            break
        except AssertionError as exc:
            if "Fuse exited" not in str(exc) or attempt == STARTS - 1:
                raise
    try:
        shot = fuse.screenshot()
    finally:
        fuse.close()
    frames = len(read_rzx(game.rzx).frames)
    return game, fuse, addresses, shot, fuse.last_frame(frames)


def test_fuse_replays_the_game_to_our_final_screen(playback):
    game, _, _, shot, last = playback
    from PIL import Image
    Image.fromarray(shot).save(playback[1].dir / "fuse-window.png")  # Fuse's window at the end, to look at
    assert len(last) == 6912
    assert last == game.memory[0x4000:0x5B00]


def test_fuse_replays_the_game_to_our_basic_variables_and_system_variables(playback):
    game, fuse, addresses, _, _ = playback
    printed = fuse.printed()
    assert len(printed) == len(addresses)
    differ = {a: (v, game.memory[a]) for a, v in zip(addresses, printed) if v != game.memory[a]}
    assert differ == {}


def test_the_comparison_sees_a_byte_that_differs(playback):
    """The planted difference: one variable byte changed in our memory is reported, and only that one."""
    game, fuse, addresses, _, _ = playback
    ours = bytearray(game.memory)
    planted = addresses[-1]
    ours[planted] ^= 0x01
    differ = [a for a, v in zip(addresses, fuse.printed()) if v != ours[a]]
    assert differ == [planted]


def same_picture(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal up to the palette: every colour of *a* stands for one colour of *b* and back."""
    pairs = {tuple(p) for p in np.concatenate([a.reshape(-1, 3), b.reshape(-1, 3)], axis=1)}
    return len(pairs) == len({p[:3] for p in pairs}) == len({p[3:] for p in pairs})


def test_fuses_window_shows_our_screen_in_one_of_its_flash_phases(playback):
    """Live, Fuse's window is our screen drawn with its own palette; the one FLASH cell (the peg that
    moves) may be caught in either phase, and a picture a cell off is not the same."""
    from harness.spectrum.screen import render
    game, _, _, shot, _ = playback
    window = shot[24:216, 32:288]                     # the display inside Fuse's 32x24 border
    phases = [render(game.memory, flash_phase=p) for p in (False, True)]
    assert any(same_picture(window, ours) for ours in phases)
    assert not any(same_picture(np.roll(window, 8, axis=1), ours) for ours in phases)
