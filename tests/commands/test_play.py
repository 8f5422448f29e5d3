"""`cribbage-zx play` in-process: the keymap, the beeper's pitch, the session stepped frame by frame with SDL's
dummy video driver (no display needed), its picture against the machine's own render, .z80 save and load, and
the command's one-line errors."""
from __future__ import annotations

import checkout
import json
import os

import numpy as np
import pytest

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
pygame = pytest.importorskip("pygame", reason="pygame-ce is not installed (the play extra)")

from harness.errors import InputError
from harness.program.model.program import UDG_TEXT
from harness.commands import play as command
from harness.play import window as window_module
from harness.play.beeper import SAMPLE_RATE, BeeperSpectrum, BeeperTrack
from harness.play.keymap import MIN_HOLD, HeldKeys, spectrum_keys
from harness.play.panel import POINTER_COLOUR, pointer_rect
from harness.play.session import BORDER_H, BORDER_W, PANEL_W, STATUS_H, PlaySession
from harness.play.settings import PlaySettings
from harness.spectrum import z80snap
from harness.spectrum.direct import run_direct
from harness.spectrum.charset import koi7_char
from harness.spectrum.screen import read_screen, render

CUT_WAIT = 4925          # «СНИМИТЕ КОЛОДУ - ЛЮБОЙ КЛАВИШЕЙ»
DISCARD_WAITS = (3725, 3730, 3750)   # the card selector 3700 polling INKEY$




def rows(session: PlaySession) -> list[str]:
    return [r.rstrip() for r in read_screen(session.machine.mem, udg_text=UDG_TEXT, font_text=koi7_char).rows]


def to_the_cut(session: PlaySession) -> None:
    """No instructions, no muggins: the program waits for any key to cut the deck."""
    for answer in ("N", "N"):
        session.tap(answer)
        session.tap("ENTER")
        session.run_until_wait()
    w = session.waiting()
    assert (w.kind, w.line) == ("inkey", CUT_WAIT), w


# ---------------------------------------------------------------- keymap
def test_host_keys_map_to_the_spectrum_keyboard():
    assert spectrum_keys("a") == {"A"}
    assert spectrum_keys("7") == {"7"}
    assert spectrum_keys("return") == {"ENTER"}
    assert spectrum_keys("left shift") == spectrum_keys("right shift") == {"CAPS SHIFT"}
    assert spectrum_keys("left ctrl") == spectrum_keys("right alt") == {"SYMBOL SHIFT"}
    assert spectrum_keys("backspace") == {"CAPS SHIFT", "0"}          # DELETE
    assert spectrum_keys("escape") == {"CAPS SHIFT", "SPACE"}         # BREAK
    assert spectrum_keys("left") == {"CAPS SHIFT", "5"}
    assert spectrum_keys(",") == {"SYMBOL SHIFT", "N"}
    assert spectrum_keys("f5") == frozenset()                          # nothing on a 48K


def test_a_quick_tap_is_held_long_enough_for_the_rom_and_a_long_press_is_not_stretched():
    held = HeldKeys()
    held.down("n", frame=10)
    held.up("n", frame=10)                     # xdotool's key: down and up in the same frame
    assert held.spectrum_keys(10) == {"N"}
    assert held.spectrum_keys(10 + MIN_HOLD - 1) == {"N"}
    assert held.spectrum_keys(10 + MIN_HOLD) == frozenset()
    held.down("left shift", 20)
    held.down("0", 21)
    assert held.spectrum_keys(22) == {"CAPS SHIFT", "0"}
    held.up("0", 30)
    assert held.spectrum_keys(30) == {"CAPS SHIFT"}                  # released at once: held 9 frames


# ---------------------------------------------------------------- beeper
def beep_samples(command_text: str, fast: bool = False) -> np.ndarray:
    m = BeeperSpectrum(fast=fast)
    m.boot()
    track, chunks = BeeperTrack(), []
    run_frame = m.run_frame

    def recording() -> bool:
        done = run_frame()
        if done:
            chunks.append(track.frame(m.frame_edges, m.frame_level))
        return done
    m.run_frame = recording
    run_direct(m, command_text)
    return np.concatenate(chunks)


