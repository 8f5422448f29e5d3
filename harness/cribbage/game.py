"""A whole game as a state machine that says who scores what after each action.

Players are 0 and 1.  A deal goes: deal six each -> both discard two to the
crib -> starter (his heels) -> the play (cards and "go"s) -> the show
(non-dealer, dealer, crib).  The game stops the moment a player reaches the
game length.  :meth:`Game.replay` feeds a recorded transcript through the
machine and returns the expected score events of every action, which is what
an emulator run of the BASIC program is compared against.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence, TypeAlias

from ..errors import HarnessError
from .cards import Card, CardLike, CardsLike, format_cards, parse_cards, to_card
from .play import MAX_COUNT, is_legal, last_card_points, score_play
from .rules import PRESETS, STANDARD, Rules
from .show import HandScore, score_hand


class IllegalAction(HarnessError, ValueError):
    """An action the rules (or the current phase) do not allow."""


#: what the game waits for next (`Game.expected`): ("play", 1), ("go", 0), ("discard", (0, 1)), ("show",
#: "pone"), ("over",)...
Expected: TypeAlias = tuple[str] | tuple[str, int] | tuple[str, tuple[int, ...]] | tuple[str, str]

#: a recorded transcript or one deal of it, as read from JSON (its fields are checked as they are used)
Transcript: TypeAlias = Mapping[str, object]


@dataclass(frozen=True)
class ScoreEvent:
    """``player`` scores ``points`` for ``reason``.

    ``rule`` names the :class:`Rules` field that decided the value when the
    sources disagree on it (e.g. "his_heels", "thirty_one_last_card").
    ``detail`` holds the :class:`HandScore` of a show.
    """

    player: int
    points: int
    reason: str
    cards: tuple[Card, ...] = ()
    rule: str | None = None
    detail: HandScore | None = field(default=None, compare=False)

    def __str__(self) -> str:
        cards = f" ({format_cards(self.cards)})" if self.cards else ""
        return f"player {self.player} +{self.points} {self.reason}{cards}"


@dataclass(frozen=True)
class Step:
    """One replayed action and the events it produced."""

    action: str
    player: int | None
    events: tuple[ScoreEvent, ...]

    @property
    def points(self) -> dict[int, int]:
        out = {0: 0, 1: 0}
        for e in self.events:
            out[e.player] += e.points
        return out


def _other(p: int | None) -> int:
    if p is None:
        raise IllegalAction("who deals? cut for deal or give the dealer")
    return 1 - p


def _check_player(p: object) -> int:
    if p not in (0, 1):
        raise IllegalAction(f"player must be 0 or 1, not {p!r}")
    return 1 if p == 1 else 0


SHOW_ORDER = ("pone", "dealer", "crib")


class Game:
    """The rules engine for one game (several deals) between players 0 and 1."""

    def __init__(self, rules: Rules | str = STANDARD, dealer: int | None = None):
        self.rules = PRESETS[rules] if isinstance(rules, str) else rules
        self.scores = [0, 0]
        self.dealer = None if dealer is None else _check_player(dealer)
        self.winner: int | None = None
        self.deal_number = 0
        self.log: list[Step] = []
        self.phase = "cut" if dealer is None else "deal"
        self._phase_at_end = self.phase     # the phase a game was in when it ended (for resync)

    # --- bookkeeping ---------------------------------------------------------

    def _apply(self, events: list[ScoreEvent]) -> list[ScoreEvent]:
        """Peg the events in order; stop the moment somebody reaches the target."""
        applied = []
        for e in events:
            if self.winner is not None:
                break
            applied.append(e)
            self.scores[e.player] += e.points
            if self.scores[e.player] >= self.rules.game_length:
                self.winner = e.player
                self._phase_at_end = self.phase
                self.phase = "over"
        return applied

    def resync(self, scores: list[int] | tuple[int, int]) -> None:
        """Take *scores* as the game's scores from now on.

        For following a game whose pegging was recorded elsewhere (a program
        under test that pegged differently): each later action is then judged
        from where that game really stands. A game that ended only because of
        the engine's own pegging goes on in the phase it ended in; one that
        the new scores end is over.
        """
        self.scores = [int(scores[0]), int(scores[1])]
        reached = [p for p in (0, 1) if self.scores[p] >= self.rules.game_length]
        if self.phase == "over" and not reached:
            self.winner, self.phase = None, self._phase_at_end
            if self.phase == "show" and self.show_index == len(SHOW_ORDER):
                self.phase, self.dealer = "deal", _other(self.dealer)     # the show had ended the deal
        elif self.phase != "over" and reached:
            self.winner, self._phase_at_end, self.phase = reached[0], self.phase, "over"

    def _record(self, action: str, player: int | None, events: list[ScoreEvent]) -> list[ScoreEvent]:
        applied = self._apply(events)
        self.log.append(Step(action, player, tuple(applied)))
        return applied

    def _need(self, *phases: str) -> None:
        if self.phase == "over":
            raise IllegalAction(f"the game is over: player {self.winner} won")
        if self.phase not in phases:
            raise IllegalAction(f"not allowed in phase {self.phase!r} (expected {'/'.join(phases)})")

    @property
    def pone(self) -> int:
        return _other(self.dealer)

    @property
    def current_dealer(self) -> int:
        """The dealer of this deal; an IllegalAction before anyone deals."""
        return _other(self.pone)

    def game_result(self) -> tuple[int, int, int]:
        """(winner, loser's score, game points) once the game is over."""
        if self.winner is None:
            raise IllegalAction("the game is not over")
        loser_score = self.scores[_other(self.winner)]
        return self.winner, loser_score, self.rules.game_points_for(loser_score)

    # --- cut for deal --------------------------------------------------------

    def cut_for_deal(self, card0: CardLike, card1: CardLike) -> int | None:
        """«МЛАДШАЯ КАРТА СДАЕТ» (the lower card deals; ace low).  Equal ranks
        cut again (program line 4940 redraws an equal card): returns None."""
        self._need("cut")
        c0, c1 = to_card(card0), to_card(card1)
        if c0 == c1:
            raise IllegalAction(f"both players cannot cut the same card {c0}")
        if c0.rank == c1.rank:
            self.log.append(Step(f"cut {c0} {c1} (tie, cut again)", None, ()))
            return None
        low = 0 if c0.rank < c1.rank else 1
        self.dealer = low if self.rules.lower_card_deals else _other(low)
        self.phase = "deal"
        self.log.append(Step(f"cut {c0} {c1}", self.dealer, ()))
        return self.dealer

    # --- the deal ------------------------------------------------------------

    def deal(self, hand0: CardsLike, hand1: CardsLike, dealer: int | None = None) -> list[ScoreEvent]:
        """«1. Каждому сдаются по 6 карт.»  The deal alternates between players."""
        self._need("deal", "cut")
        if dealer is not None:
            dealer = _check_player(dealer)
            if self.deal_number > 0 and dealer != self.dealer:
                raise IllegalAction(f"the deal alternates: player {self.dealer} deals now")
            self.dealer = dealer
        if self.dealer is None:
            raise IllegalAction("who deals? cut for deal or give the dealer")
        hands = [list(parse_cards(hand0)), list(parse_cards(hand1))]
        for p, h in enumerate(hands):
            if len(h) != 6:
                raise IllegalAction(f"player {p} must get 6 cards, got {format_cards(h)}")
        if len(set(hands[0] + hands[1])) != 12:
            raise IllegalAction("the two hands share or repeat a card")
        self.hands = hands
        self.crib: list[Card] = []
        self.discarded: list[tuple[Card, ...] | None] = [None, None]
        self.starter_card: Card | None = None
        self.deal_number += 1
        self.phase = "discard"
        return self._record(f"deal {self.deal_number} (dealer {self.dealer})", self.dealer, [])

    def discard(self, player: int, cards: CardsLike) -> list[ScoreEvent]:
        """«Каждый ... по две карты сбрасывает на стол рубашкой вверх» to the crib."""
        self._need("discard")
        p = _check_player(player)
        if self.discarded[p] is not None:
            raise IllegalAction(f"player {p} has already discarded")
        cs = parse_cards(cards)
        if len(cs) != 2 or cs[0] == cs[1]:
            raise IllegalAction(f"discard exactly two cards, got {format_cards(cs)}")
        for c in cs:
            if c not in self.hands[p]:
                raise IllegalAction(f"player {p} does not hold {c}")
        for c in cs:
            self.hands[p].remove(c)
        self.discarded[p] = cs
        pone_thrown, dealer_thrown = self.discarded[self.pone], self.discarded[self.current_dealer]
        if pone_thrown is not None and dealer_thrown is not None:
            # the crib listed as non-dealer's discards then dealer's
            self.crib = list(pone_thrown) + list(dealer_thrown)
            self.phase = "starter"
        return self._record(f"discard {format_cards(cs)}", p, [])

    def starter(self, card: CardLike) -> list[ScoreEvent]:
        """Turn the starter; his heels: "If the starter is a jack, the dealer
        scores two points 'for his heels'" (article text: 1, see Rules)."""
        self._need("starter")
        c = to_card(card)
        if c in self.hands[0] or c in self.hands[1] or c in self.crib:
            raise IllegalAction(f"starter {c} is already in a hand or the crib")
        self.starter_card = c
        self.shown_hands = [tuple(self.hands[0]), tuple(self.hands[1])]
        self.left = [list(self.hands[0]), list(self.hands[1])]
        self.series: list[Card] = []
        self.series_players: list[int] = []
        self.gone: set[int] = set()
        self.turn = self.pone  # «Первым выкладывает любую свою карту несдававший»
        self.must_go = False
        self.show_index = 0
        self.phase = "play"
        events = []
        if c.rank == 11 and self.rules.his_heels:
            events.append(ScoreEvent(self.current_dealer, self.rules.his_heels, "his heels",
                                     (c,), rule="his_heels"))
        return self._record(f"starter {c}", self.dealer, events)

    # --- the play ------------------------------------------------------------

    @property
    def count(self) -> int:
        return sum(c.value for c in self.series)

    def _can_play(self, p: int) -> bool:
        return any(is_legal(c, self.count) for c in self.left[p])

    def _end_series(self, last: int, events: list[ScoreEvent]) -> None:
        """Close the series: the go (or last card) goes to the player who laid
        the last card; «Первым кладет карту тот, кто первым пропустил ход» --
        i.e. the player after the one who played last leads the next series."""
        count = self.count
        out_of_cards = not self.left[0] and not self.left[1]
        if out_of_cards:
            pts = last_card_points(count, self.rules)
            if pts:
                rule = "thirty_one_last_card" if count == MAX_COUNT else None
                events.append(ScoreEvent(last, pts, "last card", (self.series[-1],), rule=rule))
        elif count < MAX_COUNT:
            if self.left[_other(last)] or self.rules.go_point_when_opponent_out:
                rule = None if self.left[_other(last)] else "go_point_when_opponent_out"
                events.append(ScoreEvent(last, 1, "go", (self.series[-1],), rule=rule))
        self.series = []
        self.series_players = []
        self.gone = set()
        self.must_go = False
        if out_of_cards:
            self.phase = "show"
            return
        self.turn = _other(last) if self.left[_other(last)] else last

    def _resolve_turn(self, actor: int, events: list[ScoreEvent]) -> None:
        """Who acts next after ``actor``: the opponent unless he has said go or
        has no cards; a player holding cards but none legal must say go; when
        nobody can act the series ends."""
        if not self.series_players:
            # a go forced before any card of the series: nobody has laid a card to score it, so the
            # turn just passes to the opponent if he can act
            other = _other(actor)
            if other not in self.gone and self.left[other]:
                self.turn, self.must_go = other, not self._can_play(other)
            return
        last = self.series_players[-1]
        if self.count == MAX_COUNT or (not self.left[0] and not self.left[1]):
            self._end_series(last, events)
            return
        for p in (_other(actor), actor):
            if p in self.gone or not self.left[p]:
                continue
            self.turn = p
            self.must_go = not self._can_play(p)
            return
        self._end_series(last, events)

    def owner(self, card: CardLike) -> int | None:
        c = to_card(card)
        for p in (0, 1):
            if c in self.left[p]:
                return p
        return None

    def play(self, card: CardLike, player: int | None = None, force: bool = False) -> list[ScoreEvent]:
        """Lay a card: «нельзя, чтобы сумма выложенных карт превысила 31 очко».

        ``force`` records a card laid out of turn (a program under test let
        the other player lead), so the game can follow what really happened;
        a card past 31 is refused even then."""
        self._need("play")
        c = to_card(card)
        p = self.owner(c)
        if p is None:
            raise IllegalAction(f"{c} is not in either hand (or was already played)")
        if player is not None and _check_player(player) != p:
            raise IllegalAction(f"{c} belongs to player {p}, not player {player}")
        if p != self.turn and not force:
            raise IllegalAction(f"it is player {self.turn}'s turn, not player {p}'s ({c})")
        self.turn = p
        if not is_legal(c, self.count):
            raise IllegalAction(f"{c} would pass 31 (count {self.count})")
        self.left[p].remove(c)
        self.series.append(c)
        self.series_players.append(p)
        score = score_play(self.series, self.rules)
        events = [ScoreEvent(p, cb.points, cb.kind, cb.cards) for cb in score.combinations]
        self._resolve_turn(p, events)
        return self._record(f"play {c} (count {score.count})", p, events)

    def go(self, player: int | None = None, force: bool = False) -> list[ScoreEvent]:
        """«Тогда он объявляет "ХОД"»: only a player to move who holds cards
        but cannot lay any of them without passing 31 may say go.

        ``force`` records a go the rules do not allow (a program under test
        accepted it), so the game can follow what really happened."""
        self._need("play")
        p = self.turn if player is None else _check_player(player)
        if p != self.turn:
            raise IllegalAction(f"it is player {self.turn}'s turn, not player {p}'s")
        if not self.must_go and not force:
            raise IllegalAction(f"player {p} can play at count {self.count}; no go")
        self.gone.add(p)
        count = self.count
        events: list[ScoreEvent] = []
        self._resolve_turn(p, events)
        return self._record(f"go (count {count})", p, events)

    # --- the show ------------------------------------------------------------

    def show(self, claim: int | None = None) -> list[ScoreEvent]:
        """Count the next hand, in the order "non-dealer's hand, dealer's hand,
        and crib"; ``claim`` is what the player declared (for muggins)."""
        self._need("show")
        which = SHOW_ORDER[self.show_index]
        self.show_index += 1
        owner = self.pone if which == "pone" else self.current_dealer
        cards = self.crib if which == "crib" else self.shown_hands[owner]
        if self.starter_card is None:
            raise IllegalAction("no starter was turned")
        hs = score_hand(cards, self.starter_card, crib=(which == "crib"), rules=self.rules)
        events = self._muggins(owner, hs, "crib" if which == "crib" else "hand", claim)
        if self.show_index == len(SHOW_ORDER) and self.phase != "over":
            self.phase = "deal"
            self.dealer = _other(self.dealer)
        return self._record(f"show {which}", owner, events)

    def _muggins(self, owner: int, hs: HandScore, reason: str, claim: int | None) -> list[ScoreEvent]:
        """Standard muggins: «эти очки, которые он увидел, а Вы - нет, запишутся
        ему» (the opponent takes what was missed; an over-claim is just
        corrected).  "whole_hand": any wrong claim and the opponent takes the
        whole true total, the claimer nothing."""
        if hs.starter is None:
            raise IllegalAction("a show is counted with the starter")
        true = hs.total
        style = self.rules.muggins
        if claim is None or style == "off" or claim == true:
            return [ScoreEvent(owner, true, reason, hs.hand + (hs.starter,), detail=hs)]
        if style == "whole_hand":
            return [ScoreEvent(owner, 0, reason, hs.hand + (hs.starter,), rule="muggins", detail=hs),
                    ScoreEvent(_other(owner), true, "muggins", hs.hand + (hs.starter,),
                               rule="muggins", detail=hs)]
        if claim > true:
            return [ScoreEvent(owner, true, reason, hs.hand + (hs.starter,), rule="muggins", detail=hs)]
        return [ScoreEvent(owner, claim, reason, hs.hand + (hs.starter,), rule="muggins", detail=hs),
                ScoreEvent(_other(owner), true - claim, "muggins", hs.hand + (hs.starter,),
                           rule="muggins", detail=hs)]

    # --- what next -----------------------------------------------------------

    def expected(self) -> Expected:
        """The next action the machine waits for, e.g. ("play", 1) or ("go", 0)."""
        if self.phase == "play":
            return ("go" if self.must_go else "play", self.turn)
        if self.phase == "discard":
            return ("discard", tuple(p for p in (0, 1) if self.discarded[p] is None))
        if self.phase == "show":
            return ("show", SHOW_ORDER[self.show_index])
        return (self.phase,)

    # --- transcripts ---------------------------------------------------------

    def replay_deal(self, deal: Transcript, strict: bool = True) -> list[Step]:
        """Replay one deal: ``{"dealer", "hands": [six, six], "discards": [two,
        two], "starter", "plays": [card | "go", ...], "claims": [pone, dealer,
        crib]}`` (``hands[p]``/``discards[p]`` are player p's).  A go that the
        transcript leaves out is inserted as "go (implied)"; with
        ``strict=False`` a go nobody owes is recorded and skipped."""
        start = len(self.log)
        hands = _listed(deal["hands"], "hands")
        self.deal(_cards(hands[0], "hands"), _cards(hands[1], "hands"), _player(deal.get("dealer"), "dealer"))
        for p in (self.pone, self.current_dealer):
            if self.phase == "over":
                break
            self.discard(p, _cards(_listed(deal["discards"], "discards")[p], "discards"))
        if self.phase != "over":
            self.starter(_card(deal["starter"], "starter"))
        for item in _listed(deal.get("plays", []), "plays"):
            if self.phase != "play":
                break
            if isinstance(item, str) and item.strip().lower() == "go":
                if not self.must_go and not strict:
                    self.log.append(Step("go (ignored: not expected)", self.turn, ()))
                    continue
                self.go()
                continue
            c = to_card(_card(item, "plays"))
            # the player to move cannot lay anything: a go was left out
            while self.phase == "play" and self.must_go:
                self._implied_go()
            self.play(c)
        while self.phase == "play" and self.must_go:
            self._implied_go()
        if self.phase == "play":
            raise IllegalAction(f"transcript ends in the play; waiting for {self.expected()}")
        claims = list(_listed(deal.get("claims") or [None, None, None], "claims"))
        while self.phase == "show":
            self.show(_player(claims[self.show_index], "claims"))
        return self.log[start:]

    def _implied_go(self) -> None:
        self.go()
        step = self.log[-1]
        self.log[-1] = Step(step.action.replace("go", "go (implied)", 1), step.player, step.events)

    def replay(self, transcript: Transcript, strict: bool = True) -> list[Step]:
        """Replay ``{"cut": [c0, c1]?, "deals": [deal, ...]}`` or a single deal."""
        steps: list[Step] = []
        if "cut" in transcript:
            start = len(self.log)
            c0, c1 = _listed(transcript["cut"], "cut")
            self.cut_for_deal(_card(c0, "cut"), _card(c1, "cut"))
            steps += self.log[start:]
        deals = _listed(transcript["deals"], "deals") if "deals" in transcript else [transcript]
        for d in deals:
            if not isinstance(d, Mapping):
                raise IllegalAction(f"transcript: a deal is not an object: {d!r}")
            if self.phase == "over":
                break
            steps += self.replay_deal(d, strict=strict)
        return steps


def replay(transcript: Transcript, rules: Rules | str = STANDARD,
           strict: bool = True) -> tuple[Game, list[Step]]:
    """Convenience: a fresh :class:`Game` replaying ``transcript``."""
    g = Game(rules)
    return g, g.replay(transcript, strict=strict)


def _listed(value: object, what: str) -> Sequence[object]:
    """A transcript's list (of hands, plays, claims...)."""
    if isinstance(value, (list, tuple)):
        return value
    raise IllegalAction(f"transcript: {what} is not a list: {value!r}")


def _card(value: object, what: str) -> CardLike:
    """A transcript's card: a Card, its index or its text ("5H")."""
    if isinstance(value, (Card, int, str)):
        return value
    raise IllegalAction(f"transcript: {what} has {value!r}, not a card")


def _cards(value: object, what: str) -> CardsLike:
    """A transcript's cards: a text ("5H 6D ..."), or a list of cards."""
    if isinstance(value, str):
        return value
    return [_card(v, what) for v in _listed(value, what)]


def _player(value: object, what: str) -> int | None:
    """A transcript's player (0, 1) or claim (points), or None where it says nothing."""
    if value is None or isinstance(value, int):
        return value
    raise IllegalAction(f"transcript: {what} has {value!r}, not a whole number")
