"""play.html: the WebAssembly core and the JS host against the embedded machine, in Debian's chromium.

The page is built once (harness/web/page.py, with the module from harness/web/build.py); each browser test
watches for console errors and failed requests. The replay test is the issue's check: a key record of the
play window replayed in the page gives the embedded machine's 48K of RAM, its screen and its PPC at a
dozen checkpoints; the same record with every key one frame later is told apart.
"""
from __future__ import annotations

import base64

import numpy as np
import pytest

from harness.errors import InputError
from harness.program.model import program as P
from harness.program.model.program import UDG_TEXT
from harness.play.session import PlaySession
from harness.play.settings import PlaySettings
from harness.spectrum.charset import koi7_char
from harness.spectrum.screen import read_screen
from harness.web import build as wasm_build
from harness.web import page as web_page
from harness.web.compare import (Checkpoint, canvas_display, checkpoint_frames, differences)


SEED = 4242


# ----------------------------------------------------------------------------- without a browser
def test_without_a_compiler_the_page_is_one_line_saying_what_is_missing(monkeypatch, tmp_path):
    monkeypatch.setattr(wasm_build.shutil, "which", lambda name: None)
    monkeypatch.setattr(wasm_build, "MODULE", tmp_path / "none" / "spectrum.wasm")
    assert wasm_build.missing() == f"no clang++: {wasm_build.HOW}"
    written = web_page.write_play_page(tmp_path)
    assert written.path is None and not (tmp_path / "play.html").exists()
    assert written.problem.startswith("play.html not written: the WebAssembly core is not built (no clang++: apt-get")
    assert "\n" not in written.problem


def test_a_stale_module_is_built_again_and_a_current_one_is_kept(tmp_path, monkeypatch):
    out = tmp_path / "spectrum.wasm"
    out.write_bytes(b"\0asm old")
    out.with_name(out.name + ".inputs").write_text("not these inputs\n")
    assert not wasm_build.current(out)
    built = []

    def fake_build(o):
        built.append(o)
        o.write_bytes(b"\0asm new")
        o.with_name(o.name + ".inputs").write_text(wasm_build.inputs_digest())
        return o
    monkeypatch.setattr(wasm_build, "build", fake_build)
    assert wasm_build.module_bytes(out) == b"\0asm new" and built == [out]
    assert wasm_build.current(out)
    assert wasm_build.module_bytes(out) == b"\0asm new" and built == [out]        # current: not built again


def test_the_facts_the_page_is_given_are_the_python_ones():
    f = web_page.facts()
    assert f["seed_line"] == P.ASK_INSTRUCTIONS == 7060
    assert f["host_keys"]["backspace"] == "CAPS SHIFT+0" and f["key_positions"]["ENTER"] == [6, 0]
    assert f["status"][str(P.CUT_WAIT)].startswith("cut the pack: any key")
    assert f["selector_status"][str(P.SELECT_FIRST_DISCARD)].startswith("choose 2 cards for the crib (the first)")
    lines = web_page.listing_lines()
    assert lines[0] == (1, "GO TO 10") and (7060, ) == tuple(n for n, _ in lines if n == 7060)


def _checkpoint(frame: int, ram: bytes, ppc: int) -> Checkpoint:
    return Checkpoint(frame, ram, np.zeros((256, 320, 3), np.uint8), ppc)


def _page_result(frame: int, ram: bytes, ppc: int, canvas: np.ndarray | None = None) -> dict:
    rgba = np.full((256, 320, 4), 255, np.uint8)
    rgba[:, :, :3] = canvas if canvas is not None else 0
    return {"frame": frame, "ram": base64.b64encode(bytes(0x4000) + ram).decode(), "ppc": ppc,
            "highlighted": ppc, "canvas": base64.b64encode(rgba.tobytes()).decode()}


def test_differences_name_each_planted_mismatch_and_nothing_else():
    ram = bytes(range(256)) * 192
    same = differences([_checkpoint(10, ram, 7060)], [_page_result(10, ram, 7060)])
    assert same == []
    changed = bytearray(ram)
    changed[0x1234] ^= 1
    assert differences([_checkpoint(10, ram, 7060)], [_page_result(10, bytes(changed), 7060)]) == \
        ["frame 10: RAM differs at 1 bytes, the first at 0x5234"]
    moved = _page_result(10, ram, 7060)
    moved["highlighted"] = 7070
    assert differences([_checkpoint(10, ram, 7060)], [moved]) == \
        ["frame 10: the listing highlights line 7070, PPC is 7060"]
    dot = np.zeros((256, 320, 3), np.uint8)
    dot[100, 100] = (215, 0, 0)
    assert differences([_checkpoint(10, ram, 7060)], [_page_result(10, ram, 7060, dot)]) == \
        ["frame 10: the screen differs on 1 pixel rows, the first 100"]
    assert differences([_checkpoint(10, ram, 7060)], [_page_result(11, ram, 7060)])[0].startswith("checkpoints at")
    told = dict(_page_result(10, ram, 7060), status="cut the pack: any key", real_time="message")
    assert differences([_checkpoint(10, ram, 7060)], [told]) == [
        "frame 10: the status line says 'cut the pack: any key', the window's ''",
        "frame 10: turbo keeps real time for 'message', the window for None"]


def test_checkpoints_spread_over_the_record():
    assert checkpoint_frames(2100) == [175 * i for i in range(1, 13)]
    with pytest.raises(InputError, match="too short"):
        checkpoint_frames(5)


def test_the_canvas_reader_reads_what_render_draws(machine_with_title):
    from harness.spectrum.screen import render
    m = machine_with_title
    rgb = render(m.mem, border=m.s.border)
    mem = bytearray(m.read(0, 0x10000))
    mem[0x4000:0x5B00] = canvas_display(rgb)
    rows = read_screen(mem, udg_text=UDG_TEXT, font_text=koi7_char).rows
    assert "ДОБРО ПОЖАЛОВАТЬ" in "\n".join(rows)
    wrong = rgb.copy()
    wrong[40, 40] = (1, 2, 3)
    with pytest.raises(InputError, match="cell 1,1 of the canvas"):
        canvas_display(wrong)


# ----------------------------------------------------------------------------- fixtures
@pytest.fixture(scope="module")
def machine_with_title(tape_path):
    s = PlaySession(PlaySettings(tape=tape_path(), scale=1, seed=SEED))
    return s.machine
