"""What the window adds for a person at the game: the status line of each wait in English, the hint on H, the
key record and its replay, a new seed each start, the key help, and a turbo that keeps real time while a
message is up, a timed PAUSE runs or the board demo plays (with its figures printed)."""
from __future__ import annotations

import json
import os
import time

import numpy as np
import pytest

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
pygame = pytest.importorskip("pygame", reason="pygame-ce is not installed (the play extra)")

from harness.errors import InputError, UsageError
from harness.play import window as window_module
from harness.program.model.build import LISTING
from harness.cribbage.discard import best_discard
from harness.program.model import program as P
from harness.program.model.decisions import CHOICES, decision_points
from harness.program.records.events import Deal
from harness.commands import play as command
from harness.play.cards import card_name
from harness.play.hint import discard_hint, play_hint
from harness.play.keymap import GAME_KEYS, WINDOW_KEYS, key_help
from harness.play.record import KeyRecord, tape_digest
from harness.play.session import MESSAGE_READ_FRAMES, PlaySession
from harness.play.settings import PlaySettings
from harness.play.waits import RUNNING, SELECTOR_CALLERS, STATUS, status_text
from harness.spectrum.charset import koi7_char
from harness.spectrum.screen import read_screen
from harness.spectrum.variables import BasicVariables
from play_keys import keys

SELECTOR = P.SELECTOR_WAITS


pytestmark = pytest.mark.usefixtures("dummy_window")      # tests/conftest.py


def rows(s: PlaySession) -> list[str]:
    return read_screen(s.machine.mem, udg_text=P.UDG_TEXT, font_text=koi7_char).rows


# ---------------------------------------------------------------- the status line
def test_every_wait_of_the_listing_has_its_status_and_every_prompt_is_the_programs(built_tape):
    program = built_tape.program
    waits = {d.line for d in decision_points(program)} - set(SELECTOR) - {3725}
    inkey_or_input = {line for line in CHOICES if line not in SELECTOR and line not in SELECTOR_CALLERS}
    assert inkey_or_input - {3725} <= set(STATUS), sorted(inkey_or_input - set(STATUS))
    assert {line for line in waits if line in CHOICES} <= set(STATUS) | set(SELECTOR_CALLERS)
    assert set(SELECTOR_CALLERS) == {P.SELECT_FIRST_DISCARD, P.SELECT_SECOND_DISCARD, P.SELECT_PLAY,
                                     P.SELECT_GO_CONFIRM}
    listing = LISTING.read_text(encoding="utf-8")
    for st in [*STATUS.values(), *SELECTOR_CALLERS.values()]:
        if st.prompt:
            assert f'"{st.prompt}"' in listing or f'"{st.prompt}' in listing, st.prompt     # the program's own words
    assert status_text(P.CUT_WAIT) == "cut the pack: any key  [screen: CUT THE DECK - PRESS ANY KEY]"
    assert status_text(None) == RUNNING
    assert status_text(3730, None) == "waiting at line 3730"                # the selector without its caller


def test_the_status_line_follows_the_game_and_the_screen_shows_the_prompt_it_quotes(tape):
    s = PlaySession(PlaySettings(tape=tape, seed=99, scale=1))
    assert s.status_line().startswith("instructions?: type Y or N, then ENTER  [screen: NEED INSTRUCTIONS?")
    keys(s, "N", "ENTER")
    assert s.status_line().startswith("play with muggins")
    assert "ИГРАЕМ С ПРАВИЛОМ МАГГИНЗ?" in "".join(rows(s))
    keys(s, "N", "ENTER")
    assert s.status_line().startswith("cut the pack: any key")
    assert "СНИМИТЕ КОЛОДУ - ЛЮБОЙ КЛАВИШЕЙ" in "".join(rows(s))
    s.tap("M", gap=1)
    assert s.status_line() == RUNNING                      # the computer cuts and shuffles
    s.run_until_wait()
    assert s.status_line().startswith("choose 2 cards for the crib (the first): SPACE moves, ENTER chooses")
    assert "ВЫБЕРИТЕ 2 КАРТЫ" in "".join(rows(s))
    keys(s, "ENTER")
    assert s.status_line().startswith("choose 2 cards for the crib (the second")
    s.paused = True
    assert s.status_line() == "PAUSED: P goes on"


