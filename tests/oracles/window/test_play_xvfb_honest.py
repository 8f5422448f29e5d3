"""Issue 22's whole check in a real X server: `play --referee --no-reading-time --record` played through two deals
with xdotool, with muggins on (no reading time: the machine's frames are turbo's, only the host's waits at PAUSEs
and messages go; tests/commands/test_play_reading_time.py; the real pacing: test_play_xvfb.py). The window is photographed at the discard (and with the hint on H), at the claim and
at the end of each deal; the same game replayed in-process from the record gives the panel's lines and must
draw the very pixels photographed, so the lines checked are the ones the window showed: the computer's cards
and the crib veiled until the program shows them, the claim's total veiled until typed, the hint's best
discard the engine's. A second start without --seed deals other cards; `play --replay` of the record shows
the recorded game's screens (run ahead with --replay-to: to deal 1 for its first discard, to the end for its
last screen). Photos are written to PLAY_SHOTS (a folder) when it is set.
"""
from __future__ import annotations

import os
import re
import time
from pathlib import Path

import numpy as np
import pytest

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
pygame = pytest.importorskip("pygame", reason="pygame-ce is not installed (the play extra)")

from harness.cribbage.discard import best_discard
from harness.program.model import program as P
from harness.program.records.events import Deal, Show, ShowHand
from harness.play.cards import card_name, cards_text
from harness.play.session import BORDER_H, BORDER_W, PlaySession
from harness.play.settings import PlaySettings
from waiting import Budget
from xvfb_play import DEADLINE, SCALE, PlayInXvfb, memory, outside_marker, rows, shows_render

pytestmark = pytest.mark.slow   # an oracle: the window under Xvfb (pytest -m 'not slow' leaves it out)

SELECTOR = P.SELECTOR_WAITS[1:]        # 3725 waits out a held key; 3730/3750 take SPACE and ENTER
WAITS = (P.ASK_INSTRUCTIONS, P.ASK_MUGGINS, P.ASK_CLAIM, P.CUT_WAIT, P.NEXT_DEAL_WAIT, P.SHOW_PAUSE,
         P.FINAL_BOARD_PAUSE, P.ASK_AGAIN, *SELECTOR)
FRAMES_SYSVAR = 23672                  # FRAMES: three bytes, one count an interrupt


def line_of(mem) -> int:
    return mem[23621] | mem[23622] << 8


def caller_of(mem) -> int | None:
    """The GO SUB stack's innermost return line, read as the ROM keeps it (machine.gosub_stack)."""
    a, end = (mem[23613] | mem[23614] << 8) + 2, (mem[23730] | mem[23731] << 8) - 1
    return mem[a] | mem[a + 1] << 8 if a + 3 <= end else None


def frames_of(mem) -> int:
    return mem[FRAMES_SYSVAR] | mem[FRAMES_SYSVAR + 1] << 8 | mem[FRAMES_SYSVAR + 2] << 16


def still(x: PlayInXvfb):
    """A photo of the window while the program waits, the screen the same in the saves before and after it."""
    budget = Budget(DEADLINE, "a still wait")
    while not budget.expired():
        before = memory(x.saved())
        if line_of(before) not in WAITS:
            time.sleep(0.2)
            continue
        shot = x.grab()
        snap = x.saved()
        after = memory(snap)
        if before[0x4000:0x5B00] == after[0x4000:0x5B00] and line_of(after) == line_of(before):
            return shot, after, snap.border
    raise AssertionError(f"{budget.message()}: {x.output()}")


