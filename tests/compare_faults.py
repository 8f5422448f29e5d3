"""The comparison's hand and tally checks by place (issue 36, item 3), as tests/screen_faults.py does for the
screen: each place of harness/program/judge/compare.py where a peg or a show part is compared with the engine,
a fault planted in one event of tests/data/example-deal.jsonl, the Cause it must be caught as, and a near miss
(the same points pegged in two pegs, the same hand shown in another order) that must yield no difference; and
three sequence and outcome checks (show order, a refused card, the games tally) planted the same way; and the
comparison's own reading of the screen's hand (each slot) and games tally (each player's line).
tests/test_compare_places.py holds every row to both; tools/compare_places.py writes docs/COMPARE_PLACES.md.
No emulator: the events are as the observer recorded them.
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Callable

from harness.cribbage.cards import parse_card
from harness.program.judge.compare import compare
from harness.program.judge.judgements import Cause, Kind
from harness.program.model import program as P
from harness.program.records.events import (Refused, Score, ScoreContext, Screen, Show, ShowHand, Starter, Tally,
                                            Who, event_from_json)

DATA = Path(__file__).resolve().parent / "data"
BASE = [event_from_json(json.loads(line)) for line in (DATA / "example-deal.jsonl").read_text(encoding="utf-8")
        .splitlines() if line.strip() and json.loads(line).get("kind") != "header"]
Events = list
Change = Callable[[Events], Events]


@dataclass(frozen=True)
class Row:
    group: str         # pegs, go, show parts, sequence, outcome, screen
    kind: str          # the Kind the difference is filed under
    place: str         # the compare.py method that finds it
    who: str
    fault: str
    plant: Change
    cause: Cause
    near_miss: str
    near: Change

    @property
    def expect(self) -> tuple:
        """The one difference the fault must bring: its kind, whose (the dealer's, for the crib), its cause."""
        who = "computer" if self.who == "crib" else self.who        # the example deal's dealer owns the crib
        return ((self.kind, who, self.cause.value),)


def _at(pred) -> int:
    return next(i for i, e in enumerate(BASE) if pred(e))


def _peg(who: Who, context: ScoreContext) -> int:
    return _at(lambda e: isinstance(e, Score) and e.who == who and e.context == context)


def _with(i: int, **change) -> Change:
    return lambda evs: evs[:i] + [replace(evs[i], **change)] + evs[i + 1:]


def _split(i: int) -> Change:
    """The peg at *i* as two pegs of the same total, one after the other (the board moves the same)."""
    def change(evs):
        s = evs[i]
        a = s.points // 2
        return evs[:i] + [replace(s, points=a), replace(s, points=s.points - a, before=s.before + a)] + evs[i + 1:]
    return change


def _before_the_go(i: int) -> Change:
    """The go peg at *i* made before the go that ends the series is said (the event before it)."""
    return lambda evs: evs[:i - 1] + [evs[i], evs[i - 1]] + evs[i + 1:]


def _insert(i: int, event) -> Change:
    return lambda evs: evs[:i] + [event] + evs[i:]


def _shuffled(i: int) -> Change:
    """The show at *i* with its cards in another order (ranks and suits turned round together)."""
    def change(evs):
        s = evs[i]
        return evs[:i] + [replace(s, ranks=s.ranks[::-1], suits=s.suits[::-1])] + evs[i + 1:]
    return change


def rows() -> list[Row]:
    out = []
    place = {ScoreContext.PLAY: "_close_window", ScoreContext.SHOW: "_close_window", ScoreContext.GO: "_close_go"}
    for ctx in (ScoreContext.PLAY, ScoreContext.SHOW, ScoreContext.GO):
        for who in Who:
            try:
                i = _peg(who, ctx)
            except StopIteration:
                continue
            s = BASE[i]
            kind = Kind.GO if ctx == ScoreContext.GO else Kind(ctx.value)
            cause = Cause.GO_PEGGED if ctx == ScoreContext.GO else Cause.PEGGED
            group = "go" if ctx == ScoreContext.GO else "pegs"
            near, near_text = (_split(i), f"{s.points} pegged as two pegs") if s.points >= 2 else \
                (_before_the_go(i), "pegged before the last go is said")
            for delta, word in ((1, "one more"), (-1, "one fewer")):
                out.append(Row(group, kind.value, place[ctx], who.value,
                               f"event {i}: {s.points} pegged as {s.points + delta} ({word})",
                               _with(i, points=s.points + delta), cause, near_text, near))
    out += heels_rows()
    crib = _at(lambda e: isinstance(e, Show) and e.hand == ShowHand.CRIB)
    total = next(e for e in reversed(BASE[:crib]) if isinstance(e, Score) and e.who == Who.COMPUTER)
    out.append(Row("pegs", Kind.SHOW.value, "_close_window", "crib",
                   f"event {crib + 1}: the crib's 0 pegged as 1 (one more)",
                   _insert(crib + 1, Score(Who.COMPUTER, 1, ScoreContext.SHOW, total.before + total.points)),
                   Cause.PEGGED, "the same cards in another order", _shuffled(crib)))
    for hand in (ShowHand.PLAYER, ShowHand.COMPUTER, ShowHand.CRIB):
        i = _at(lambda e: isinstance(e, Show) and e.hand == hand)
        s = BASE[i]
        for part in P.SHOW_PARTS:
            out.append(Row("show parts", Kind.show_part(part).value, "_finish_show", hand.value,
                           f"event {i}: {part} {getattr(s, part)} shown as {getattr(s, part) + 1}"
                           + (" (crib flush rule)" if hand == ShowHand.CRIB and part == "flush" else ""),
                           _with(i, **{part: getattr(s, part) + 1}), Cause.SHOW_PART,
                           "the same cards in another order", _shuffled(i)))
    out += sequence_rows()
    out += screen_rows()
    return out


HAND = ("AH", "7C", "TD", "KS")          # the player's four cards after the discard (5400: one slot each)


def _hand_screen(cards: tuple[str, ...], shown: tuple[str, ...], gap: str = " ") -> Screen:
    """The hand check of *cards* over rows 16/17 showing *shown*: rank above suit at column 4*i, *gap* between."""
    texts = [P.card_text(parse_card(c), P.RUSSIAN.ranks) for c in shown]
    top = "".join(s[0] + gap * (P.HAND_COL_STEP - 1) for s in texts)
    bottom = "".join(s[1] + gap * (P.HAND_COL_STEP - 1) for s in texts)
    return Screen(P.ScreenCheck.HAND, tuple(zip(P.HAND_ROWS, (top, bottom))), {"cards": list(cards)})


def _tally_screen(player: int, computer: int, you: str, me: str) -> Screen:
    rows = dict.fromkeys(range(P.TALLY_ROWS[0], P.TALLY_ROWS[1] + 1), "")
    rows[P.TALLY_ROWS[0]], rows[P.TALLY_ROWS[1]] = you, me
    return Screen(P.ScreenCheck.TALLY, tuple(rows.items()), {"player": player, "computer": computer})


def screen_rows() -> list[Row]:
    """The comparison's own reading of the hand and the games tally on the screen (_screen_hand: each of the
    four slots; _screen_games_tally: each player's line), a Screen appended to the example deal."""
    out = []
    for i in range(P.HAND_SLOTS):
        wrong = HAND[:i] + ("2H",) + HAND[i + 1:]
        out.append(Row("screen", Kind.SCREEN.value, "_screen_hand", "player",
                       f"slot {i + 1}: {HAND[i]} in hand shown as 2H", _append(_hand_screen(HAND, wrong)),
                       Cause.SCREEN_HAND, "the same cards with dots between the slots",
                       _append(_hand_screen(HAND, HAND, gap="."))))
    you, me = P.RUSSIAN.you, P.RUSSIAN.me
    for who, player, computer in ((Who.PLAYER, 3, 1), (Who.COMPUTER, 2, 2)):
        for delta, word in ((-1, "one fewer"), (1, "one more")):
            mine, its = player + delta * (who == Who.PLAYER), computer + delta * (who == Who.COMPUTER)
            out.append(Row("screen", Kind.SCREEN.value, "_screen_games_tally", who.value,
                           f"games {player}-{computer} in the tally, the {who.value}'s shown {word}",
                           _append(_tally_screen(player, computer, f"{you}:{mine}", f"{me}:{its}")),
                           Cause.SCREEN_TALLY, "the same games with spaces about the colon",
                           _append(_tally_screen(player, computer, f"{you} : {player}", f"{me}  :  {computer}"))))
    return out


def _append(event) -> Change:
    return lambda evs: evs + [event]


def heels_rows() -> list[Row]:
    """His heels: the example deal up to its starter, turned a jack (JC, in no hand), and the dealer's 2 for it;
    hand-written, the example deal's own starter being the six of spades."""
    start = _at(lambda e: isinstance(e, Starter))
    heels = BASE[:start] + [Starter("JC"), Score(Who.COMPUTER, 2, ScoreContext.HEELS, 0)]
    out = [Row("pegs", Kind.HEELS.value, "_close_window", "computer", f"JC turned: 2 for heels pegged as {2 + d} ({w})",
               (lambda d: lambda evs: heels[:-1] + [replace(heels[-1], points=2 + d)])(d), Cause.PEGGED,
               "2 pegged as two pegs", lambda evs: _split(len(heels) - 1)(heels))
           for d, w in ((1, "one more"), (-1, "one fewer"))]
    return out


def sequence_rows() -> list[Row]:
    """Groups 4-5, those with one event to change: the show order, a refused card, the games tally."""
    show = _at(lambda e: isinstance(e, Show) and e.hand == ShowHand.PLAYER)
    lead = _at(lambda e: e.kind.value == "play") - 1                 # the player's first lead, count 0
    after = _peg(Who.PLAYER, ScoreContext.PLAY) + 1                  # the count stands at 22
    return [
        Row("sequence", Kind.FLOW.value, "_finish_show", "player", f"event {show}: the pone's hand shown as the dealer's",
            _with(show, hand=ShowHand.COMPUTER),
            Cause.SHOW_ORDER, "the same cards in another order", _shuffled(show)),
        Row("sequence", Kind.LEGALITY.value, "_on_refused", "player", f"event {lead}: 8H refused at count 0",
            _insert(lead, Refused(Who.PLAYER, "8H", 0)), Cause.CARD_REFUSED,
            f"event {after}: JD refused at count 22 (32 > 31)", _insert(after, Refused(Who.PLAYER, "JD", 22))),
        Row("outcome", Kind.OUTCOME.value, "_on_tally", "", "appended: games 1-0 with no game won",
            _append(Tally(1, 0)), Cause.GAMES_TALLY, "appended: games 0-0", _append(Tally(0, 0))),
    ]


def _key(d) -> tuple:
    return (d.kind.value, d.who.value if d.who else "", d.cause.value)


@cache
def _recorded() -> Counter:
    """The example deal's own differences (D1's resets), compared once for every row."""
    return Counter(map(_key, compare(BASE).differences))


def new_differences(events: Events) -> tuple:
    """What the comparison finds in *events* that it does not find in the example deal as recorded."""
    return tuple(sorted((Counter(map(_key, compare(events).differences)) - _recorded()).elements()))


def caught(row: Row) -> tuple:
    return new_differences(row.plant(list(BASE)))


def near_caught(row: Row) -> tuple:
    return new_differences(row.near(list(BASE)))


def table(rs: list[Row] | None = None) -> str:
    rs = rows() if rs is None else rs
    lines = ["# The comparison's hand and tally checks by place", "",
             "Written by tools/compare_places.py (`python -m tools.compare_places`) from tests/compare_faults.py; tests/test_compare_places.py",
             "holds every row to a caught fault and a near miss that passes. Each place of",
             "harness/program/judge/compare.py where a peg or a show part is compared with the engine, or the hand",
             "and the games tally are read from the screen, the fault planted in one event of",
             "tests/data/example-deal.jsonl (or a Screen appended to it), what the comparison found that it does not",
             "find in the deal as recorded (kind, who, cause), and the near miss (found nothing: the last column is",
             "empty).",
             "", "| group | kind | place | who | fault planted | must be | caught as | near miss | near miss caught |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rs:
        got = caught(r)
        shown = "; ".join(" / ".join(k) for k in got) or "**nothing**"
        near = "; ".join(" / ".join(k) for k in near_caught(r))
        lines.append(f"| {r.group} | {r.kind} | {r.place} | {r.who} | {r.fault} | {r.cause.value} | {shown} | "
                     f"{r.near_miss} | {near} |")
    return "\n".join(lines) + "\n"