@pytest.mark.parametrize("pitch, hz", [(0, 261.63), (12, 523.25)])   # middle C and the C above (the manual)
def test_a_beep_sounds_at_its_pitch(pitch, hz):
    samples = beep_samples(f"BEEP 0.5,{pitch}")
    high = samples > 0
    rises = np.nonzero(high[1:] & ~high[:-1])[0]
    periods = np.diff(rises) / SAMPLE_RATE
    assert len(rises) > 0.4 * hz
    assert abs(1 / np.median(periods) - hz) / hz < 0.02
    assert abs(len(rises) / 0.5 - hz) / hz < 0.05          # for half a second, not more, not less


def test_silence_when_the_beep_is_skipped():
    assert not (beep_samples("BEEP 0.5,0", fast=True) > 0).any()


# ---------------------------------------------------------------- the session
def test_the_window_shows_the_machines_own_render_through_the_cut_and_a_discard(tape, dummy_window):
    s = PlaySession(PlaySettings(tape=tape, scale=2))
    assert s.size == ((320 + 300) * 2, (256 + 34) * 2) == ((BORDER_W + PANEL_W) * 2, (BORDER_H + STATUS_H) * 2)
    to_the_cut(s)
    assert "СНИМИТЕ КОЛОДУ - ЛЮБОЙ КЛАВИШЕЙ" in rows(s)
    s.tap("M")
    w = s.run_until_wait()
    assert w.line in DISCARD_WAITS
    hand = rows(s)[16:18]                      # the six cards: rank row, suit row
    s.tap("ENTER")                              # discard the card under the pointer: slot 1
    w = s.run_until_wait()
    assert w.line in DISCARD_WAITS
    after = rows(s)[16:18]
    assert after[0][:4].strip() == "" and hand[0][:4].strip() != ""    # slot 1 is empty now
    assert after[0][4:] == hand[0][4:]
    before = s.machine.read(0x4000, 0xC000)
    surf = s.surface()
    assert s.machine.read(0x4000, 0xC000) == before           # the marker is the window's: the machine is untouched
    shown = pygame.surfarray.pixels3d(surf).transpose(1, 0, 2)[:512, :640]
    assert shown.shape == (512, 640, 3)
    assert s.pointer_slot() == 1
    box = pointer_rect(1, 2)
    marked = np.zeros(shown.shape[:2], bool)
    marked[box.top:box.bottom, box.left:box.right] = True
    assert matches_render(shown, s, outside=marked)           # the machine's own picture, but for the marker
    assert (shown[box.top, box.left:box.right] == POINTER_COLOUR).all()       # a solid frame round slot 1
    assert not matches_render(shown, s)                       # ... drawn over it, not in the machine


def matches_render(pixels: np.ndarray, s: PlaySession, outside: np.ndarray | None = None) -> bool:
    """The pixels are the machine's own render, in one of the two FLASH phases (only *outside* a mask if given)."""
    m = s.machine
    keep = ~outside if outside is not None else np.ones(pixels.shape[:2], bool)
    return any(np.array_equal(pixels[keep], render(m.mem, border=m.s.border, scale=s.scale, flash_phase=phase)[keep])
               for phase in (False, True))


def test_flashing_cells_swap_ink_and_paper_every_16_frames(tape, dummy_window):
    s = PlaySession(PlaySettings(tape=tape, scale=1))         # the INPUT cursor flashes
    m = s.machine
    phases = []
    for _ in range(4):
        shown = pygame.surfarray.pixels3d(s.surface()).transpose(1, 0, 2)[:BORDER_H, :BORDER_W].copy()
        phases.append([np.array_equal(shown, render(m.mem, border=m.s.border, flash_phase=p)) for p in (False, True)])
        s.step(16)
    assert all(sum(p) == 1 for p in phases)     # exactly one phase each time: a FLASH cell is on screen
    assert [p[1] for p in phases] in ([False, True, False, True], [True, False, True, False])


def test_host_keys_reach_the_program_and_caps_shift_digits_are_the_spectrums(tape, dummy_window):
    s = PlaySession(PlaySettings(tape=tape, scale=1))
    s.host_key_down("n")
    s.host_key_up("n")                          # one frame's tap: stretched to MIN_HOLD frames
    s.step(8)
    s.host_key_down("return")
    s.step(3)
    s.host_key_up("return")
    w = s.run_until_wait()
    assert (w.kind, w.line) == ("input", 7405)   # the instructions question was answered N
    s.host_key_down("left shift")
    s.step(1)
    s.host_key_down("0")
    s.step(1)
    assert s.machine.keyboard.pressed() == {"CAPS SHIFT", "0"}
    s.host_key_up("0")
    s.host_key_up("left shift")
    s.step(MIN_HOLD)
    assert s.machine.keyboard.pressed() == set()