# ---------------------------------------------------------------- the hint
def test_the_discard_hint_is_the_engines_best_discard_and_off_unless_asked(tape):
    s = PlaySession(PlaySettings(tape=tape, seed=99, scale=1, referee="honest"))
    keys(s, "N", "ENTER")
    keys(s, "N", "ENTER")
    keys(s, "M")
    assert not [l for l in s.panel_lines() if l.tone == "hint"]           # off unless asked
    deal = next(e for e in s.referee.events if isinstance(e, Deal))
    hint = discard_hint(s.machine)
    assert hint.hand == deal.player                                       # the player's six cards, as dealt
    i, j = best_discard(deal.player, my_crib=deal.dealer == "player")
    assert hint.best == (deal.player[i], deal.player[j])
    assert len(hint.values) == 15 and [v for _, v in hint.values] == sorted((v for _, v in hint.values), reverse=True)
    s.hint_on = True
    lines = [l.text for l in s.panel_lines() if l.tone == "hint"]
    marked = [t for t in lines if t.startswith(" * ")]
    assert marked == [f" * throw {card_name(deal.player[i]):>3} {card_name(deal.player[j]):>3}: "
                      f"{hint.values[0][1]:6.2f}"]
    assert lines[-1] == f"  * best: throw {card_name(deal.player[i])} and {card_name(deal.player[j])}"
    events = list(s.referee.events)
    s.surface()
    assert s.referee.events == events                 # asking for a hint is never part of the judged record
    assert not any("Hint" in l.text for l in s.referee.all_lines())


def test_the_play_hint_pegs_each_card_on_the_series_the_program_holds(tape):
    s = PlaySession(PlaySettings(tape=tape, seed=99, scale=1))
    keys(s, "N", "ENTER")
    keys(s, "N", "ENTER")
    keys(s, "M")
    n = 0
    while s.caller() != P.SELECT_PLAY:
        n += 1
        assert n < 30, "the play never asked for a card"
        if s.caller() == P.SELECT_GO_CONFIRM:
            keys(s, "ENTER")
        else:
            keys(s, *(["SPACE"] * (n % 3)), "ENTER")
    v = BasicVariables(s.machine)
    # planted: the series 4, 5 (count 9) and the hand 6, 5, 3, K, all four held
    v.set("A()", [6, 5, 3, 13, 0, 0])
    v.set("A$()", chr(151) + chr(146) + chr(147) + chr(162) + "  ")
    v.set("B()", [1, 1, 1, 1, 0, 0])
    t = list(v.get("T()"))
    t[:2] = [4, 5]
    v.set("T()", t)
    v.set("N", 2)
    v.set("SUM", 9)
    hint = play_hint(s.machine)
    # by hand: 6 makes 15 (2) and the run 4-5-6 (3); 5 pairs the 5 (2), count 14; 3 the run 3-4-5 (3); K 19: 0
    assert hint.cards == (("6H", 5), ("5C", 2), ("3D", 3), ("KS", 0))
    t[:3] = [13, 10, 5]                                    # near the top: K, 10, 5 make 25
    v.set("T()", t)
    v.set("N", 3)
    v.set("SUM", 25)
    # 6 makes 31 (2); 5 pairs the 5 (2), count 30; 3: 28, nothing; K would pass 31
    assert [p for _, p in play_hint(s.machine).cards] == [2, 2, 0, None]
    assert "does not fit (over 31)" in "\n".join(play_hint(s.machine).lines())


# ---------------------------------------------------------------- seeds, the record and its replay
def test_a_new_seed_each_start_unless_one_is_given():
    drawn = {command.choose_seed(None, None) for _ in range(8)}
    assert len(drawn) > 1 and all(0 <= d < 65536 for d in drawn)
    assert command.choose_seed(1234, None) == 1234
    assert command.choose_seed(None, "a record") is None           # --replay: the record's seed


