"""Both editions play the same games: the driver and the comparison on the Russian and the English tapes, and a planted change of code seen (the edition's build and text: tests/commands/test_english.py)."""
from __future__ import annotations

import functools
import re
import sys

import checkout
import pytest
from helpers import differences_outside_literals, driven_game, rank_letters_only

from harness.program.model import english
from harness.program.model.program import UDG_TEXT
from harness.spectrum.charset import koi7_char, rom_char
from harness.spectrum.screen import read_screen
from harness.spectrum.tape import read_tap

ROOT = checkout.ROOT
sys.path.insert(0, str(ROOT))
from tools.playing_screens import play_game  # noqa: E402

SEEDS = (3, 11)


# ---------------------------------------------------------------- whole games on both editions
@functools.lru_cache(maxsize=None)
def play_and_watch(tape: bytes, seed: int) -> tuple[list, list, str]:
    """Play one game; return what the program computed at each wait, the show breakdowns, and how it stopped."""
    from harness.spectrum.variables import BasicVariables, ForLoop, VariableError
    trace, shows, seen = [], [], set()

    def on_wait(m, w):
        v = BasicVariables(m)

        def get(name):
            try:
                value = v.get(name)
            except VariableError:              # not set yet
                return None
            return value.value if isinstance(value, ForLoop) else value
        state = {name: get(name) for name in ("S()", "G()", "A()", "C()", "E()", "B()", "SUM", "DIR", "WIN", "MUG")}
        state["suits"] = [get(n) for n in ("A$()", "C$()", "E$()")]
        # where a polling loop is caught (3725, 3730 or 3750, which statement) depends on timing: PRINT
        # draws a UDG ("\\l") and a font letter ("J") in different times; the decision point is the same
        entry = (w.kind, "selector" if w.line in (3725, 3730, 3750) else w.line, state)
        if not trace or trace[-1] != entry:
            trace.append(entry)
        if (w.kind, w.line) == ("pause", 4661) or (w.kind, w.line) == ("inkey", 8105):
            shows.append(read_screen(m.mem, font_text=koi7_char).rows)
        # every character on the screen, the font's codes 0x60-0x7E read as what each edition's font draws there
        english_font = bytes(m.mem[64600:64600 + 768]) == bytes(m.mem[0x3D00:0x3D00 + 768])   # "chr" CODE 64600
        screen = read_screen(m.mem, udg_text=UDG_TEXT, font_text=rom_char if english_font else koi7_char)
        seen.update("".join(screen.rows))
    stop, _ = play_game(tape, seed, on_wait)
    return trace, shows, str(stop.report), frozenset(seen)


# The breakdown labels of 4830-4880, looked up in the table by their Russian text.
LABELS = ("15-ТЬ -", "ПАРЫ -", "ФЛЕШЬ -", "СЕКАНС-", "ВСЕГО = ")


def breakdowns(rows: list[str], words: list[str]) -> list[tuple]:
    text = "\n".join(rows)
    return [tuple(int(n) for n in re.findall(re.escape(word) + r"(\d+)", text)) for word in words]


# ---------------------------------------------------------------- the project's driver and comparison on both editions


def without_screen_text(events) -> list[dict]:
    """The events with what was read off the screen (rows, message texts) left out: the rest is the game."""
    import dataclasses
    out = []
    for ev in events:
        d = {"type": type(ev).__name__, **dataclasses.asdict(ev)}
        for key in ("rows", "text"):
            d.pop(key, None)
        if "message" in d.get("variables", {}):          # a picture's M$ and the text in its slots, as read
            d["variables"] = {k: v for k, v in d["variables"].items() if k != "message"}
            d["slots"] = {k: v for k, v in d["slots"].items() if not v.startswith("other ")}   # text, not cards
            d.pop("line")                                # where in the selector's polling loop it stood
        out.append(d)
    return out


