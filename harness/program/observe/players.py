"""Automated human players: they decide; the driver turns decisions into keystrokes.

Every player sees only what a person at the screen would know (own hand, the
table, the count, the starter), decides with its own seeded random generator,
and never touches the machine. Strategies: random-legal, greedy (the
reference engine's best immediate points and best expected discard),
scripted (a list of choices), and adversarial (what a careless person tries:
a card past 31, a false "go", a wrong muggins count).
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum

from ...cribbage import best_discard, score_play
from ...cribbage.cards import Card
from ...cribbage.discard import ev_best_discard
from ...cribbage.pegging import best_peg
from ...cribbage.play import is_legal


@dataclass
class PlayContext:
    """What the player sees when it is to lay a card."""
    slots: list[Card | None]      # the four slots of the hand; None where the card was played
    table: list[Card]             # cards of the current series, in order
    count: int

    def legal_slots(self) -> list[int]:
        return [i + 1 for i, c in enumerate(self.slots) if c is not None and is_legal(c, self.count)]

    def legal_cards(self) -> list[tuple[int, Card]]:
        """(slot, card) of each card that may be laid now."""
        return [(i + 1, c) for i, c in enumerate(self.slots) if c is not None and is_legal(c, self.count)]

    def empty_slots(self) -> list[int]:
        return [i + 1 for i, c in enumerate(self.slots) if c is None]


class Question(StrEnum):
    """The program's INPUT questions (their lines are in the program model)."""
    INSTRUCTIONS = "instructions"
    MUGGINS = "muggins"
    CLAIM = "claim"
    CONTINUE_INSTRUCTIONS = "continue instructions"
    AGAIN = "again"


class Player:
    """Base: answers N to the instructions, muggins as configured, claims the true count,
    and never does anything a careful person would not (no reselect, no cancelled go, no stray keys)."""
    name = "base"

    def __init__(self, seed: int = 0, muggins: bool = False, instructions: bool = False):
        self.rng = random.Random(seed)
        self.use_muggins = muggins
        self.want_instructions = instructions

    def instructions(self) -> bool:
        return self.want_instructions

    def muggins(self) -> bool:
        return self.use_muggins

    def discard(self, hand: list[Card], my_crib: bool) -> tuple[int, int]:
        """Two 1-based positions of the six cards to lay in the crib."""
        i, j = sorted(self.rng.sample(range(1, 7), 2))
        return i, j

    def play(self, ctx: PlayContext) -> int | str:
        """A 1-based slot to lay, "go" (an empty slot at 22 or more), or "empty" (an empty slot below 22)."""
        legal = ctx.legal_slots()
        return self.rng.choice(legal) if legal else "go"

    def claim(self, true_total: int) -> int:
        """The count typed at «ВВЕДИТЕ СВОЙ СЧЕТ:» under muggins."""
        return true_total

    def again(self) -> bool:
        return False

    def continue_instructions(self) -> bool:
        return False

    def answer(self, question: Question, proper: str) -> str:
        """The text typed at an INPUT; *proper* is what the other methods decided."""
        return proper

    def reselect(self) -> bool:
        """Choose the first discard again instead of a second card (the program takes it back at 7885)."""
        return False

    def cancel_go(self, ctx: PlayContext) -> bool:
        """At «ВАШ ХОД?» choose a card instead of confirming the go."""
        return False

    def keys_while_drawing(self) -> int:
        """Frames to hold a key after an action while the program draws or thinks (0: none)."""
        return 0

    def board_demo(self) -> bool:
        """SPACE at «ДЛЯ ДЕМОНСТРАЦИИ НАЖМИТЕ SPACE» (with the instructions)."""
        return True

    def repeat_demo(self) -> bool:
        """SPACE at «ДЛЯ ПОВТОРА НАЖМИТЕ SPACE»."""
        return False


class RandomPlayer(Player):
    """Random legal choices."""
    name = "random"


class GreedyPlayer(Player):
    """The reference engine's best immediate points; the discard with the best expected show."""
    name = "greedy"

    def discard(self, hand: list[Card], my_crib: bool) -> tuple[int, int]:
        i, j = best_discard(hand, my_crib)
        return i + 1, j + 1

    def play(self, ctx: PlayContext) -> int | str:
        legal = ctx.legal_cards()
        if not legal:
            return "go"
        slot, _ = max(legal, key=lambda sc: (score_play(ctx.table + [sc[1]]).total, -sc[1].value, -sc[0]))
        return slot