def test_a_recorded_game_replays_to_the_same_screens_frame_for_frame(tape, tmp_path, tape_path):
    record = tmp_path / "game.keys.json"
    s = PlaySession(PlaySettings(tape=tape, seed=4321, scale=1, record=record))
    screens = {}
    for answer in (("N", "ENTER"), ("Y", "ENTER"), ("M",), ("SPACE", "ENTER"), ("SPACE", "SPACE", "ENTER")):
        for k in answer:
            s.host_key_down(k.lower() if k != "ENTER" else "return")
            s.step(4)
            s.host_key_up(k.lower() if k != "ENTER" else "return")
            s.step(7)
        s.run_until_wait()
        screens[s.frames] = s.machine.read(0x4000, 0x1B00)
    s.close()
    data = json.loads(record.read_text())
    assert data["seed"] == 4321 and data["frames"] == s.frames and len(data["keys"]) >= 18
    again = PlaySession(PlaySettings(tape=tape, scale=1, replay=record))
    assert again.seed == 4321
    for frame in sorted(screens):
        again.step(frame - again.frames)
        assert again.machine.read(0x4000, 0x1B00) == screens[frame], frame
    assert not again.replaying and "replaying" not in again.status_line()
    # the near misses: the same keys under another seed deal other cards; another tape, another seed refused
    other = KeyRecord.read(record)
    other.seed = 4322
    other.write(tmp_path / "other-seed.json")
    changed = PlaySession(PlaySettings(tape=tape, scale=1, replay=tmp_path / "other-seed.json"))
    differ = []
    for frame in sorted(screens):
        changed.step(frame - changed.frames)
        differ.append(changed.machine.read(0x4000, 0x1B00) != screens[frame])
    assert differ[:2] == [False, False] and differ[2]      # the same questions; another deal
    with pytest.raises(UsageError, match="^seed 5: the record .* seed 4321$") as refused:
        PlaySession(PlaySettings(tape=tape, scale=1, replay=record, seed=5))
    assert refused.value.fix == "seed"                     # the command names --seed (below)
    en = tape_path("en")
    with pytest.raises(InputError, match=f"^{record}: recorded on another tape than {en}$") as refused:
        PlaySession(PlaySettings(tape=en, scale=1, replay=record))
    assert refused.value.fix == "replay"
    (tmp_path / "junk.json").write_text("{\"format\": \"something else\"}")
    with pytest.raises(InputError, match="junk.json: not a key record"):
        PlaySession(PlaySettings(tape=tape, scale=1, replay=tmp_path / "junk.json"))
    with pytest.raises(UsageError, match="not loaded while the game's keys are recorded"):
        s.load(tmp_path / "any.z80")


def test_the_command_names_its_options_in_what_the_session_refuses(tape, tape_path, tmp_path, capsys):
    """The session's refusals, worded by `play` with the option at fault, one line each (the session's own
    words above); --hash builds the session without a window."""
    record = tmp_path / "r.json"
    KeyRecord(tape_digest(tape.read_bytes()), 4321, [], 3).write(record)
    en = tape_path("en")
    for argv, said in ((["--tape", str(tape), "--seed", "5"], f"--seed 5: the record {record} was played with seed 4321"),
                       (["--tape", str(en)], f"--replay {record}: recorded on another tape than {en}")):
        assert command.main(["--hash", "--replay", str(record)] + argv) == 2, argv
        assert capsys.readouterr().err == f"cribbage-zx play: {said}\n"
    assert command.main(["--hash", "--replay", str(record), "--tape", str(tape)]) == 0      # the near miss
    assert capsys.readouterr().out.startswith("frame 3 hash ")


# ---------------------------------------------------------------- keys
def test_play_help_lists_every_key(capsys):
    from harness import cli
    with pytest.raises(SystemExit):
        cli.main(["play", "--help"])
    out = capsys.readouterr().out
    for key, what in WINDOW_KEYS + GAME_KEYS:
        assert key in out and what.split("(")[0].strip()[:30] in out, key
    assert key_help()[0].startswith("The window's keys")


def test_f1_says_which_keys_toggle_and_their_state_now():
    """F1, H, P and F11 are marked toggles (with on/off once the window says it); F2, F3, F10 are not."""
    marked = {line.split()[0] for line in key_help()[1:] if "[toggle" in line}
    assert marked == {"F1", "H", "P,", "F11"}
    now = key_help({"F1": True, "H": False, "P": True})
    assert any(l.lstrip().startswith("H ") and "[toggle, off now]" in l for l in now)
    assert any(l.lstrip().startswith("P, Pause") and "[toggle, on now]" in l for l in now)
    assert not any("[toggle" in l for l in now if l.lstrip().startswith(("F2", "F3", "F10")))