@pytest.mark.parametrize("seed", SEEDS)
def test_both_editions_play_the_same_game(editions, seed):
    ru_trace, ru_shows, ru_end, ru_seen = play_and_watch(editions["ru"].tap, seed)
    en_trace, en_shows, en_end, en_seen = play_and_watch(editions["en"].tap, seed)
    assert ru_end == en_end and ru_end.startswith("9 STOP")
    assert len(ru_trace) == len(en_trace) > 60
    assert ru_trace == en_trace                   # every wait, every card, every score, the winner
    final = ru_trace[-1][2]
    assert max(final["S()"]) > 120                # somebody won
    # only the words on the screen differ: the same numbers after the same labels, in the two languages
    assert len(ru_shows) == len(en_shows) > 3
    english_labels = [english.english(word) for word in LABELS]
    for ru_rows, en_rows in zip(ru_shows, en_shows):
        assert breakdowns(ru_rows, list(LABELS)) == breakdowns(en_rows, english_labels)
        assert not any(word in "".join(en_rows) for word in LABELS)
    assert any(breakdowns(rows, list(LABELS))[-1] for rows in ru_shows)   # a total was read at all
    # no Cyrillic anywhere on the English screens (the court-card UDGs В Д К of DATA 9812-9822 are no longer shown)
    cyrillic = {c for c in en_seen if "А" <= c <= "Я" or c == "Ё"}
    assert cyrillic == set(), sorted(cyrillic)
    assert {"В", "Д", "К"} <= ru_seen and {"J", "Q", "K"} <= en_seen      # (OVER 1 overlays read as unknown in both)


def test_the_game_comparison_sees_a_planted_change_of_code(editions):
    """A changed number outside the texts (the shuffle's 53-X at 7620 made 52-X) deals other cards: caught."""
    blocks = read_tap(editions["en"].tap)
    program = bytearray(blocks[1].data)
    at = program.index(b"53\x0e\x00\x00\x35\x00\x00")
    program[at + 5] = 0x34
    assert any(d.startswith("line 7620 ") for d in differences_outside_literals(editions["ru"].program, bytes(program)))
    from harness.spectrum.tape import FLAG_DATA, TapeBlock, write_tap
    tape = write_tap([blocks[0], TapeBlock(FLAG_DATA, bytes(program)), *blocks[2:]])
    ru_trace, *_ = play_and_watch(editions["ru"].tap, SEEDS[0])
    planted, *_ = play_and_watch(tape, SEEDS[0])
    assert planted != ru_trace


@pytest.mark.parametrize("seed, strategy", [(1, "greedy"), (2, "random")])
def test_the_driver_plays_the_same_game_on_both_editions(editions, seed, strategy):
    from harness.program.judge.compare import compare
    from harness.program.judge.judgements import difference_to_json
    from harness.program.model.program import english_words
    ru = driven_game(editions["ru"].tap, seed, strategy)
    en = driven_game(editions["en"].tap, seed, strategy)
    assert ru.failure is None and en.failure is None
    assert ru.winner is not None and (ru.winner, ru.scores) == (en.winner, en.scores)
    assert without_screen_text(ru.events) == without_screen_text(en.events)
    ru_result, en_result = compare(ru.events), compare(en.events, words=english_words())
    assert ru_result.checks == en_result.checks > 0
    # (but D12, the go's letters left beside the count, which depends on how wide the go's word is)
    assert (sorted(d.deviation for d in ru_result.documented if d.deviation != "D12")
            == sorted(d.deviation for d in en_result.documented if d.deviation != "D12"))
    # read with the English words, the English screens agree with the variables as the Russian ones do
    # (up to the rank letters of the hand check, which the program model spells in Russian: RANK_TEXT)
    en_left = [difference_to_json(d) for d in en_result.unexplained if not rank_letters_only(difference_to_json(d))]
    assert en_left == [difference_to_json(d) for d in ru_result.unexplained]
