"""Watches «КРИБЕДЖ» run on the embedded Spectrum and tells what it does, as typed events.

Statement hooks on the lines of the program model (a score pegged at 6050, a
card laid at 2780/3580, a go, the deal, the discards, the starter, a show,
the winner...) read the program's own variables at that moment and emit one
event each, so a transcript is the program's view. The observer never presses
a key and never judges: the driver acts, the comparison judges. Screen
observations (`observe_*`) record the screen rows beside the variables they
were printed from, for the comparison's screen checks.
"""
from __future__ import annotations

import time
from typing import Callable

from ...cribbage.cards import Card
from ...spectrum.machine import Spectrum48
from ...spectrum.screen import read_screen
from ...spectrum.sysvars import print_row
from ...spectrum.variables import BasicVariables, ForLoop, VariableError
from ..model import program as P
from ..records.events import (Who, Claim, Crib, Cut, Deal, Discard, Event, Go, Picture, Play, Refused, Reset, Score, Screen,
                     ScoreContext, Show, ShowHand, Starter, Win)
from .picture import PictureReader, engine_card

Sink = Callable[[Event], None]


class Observer:
    """Statement hooks that turn what the program does into events for *sink*."""

    def __init__(self, machine: Spectrum48, sink: Sink):
        self.m = machine
        self.v = BasicVariables(machine)
        self.sink = sink
        self.deals = 0
        self.dealt: dict[str, list[Card]] = {}
        self.last_show: ShowHand | None = None
        self.suit_codes: tuple[int, ...] = P.SUIT_CODES   # S$ (7315) as this program has it: read at each deal
        self._hooks: dict[tuple[int, int], Callable[[], None]] = {
            P.AT_PEG: self._on_score,
            P.AT_DEALT: self._on_deal,
            P.AT_DISCARDS: self._on_discards,
            P.AT_STARTER: self._on_starter,
            P.AT_PLAYER_CARD: self._on_player_card,
            P.AT_COMPUTER_CARD: self._on_computer_card,
            **{at: self._on_player_go for at in P.AT_PLAYER_GO},
            **{at: self._on_computer_go for at in P.AT_COMPUTER_GO},
            P.AT_RESET: self._on_reset,
            P.AT_SHOW: self._on_show,
            P.AT_CLAIM: self._on_claim,
            P.AT_CUT_FOR_DEAL: self._on_cut,
            P.AT_WIN: self._on_win,
            P.AT_REFUSED: self._on_refused,
            P.AT_BREAKDOWN: self.observe_breakdown,
        }
        self.extra_hooks: dict[tuple[int, int], Callable[[], None]] = {}   # the driver's (rigging, screenshots)
        self.pictures = PictureReader()
        self.take_pictures = True
        self.picture_seconds = 0.0          # CPU time spent reading pictures (the cost of the screen check)

    # ------------------------------------------------------------------ attach
    def attach(self) -> None:
        self.m.add_statement_hook(self._hook)

    def detach(self) -> None:
        self.m.remove_statement_hook(self._hook)

    def _hook(self, line: int, stmt: int) -> bool:
        handler = self._hooks.get((line, stmt))
        if handler is not None:
            handler()
        extra = self.extra_hooks.get((line, stmt))
        if extra is not None:
            extra()
        return False

    # ------------------------------------------------------------------ reading the program
    def get(self, name: str) -> object:
        """A variable's value as the program holds it (a FOR variable's: its value); `number`, `numbers` and
        `text` read one of a known kind."""
        value: object = self.v.get(name)
        return value.value if isinstance(value, ForLoop) else value

    def number(self, name: str) -> float:
        """A numeric variable's value (an int where the Spectrum holds a small integer)."""
        return _number(name, self.get(name))

    def numbers(self, name: str) -> list[float]:
        """A numeric array of one dimension, element by element."""
        return _numbers(name, self.get(name))

    def text(self, name: str) -> str:
        """A string, or a character array of one dimension (DIM A$(6): six characters)."""
        return _text(name, self.get(name))

    def card(self, rank: float, suit_code: int | str) -> Card:
        """The card of a rank and a suit character as this program's S$ codes the suits."""
        return P.card_of(rank, suit_code, self.suit_codes)

    def _hand(self, arrays: tuple[str, str], n: int) -> list[Card]:
        r, s = self.numbers(arrays[0]), self.text(arrays[1])
        return [self.card(r[i], s[i]) for i in range(n)]

    def stack_lines(self) -> list[int]:
        return [line for line, _ in self.m.gosub_stack()]

    def rows(self) -> list[str]:
        return read_screen(self.m.mem, udg_text=P.UDG_TEXT, font_text=P.SCREEN_CHARSET).rows

    # ------------------------------------------------------------------ hooks
    def _on_score(self) -> None:
        who, points = int(self.number(P.V_PLAYER)), int(self.number(P.V_POINTS))
        stack = self.stack_lines()
        context = next((P.SCORE_CONTEXT[line] for line in stack if line in P.SCORE_CONTEXT), None)
        if context is None and P.PLAY_SCORER_CALLER in stack:
            context = ScoreContext.PLAY
        self.sink(Score(who=P.WHO[who], points=points, context=context or ScoreContext.UNKNOWN,
                        before=int(self.numbers(P.V_TOTALS)[who - 1])))

    def _on_deal(self) -> None:
        self.deals += 1
        self.suit_codes = P.suit_codes_of(self.get(P.V_SUITS))
        self.dealt = {"computer": self._hand(P.HAND_COMPUTER, 6), "player": self._hand(P.HAND_PLAYER, 6)}
        self.sink(Deal(n=self.deals, dealer=P.WHO[int(self.number(P.V_DEALER))],
                       computer=tuple(str(c) for c in self.dealt["computer"]),
                       player=tuple(str(c) for c in self.dealt["player"])))

    def _on_discards(self) -> None:
        t = self.numbers(P.V_SERIES)
        comp = [self.dealt["computer"][int(t[i]) - 1] for i in (0, 1)]
        mine = [self.dealt["player"][int(t[i]) - 1] for i in (2, 3)]
        self.sink(Discard(who=Who.COMPUTER, cards=tuple(str(c) for c in comp)))
        self.sink(Discard(who=Who.PLAYER, cards=tuple(str(c) for c in mine)))
        self.sink(Crib(cards=tuple(str(c) for c in self._hand(P.HAND_CRIB, 4))))

    def _on_starter(self) -> None:
        self.sink(Starter(card=str(self.card(self.number(P.V_CUT_RANK), self.text(P.V_CUT_SUIT)))))

    def _player_card(self) -> Card:
        k = int(self.number(P.V_LAID_SLOT))
        ranks, suits = P.HAND_PLAYER
        return self.card(self.numbers(ranks)[k - 1], self.text(suits)[k - 1])

    def _on_player_card(self) -> None:
        self.sink(Play(who=Who.PLAYER, card=str(self._player_card()), count=int(self.number(P.V_COUNT_AFTER))))

    def _on_computer_card(self) -> None:
        x1 = int(self.number(P.V_COMPUTER_LAID))
        ranks, suits = P.HAND_COMPUTER
        card = self.card(self.numbers(ranks)[x1 - 1], self.text(suits)[x1 - 1])
        self.sink(Play(who=Who.COMPUTER, card=str(card), count=int(self.number(P.V_COUNT))))

    def _on_player_go(self) -> None:
        self.sink(Go(who=Who.PLAYER, count=int(self.number(P.V_COUNT))))

    def _on_computer_go(self) -> None:
        self.sink(Go(who=Who.COMPUTER, count=int(self.number(P.V_COUNT))))

    def _on_reset(self) -> None:
        self.sink(Reset(count=int(self.number(P.V_COUNT))))

    def _on_show(self) -> None:
        caller = next((line for line in self.stack_lines() if line in P.SHOW_OF), None)
        self.last_show = ShowHand.UNKNOWN if caller is None else P.SHOW_OF.get(caller, ShowHand.UNKNOWN)
        ranks, suits = self.numbers(P.HAND_COUNTED[0]), self.text(P.HAND_COUNTED[1])
        parts = {k: int(self.number(v)) for k, v in P.SHOW_PARTS.items()}
        self.sink(Show(hand=self.last_show, **parts, ranks=tuple(int(r) for r in ranks[:5]),
                       suits=tuple(P.suit_number(c, self.suit_codes) for c in suits[:5])))

    def _on_claim(self) -> None:
        self.sink(Claim(claimed=int(self.number(P.V_CLAIM))))

    def _on_refused(self) -> None:
        self.sink(Refused(who=Who.PLAYER, card=str(self._player_card()), count=int(self.number(P.V_COUNT))))

    def _on_cut(self) -> None:
        # 7430: the player cuts first (S keeps that card); 7440: the computer cuts (K); 7450: IF S<K THEN DIR=MAN
        self.sink(Cut(player_rank=int(self.number(P.V_FIRST_CUT)), computer_rank=int(self.number(P.V_CUT_RANK))))
        self.observe_picture("cut", P.AT_CUT_FOR_DEAL[0])

    def _on_win(self) -> None:
        # nothing from 8210 to 8260 (LET G(PLAYER)=G(PLAYER)+1) changes PLAYER: it is whom 8260 credits
        s = self.numbers(P.V_TOTALS)
        self.sink(Win(who=P.WHO[int(self.number(P.V_WINNER))], computer=int(s[P.ZX - 1]), player=int(s[P.MAN - 1]),
                      credited=P.WHO.get(int(self.number(P.V_PLAYER)))))

    # ------------------------------------------------------------------ screen observations
    def _screen(self, what: P.ScreenCheckKind, rows: list[str], wanted: list[int], **variables: object) -> None:
        self.sink(Screen(what=what, rows=tuple((r, rows[r].rstrip()) for r in wanted), variables=variables))

    def observe_board(self, rows: list[str] | None = None) -> None:
        """The pegging totals under the board (6085/6090) with S()."""
        rows = rows or self.rows()
        s = self.numbers(P.V_TOTALS)
        self._screen(P.ScreenCheck.BOARD, rows, [P.BOARD_ROW], player=int(s[P.MAN - 1]), computer=int(s[P.ZX - 1]))

    def observe_play(self) -> None:
        """At the player's turn: the board, the count «ВСЕГО n» (2920) and the player's cards (5400)."""
        rows = self.rows()
        self.observe_board(rows)
        self._screen(P.ScreenCheck.COUNT, rows, [P.COUNT_ROW], sum=int(self.number(P.V_COUNT)))
        ranks, suits, held = self.numbers(P.HAND_PLAYER[0]), self.text(P.HAND_PLAYER[1]), self.numbers(P.V_HELD)
        cards = [str(self.card(ranks[i], suits[i])) if held[i] else None for i in range(P.HAND_SLOTS)]
        self._screen(P.ScreenCheck.HAND, rows, list(P.HAND_ROWS), cards=cards)

    def observe_breakdown(self) -> None:
        """The show's breakdown printed at 4830-4885, with the variables it was printed from."""
        rows = self.rows()
        line = print_row(self.m.peek("S_POSN"))           # the PRINT position's screen row
        wanted = [r for r in range(line - 4, line + 1) if 0 <= r < 24]
        parts = {k: int(self.number(v)) for k, v in P.SHOW_PARTS.items() if k != "runs"}
        # 4875 (or 4790 on an agreed claim) has made S the total by now
        self._screen(P.ScreenCheck.BREAKDOWN, rows, wanted, print_row=line, muggins=int(self.number(P.V_MUGGINS)),
                     total=int(self.number(P.V_POINTS)), **parts)

    def observe_tally(self) -> None:
        """«СЧЕТ:» with the games tally G() (8290-8310)."""
        rows = self.rows()
        g = self.numbers(P.V_GAMES)
        self._screen(P.ScreenCheck.TALLY, rows, list(P.TALLY_ROWS), player=int(g[P.MAN - 1]),
                     computer=int(g[P.ZX - 1]))

    def games_tally(self) -> tuple[int, int]:
        g = self.numbers(P.V_GAMES)
        return int(g[P.ZX - 1]), int(g[P.MAN - 1])

    # ------------------------------------------------------------------ the picture
    PICTURE_VARIABLES = (*P.HAND_PLAYER, P.V_HELD, *P.HAND_COMPUTER, *P.HAND_CRIB, P.V_SERIES, P.V_LAID_PLAYER,
                         P.V_LAID_COMPUTER, P.V_DEALER, P.V_TOTALS, P.V_PREVIOUS_SCORES, P.V_COUNT, P.V_MESSAGE,
                         P.V_INSTRUCTIONS, P.V_RANKS, P.V_SUITS)

    def picture_variables(self) -> dict[str, object]:
        """The variables the pictures are drawn from, read at one walk of the variables area (None where the
        program has not made one yet)."""
        got: dict[str, object] = {k: (v.value if isinstance(v, ForLoop) else v)
                                  for k, v in self.v.values(self.PICTURE_VARIABLES).items()}
        ranks = got.get(P.V_RANKS)
        if ranks:                                           # 7320: the ranks as this edition draws them
            self.pictures.ranks_from(self.pictures.text_of(self.m.mem, _text(P.V_RANKS, ranks)))
        self.suit_codes = P.suit_codes_of(got.get(P.V_SUITS))   # 7315: the codes the arrays hold the suits by

        def cards(arrays: tuple[str, str], n: int) -> list[str | None]:
            r, s = got.get(arrays[0]), got.get(arrays[1])
            if r is None or s is None:
                return []
            ranks, suits = _numbers(arrays[0], r), _text(arrays[1], s)
            out: list[str | None] = []
            for i in range(min(n, len(ranks), len(suits))):
                try:
                    suit = P.suit_number(suits[i], self.suit_codes)
                    out.append(engine_card(int(ranks[i]), suit) if 1 <= int(ranks[i]) <= 13 else None)
                except ValueError:
                    out.append(None)
            return out

        def number(name: str) -> int | None:
            value = got.get(name)
            return None if value is None else int(_number(name, value))

        def numbers(name: str, n: int) -> list[int] | None:
            value = got.get(name)
            return None if value is None else [int(x) for x in _numbers(name, value)[:n]]
        message, instructions = got.get(P.V_MESSAGE), got.get(P.V_INSTRUCTIONS)
        return {
            "hand": cards(P.HAND_PLAYER, 6), "held": numbers(P.V_HELD, 6),
            "computer": cards(P.HAND_COMPUTER, 6), "crib": cards(P.HAND_CRIB, 4),
            "chosen": numbers(P.V_SERIES, 4), "nh": number(P.V_LAID_PLAYER), "nc": number(P.V_LAID_COMPUTER),
            "dealer": number(P.V_DEALER), "scores": numbers(P.V_TOTALS, 2), "back": numbers(P.V_PREVIOUS_SCORES, 2),
            "sum": number(P.V_COUNT),
            "message": None if message is None else self.pictures.text_of(self.m.mem, _text(P.V_MESSAGE, message)),
            "instructions": instructions is not None and _text(P.V_INSTRUCTIONS, instructions)[:1] == P.YES,
        }

    def observe_picture(self, moment: str, line: int) -> None:
        """What the screen shows now, every picture of the program read (picture.py), with its variables.

        A picture taken in a polling loop of several lines is named by the loop's head (P.WAIT_LOOP_HEAD): which
        of the loop's lines a frame end catches depends on timing alone, not on what the screen shows."""
        if not self.take_pictures:
            return
        line = P.WAIT_LOOP_HEAD.get(line, line)
        start = time.process_time()
        variables = self.picture_variables()              # first: R$ tells the reader the ranks' glyphs
        slots, pegs, rows, board, flag = self.pictures.read(self.m.mem)
        slots = {name: code for name, code in slots.items() if code != "empty"}     # an empty slot is left out
        drawing = any(a <= ln <= b for ln, _ in [(self.m.ppc, 0)] + self.m.gosub_stack()
                      for a, b in P.DRAWING_LINES)
        picture = Picture(moment=moment, line=line, slots=slots, pegs=pegs, rows=rows, board=board, flag=flag,
                          variables=variables, drawing=drawing)
        self.picture_seconds += time.process_time() - start
        self.sink(picture)


def _number(name: str, value: object) -> float:
    """*value*, a numeric variable's, or VariableError: the program model named a variable of another kind."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    raise VariableError(f"BASIC variable {name} holds {value!r}, not a number")


def _numbers(name: str, value: object) -> list[float]:
    """*value*, a numeric array's of one dimension, or VariableError."""
    if not isinstance(value, list):
        raise VariableError(f"BASIC variable {name} holds {value!r}, not a numeric array")
    return [_number(f"{name}[{i}]", x) for i, x in enumerate(value)]


def _text(name: str, value: object) -> str:
    """*value*, a string's or a character array's of one dimension, or VariableError."""
    if not isinstance(value, str):
        raise VariableError(f"BASIC variable {name} holds {value!r}, not a string")
    return value