def test_save_and_load_a_z80_continue_the_same_game(tape, dummy_window, tmp_path):
    s = PlaySession(PlaySettings(tape=tape, scale=1, seed=4242))
    to_the_cut(s)
    path = s.save(tmp_path / "cut.z80")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cut.z80", "cut.z80.json"]   # no temporary file left
    assert json.loads((tmp_path / "cut.z80.json").read_text()) == {"seed": 4242, "deals": None}
    assert z80snap.read_z80(path).regs["pc"] == s.machine.cpu.pc
    loaded = PlaySession(PlaySettings(load=path, scale=1))
    assert np.array_equal(loaded.screen_pixels(), s.screen_pixels())
    for session in (s, loaded):
        session.tap("M")
        session.run_until_wait()
    assert rows(loaded) == rows(s)               # the same deal: the seed was in the snapshot's memory
    s.load(path)                                 # F3's path: back to the cut in the same window
    assert rows(s)[-3:] == rows(PlaySession(PlaySettings(load=path, scale=1)))[-3:]
    assert s.waiting() is not None and s.waiting().line == CUT_WAIT


def test_save_is_atomic_and_keeps_the_old_file_when_writing_fails(tape, dummy_window, tmp_path, monkeypatch):
    s = PlaySession(PlaySettings(tape=tape, scale=1))
    path = s.save(tmp_path / "game.z80")
    before = path.read_bytes()
    s.tap("N")

    def broken(*args, **kwargs):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError):
        s.save(path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.z80"]


def test_a_seed_deals_the_same_cards_and_another_seed_others(tape, dummy_window):
    def first_hand(seed):
        s = PlaySession(PlaySettings(tape=tape, scale=1, seed=seed))
        to_the_cut(s)
        s.tap("M")
        s.run_until_wait()
        return rows(s)[16:21]
    assert first_hand(7) == first_hand(7)
    assert first_hand(7) != first_hand(8)


# ---------------------------------------------------------------- the command
def test_no_display_is_one_line_and_exit_2(monkeypatch, capsys, tape):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    assert command.main(["--tape", str(tape)]) == 2
    err = capsys.readouterr().err
    assert err == "cribbage-zx play: no display (DISPLAY is not set; run under X or use xvfb-run)\n"


def test_bad_files_and_options_are_one_line_and_exit_2(dummy_window, capsys, tmp_path):
    bad = tmp_path / "bad.z80"
    bad.write_bytes(b"not a snapshot")
    junk = tmp_path / "junk.tap"
    junk.write_bytes(b"\x05\x00not a tape block")
    for argv, needle in ((["--load", str(tmp_path / "none.z80")], "none.z80"),
                         (["--load", str(bad)], "bad.z80"),
                         (["--tape", str(junk)], "junk.tap"),
                         (["--tape", str(tmp_path / "none.tap")], "none.tap"),
                         (["--scale", "0"], "--scale"),
                         (["--turbo", "--bogus"], "--bogus")):
        assert command.main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("cribbage-zx play: ") and needle in err, (argv, err)


def test_the_command_runs_a_window_under_the_dummy_driver_and_quits_on_time(tape, dummy_window, capsys):
    assert command.main(["--tape", str(tape), "--seconds", "0.5", "--scale", "1", "--no-sound"]) == 0


def test_turbo_hurries_only_while_no_key_is_awaited_or_held(tape, dummy_window):
    s = PlaySession(PlaySettings(tape=tape, scale=1))
    to_the_cut(s)
    window = window_module.Window(s, turbo=True)
    try:
        assert not window._may_hurry()            # waiting for the cut
        s.press("M")
        s.step(3)
        assert not window._may_hurry()            # a key is down: real speed, or the ROM would repeat it
        s.release("M")
        s.step(1)
        assert window._may_hurry()                # the computer cuts and shuffles: full speed
    finally:
        window.close()


def test_the_beeps_of_the_game_reach_the_sound_device(tape, dummy_window):
    s = PlaySession(PlaySettings(tape=tape, scale=1, sound=True))
    to_the_cut(s)
    s.audio.clear()
    s.tap("M")
    s.run_until_wait()                            # «ВЫ СДАЕТЕ» or «Я СДАЮ» comes with BEEP .1,20 (5520)
    samples = np.concatenate(s.audio)
    assert len(samples) > 0.08 * 44_100 and (samples > 0).any() and (samples < 0).any()
    window = window_module.Window(s)                    # SDL's dummy audio driver: a device that plays nothing
    try:
        assert window.channel is not None
        window._play_sound()
        assert s.audio == [] and window.channel.get_busy()
    finally:
        window.close()
    quiet = PlaySession(PlaySettings(tape=tape, scale=1))
    to_the_cut(quiet)
    quiet.tap("M")
    quiet.run_until_wait()
    assert quiet.audio == []


def test_play_under_the_cribbage_zx_command(tape, capsys):
    import subprocess
    import sys

    from harness import cli
    with pytest.raises(SystemExit) as exit_:
        cli.main(["play", "--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert "cribbage-zx play" in out and "--turbo" in out and "--referee" in out and "--load" in out
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    done = subprocess.run([sys.executable, "-m", "harness.cli", "play", "--tape", str(tape), "--turbo"],
                          cwd=checkout.ROOT, env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2
    assert done.stderr == "cribbage-zx play: no display (DISPLAY is not set; run under X or use xvfb-run)\n"


def key_event(key, kind=pygame.KEYDOWN):
    return pygame.event.Event(kind, key=key, mod=0, unicode="", scancode=0)


def test_f2_saves_f3_loads_and_a_failed_save_leaves_the_game_running(tape, dummy_window, tmp_path, capsys):
    s = PlaySession(PlaySettings(tape=tape, scale=1))
    to_the_cut(s)
    window = window_module.Window(s, save_path=tmp_path / "f2.z80")
    try:
        window.handle(key_event(pygame.K_F2))
        assert "save which slot? press 1-9" in s.notice and not list(tmp_path.iterdir())
        window.handle(key_event(pygame.K_3))      # the digit picks the slot: it does not reach the Spectrum
        s.step(1)
        assert s.machine.keyboard.pressed() == set()
        at_cut = rows(s)
        assert (tmp_path / "f2-3.z80").exists() and s.notice.startswith("saved slot 3")
        window.handle(key_event(pygame.K_F2))
        window.handle(key_event(pygame.K_RETURN))     # ENTER: the last slot again
        assert sorted(p.name for p in tmp_path.iterdir()) == ["f2-3.z80"]
        s.tap("M")
        s.run_until_wait()
        assert rows(s) != at_cut
        window.handle(key_event(pygame.K_F3))
        window.handle(key_event(pygame.K_5))          # an empty slot: said, and the game goes on
        assert "could not load slot 5" in s.notice and rows(s) != at_cut
        window.handle(key_event(pygame.K_F3))
        window.handle(key_event(pygame.K_F3))         # F3 again: the last slot, 3
        assert rows(s) == at_cut and s.notice.startswith("loaded slot 3")     # back at the cut
        window.handle(key_event(pygame.K_F2))
        window.handle(key_event(pygame.K_ESCAPE))     # never mind
        assert s.notice == "no save"
        blocked = tmp_path / "a file"
        blocked.write_text("not a folder")
        window.save_path = blocked / "game.z80"
        window.handle(key_event(pygame.K_F2))
        window.handle(key_event(pygame.K_1))
        assert window.running
        out = capsys.readouterr().out
        assert "saved slot 3" in out and "could not save slot 1" in out
        assert "could not save slot 1" in pygame.display.get_caption()[0]
        window.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_n, mod=0, unicode="n", scancode=0))
        s.step(1)
        assert s.machine.keyboard.pressed() == {"N"}      # any other key goes to the Spectrum
        window.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F10, mod=0, unicode="", scancode=0))
        assert not window.running
    finally:
        window.close()


def test_a_saves_sidecar_nested_deep_is_refused_in_one_line_and_none_is_no_problem(tape, dummy_window, tmp_path):
    s = PlaySession(PlaySettings(tape=tape, scale=1, seed=4242))
    path = s.save(tmp_path / "slot.z80")
    (tmp_path / "slot.z80.json").write_text("[" * 100_000 + "]" * 100_000)       # planted: nested far too deep
    with pytest.raises(InputError, match=r"slot\.z80\.json: not JSON this tool reads: nested more than"):
        s.load(path)
    (tmp_path / "slot.z80.json").unlink()                                           # near miss: a .z80 from elsewhere
    s.load(path)
    assert s.seed == 4242