def answer(x: PlayInXvfb, mem, n: int) -> None:
    """The same careless player as the in-process tests: N, claims of 10 and 4 in turn, the pointer moved."""
    line = line_of(mem)
    if line in (P.ASK_INSTRUCTIONS, P.ASK_AGAIN):
        x.key("n"), x.key("Return")
    elif line == P.ASK_MUGGINS:
        x.key("y"), x.key("Return")
    elif line == P.ASK_CLAIM:
        for k in (("1", "0") if n % 2 else ("4",)):
            x.key(k)
        x.key("Return")
    elif line in SELECTOR:
        if caller_of(mem) != P.SELECT_GO_CONFIRM:
            for _ in range(n % 4):
                x.key("space")
        x.key("Return")
    else:
        x.key("Return")


def keep(shot: np.ndarray, name: str) -> None:
    folder = os.environ.get("PLAY_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        pygame.image.save(pygame.surfarray.make_surface(shot.transpose(1, 0, 2)), str(Path(folder) / name))


def seed_of(x: PlayInXvfb) -> int:
    out = (x.dir / f"{x.name}.out").read_text(errors="replace")
    found = re.search(r"seed (\d+) \(replay this game with --seed \1\)", out)
    assert found, out[:2000]
    return int(found.group(1))


def play_two_deals(x: PlayInXvfb) -> dict:
    """Two deals, photographing the first discard (hint off and on), every claim and each deal's end."""
    photos: dict = {"claims": [], "ends": []}
    n = 0
    for _ in range(160):
        shot, mem, border = still(x)
        line, caller = line_of(mem), caller_of(mem)
        if line in SELECTOR and caller == P.SELECT_FIRST_DISCARD and "discard" not in photos:
            photos["discard"] = (shot, mem, border)
            x.key("h")
            photos["hint"] = still(x)
            x.key("h")
            shot, mem, border = still(x)
        elif line == P.ASK_CLAIM and len(photos["claims"]) < 2:
            photos["claims"].append((shot, mem, border))
        elif line == P.NEXT_DEAL_WAIT:
            photos["ends"].append((shot, mem, border))
            if len(photos["ends"]) == 2:
                return photos
        n += 1
        answer(x, mem, n)
    raise AssertionError(f"two deals not played in 160 waits: {x.output()}")


def replayed_to(s: PlaySession, mem) -> PlaySession:
    """The in-process replay stepped to the frame of a photo's save (FRAMES, as the machine counts it)."""
    target = frames_of(mem)
    while frames_of(s.machine.mem) < target:
        s.step()
    assert frames_of(s.machine.mem) == target
    assert s.machine.read(0x4000, 0x1B00) == bytes(mem[0x4000:0x5B00])
    return s


def panel_of(pixels: np.ndarray) -> np.ndarray:
    return pixels[:BORDER_H * SCALE, BORDER_W * SCALE:]


def drawn(s: PlaySession) -> np.ndarray:
    return pygame.surfarray.pixels3d(s.surface()).transpose(1, 0, 2).copy()


def texts(s: PlaySession) -> list[str]:
    return [line.text for line in s.panel_lines()]


def test_two_honest_deals_in_xvfb_a_hint_a_new_seed_and_a_replay_screen_for_screen(tape, tmp_path, monkeypatch):
    record = tmp_path / "game.keys.json"
    args = ["--tape", str(tape), "--referee", "--no-reading-time", "--scale", str(SCALE), "--no-sound"]
    with PlayInXvfb(tmp_path, [*args, "--record", str(record)], name="first") as x:
        photos = play_two_deals(x)
        seed = seed_of(x)
        x.key("F10")
        x.play.wait(timeout=60)
    assert record.exists(), x.output()
    for name, (shot, _, _) in (("discard", photos["discard"]), ("hint", photos["hint"]),
                            ("claim", photos["claims"][0]), ("end", photos["ends"][0])):
        keep(shot, f"play-{name}.png")

    # the same game in-process from the record: the lines, and the very pixels the window showed
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    s = PlaySession(PlaySettings(tape=tape, referee="honest", scale=SCALE, replay=record))
    assert s.seed == seed
    try:
        shot, mem, border = photos["discard"]
        replayed_to(s, mem)
        assert np.array_equal(panel_of(shot), panel_of(drawn(s)))
        deal = next(e for e in s.referee.events if isinstance(e, Deal))
        assert "  computer: six cards, face down" in texts(s)
        assert f"  computer: {cards_text(deal.computer)}" not in texts(s)
        assert f"  you:      {cards_text(deal.player)}" in texts(s)
        assert shows_render(outside_marker(shot[:BORDER_H * SCALE, :BORDER_W * SCALE]), mem, border)
        # H: the hint, the engine's best discard marked
        shot, mem, _ = photos["hint"]
        s.hint_on = True
        replayed_to(s, mem)
        assert np.array_equal(panel_of(shot), panel_of(drawn(s)))
        i, j = best_discard(deal.player, my_crib=deal.dealer == "player")
        assert f"  * best: throw {card_name(deal.player[i])} and {card_name(deal.player[j])}" in texts(s)
        s.hint_on = False
        # each claim (the count of the hand claimed veiled until typed) and each deal's end (all unveiled),
        # in the order they happened
        later = sorted([("claim", shot, mem) for shot, mem, _ in photos["claims"]]
                       + [("end", shot, mem) for shot, mem, _ in photos["ends"]], key=lambda p: frames_of(p[2]))
        for kind, shot, mem in later:
            replayed_to(s, mem)
            assert np.array_equal(panel_of(shot), panel_of(drawn(s))), kind
            if kind == "claim":
                show = next(e for e in reversed(s.referee.events) if isinstance(e, Show))
                heading = max(k for k, t in enumerate(texts(s)) if t.startswith(f"Show, {show.hand.value}"))
                block = texts(s)[heading:]
                assert "  (muggins: the count is shown once you have typed your claim)" in block
                assert not any(t.startswith(("  program: fifteens", "  engine:")) for t in block), block
            else:
                deal = next(e for e in reversed(s.referee.events) if isinstance(e, Deal))
                assert f"  computer: {cards_text(deal.computer)}" in texts(s)
                assert not [line for line in s.panel_lines() if line.tone == "hidden"]
                assert any(e.hand == ShowHand.CRIB for e in s.referee.events if isinstance(e, Show))
    finally:
        pygame.quit()
    monkeypatch.delenv("SDL_VIDEODRIVER")

    # a second start without --seed: another seed, other cards
    with PlayInXvfb(tmp_path, args, name="second") as y:
        for _ in range(20):
            shot, mem, _ = still(y)
            if line_of(mem) in SELECTOR:
                break
            answer(y, mem, 0)
        assert seed_of(y) != seed
        assert rows(mem)[16:18] != rows(photos["discard"][1])[16:18]

    # --replay: the recorded game's screens at its first discard and where it ended (the waits a photo can
    # catch as they pass; the in-process replay above matched every photo's screen at its very frame), each
    # reached ahead of real time by --replay-to (to deal 1 dealt; to the record's last key)
    for ahead, (_, want, _) in (("1", photos["discard"]), ("end", photos["ends"][-1])):
        with PlayInXvfb(tmp_path, [*args, "--replay", str(record), "--replay-to", ahead], name=f"replay-{ahead}") as z:
            budget = Budget(4 * DEADLINE, f"the replay reaching line {line_of(want)}")
            while True:
                shot, mem, border = still(z)
                assert frames_of(mem) <= frames_of(want) + 600, f"the replay passed line {line_of(want)} unseen"
                if frames_of(mem) >= frames_of(want) - 600 and same_wait(mem, want):
                    break
                assert not budget.expired(), budget.message()
            assert mem[0x4000:0x5B00] == want[0x4000:0x5B00]
            assert shows_render(outside_marker(shot[:BORDER_H * SCALE, :BORDER_W * SCALE]), mem, border)


def same_wait(a, b) -> bool:
    return line_of(a) == line_of(b) or (line_of(a) in SELECTOR and line_of(b) in SELECTOR)
