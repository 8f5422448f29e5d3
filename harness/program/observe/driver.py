"""Plays «КРИБЕДЖ» on the embedded Spectrum through keystrokes only, and keeps the record.

The driver is an actor beside the `Observer`: it runs the machine to the next
place where the program waits for a person, looks up the handler for that wait
in a table keyed by the waiting line (and, for the card selector 3700, by its
caller on the GO SUB stack), asks the Player for a decision and presses the
keys a person would. It never judges what it sees: the observer's events and
screen observations go to the comparison. Every game has a budget of actions
and emulated frames; exceeding it, a driver error or a BASIC report ends the
game with its record kept and the reason stated.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Literal

from ...cribbage.cards import Card, parse_card
from ...errors import MachineError
from ...spectrum.machine import RunTimeout, Spectrum48, StopReason, WaitKind, WaitState
from ...spectrum.profile import Profile, Profiler
from ...spectrum.screen import Pixels, render
from ...spectrum.typist import Typist
from ..model import program as P
from ..records.events import (Choice, ChoiceKind, Deal, Event, Failure, Message, Options, Picture, Play, Refused, Report, Reset,
                     Rigged, Tally, Who, Win, of_kind)
from .observer import Observer
from .players import PlayContext, Player, Question

MAX_WAIT_FRAMES = 30_000          # ten emulated minutes between two key waits


class DriverError(MachineError):
    """The program reached a state the driver does not know, or a key had no effect."""


class BudgetExceeded(DriverError):
    """A game took more actions or emulated time than its budget allows."""


@dataclass(frozen=True)
class Budget:
    """What one game may take before the harness gives up on it (with its record kept)."""
    actions: int = 4000
    frames: int = 400_000         # about 2 h 13 min emulated; a normal game takes 10-15 minutes


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


#: why the harness gave a game up: a run-until limit, the game's budget, or the driver itself
FailureKind = Literal["timeout", "budget", "driver"]
#: a screenshot kept in the record: (label, RGB pixels as screen.render makes them)
Screenshot = tuple[str, Pixels]


@dataclass
class GameRecord:
    """Everything one run of the program produced: its events, how it ended, what it cost."""
    seed: int
    player: str
    events: list[Event] = field(default_factory=list)
    #: the machine's frame count (m.frames) when each event was noted, one per event (the watch mode's clock)
    event_frames: list[int] = field(default_factory=list)
    deals: int = 0
    actions: int = 0
    reports: list[str] = field(default_factory=list)
    failure: str | None = None
    failure_kind: FailureKind | None = None
    frames: int = 0
    screens: list[Screenshot] = field(default_factory=list)
    profile: Profile | None = None

    @property
    def wins(self) -> list[Win]:
        return of_kind(self.events, Win)

    @property
    def winner(self) -> str | None:
        """The winner of the last game finished (several games can be played on one machine)."""
        wins = self.wins
        return wins[-1].who.value if wins else None

    @property
    def scores(self) -> dict[str, int]:
        wins = self.wins
        return {"computer": wins[-1].computer, "player": wins[-1].player} if wins else {}

    @property
    def basic_errors(self) -> list[str]:
        return [r for r in self.reports if not r.startswith(("0 ", "9 "))]



Handler = Callable[[WaitState], bool]     # returns True when the game is over


@dataclass(frozen=True)
class DriverOptions:
    """How a game is driven beyond its machine, player and seed: a deal to force (*rig*), screenshots kept
    (at each wait worth one, and with *every_action_screen* at every action too), the deals to play before
    stopping (None: to the end), the budget, a profiler, and what to call once SEED is set, before the first
    answer (an RZX recording starts there)."""
    rig: Rig | None = None
    keep_screens: bool = False
    every_action_screen: bool = False
    max_deals: int | None = None
    budget: Budget = Budget()
    profiler: Profiler | None = None
    on_first_question: Callable[[], None] | None = None


class GameDriver:
    def __init__(self, machine: Spectrum48, player: Player, seed: int, options: DriverOptions = DriverOptions()):
        self.m = machine
        self.on_first_question = options.on_first_question   # called once SEED is set, before the first answer
        self.player = player
        self.seed = seed
        self.rig = options.rig
        self.keep_screens = options.keep_screens
        self.every_action_screen = options.every_action_screen
        self.max_deals = options.max_deals
        self.budget = options.budget
        self.profiler = options.profiler
        self.rec = GameRecord(seed=seed, player=player.name)
        self.table: list[Card] = []          # the cards of the current series, as laid
        self.observer = Observer(machine, self._record)
        self.observer.extra_hooks = {
            P.AT_SHUFFLED: self._rig_deck,
            P.AT_DEALING: self._rig_dealer,
            P.AT_CARD_CUT: self._rig_starter,
            P.AT_SHOW_DONE: self._shot_show,
        }
        self._seeded = False
        self._start_frames = 0
        self._discards: tuple[int, int] = (1, 2)
        self._inputs = {
            P.ASK_INSTRUCTIONS: self._ask_instructions,
            P.ASK_MUGGINS: self._ask_muggins,
            P.ASK_CLAIM: self._ask_claim,
            P.ASK_CONTINUE_INSTRUCTIONS: self._ask_continue,
            P.ASK_AGAIN: self._ask_again,
        }
        self._selector = {
            P.SELECT_FIRST_DISCARD: self._first_discard,
            P.SELECT_SECOND_DISCARD: self._second_discard,
            P.SELECT_PLAY: self._play_turn,
            P.SELECT_GO_CONFIRM: self._confirm_go,
        }
        self._waits: dict[tuple[WaitKind, int], Handler] = {
            **{("input", line): self._input for line in self._inputs},
            **{("inkey", line): self._card_selector for line in P.SELECTOR_WAITS},
            ("inkey", P.CUT_WAIT): self._cut,
            ("inkey", P.NEXT_DEAL_WAIT): self._next_deal,
            ("pause", P.SHOW_PAUSE): self._any_key,
            ("pause", P.FINAL_BOARD_PAUSE): self._final_board,
            ("pause", P.DEMO_PAUSE): self._board_demo,
            ("pause", P.DEMO_REPEAT_PAUSE): self._demo_again,
        }

    # ------------------------------------------------------------------ the loop
    def play(self) -> GameRecord:
        """Play from the program's first question until it stops (STOP at 8330, a report) or the budget ends."""
        self._start_frames = self.m.frames
        self.observer.attach()
        if self.profiler is not None:
            self.profiler.start(self.m)
        try:
            self._loop()
        except RunTimeout as exc:
            self._fail(str(exc), "timeout")
        except BudgetExceeded as exc:
            self._fail(str(exc), "budget")
        except DriverError as exc:
            self._fail(str(exc), "driver")
        finally:
            if self.profiler is not None:
                self.rec.profile = self.profiler.stop()
            self.observer.detach()
            self.rec.frames = self.m.frames
            self.rec.deals = self.observer.deals
        return self.rec

    def _add(self, ev: Event) -> None:
        """Every event of the record goes in here, with the frame it was noted in."""
        self.rec.events.append(ev)
        self.rec.event_frames.append(self.m.frames)

    def _record(self, ev: Event) -> None:
        """The observer's events go to the record; the driver keeps the series on the table for its player."""
        if isinstance(ev, Play):
            self.table.append(parse_card(ev.card))
        elif isinstance(ev, (Reset, Deal)):
            self.table = []
        self._add(ev)

    def _fail(self, reason: str, kind: FailureKind) -> None:
        self.rec.failure, self.rec.failure_kind = reason, kind
        self._add(Failure(reason=reason))

    def _loop(self) -> None:
        while True:
            used = self.m.frames - self._start_frames
            if self.rec.actions > self.budget.actions:
                raise BudgetExceeded(f"budget: more than {self.budget.actions} actions")
            if used > self.budget.frames:
                raise BudgetExceeded(f"budget: more than {self.budget.frames} frames emulated")
            stop = self._wait(min(MAX_WAIT_FRAMES, self.budget.frames - used + 1))
            if stop.report is not None:                   # kind "report"
                r = stop.report
                self.rec.reports.append(str(r))
                self._add(Report(code=r.code, message=r.message, line=r.line, statement=r.statement))
                return
            w = stop.wait
            if w is None:
                raise DriverError(f"the run stopped ({stop.kind}) neither at a wait for a key nor at a report")
            self.observer.observe_picture(self._moment(w), w.line)      # the screen at every wait for a person
            if self.every_action_screen:
                self._shot("action")
            handler = self._waits.get((w.kind, w.line))
            if handler is None and w.kind == "pause":
                handler = self._any_key                   # the instruction pages' PAUSE 0
            if handler is None:
                raise DriverError(f"no handler for a {w.kind} wait at line {w.line}:{w.statement}")
            if handler(w):
                return
            self._keys_while_drawing()

    def _moment(self, w: WaitState) -> str:
        """The wait as the screen judgements name it: the card selector by its caller ("select 2720")."""
        if w.kind == "inkey" and w.line in P.SELECTOR_WAITS:
            stack = self.m.gosub_stack()
            return f"select {stack[0][0]}" if stack else f"select {w.line}"
        return f"{w.kind} {w.line}"

    def _wait(self, frames: int = MAX_WAIT_FRAMES) -> StopReason:
        return self.m.run(frames, until_wait=True, what="the program waiting for a key")

    # ------------------------------------------------------------------ INPUT answers
    def _input(self, w: WaitState) -> bool:
        self._inputs[w.line]()
        return False

    def _type(self, question: Question, proper: str) -> None:
        """Type the player's answer; an improper one (empty, a letter, out of range) is recorded as a choice."""
        text = self.player.answer(question, proper)
        if text != proper:
            self._add(Choice(what=ChoiceKind.ANSWER, text=f"{question.value}={text!r}"))
        self._clear_rejected_answer()
        typist = Typist(self.m)
        typist.answer(text)
        self.rec.actions += 1

    def _input_line(self) -> bytes:
        """What is typed at the INPUT now: the ROM edits an INPUT in the workspace (WORKSP)."""
        start = self.m.peek("WORKSP")
        data = self.m.read(start, max(0, self.m.peek("STKBOT") - start))
        cut = data.find(b"\x0d")
        return data[:cut] if cut >= 0 else data

    def _clear_rejected_answer(self) -> None:
        """Delete what is already on the INPUT line: a numeric answer the ROM rejected (kept, marked "?"),
        or keys held while the program drew its question. A string INPUT's line is "text" with the
        cursor before the closing quote, which stays."""
        typed = self._input_line()
        text = typed[1:-1] if typed[:1] == b'"' and typed[-1:] == b'"' and len(typed) >= 2 else typed
        if text:
            typist = Typist(self.m)
            for _ in range(len(text)):
                typist.key("CAPS SHIFT+0")               # DELETE
            self.rec.actions += 1

    def _ask_instructions(self) -> None:
        if not self._seeded:
            self.m.poke("SEED", self.seed % 65536)    # RANDOMIZE at 7005 read FRAMES: make the game the seed's
            self._seeded = True
            if self.on_first_question is not None:
                self.on_first_question()
        self._type(Question.INSTRUCTIONS, P.YES if self.player.instructions() else P.NO)

    def _ask_muggins(self) -> None:
        muggins = self.player.muggins()
        self._add(Options(muggins=muggins))
        self._type(Question.MUGGINS, P.YES if muggins else P.NO)

    def _ask_claim(self) -> None:
        true = int(sum(self.observer.number(v) for v in P.SHOW_PARTS.values()))
        self._type(Question.CLAIM, str(self.player.claim(true)))

    def _ask_continue(self) -> None:
        self._type(Question.CONTINUE_INSTRUCTIONS, P.YES if self.player.continue_instructions() else P.NO)

    def _ask_again(self) -> None:
        self.observer.observe_tally()
        computer, player = self.observer.games_tally()
        self._add(Tally(computer=computer, player=player))
        self._type(Question.AGAIN, P.YES if self.player.again() else P.NO)

    # ------------------------------------------------------------------ keys
    def _press_until(self, key: str, lines: set[int], max_frames: int = 400) -> None:
        """Hold *key* until the program reaches one of *lines*, then let go."""
        def reached(line: int, stmt: int) -> bool:
            return line in lines
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

    def _any_key(self, w: WaitState | None = None) -> bool:
        self.m.press("ENTER")
        self.m.run_frames(3)
        self.m.release("ENTER")
        self.rec.actions += 1
        return False

    def _keys_while_drawing(self) -> None:
        """A person pressing keys while the program draws or thinks (what the program makes of it is observed)."""
        frames = self.player.keys_while_drawing()
        if frames:
            self._add(Choice(what=ChoiceKind.KEYS_WHILE_DRAWING, count=frames))
            self.m.press("SPACE")
            try:
                self.m.run_frames(frames)
            finally:
                self.m.release("SPACE")

    def _cut(self, w: WaitState) -> bool:
        self._press_until("ENTER", {P.CUT_TAKEN})
        return False

    def _next_deal(self, w: WaitState) -> bool:
        self.observer.observe_board()
        if self.max_deals is not None and self.observer.deals >= self.max_deals:
            return True
        self._press_until("ENTER", {P.NEXT_DEAL_TAKEN})
        return False

    def _final_board(self, w: WaitState) -> bool:
        self._shot("final board")
        return self._any_key()

    def _board_demo(self, w: WaitState) -> bool:
        if self.player.board_demo():
            self._add(Choice(what=ChoiceKind.BOARD_DEMO))
            self._press_until("SPACE", {P.DEMO_STARTED})
        else:
            self._add(Choice(what=ChoiceKind.SKIP_DEMO))
            self._press_until("ENTER", {P.DEMO_SKIPPED})
        return False

    def _demo_again(self, w: WaitState) -> bool:
        if self.player.repeat_demo():
            self._add(Choice(what=ChoiceKind.REPEAT_DEMO))
            self._press_until("SPACE", {P.DEMO_STARTED})
            return False
        return self._any_key()

    # ------------------------------------------------------------------ the card selector 3700
    def _card_selector(self, w: WaitState) -> bool:
        caller = self.m.gosub_stack()[0][0]
        handler = self._selector.get(caller)
        if handler is None:
            raise DriverError(f"card selection called from line {caller}")
        handler()
        return False

    def _select(self, slot: int, slots: int) -> None:
        """Move the pointer of subroutine 3700 to *slot* with SPACE (it wraps after *slots*), choose it with ENTER."""
        for _ in range(slots):
            if int(self.observer.number(P.V_POINTER)) == slot:
                break
            self._press_until("SPACE", {P.SELECTOR_MOVED})
            self._wait()
        else:
            raise DriverError(f"the pointer never reached slot {slot}")
        self._press_until("ENTER", {P.SELECTOR_CHOSEN})

    def _first_discard(self) -> None:
        hand = self.observer.dealt["player"]
        self._discards = self.player.discard(list(hand), self.observer.get(P.V_DEALER) == P.MAN)
        self._add(Choice(what=ChoiceKind.DISCARD, slots=tuple(self._discards)))
        self._select(self._discards[0], P.SELECTOR_SLOTS[P.SELECT_FIRST_DISCARD])

    def _second_discard(self) -> None:
        if self.player.reselect():                    # the same card again: 7885 takes the choice back
            self._add(Choice(what=ChoiceKind.RESELECT, slot=self._discards[0]))
            self._select(int(self.observer.numbers(P.V_SERIES)[2]), P.SELECTOR_SLOTS[P.SELECT_SECOND_DISCARD])
            return
        self._select(self._discards[1], P.SELECTOR_SLOTS[P.SELECT_SECOND_DISCARD])

    def _play_context(self) -> PlayContext:
        o = self.observer
        ranks, suits = P.HAND_PLAYER
        slots = [o.card(r, s) if b else None for r, s, b in zip(o.numbers(ranks)[:4], o.text(suits)[:4], o.numbers(P.V_HELD)[:4])]
        return PlayContext(slots, list(self.table), int(o.number(P.V_COUNT)))

    def _play_turn(self) -> None:
        last = next((e for e in reversed(self.rec.events) if not isinstance(e, Picture)), None)
        if isinstance(last, Refused):                  # the picture of this wait comes after the refusal
            self._add(Message(text=self.observer.rows()[P.MESSAGE_ROW].rstrip()))
        self.observer.observe_play()
        ctx = self._play_context()
        choice = self.player.play(ctx)
        if choice == "empty":
            empty = ctx.empty_slots()
            if not empty:
                raise DriverError("the player wants an empty slot but has none")
            self._add(Choice(what=ChoiceKind.EMPTY_SLOT, slot=empty[0], count=ctx.count))
            self._select(empty[0], P.SELECTOR_SLOTS[P.SELECT_PLAY])
            return
        if choice == "go":
            empty = ctx.empty_slots()
            if not empty:
                raise DriverError("the player wants to say go but has no empty slot to choose")
            self._add(Choice(what=ChoiceKind.GO, count=ctx.count))
            self._select(empty[0], P.SELECTOR_SLOTS[P.SELECT_PLAY])
        else:
            self._add(Choice(what=ChoiceKind.PLAY, slot=int(choice), count=ctx.count))
            self._select(int(choice), P.SELECTOR_SLOTS[P.SELECT_PLAY])

    def _confirm_go(self) -> None:
        """«ВАШ ХОД?»: the empty slot again says go; a held card instead takes the go back (2760)."""
        ctx = self._play_context()
        held = [i + 1 for i, c in enumerate(ctx.slots) if c is not None]
        if held and self.player.cancel_go(ctx):
            slot = self.player.play(ctx)
            slot = slot if slot in held else held[0]
            self._add(Choice(what=ChoiceKind.CANCEL_GO, slot=int(slot), count=ctx.count))
            self._select(int(slot), P.SELECTOR_SLOTS[P.SELECT_GO_CONFIRM])
            return
        self._select(int(self.observer.number(P.V_GO_SLOT)), P.SELECTOR_SLOTS[P.SELECT_GO_CONFIRM])

    # ------------------------------------------------------------------ rigging a deal
    def _rig_deck(self) -> None:
        if self.rig is None or self.observer.deals >= self.rig.deals:
            return
        deck = [float(x) for x in self.observer.numbers(P.V_DECK)]
        numbers = [P.deck_number(c) for c in list(self.rig.computer) + list(self.rig.player)]
        rest = [x for x in deck if not any(abs(x - n) < 0.05 for n in numbers)]
        self.observer.v.set(P.V_DECK, numbers + rest)

    def _rig_dealer(self) -> None:
        if self.rig is not None and self.rig.dealer and self.observer.deals < self.rig.deals:
            dealer = Who(self.rig.dealer)
            self.observer.v.set(P.V_DEALER, P.INDEX[dealer])
            self._add(Rigged(dealer=dealer))

    def _rig_starter(self) -> None:
        if self.rig is None or self.rig.starter is None or self.observer.deals > self.rig.deals:
            return
        if P.STARTER_CUT_CALLER not in self.observer.stack_lines():
            return                                    # the cut for deal, not the starter
        r = int(self.observer.number(P.V_CUT_AT) + 0.5)  # BASIC rounds a subscript
        self.observer.v.set_element(P.V_DECK, r, P.deck_number(self.rig.starter))

    # ------------------------------------------------------------------ screenshots
    def _shot_show(self) -> None:
        self._shot(f"deal{self.observer.deals}-show-{self.observer.last_show or 'hand'}")

    def _shot(self, label: str) -> None:
        if self.keep_screens:
            self.rec.screens.append((label, render(self.m.mem, border=self.m.s.border, scale=1)))

    def screen_rows(self) -> list[str]:
        return self.observer.rows()