def test_f1_help_p_pause_and_h_hint_are_the_windows_but_letters_at_an_input_are_the_spectrums(tape):
    s = PlaySession(PlaySettings(tape=tape, seed=99, scale=1))
    window = window_module.Window(s)

    def press(key):
        window.handle(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))
        window.handle(pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode="", scancode=0))
    try:
        press(pygame.K_p)                                  # at the INPUT: the letter P is typed
        s.step(4)
        assert not s.paused
        press(pygame.K_PAUSE)                              # Pause pauses anywhere
        assert s.paused
        frames = s.frames
        start = time.perf_counter()
        window.run(until=lambda _: s.frames > frames or time.perf_counter() > start + 0.3)
        assert s.frames == frames                          # nothing runs while paused
        press(pygame.K_PAUSE)
        assert not s.paused
        press(pygame.K_F1)
        assert s.help_on
        picture = pygame.surfarray.pixels3d(s.surface()).copy()
        press(pygame.K_ESCAPE)
        assert not s.help_on
        plain = pygame.surfarray.pixels3d(s.surface()).copy()
        assert (picture.mean(axis=2) < plain.mean(axis=2)).mean() > 0.5      # a dark veil over the window
    finally:
        window.close()


# ---------------------------------------------------------------- turbo
def test_turbo_keeps_real_time_for_timed_pauses_and_messages_and_runs_ahead_otherwise(tape, capsys):
    s = PlaySession(PlaySettings(tape=tape, seed=99, scale=1))
    keys(s, "N", "ENTER")
    keys(s, "N", "ENTER")
    s.tap("M", gap=1)
    window = window_module.Window(s, turbo=True)
    messages: list[int] = []
    s.machine.add_statement_hook(lambda line, stmt: messages.append(s.frames) if (line, stmt) == P.AT_MESSAGE
                                 else False)
    start_frames, t0, c0 = s.frames, time.perf_counter(), time.process_time()
    try:
        window.run(until=lambda s: (w := s.waiting()) is not None and w.line in SELECTOR)
    finally:
        window.close()
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    frames = s.frames - start_frames
    why = window.paced_why
    # the cut for deal's PAUSE 50 at 4915 (the computer cuts) and at 7470, at 50 frames a second; the one at
    # 7435 ends at once (the ROM's PAUSE takes the cut's key as a key pressed)
    assert 98 <= why.get("pause", 0) <= 104, why
    assert why.get("message", 0) > 0 and window.paced_frames["turbo"] > 0
    assert window.paced_frames["turbo"] + window.paced_frames["real"] == frames
    with capsys.disabled():
        real = window.paced_frames["real"]
        print(f"\nturbo, the cut to the discard: {frames} frames ({frames / 50:.1f} s at real speed) in "
              f"{wall:.1f} s wall, {cpu:.1f} s CPU; {real} frames kept at real time ({real / 50:.1f} s: "
              f"{', '.join(f'{k} {v}' for k, v in sorted(why.items()))}), {window.paced_frames['turbo']} run ahead")
        gaps = [b - a for a, b in zip(messages, messages[1:])]
        print(f"turbo, messages in that stretch: {len(messages)}, each up for at least "
              f"{min(gaps) / 50 if gaps else 0:.2f} s of game time (real time for the first "
              f"{MESSAGE_READ_FRAMES / 50} s of each)")


def test_the_board_demo_plays_at_real_time_in_turbo(tape):
    s = PlaySession(PlaySettings(tape=tape, seed=99, scale=1))
    keys(s, "Y", "ENTER")                                 # the instructions: a page, then the demo question
    for _ in range(6):
        w = s.waiting()
        if w.line == P.DEMO_PAUSE:
            break
        keys(s, "ENTER")
    assert s.waiting().line == P.DEMO_PAUSE
    assert s.needs_real_time() is None                   # the near miss: at the question, a wait, no demo yet
    s.tap("SPACE")
    s.step(20)
    assert s.needs_real_time() == "demo"
    window = window_module.Window(s, turbo=True)
    try:
        assert not window._may_hurry()
    finally:
        window.close()


def test_a_resized_window_shows_the_whole_picture_in_its_shape_and_f11_goes_full_screen(tape):
    s = PlaySession(PlaySettings(tape=tape, seed=99, scale=1))
    window = window_module.Window(s)
    try:
        w, h = s.size
        window.screen = pygame.display.set_mode((w, h * 2), pygame.RESIZABLE)     # taller: bands above and below
        window.present()
        shown = pygame.surfarray.pixels3d(window.screen).transpose(1, 0, 2).copy()
        band = (h * 2 - h) // 2
        assert (shown[:band - 1] == 0).all() and (shown[-band + 1:] == 0).all()
        picture = pygame.surfarray.pixels3d(s.surface()).transpose(1, 0, 2)
        assert np.array_equal(shown[band:band + h], picture)                      # the same picture, unscaled
        window.screen = pygame.display.set_mode((w // 2, h // 2), pygame.RESIZABLE)   # smaller: scaled down whole
        window.present()
        small = pygame.surfarray.pixels3d(window.screen).transpose(1, 0, 2)
        assert small.shape[:2] == (h // 2, w // 2) and (small.reshape(-1, 3).max(axis=0) > 0).all()
        window.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F11, mod=0, unicode="", scancode=0))
        assert window.screen.get_flags() & pygame.FULLSCREEN or "no full screen" in s.notice
        window.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F11, mod=0, unicode="", scancode=0))
        assert not window.screen.get_flags() & pygame.FULLSCREEN
        assert window.screen.get_size() == s.size
    finally:
        window.close()