class ExpectedValuePlayer(Player):
    """The engine's expected-value player: the discard with the best exact expected hand and crib (over
    every starter and the opponent's possible throws), the card with the most points now less the
    reply's risk. It remembers what it has seen in the deal: its six cards and the cards laid."""
    name = "ev"

    def __init__(self, seed: int = 0, **kwargs: bool):
        super().__init__(seed, **kwargs)
        self.dealt: set[Card] = set()
        self.kept: set[Card] = set()
        self.laid: set[Card] = set()          # every card seen on the table this deal

    def discard(self, hand: list[Card], my_crib: bool) -> tuple[int, int]:
        i, j = ev_best_discard(hand, my_crib)
        self.dealt = set(hand)
        self.kept = {c for k, c in enumerate(hand) if k not in (i, j)}
        self.laid = set()
        return i + 1, j + 1

    def play(self, ctx: PlayContext) -> int | str:
        held = [c for c in ctx.slots if c is not None]
        self.laid |= set(ctx.table)
        seen = sorted((self.dealt | self.laid) - set(held) - set(ctx.table))
        card = best_peg(held, ctx.table, seen, max(0, 4 - len(self.laid - self.kept)))
        return "go" if card is None else ctx.slots.index(card) + 1


class ScriptedPlayer(Player):
    """Plays a list of choices: discards as (i, j) tuples, plays as slot numbers or "go", claims as ints."""
    name = "scripted"

    def __init__(self, choices: list[tuple[int, int] | int | str], seed: int = 0, **kwargs: bool):
        super().__init__(seed, **kwargs)
        self.choices = list(choices)

    def _next(self, what: str) -> tuple[int, int] | int | str:
        if not self.choices:
            raise IndexError(f"the script has no choice left for {what}")
        return self.choices.pop(0)

    def discard(self, hand: list[Card], my_crib: bool) -> tuple[int, int]:
        choice = self._next("a discard")
        if not isinstance(choice, tuple):
            raise TypeError(f"the script's discard is {choice!r}, not a pair of slots")
        i, j = choice
        return i, j

    def play(self, ctx: PlayContext) -> int | str:
        choice = self._next("a play")
        if isinstance(choice, tuple):
            raise TypeError(f"the script's play is {choice!r}, not a slot or \"go\"")
        return choice

    def claim(self, true_total: int) -> int:
        choice = self._next("a muggins claim")
        if not isinstance(choice, int):
            raise TypeError(f"the script's muggins claim is {choice!r}, not a number")
        return choice


class AdversarialPlayer(RandomPlayer):
    """Tries what a careless person does, once in a while: an illegal card past 31,
    a false go while able to play, a wrong muggins count. Each try is recorded."""
    name = "adversarial"

    def __init__(self, seed: int = 0, **kwargs: bool):
        kwargs.setdefault("muggins", True)
        super().__init__(seed, **kwargs)
        self.tries: list[str] = []

    def play(self, ctx: PlayContext) -> int | str:
        illegal = [i + 1 for i, c in enumerate(ctx.slots) if c is not None and not is_legal(c, ctx.count)]
        if illegal and self.rng.random() < 0.5:
            self.tries.append("illegal card")
            return illegal[0]
        if ctx.legal_slots() and ctx.count >= 22 and ctx.empty_slots() and self.rng.random() < 0.5:
            self.tries.append("false go")
            return "go"
        return super().play(ctx)

    def claim(self, true_total: int) -> int:
        if self.rng.random() < 0.5:
            self.tries.append("wrong claim")
            return max(0, true_total + self.rng.choice((-2, -1, 1, 2)))
        return true_total


