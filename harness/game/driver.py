"""Plays «КРИБЕДЖ» on the embedded Spectrum through keystrokes only, and records what happened.

The driver recognises each state by the BASIC line the program waits at and
the GO SUB stack (who called the card selector at 3700: the discard at
7860/7870, a play at 2720, the go confirmation at 2755), asks a Player for
a decision, and presses the keys a person would. Statement hooks on a few
lines (a score pegged at 6050, a card laid at 2780/3580, a go, the deal, the
discards, the starter, a show) record every event with the program's own
variables, so the transcript is the program's view; the comparison with the
rules engine is a separate step.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..cribbage.cards import Card, from_basic
from ..spectrum.machine import RunTimeout, Spectrum48, StopReason
from ..spectrum.screen import read_screen, render
from ..spectrum.typist import Typist
from ..spectrum.variables import BasicVariables, ForLoop
from .players import PlayContext, Player
from .program import MAN, RANK_TEXT, SUIT_TEXT, UDG_TEXT, ZX, suit_number

WHO = {ZX: "computer", MAN: "player"}
MAX_WAIT_FRAMES = 30_000          # ten emulated minutes between two key waits
SCORE_CONTEXT = {                 # GO SUB return points -> what a score at 6050 is for
    4890: "show", 8020: "heels", 4160: "go", 4260: "go", 9130: "demo",
    4450: "reset",                # the count reset calls 2900 again with S unchanged
}
SHOW_OF = {4580: "computer", 4640: "player", 4680: "crib"}   # who called 4700


class DriverError(Exception):
    """The program reached a state the driver does not know, or a key had no effect."""


@dataclass
class Rig:
    """A deal to force: cards for the computer and the player (six each) and the starter.

    Written into P() after the shuffle (line 7640) and into P(R) when the
    starter is cut (line 4935), so the program deals exactly these cards.
    """
    computer: list[Card]
    player: list[Card]
    starter: Card | None = None
    dealer: str | None = None     # "computer" or "player": who deals the rigged deal
    deals: int = 1                # rig this many deals from the first


@dataclass
class GameRecord:
    seed: int
    player: str
    transcript: list[dict] = field(default_factory=list)
    winner: str | None = None
    scores: dict = field(default_factory=dict)
    deals: int = 0
    actions: int = 0
    reports: list[str] = field(default_factory=list)
    timeout: str | None = None
    frames: int = 0
    screens: list[tuple[str, object]] = field(default_factory=list)   # (label, RGB array)

    @property
    def basic_errors(self) -> list[str]:
        return [r for r in self.reports if not r.startswith(("0 ", "9 "))]


def card_of(rank, suit_code) -> Card:
    return from_basic(int(rank), suit_number(suit_code))


class GameDriver:
    def __init__(self, machine: Spectrum48, player: Player, seed: int, rig: Rig | None = None,
                 keep_screens: bool = False, max_deals: int | None = None, every_action_screen: bool = False):
        self.m = machine
        self.v = BasicVariables(machine)
        self.player = player
        self.seed = seed
        self.rig = rig
        self.keep_screens = keep_screens
        self.every_action_screen = every_action_screen
        self.max_deals = max_deals
        self.rec = GameRecord(seed=seed, player=player.name)
        self._hooks = {
            (6050, 1): self._on_score,
            (7800, 1): self._on_deal,
            (7930, 1): self._on_discards,
            (8020, 1): self._on_starter,
            (2780, 1): self._on_player_card,
            (3580, 1): self._on_computer_card,
            (2763, 1): self._on_player_go,
            (2710, 2): self._on_player_go,
            (3220, 2): self._on_computer_go,
            (3550, 2): self._on_computer_go,
            (4405, 1): self._on_reset,
            (4765, 1): self._on_show,
            (4790, 1): self._on_claim,
            (7450, 1): self._on_cut,
            (8210, 1): self._on_win,
            (7640, 1): self._on_shuffled,
            (4935, 1): self._on_cut_card,
            (2775, 2): self._on_refused,
            (7510, 1): self._on_dealing,
            (4895, 1): self._on_show_done,
            (4890, 1): self._on_breakdown_printed,
        }
        self.table: list[Card] = []          # the cards of the current series, as laid

    # ------------------------------------------------------------------ recording
    def log(self, kind: str, **data) -> None:
        self.rec.transcript.append({"t": kind, **data})

    def _hook(self, line: int, stmt: int) -> bool:
        handler = self._hooks.get((line, stmt))
        if handler is not None:
            handler()
        return False

    def _get(self, name):
        value = self.v.get(name)
        return value.value if isinstance(value, ForLoop) else value

    def _on_score(self) -> None:
        who, points = int(self._get("PLAYER")), int(self._get("S"))
        stack = [line for line, _ in self.m.gosub_stack()]
        context = next((SCORE_CONTEXT[line] for line in stack if line in SCORE_CONTEXT), None)
        if context is None and 2955 in stack:
            context = "play"
        self.log("score", who=WHO[who], points=points, context=context or "unknown",
                 before=int(self.v.get("S()")[who - 1]))

    def _hand(self, ranks: str, suits: str, n: int) -> list[Card]:
        r, s = self._get(ranks), self._get(suits)
        return [card_of(r[i], s[i]) for i in range(n)]

    def _on_deal(self) -> None:
        self.rec.deals += 1
        self.dealt = {"computer": self._hand("C()", "C$()", 6), "player": self._hand("A()", "A$()", 6)}
        self.log("deal", n=self.rec.deals, dealer=WHO[int(self._get("DIR"))],
                 computer=[str(c) for c in self.dealt["computer"]], player=[str(c) for c in self.dealt["player"]])

    def _on_discards(self) -> None:
        t = self._get("T()")
        comp = [self.dealt["computer"][int(t[i]) - 1] for i in (0, 1)]
        mine = [self.dealt["player"][int(t[i]) - 1] for i in (2, 3)]
        self.log("discard", who="computer", cards=[str(c) for c in comp])
        self.log("discard", who="player", cards=[str(c) for c in mine])
        self.log("crib", cards=[str(c) for c in self._hand("E()", "E$()", 4)])

    def _on_starter(self) -> None:
        self.log("starter", card=str(card_of(self._get("K"), self._get("K$"))))

    def _on_player_card(self) -> None:
        k = int(self._get("K"))
        card = card_of(self._get("A()")[k - 1], self._get("A$()")[k - 1])
        self.table.append(card)
        self.log("play", who="player", card=str(card), count=int(self._get("T")))

    def _on_computer_card(self) -> None:
        x1 = int(self._get("X1"))
        card = card_of(self._get("C()")[x1 - 1], self._get("C$()")[x1 - 1])
        self.table.append(card)
        self.log("play", who="computer", card=str(card), count=int(self._get("SUM")))

    def _on_player_go(self) -> None:
        self.log("go", who="player", count=int(self._get("SUM")))

    def _on_computer_go(self) -> None:
        self.log("go", who="computer", count=int(self._get("SUM")))

    def _on_reset(self) -> None:
        self.table = []
        self.log("reset", count=int(self._get("SUM")))

    def _on_show(self) -> None:
        caller = next((line for line, _ in self.m.gosub_stack() if line in SHOW_OF), None)
        whose = SHOW_OF.get(caller, "unknown")
        ranks, suits = self._get("H()"), self._get("H$()")
        self.log("show", hand=whose, fifteens=int(self._get("F")), pairs=int(self._get("P")),
                 runs=int(self._get("S")), flush=int(self._get("FL")), nobs=int(self._get("NOB")),
                 ranks=[int(r) for r in ranks[:5]], suits=[suit_number(c) for c in suits[:5]])

    def _on_refused(self) -> None:
        k = int(self._get("K"))
        card = card_of(self._get("A()")[k - 1], self._get("A$()")[k - 1])
        self.log("refused", who="player", card=str(card), count=int(self._get("SUM")))

    def _on_breakdown_printed(self) -> None:
        """The breakdown 4830-4885 printed on screen against the variables it was printed from."""
        rows = self.screen_rows()
        line = 24 - self.m.peek("S_POSN") // 256          # the PRINT position's screen row
        total_row = next((r for r in (line, line - 1) if 0 <= r < 24 and "ВСЕГО = " in rows[r]), None)
        total = int(self._get("S"))
        if total_row is None:
            self.log("screen", what="show total", screen="", variables=total)
            return
        block = " ".join(rows[max(0, total_row - 3):total_row + 1])
        seen = {name: (int(m.group(1)) if m else 0)
                for name, m in (("fifteens", re.search(r"15-ТЬ -(\d+)", block)),
                                ("pairs", re.search(r"ПАРЫ -(\d+)", block)),
                                ("flush", re.search(r"ФЛЕШЬ -(\d+)", block)),
                                ("runs", re.search(r"СЕКАНС-(\d+)", block)),
                                ("total", re.search(r"ВСЕГО = (\d+)", rows[total_row])))}
        seen["nobs"] = int("ЕГО БЛАГОРОДИЕ -1" in block)
        agreed = self.rec.transcript[-1]["t"] == "claim" and self._get("MUG") != 2
        want = {"total": total}
        if not agreed:                                  # 4790 skips the breakdown when the claim is right
            parts = {"fifteens": "F", "pairs": "P", "flush": "FL", "nobs": "NOB"}
            want.update({k: int(self._get(v)) for k, v in parts.items()})
            want["runs"] = total - sum(want[k] for k in parts)
        for key, value in want.items():
            if seen[key] != value:
                self.log("screen", what=f"show {key}", screen=seen[key], variables=value)

    def _on_show_done(self) -> None:
        shows = [e for e in self.rec.transcript if e["t"] == "show"]
        self._shot(f"deal{self.rec.deals}-show-{shows[-1]['hand'] if shows else 'hand'}")

    def _on_claim(self) -> None:
        self.log("claim", claimed=int(self._get("SS")))

    def _on_cut(self) -> None:
        # 7430: the player cuts first (4915-4925 «СНИМИТЕ КОЛОДУ»), S keeps that card;
        # 7440: the computer cuts («ТЕПЕРЬ Я СНИМАЮ КОЛОДУ»), K; 7450: IF S<K THEN DIR=MAN
        self.log("cut", player_rank=int(self._get("S")), computer_rank=int(self._get("K")))

    def _on_win(self) -> None:
        self.rec.winner = WHO[int(self._get("WIN"))]
        s = self._get("S()")
        self.rec.scores = {"computer": int(s[ZX - 1]), "player": int(s[MAN - 1])}
        self.log("win", who=self.rec.winner, **self.rec.scores)

    def _on_shuffled(self) -> None:
        if self.rig is None or self.rec.deals >= self.rig.deals:
            return
        deck = [float(x) for x in self._get("P()")]
        wanted = list(self.rig.computer) + list(self.rig.player)
        numbers = [_deck_number(c) for c in wanted]
        rest = [x for x in deck if not any(abs(x - n) < 0.05 for n in numbers)]
        self.v.set("P()", numbers + rest)

    def _on_dealing(self) -> None:
        if self.rig is not None and self.rig.dealer and self.rec.deals < self.rig.deals:
            self.v.set("DIR", ZX if self.rig.dealer == "computer" else MAN)
            self.log("rigged", dealer=self.rig.dealer)

    def _on_cut_card(self) -> None:
        if self.rig is None or self.rig.starter is None or self.rec.deals > self.rig.deals:
            return
        if not any(line == 8010 for line, _ in self.m.gosub_stack()):
            return                                    # the cut for deal, not the starter
        r = int(self._get("R") + 0.5)                 # BASIC rounds a subscript
        self.v.set_element("P()", r, _deck_number(self.rig.starter))

    # ------------------------------------------------------------------ keys
    def _press_until(self, key: str, lines: set[int], max_frames: int = 400) -> None:
        """Hold *key* until the program reaches one of *lines*, then let go."""
        target = lines

        def reached(line: int, stmt: int) -> bool:
            return line in target
        self.m.add_statement_hook(reached)
        self.m.press(key)
        try:
            for _ in range(max_frames):
                if not self.m.run_frame() or reached(self.m.ppc, 0):
                    break
            else:
                raise DriverError(f"key {key} had no effect within {max_frames} frames "
                                  f"(waiting for line {sorted(lines)}, at {self.m.ppc}:{self.m.subppc})")
        finally:
            self.m.remove_statement_hook(reached)
            self.m.release(key)
        self.rec.actions += 1

    def _any_key_pause(self) -> None:
        self.m.press("ENTER")
        self.m.run_frames(3)
        self.m.release("ENTER")
        self.rec.actions += 1

    def _answer(self, text: str) -> None:
        Typist(self.m).answer(text)
        self.rec.actions += 1

    def _select(self, slot: int, slots: int) -> None:
        """Move the pointer of subroutine 3700 to *slot* with SPACE (it wraps after *slots*), choose it with ENTER."""
        for _ in range(slots):
            x = int(self._get("X"))
            if x == slot:
                break
            self._press_until("SPACE", {3760})
            self._wait()
        else:
            raise DriverError(f"the pointer never reached slot {slot}")
        self._press_until("ENTER", {3800})

    # ------------------------------------------------------------------ the loop
    def _wait(self) -> StopReason:
        return self.m.run(MAX_WAIT_FRAMES, until_wait=True, what="the program waiting for a key")

    def play(self) -> GameRecord:
        """Play one game from the program's first question to «СЫГРАЕМ ЕЩЕ?» (answered N)."""
        self.m.add_statement_hook(self._hook)
        try:
            self._loop()
        except RunTimeout as exc:
            self.rec.timeout = str(exc)
        finally:
            self.m.remove_statement_hook(self._hook)
            self.rec.frames = self.m.frames
        return self.rec

    def _loop(self) -> None:
        seeded = False
        while True:
            stop = self._wait()
            if stop.kind == "report":
                self.rec.reports.append(str(stop.report))
                return
            w = stop.wait
            if self.every_action_screen:
                self._shot("action")
            if w.kind == "input":
                if w.line == 7060:
                    if not seeded:
                        self.m.poke("SEED", self.seed % 65536)   # RANDOMIZE at 7005 read FRAMES
                        seeded = True
                    self._answer("Y" if self.player.instructions() else "N")
                elif w.line == 7405:
                    muggins = self.player.muggins()
                    self.log("options", muggins=muggins)
                    self._answer("Y" if muggins else "N")
                elif w.line == 4780:
                    true = self._true_total()
                    self._answer(str(self.player.claim(true)))
                elif w.line == 8140:                    # «ПРОДОЛЖАТЬ ИНСТРУКЦИЮ (Y/N)?»
                    self._answer("N")
                elif w.line == 8320:
                    self._answer("Y" if self.player.again() else "N")
                else:
                    raise DriverError(f"unknown INPUT at line {w.line}")
            elif w.kind == "inkey" and w.line in (3725, 3730, 3750):
                self._card_choice()
            elif w.kind == "inkey" and w.line == 4925:
                self._press_until("ENTER", {4930})
            elif w.kind == "inkey" and w.line == 8105:
                self._crosscheck(hand=False)
                if self.max_deals is not None and self.rec.deals >= self.max_deals:
                    return
                self._press_until("ENTER", {8110})
            elif w.kind == "pause" and w.line == 4661:
                self._any_key_pause()
            elif w.kind == "pause" and w.line == 8270:
                self._shot("final board")
                self._any_key_pause()
            elif w.kind == "pause" and w.line == 9090:      # «ДЛЯ ДЕМОНСТРАЦИИ НАЖМИТЕ SPACE»
                self.log("choice", what="board demo")
                self._press_until("SPACE", {9100})
            elif w.kind == "pause":
                self._any_key_pause()                   # instruction pages
            else:
                raise DriverError(f"unknown wait {w}")

    def _true_total(self) -> int:
        return int(sum(self._get(n) for n in ("S", "P", "F", "FL", "NOB")))

    def _card_choice(self) -> None:
        caller = self.m.gosub_stack()[0][0]
        if caller == 7860:                               # first discard
            hand = self.dealt["player"]
            self._discards = self.player.discard(list(hand), self._get("DIR") == MAN)
            self.log("choice", what="discard", slots=list(self._discards))
            self._select(self._discards[0], 6)
        elif caller == 7870:
            self._select(self._discards[1], 6)
        elif caller == 2755:                             # «ВАШ ХОД?»: the empty slot again says go
            self._select(int(self._get("HGO")), 4)
        elif caller == 2720:
            if self.rec.transcript and self.rec.transcript[-1]["t"] == "refused":
                self.log("message", text=self.screen_rows()[23].rstrip())
            self._crosscheck(hand=True)
            slots = [card_of(r, s) if b else None
                     for r, s, b in zip(self._get("A()")[:4], self._get("A$()")[:4], self._get("B()")[:4])]
            ctx = PlayContext(slots, list(self.table), int(self._get("SUM")))
            choice = self.player.play(ctx)
            if choice == "go":
                empty = ctx.empty_slots()
                if not empty:
                    raise DriverError("the player wants to say go but has no empty slot to choose")
                self.log("choice", what="go", count=ctx.count)
                self._select(empty[0], 4)
            else:
                self.log("choice", what="play", slot=choice, count=ctx.count)
                self._select(int(choice), 4)
        else:
            raise DriverError(f"card selection called from line {caller}")

    def _crosscheck(self, hand: bool) -> None:
        """The variables against what a person sees: the pegging totals under the board
        (6085/6090), the count «ВСЕГО n» (2920) and, in the play, the player's cards (5400)."""
        rows = self.screen_rows()
        s = self._get("S()")
        board = rows[20][25:].split()          # nothing until the first peg, then both totals
        seen = [int(x) for x in board] if all(x.isdigit() for x in board) else board
        want = [int(s[MAN - 1]), int(s[ZX - 1])]
        if seen and seen != want:
            self.log("screen", what="board scores", screen=rows[20][25:].rstrip(), variables=want)
        if hand:
            count = rows[6][:9].split()
            if count[:1] == ["ВСЕГО"] and count[1:] != [str(int(self._get("SUM")))]:
                self.log("screen", what="count", screen=rows[6][:9].rstrip(), variables=int(self._get("SUM")))
            ranks, suits, held = self._get("A()"), self._get("A$()"), self._get("B()")
            for i in range(4):
                col = 4 * i
                shown = rows[16][col] + rows[17][col]
                want_card = (RANK_TEXT[int(ranks[i])] + SUIT_TEXT[suit_number(suits[i])]) if held[i] else "  "
                if shown != want_card:
                    self.log("screen", what=f"hand slot {i + 1}", screen=shown, variables=want_card)

    def _shot(self, label: str) -> None:
        if self.keep_screens:
            self.rec.screens.append((label, render(self.m.mem, border=self.m.s.border, scale=1)))

    def screen_rows(self) -> list[str]:
        return read_screen(self.m.mem, udg_text=UDG_TEXT).rows


def _deck_number(card: Card) -> float:
    return card.rank + (card.suit + 1) / 10
