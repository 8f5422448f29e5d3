"""What the player sees, judged: every card slot, peg and line of text of a `Picture` against the game.

The comparison feeds this judge every event of a transcript in order. The
events of the game (the cut, the deal, the discards, the starter, each card
laid, each count reset, the scores) tell it what the table holds; each
`Picture` the observer took at a wait for a person is then judged against that
and against the program's own variables read at the same moment: each slot
shows the card the hand holds there, face up where a person should see it,
face down where the program means it hidden (the computer's hand until the
show, a card chosen for the crib, a series played out), empty where the card
has gone; red suits in red ink on white; the pegs in the holes the scores
give; the message line the message the program last set; nothing left on the
table from an earlier picture. A picture taken while a drawing routine runs
(half made) is not judged. Each difference is a `ScreenFinding` with a
`Cause` of `judgements.py` and its facts; the comparison records it.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Literal, Mapping

from ..model import program as P
from ..records.events import (Choice, ChoiceKind, Cut, Deal, Discard, Event, Picture, Play, Reset, Score, ScoreContext,
                     Show, ShowHand, Starter, Who, Win)
from .judgements import Cause, LineSeen, NoFacts, PegsSeen, SlotSeen, StaleSeen
from ..observe.picture import SlotView
from ..model.english import english

RED = {"H", "D"}                      # S$(1) hearts, S$(3) diamonds (5410)
PLAY_MOMENTS = {f"select {P.SELECT_PLAY}", f"select {P.SELECT_GO_CONFIRM}"}
DISCARD_MOMENTS = {f"select {P.SELECT_FIRST_DISCARD}", f"select {P.SELECT_SECOND_DISCARD}"}
CUT_WAIT = f"inkey {P.CUT_WAIT}"
SHOW_PAUSE = f"pause {P.SHOW_PAUSE}"
NEXT_DEAL = f"inkey {P.NEXT_DEAL_WAIT}"
FINAL_BOARD = f"pause {P.FINAL_BOARD_PAUSE}"
TALLY = f"input {P.ASK_AGAIN}"
CLAIM = f"input {P.ASK_CLAIM}"
WELCOME = f"input {P.ASK_INSTRUCTIONS}"
_POINTS_TAIL = re.compile(r"^ \d+ *$")             # 2940 « n » (3-4 cells) on blanks


@dataclass(frozen=True)
class Expect:
    """What a slot should show: state "up" (*card*), "rank" (face up, of *card*'s rank: the cut), "down",
    "empty", or "hidden" (down, or covered by the instructions' text: anything but a card's face)."""
    state: str
    reason: str
    card: str | None = None


@dataclass(frozen=True)
class ScreenFinding:
    cause: Cause
    who: Who | None
    expected: object                 # JSON values, as Difference has them
    observed: object
    facts: object                    # an instance of FACTS[cause]


#: where the deal stands, as the events tell it (before the first cut: "none")
Phase = Literal["none", "cut", "discard", "starter", "play", "show", "over"]


@dataclass
class _Table:
    """What the game's events say is on the table now."""
    phase: Phase = "none"
    cut: Cut | None = None
    dealer: Who | None = None
    kept: dict[Who, list[str]] = field(default_factory=dict)       # who -> the four cards kept
    dealt: dict[Who, list[str]] = field(default_factory=dict)
    starter: str | None = None
    laid: dict[Who, list[tuple[str, int]]] = field(default_factory=lambda: {Who.COMPUTER: [], Who.PLAYER: []})  # (card, series)
    series: int = 0
    totals: list[int] = field(default_factory=lambda: [0, 0])  # computer, player: the program's pegs
    winner: Who | None = None
    last_show: ShowHand | None = None
    reselects: int = 0                       # first discards taken back this deal
    taken_back: set[int] = field(default_factory=set)          # slots taken back (7885), still in the hand


class ScreenJudge:
    """Follows the game's events and judges each picture; `judge` returns (checks made, findings)."""

    def __init__(self, words: P.ScreenWords = P.RUSSIAN):
        self.t = _Table()
        self.texts = _texts(words)
        self.pictures = 0
        self.skipped = 0

    # -- following the game -----------------------------------------------------
    def see(self, ev: Event) -> None:
        t = self.t
        if isinstance(ev, Cut):
            self.t = _Table(phase="cut", cut=ev)
        elif isinstance(ev, Deal):
            t.phase, t.dealer, t.starter, t.series = "discard", ev.dealer, None, 0
            t.dealt = {Who.COMPUTER: list(ev.computer), Who.PLAYER: list(ev.player)}
            t.laid = {Who.COMPUTER: [], Who.PLAYER: []}
            t.reselects, t.taken_back = 0, set()
        elif isinstance(ev, Discard):
            kept = list(t.dealt.get(ev.who, []))
            for c in ev.cards:
                if c in kept:
                    kept.remove(c)
            t.kept[ev.who] = kept
            t.phase = "starter"
        elif isinstance(ev, Starter):
            t.starter, t.phase = ev.card, "play"
        elif isinstance(ev, Play):
            t.laid[ev.who].append((ev.card, t.series))
        elif isinstance(ev, Reset):
            t.series += 1
        elif isinstance(ev, Show):
            t.phase, t.last_show = "show", ev.hand
        elif isinstance(ev, Score) and ev.context != ScoreContext.DEMO:
            i = 0 if ev.who == Who.COMPUTER else 1
            t.totals[i] = ev.before + ev.points
            if t.winner is None and t.totals[i] >= P.GAME_LENGTH:
                t.winner = ev.who
        elif isinstance(ev, Win):
            t.phase = "over"
        elif isinstance(ev, Choice) and ev.what == ChoiceKind.RESELECT:
            t.reselects += 1

    @property
    def cutting_for_deal(self) -> bool:
        """Before a game's first deal (its cut for deal, 7430) rather than the starter's cut (8010)."""
        return self.t.phase in ("none", "cut", "over")

    # -- judging a picture --------------------------------------------------------
    def judge(self, pic: Picture) -> tuple[int, list[ScreenFinding]]:
        if pic.drawing:
            self.skipped += 1
            return 0, []
        self.pictures += 1
        found: list[ScreenFinding] = []
        checks = 0
        v = pic.variables
        if pic.moment == f"select {P.SELECT_FIRST_DISCARD}" and self.t.reselects > len(self.t.taken_back):
            chosen = _numbers(v, "chosen")
            if len(chosen) > 2 and chosen[2]:
                self.t.taken_back.add(int(chosen[2]))      # 7870 has not yet overwritten T(3)
        for name, want in self.expected_slots(pic).items():
            checks += 1
            seen = SlotView.parse(pic.slots.get(name, "empty"))
            f = _judge_slot(name, want, seen, pic.moment)
            if f is not None:
                found.append(f)
        checks += self._judge_deal(pic, found)
        if pic.board:
            checks += self._judge_pegs(pic, found)
            checks += self._judge_figures(pic, found)
        checks += self._judge_lines(pic, found)
        checks += self._judge_table(pic, found)
        return checks, found

    def expected_slots(self, pic: Picture) -> dict[str, Expect]:
        """Each slot with what it should show at this picture's moment (slots not named are not judged)."""
        t, v, m = self.t, pic.variables, pic.moment
        want: dict[str, Expect] = {}
        if m == "cut" and t.cut is not None:
            want[P.CUT_PLAYER.name] = Expect("rank", "cut", _rank_card(t.cut.player_rank))
            want[P.CUT_COMPUTER.name] = Expect("rank", "cut", _rank_card(t.cut.computer_rank))
            for s in P.CUT_DECKS:
                want[s.name] = Expect("down", "pack")
        elif m == CUT_WAIT and self.cutting_for_deal:
            want[P.CUT_DECKS[0].name] = Expect("down", "pack")
            for s in P.HAND_SLOTS_DEALT + P.COMPUTER_SLOTS_DEALT:
                want[s.name] = Expect("empty", "not dealt")
        elif m == CUT_WAIT:                                     # the starter, cut by the player (8000-8010)
            want[P.DECK.name] = Expect("down", "pack")
            for s in P.HAND_SLOTS_DEALT + P.COMPUTER_SLOTS_DEALT + P.PLAYED_SLOTS[Who.PLAYER]:
                want[s.name] = Expect("empty", "cleared")       # 7980 cleared the table; 8040 draws the hand later
        elif m in DISCARD_MOMENTS:
            self._discard_slots(v, m, want)
        elif m in PLAY_MOMENTS:
            self._play_slots(v, want)
        elif m in (SHOW_PAUSE, NEXT_DEAL, CLAIM):
            self._show_slots(v, m, want)
        return want

    def _discard_slots(self, v: Mapping[str, object], m: str, want: dict[str, Expect]) -> None:
        """At the discard: the player's hand up (the first card chosen face down), the computer's down, its
        two thrown erased; under the instructions' text, only hidden."""
        hand, chosen = _cards(v, "hand"), _numbers(v, "chosen")
        second = m == f"select {P.SELECT_SECOND_DISCARD}"
        first = int(chosen[2]) if second and len(chosen) > 2 else None
        for i, s in enumerate(P.HAND_SLOTS_DEALT):
            if i >= len(hand) or hand[i] is None:
                continue
            if first == i + 1:
                want[s.name] = Expect("down", "chosen")
            elif (i + 1) in self.t.taken_back:
                want[s.name] = Expect("up", "taken back", hand[i])
            else:
                want[s.name] = Expect("up", "held", hand[i])
        for i, s in enumerate(P.COMPUTER_SLOTS_DEALT):
            if (i + 1) in [int(x) for x in chosen[:2]] and not v.get("instructions"):
                want[s.name] = Expect("empty", "discarded")  # 675-685 erase the computer's two
            elif not v.get("instructions"):           # 7845: the instructions' text is printed over them
                want[s.name] = Expect("down", "hidden")
            else:
                want[s.name] = Expect("hidden", "hidden")

    def _play_slots(self, v: Mapping[str, object], want: dict[str, Expect]) -> None:
        """In the play: the cards held up, each side's laid cards up in this series and down from one before,
        the pack down and the starter up."""
        t = self.t
        hand, held = _cards(v, "hand"), _numbers(v, "held")
        for i, s in enumerate(P.HAND_SLOTS_DEALT):
            if i < 4 and i < len(held) and held[i] and i < len(hand) and hand[i]:
                want[s.name] = Expect("up", "held", hand[i])
            else:
                want[s.name] = Expect("empty", "laid" if i < 4 else "not dealt")
        for who, row in ((Who.COMPUTER, P.COMPUTER_SLOTS_DEALT), (Who.PLAYER, P.PLAYED_SLOTS[Who.PLAYER])):
            laid = t.laid[who]
            for i, s in enumerate(row[:4]):
                if i < len(laid):
                    card, series = laid[i]
                    want[s.name] = (Expect("up", "laid", card) if series == t.series
                                    else Expect("down", "series over"))
                else:
                    want[s.name] = Expect("empty", "not laid")
        for s in P.COMPUTER_SLOTS_DEALT[4:]:
            want[s.name] = Expect("empty", "hidden")        # the computer's hand is not on the table
        want[P.DECK.name] = Expect("down", "pack")
        if t.starter:
            want[P.STARTER.name] = Expect("up", "starter", t.starter)

    def _show_slots(self, v: Mapping[str, object], m: str, want: dict[str, Expect]) -> None:
        """In the show: the crib in the dealer's row (the other cleared), or the hands shown so far; the pack
        down and the starter up."""
        t = self.t
        hand, computer, crib = _cards(v, "hand"), _cards(v, "computer"), _cards(v, "crib")
        # at the claim (4780) the hand being counted is the last Show's (4765 came first)
        crib_shown = m == NEXT_DEAL or (m == CLAIM and t.last_show == ShowHand.CRIB)
        dealer_is_player = v.get("dealer") == P.MAN
        top, low = P.SHOWN_COMPUTER_SLOTS, P.SHOWN_SLOTS
        if crib_shown:
            shown_row, empty_row = (low, top) if dealer_is_player else (top, low)
            for i, s in enumerate(shown_row):
                if i < len(crib) and crib[i]:
                    want[s.name] = Expect("up", "crib", crib[i])
            for s in empty_row:
                want[s.name] = Expect("empty", "cleared")    # 4665 cleared the table for the crib
        else:
            for i, s in enumerate(low):
                if i < len(hand) and hand[i]:
                    want[s.name] = Expect("up", "shown", hand[i])
            computer_shown = m == SHOW_PAUSE or dealer_is_player
            for i, s in enumerate(top):
                if computer_shown and i < len(computer) and computer[i]:
                    want[s.name] = Expect("up", "shown", computer[i])
                elif not computer_shown:
                    want[s.name] = Expect("empty", "not yet shown")
        want[P.DECK.name] = Expect("down", "pack")
        if t.starter:
            want[P.STARTER.name] = Expect("up", "starter", t.starter)

    def _judge_deal(self, pic: Picture, found: list[ScreenFinding]) -> int:
        """At the player's turn the slots are drawn from A() and B(): those cards, with the ones laid, must be
        the four the player kept (the engine's hand), so a slot right by its variables is right by the game."""
        kept = self.t.kept.get(Who.PLAYER)
        if pic.moment not in PLAY_MOMENTS or not kept:
            return 0
        hand, held = _cards(pic.variables, "hand"), _numbers(pic.variables, "held")
        drawn = [card for i in range(min(4, len(hand), len(held))) if held[i] and (card := hand[i])]
        seen = sorted(drawn + [c for c, _ in self.t.laid[Who.PLAYER]])
        if seen != sorted(kept):
            found.append(ScreenFinding(Cause.SCREEN_DEAL, Who.PLAYER, sorted(kept), seen, NoFacts()))
        return 1

    def _judge_pegs(self, pic: Picture, found: list[ScreenFinding]) -> int:
        v = pic.variables
        scores, back = _numbers(v, "scores"), _numbers(v, "back")
        if not scores or not back:
            return 0
        n = 0
        for who, i in ((Who.COMPUTER, 0), (Who.PLAYER, 1)):
            n += 1
            want = sorted(_hole(s) for s in (back[i], scores[i]) if 0 < s <= 2 * P.PEG_LAP)
            seen = sorted(pic.pegs.get(who.value, []))
            if seen != want:
                found.append(ScreenFinding(Cause.SCREEN_PEGS, who, want, seen, PegsSeen(who, pic.moment)))
        return n

    def _judge_figures(self, pic: Picture, found: list[ScreenFinding]) -> int:
        scores = _numbers(pic.variables, "scores")
        if not scores:
            return 0
        want = _figures(scores[1], scores[0])
        seen = pic.rows.get("figures", "").ljust(7)
        if seen != want:
            found.append(ScreenFinding(Cause.SCREEN_LINE, None, want.rstrip(), seen.rstrip(),
                                       LineSeen("figures", pic.moment)))
        return 1

    def _judge_lines(self, pic: Picture, found: list[ScreenFinding]) -> int:
        t, m, n = self.t, pic.moment, 0
        message = pic.variables.get("message")
        if not m.startswith(("input ", "cut")) and isinstance(message, str):
            n += 1
            want, seen = message.rstrip(), pic.rows.get("message", "")
            if seen != want:
                found.append(ScreenFinding(Cause.SCREEN_LINE, None, want, seen, LineSeen("message", m)))
        line22 = None
        if m in DISCARD_MOMENTS and t.dealer is not None:
            line22 = self.texts.dealer[t.dealer]
        elif m == CUT_WAIT:
            line22 = self.texts.cut if self.cutting_for_deal else ""
        elif m in PLAY_MOMENTS or m == SHOW_PAUSE or m == NEXT_DEAL:
            line22 = ""                                    # 7990 and 4510 cleared it
        elif m == FINAL_BOARD and t.winner is not None:
            line22 = self.texts.winner[t.winner]
        if line22 is not None:
            n += 1
            seen = pic.rows.get("line 22", "")
            if seen != line22:
                found.append(ScreenFinding(Cause.SCREEN_LINE, None, line22, seen, LineSeen("line 22", m)))
        if m in (FINAL_BOARD, TALLY) and pic.board:
            n += 1
            if not pic.flag:
                found.append(ScreenFinding(Cause.SCREEN_LINE, t.winner, "the winner's flag", "no flag",
                                           LineSeen("flag", m)))
        if m in PLAY_MOMENTS:
            n += 1
            tail = _row_cells(pic.rows, P.TEXT_COUNT[0], 9, P.TEXT_COUNT[2])
            if tail.rstrip() != self.texts.go.rstrip() and not _POINTS_TAIL.match(tail):
                found.append(ScreenFinding(Cause.SCREEN_STALE, None, "« ХОД! » or « n »", tail.rstrip(),
                                           StaleSeen(f"table {P.TEXT_COUNT[0]}:9", m)))
        return n

    def _judge_table(self, pic: Picture, found: list[ScreenFinding]) -> int:
        """Outside the slots, only the text this moment prints: the count row and the pointer in the play,
        « ГОТОВ » at the discard, nothing at the cut (the instructions' pages are not judged)."""
        m = pic.moment
        if pic.variables.get("instructions"):
            return 0
        allowed: tuple[tuple[int, int, int], ...]
        if m in PLAY_MOMENTS:
            allowed = (P.TEXT_COUNT, P.TEXT_POINTER)
        elif m in DISCARD_MOMENTS:
            allowed = (P.TEXT_THINKING, P.TEXT_POINTER)
        elif m in (CUT_WAIT, WELCOME):
            allowed = ()                                  # 7010 CLS before the first question; 7470 after a cut
        else:
            return 0
        n = 0
        for key, text in sorted(pic.rows.items()):
            if not key.startswith("table "):
                continue
            r, c = (int(x) for x in key[6:].split(":"))
            n += 1
            if any(r == row and a <= c and c + len(text) <= b for row, a, b in allowed):
                continue
            found.append(ScreenFinding(Cause.SCREEN_STALE, None, "", text, StaleSeen(key, m)))
        return max(n, 1)


def _judge_slot(name: str, want: Expect, seen: SlotView, moment: str) -> ScreenFinding | None:
    facts = SlotSeen(name, moment, want.reason)
    who = Who.COMPUTER if name.startswith(("computer", "cut computer")) \
        else (None if name in ("deck", "starter") or name.startswith("cut pack") else Who.PLAYER)
    if want.state in ("up", "rank"):
        assert want.card is not None          # a face-up slot's expectation names its card
        if seen.state != "up":
            cause = Cause.SCREEN_FACE
            return ScreenFinding(cause, who, f"up {want.card}", seen.code(), facts)
        assert seen.card is not None          # a face-up slot's view names its card
        same = seen.card == want.card if want.state == "up" else seen.card[0] == want.card[0]
        if not same:
            return ScreenFinding(Cause.SCREEN_CARD, who, want.card if want.state == "up" else want.card[0],
                                 seen.card, facts)
        ink = P.INK_RED if seen.card[1] in RED else P.INK_BLACK
        if (seen.paper, seen.ink) != (P.PAPER_FACE_UP, ink):
            return ScreenFinding(Cause.SCREEN_COLOUR, who, f"{P.PAPER_FACE_UP}/{ink}", f"{seen.paper}/{seen.ink}",
                                 facts)
        return None
    if want.state == "hidden":
        if seen.state == "up":
            return ScreenFinding(Cause.SCREEN_FACE, who, "not face up", seen.code(), facts)
        return None
    if seen.state != want.state:
        cause = Cause.SCREEN_LEFT if want.state == "empty" and seen.state in ("up", "other") else Cause.SCREEN_FACE
        return ScreenFinding(cause, who, want.state, seen.code(), facts)
    return None


def _hole(score: int) -> int:
    """The hole (1..60) of a score: 6410 takes 60 off the second lap."""
    return score - P.PEG_LAP if score > P.PEG_LAP else score


def _figures(player: int, computer: int) -> str:
    """Row 20, columns 25-31 as 6085-6090 print them: S(MAN) from column 25, S(ZX) ending at column 31
    (blank until the first peg of a game: the board was just drawn, 5765)."""
    if not player and not computer:
        return " " * 7
    cells = list(str(player).ljust(7))
    right = str(computer)
    cells[7 - len(right):] = right
    return "".join(cells)


def _rank_card(rank: int) -> str:
    return "A23456789TJQK"[rank - 1] + "?"


def _row_cells(rows: dict[str, str], row: int, first: int, end: int) -> str:
    """Columns first..end-1 of a table row, from the picture's runs (blank where no run is)."""
    cells = [" "] * (end - first)
    for key, text in rows.items():
        if not key.startswith(f"table {row}:"):
            continue
        c = int(key.split(":")[1])
        for k, ch in enumerate(text):
            if first <= c + k < end:
                cells[c + k - first] = ch
    return "".join(cells)


@dataclass(frozen=True)
class _Texts:
    """The lines the program prints in the edition judged: the dealer's and the winner's (by who), the cut's, the go's."""
    dealer: dict[Who, str]
    winner: dict[Who, str]
    cut: str
    go: str


def _texts(words: P.ScreenWords) -> _Texts:
    if words == P.RUSSIAN:
        return _Texts(dict(P.DEALER_TEXT), dict(P.WINNER_TEXT), P.CUT_TEXT, P.GO_TEXT)
    return _Texts({k: english(v).rstrip() for k, v in P.DEALER_TEXT.items()},   # padded to the width
                  {k: english(v + " ").rstrip() for k, v in P.WINNER_TEXT.items()},
                  english(P.CUT_TEXT).rstrip(), english(P.GO_TEXT))


def _cards(v: Mapping[str, object], name: str) -> list[str | None]:
    """A picture's variable that is a row of cards (None: no card there); [] where the program has none yet."""
    value = v.get(name)
    return [c if isinstance(c, str) else None for c in value] if isinstance(value, list) else []


def _numbers(v: Mapping[str, object], name: str) -> list[int]:
    """A picture's variable that is a row of numbers; [] where the program has none yet."""
    value = v.get(name)
    return [n for n in value if isinstance(n, int)] if isinstance(value, list) else []


def tally(findings: list[ScreenFinding]) -> Counter[str]:
    return Counter(f.cause.value for f in findings)