class ExplorerPlayer(RandomPlayer):
    """Takes every choice a person has, now and then: the instructions and the board demo, muggins,
    improper answers at every INPUT (empty, a letter, out of range), a reselected discard, a go taken
    back at the confirmation, a false go, keys pressed while the program draws, and a second game.

    *improper* lists the questions at which to type something improper first (once each): an empty
    answer at the instructions question stops the original with a report, which is a finding."""
    name = "explorer"

    def __init__(self, seed: int = 0, games: int = 2, improper: tuple[Question, ...] = (
                 Question.MUGGINS, Question.CLAIM, Question.AGAIN, Question.CONTINUE_INSTRUCTIONS), **kwargs: bool):
        kwargs.setdefault("muggins", True)
        kwargs.setdefault("instructions", True)
        super().__init__(seed, **kwargs)
        self.games_left = games
        self.improper = {q: self._improper_answers(q) for q in improper}
        self.tries: list[str] = []

    @staticmethod
    def _improper_answers(q: Question) -> list[str]:
        if q is Question.CLAIM:
            return ["", "99", "-1"]            # empty, over 50 and below 0 (4785 asks again)
        return ["", "y", "X"]                   # empty, lowercase (CAPS LOCK is on), another letter

    def answer(self, question: Question, proper: str) -> str:
        tries = self.improper.get(question)
        if tries and self.rng.random() < 0.7:
            text = tries.pop(0)
            self.tries.append(f"{question}={text!r}")
            return text
        return proper

    def continue_instructions(self) -> bool:
        return self.rng.random() < 0.5

    def again(self) -> bool:
        self.games_left -= 1
        return self.games_left > 0

    def reselect(self) -> bool:
        return self.rng.random() < 0.3

    def cancel_go(self, ctx: PlayContext) -> bool:
        return self.rng.random() < 0.5

    def play(self, ctx: PlayContext) -> int | str:
        if ctx.legal_slots() and ctx.count >= 22 and ctx.empty_slots() and self.rng.random() < 0.3:
            self.tries.append("false go")
            return "go"
        if ctx.count < 22 and ctx.empty_slots() and self.rng.random() < 0.1:
            self.tries.append("empty slot")
            return "empty"
        return super().play(ctx)

    def board_demo(self) -> bool:
        return self.rng.random() < 0.5

    def repeat_demo(self) -> bool:
        return self.rng.random() < 0.3

    def claim(self, true_total: int) -> int:
        return true_total if self.rng.random() < 0.7 else max(0, true_total + self.rng.choice((-1, 1)))

    def keys_while_drawing(self) -> int:
        return self.rng.choice((0, 0, 0, 0, 5, 30))


class StopperPlayer(ExplorerPlayer):
    """The answers that stop the original with a report (findings F1 and F2): ENTER alone at the
    first question when *first* is set, else a letter at the first muggins count."""
    name = "stopper"

    def __init__(self, seed: int = 0, first: bool | None = None, **kwargs: bool):
        super().__init__(seed, games=1, improper=(), **kwargs)
        self.first = seed % 2 == 0 if first is None else first

    def answer(self, question: Question, proper: str) -> str:
        if (question is Question.INSTRUCTIONS and self.first) or (question is Question.CLAIM and not self.first):
            self.tries.append(f"{question}={'' if self.first else 'A'!r}")
            return "" if self.first else "A"
        return proper


class SeriesPlayer(RandomPlayer):
    """Random choices, and several games in a row on one machine («СЫГРАЕМ ЕЩЕ?» answered Y): the later
    games start from the RND and the deck the earlier ones left (what `fairness` compares)."""
    name = "series"

    def __init__(self, seed: int = 0, games: int = 2, **kwargs: bool):
        super().__init__(seed, **kwargs)
        self.games_left = games

    def again(self) -> bool:
        self.games_left -= 1
        return self.games_left > 0


PLAYERS: dict[str, type[Player]] = {cls.name: cls for cls in (RandomPlayer, GreedyPlayer, AdversarialPlayer, ExplorerPlayer, StopperPlayer,
                                     SeriesPlayer)}
PLAYERS[ExpectedValuePlayer.name] = ExpectedValuePlayer      # `strength`'s opponent (kept apart: an additive line)


def make(strategy: str, seed: int) -> Player:
    """The player a strategy name stands for; "series:N" plays N games in a row."""
    name, _, games = strategy.partition(":")
    if name not in PLAYERS:
        raise ValueError(f"unknown player strategy {strategy!r} (one of {', '.join(sorted(PLAYERS))})")
    if games:
        if name != "series" or not games.isdigit() or int(games) < 1:
            raise ValueError(f"strategy {strategy!r}: only series takes a number of games (series:N, N >= 1)")
        return SeriesPlayer(seed=seed, games=int(games))
    return PLAYERS[name](seed=seed)