def test_the_window_draws_a_frame_only_when_its_picture_changed(tape, monkeypatch):
    """At a wait the picture stands still: frames draw nothing (no render, no blit), but any change of what
    surface() draws from (the screen, the panel on H, a notice) is drawn at once, and so is a window exposed."""
    s = PlaySession(PlaySettings(tape=tape, seed=99, scale=1))
    keys(s, "N", "ENTER")
    keys(s, "N", "ENTER")
    s.tap("M")
    s.run_until_wait()                                 # dealt: the card selector, its pointer still
    window = window_module.Window(s)
    clock = [1000.0]
    monkeypatch.setattr(window_module.time, "monotonic", lambda: clock[0])

    def shown():
        return pygame.surfarray.pixels3d(window.screen).copy()

    def surface():
        return pygame.surfarray.pixels3d(s.surface()).copy()
    try:
        window.present()
        assert window.redraws == 1 and np.array_equal(shown(), surface())
        flips = 0
        for _ in range(40):
            phase = s.machine.frames // 16 % 2
            s.step()
            flips += s.machine.frames // 16 % 2 != phase      # FLASH (the pointer's card) swaps every 16 frames
            window.present()
            assert np.array_equal(shown(), surface())         # every frame, the window shows the picture now
        assert 2 <= flips <= 3 and window.redraws == 1 + flips   # drawn for the FLASH alone, not 40 times
        window.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_h, mod=0, unicode="h", scancode=0))
        drawn = window.redraws
        window.present()                               # the hint in the panel
        assert window.redraws == drawn + 1 and np.array_equal(shown(), surface())
        s.machine.mem[0x4000] ^= 0xFF                  # eight pixels of the Spectrum's screen
        window.present()
        assert window.redraws == drawn + 2 and np.array_equal(shown(), surface())
        window.screen.fill((0, 0, 0))                  # the window covered and uncovered: SDL says exposed
        window.handle(pygame.event.Event(pygame.WINDOWEXPOSED))
        window.present()
        assert window.redraws == drawn + 3 and np.array_equal(shown(), surface())
        window.present()
        assert window.redraws == drawn + 3             # the near miss: nothing changed since
        clock[0] += window_module.REDRAW_SECONDS
        window.present()
        assert window.redraws == drawn + 4             # drawn again now and then all the same
        # what goes to the display: only the parts whose picture changed
        size = window.screen.get_size()
        key = s.picture_key()
        noticed = key[:7] + ("saved slot 1",) + key[8:]
        poked = (bytes(1) + key[0][1:],) + key[1:]
        assert window._changed_parts((key, size), (noticed, size)) == [pygame.Rect(0, 256, size[0], size[1] - 256)]
        assert window._changed_parts((key, size), (poked, size)) == [pygame.Rect(0, 0, 320, 256)]
        assert window._changed_parts(None, (key, size)) is None                   # nothing shown yet: all
        helped = key[:8] + (True,) + key[9:]
        assert window._changed_parts((key, size), (helped, size)) is None         # F1's help covers all
    finally:
        window.close()


def test_the_window_asks_sdl_for_its_plain_framebuffer_unless_told_otherwise(monkeypatch):
    """The picture is composed on the CPU; SDL's OpenGL framebuffer (Mesa's software renderer without a GPU)
    cost ~7 ms a frame under Xvfb against ~0.2 ms for its plain one. A person's own setting is kept."""
    monkeypatch.delenv("SDL_FRAMEBUFFER_ACCELERATION", raising=False)
    window_module.import_pygame()
    assert os.environ["SDL_FRAMEBUFFER_ACCELERATION"] == "0"
    monkeypatch.setenv("SDL_FRAMEBUFFER_ACCELERATION", "1")
    window_module.import_pygame()
    assert os.environ["SDL_FRAMEBUFFER_ACCELERATION"] == "1"
