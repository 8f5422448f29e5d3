"""Each kind of event in words, declared once: the report's row and the live referee's panel lines.

`WORDS` holds, for every `events.EventKind`, what the two views say of such an event:

* ``row(ev)``: the report's row (harness/edition/report.py `game_view`): its text, the cards it
  shows, and whether it shows the running count of the play;
* ``panel(ev, seen)``: the referee's block (harness/play/referee.py `event_block`): its lines with
  their tone, each secret by what it veils ("hand", "crib", "claim:player") with the words shown
  instead, and whether the action's judgements are veiled under the same secret; None: a peg of the
  board demo, folded into one line. *seen* is what the referee knows beyond the event (`Seen`).

The report writes to a reader of the whole game (the player, the computer); the panel to the person
at the keys (you). Both views are layout only: a new kind of event is a row of this table, and
`test_words.py` fails on a kind without one.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Generic, Protocol, TypeVar

from ...cribbage.cards import card_name, cards_text, parse_cards, rank_name
from . import events as E


def shown(value: object) -> str:
    """A record's value for people: no Python or JSON spellings."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(shown(v) for v in value) or "none"
    if isinstance(value, dict):
        return "; ".join(f"{k} {shown(v)}" for k, v in value.items()) or "none"
    return str(getattr(value, "value", value))


def named(value: object) -> str:
    """An enum's value as the report names it ("computer", "crib", "play"); nothing for None."""
    return str(getattr(value, "value", value)) if value is not None else ""


def spoken(who: object) -> str:
    """Who, as the panel says it to the player: "you", or "computer"."""
    return "you" if str(who) == E.Who.PLAYER.value else str(who)


def _s(who: object) -> str:
    return "" if spoken(who) == "you" else "s"


@dataclass(frozen=True)
class RowWords:
    """The report's row of an event: its words, the cards it shows, and whether it shows the play's count."""
    text: str = ""
    cards: tuple[str, ...] = ()
    count: bool = False


@dataclass(frozen=True)
class Line:
    """A panel line: its words and tone; with a *secret* (what it veils, as "crib"), *veil* is shown instead
    (or nothing) until the referee reveals it."""
    text: str
    tone: str
    secret: str | None = None
    veil: str | None = None


@dataclass(frozen=True)
class PanelWords:
    """A panel block's lines; *secret*: the action's judgements are veiled under it too."""
    lines: tuple[Line, ...] = ()
    secret: str | None = None


class Seen(Protocol):
    """What the referee knows beyond the event it narrates."""

    @property
    def played(self) -> bool:
        """A card was laid since the deal or the last reset."""

    @property
    def dealer(self) -> E.Who | None:
        """Who deals this deal (None before the first)."""

    def muggins_on(self) -> bool:
        """Muggins was answered yes."""


EventT = TypeVar("EventT", bound=E.Event)


class EventWords(Protocol):
    """What the views ask of a row of `WORDS`: the report's row and the panel's block of an event of its kind."""

    def row(self, ev: E.Event) -> RowWords: ...

    def panel(self, ev: E.Event, seen: Seen) -> PanelWords | None: ...


@dataclass(frozen=True)
class Words(Generic[EventT]):
    """The words of one kind of event: *row_of* and *panel_of* take its class's events (*cls*), so each is checked
    against the fields of that class."""
    cls: type[EventT]
    row_of: Callable[[EventT], RowWords]
    panel_of: Callable[[EventT, Seen], PanelWords | None]

    def row(self, ev: E.Event) -> RowWords:
        return self.row_of(self._own(ev))

    def panel(self, ev: E.Event, seen: Seen) -> PanelWords | None:
        return self.panel_of(self._own(ev), seen)

    def _own(self, ev: E.Event) -> EventT:
        if not isinstance(ev, self.cls):
            raise TypeError(f"a {ev.kind.value} event given to the words of {self.cls.__name__}")
        return ev


def _generic_row(ev: E.Event) -> RowWords:
    """An event no row words name: its fields as they are (a message, a report, a failure...)."""
    return RowWords("; ".join(f"{k.replace('_', ' ')} {shown(v)}" for k, v in E.event_to_json(ev).items()
                              if k not in ("kind", "rows", "variables")))


def _silent(ev: E.Event, seen: Seen) -> PanelWords:
    """Screen observations, choices, messages: judged, not narrated."""
    return PanelWords()


def _one(text: str, tone: str = "event") -> PanelWords:
    return PanelWords((Line(text, tone),))


def _count_after(ev: E.Play) -> int:
    """The count after the card: the player's Play has it (T at 2780), the computer's the count before (SUM)."""
    if ev.who == E.Who.COMPUTER:
        return ev.count + parse_cards(ev.card)[0].value
    return ev.count


def _deal_panel(ev: E.Deal, seen: Seen) -> PanelWords:
    return PanelWords((Line(f"Deal {ev.n}: {spoken(ev.dealer)} deal{_s(ev.dealer)}", "heading"),
                       Line(f"  computer: {cards_text(ev.computer)}", "event", "hand",
                            "  computer: six cards, face down"),
                       Line(f"  you:      {cards_text(ev.player)}", "event")))


def _discard_panel(ev: E.Discard, seen: Seen) -> PanelWords:
    if ev.who == E.Who.COMPUTER:
        return PanelWords((Line(f"computer to the crib: {cards_text(ev.cards)}", "event", "crib",
                                "computer to the crib: two cards, face down"),), "crib")
    return _one(f"you to the crib: {cards_text(ev.cards)}")


def _reset_panel(ev: E.Reset, seen: Seen) -> PanelWords:
    if not seen.played:
        return PanelWords()          # 4400 before the first card (the last deal's count): nothing to say
    return _one(f"count {ev.count}: back to 0")


def _score_panel(ev: E.Score, seen: Seen) -> PanelWords | None:
    if ev.context == E.ScoreContext.DEMO:
        return None
    return _one(f"  program pegs {spoken(ev.who)} +{ev.points} ({ev.context.value}): "
                f"{ev.before} -> {ev.before + ev.points}")


def _show_panel(ev: E.Show, seen: Seen) -> PanelWords:
    shown_ranks = " ".join(rank_name(r) for r in ev.ranks if 1 <= r <= 13)  # H$() is not kept in step with H()
    total = ev.fifteens + ev.pairs + ev.runs + ev.flush + ev.nobs
    mine = ev.hand == E.ShowHand.PLAYER or (ev.hand == E.ShowHand.CRIB and seen.dealer == E.Who.PLAYER)
    secret = f"claim:{ev.hand.value}" if mine and seen.muggins_on() else None
    return PanelWords((Line(f"Show, {ev.hand.value} (ranks {shown_ranks})", "heading"),
                       Line(f"  program: fifteens {ev.fifteens}, pairs {ev.pairs}, runs {ev.runs}, "
                            f"flush {ev.flush}, nobs {ev.nobs} = {total}", "event", secret,
                            "  (muggins: the count is shown once you have typed your claim)")), secret)


def _win_row(ev: E.Win) -> RowWords:
    return RowWords(f"{named(ev.who)} wins {ev.computer}–{ev.player} (computer–player)"
                    + (f"; the game is credited to the {named(ev.credited)}" if ev.credited else ""))


def _picture_row(ev: E.Picture) -> RowWords:
    return RowWords(f"the screen at {ev.moment} (line {ev.line})"
                    + (", taken while a drawing routine ran: not judged" if ev.drawing else ""))


WORDS: dict[E.EventKind, EventWords] = {
    E.EventKind.CUT: Words(E.Cut,
        lambda ev: RowWords(f"cut for deal: the player cuts {rank_name(ev.player_rank)}, "
                            f"the computer {rank_name(ev.computer_rank)}"),
        lambda ev, seen: _one(f"Cut for deal: you {rank_name(ev.player_rank)}, computer "
                              f"{rank_name(ev.computer_rank)}")),
    E.EventKind.DEAL: Words(E.Deal,
        lambda ev: RowWords(f"deal {ev.n}, the {named(ev.dealer)} deals"), _deal_panel),
    E.EventKind.DISCARD: Words(E.Discard, lambda ev: RowWords(cards=tuple(ev.cards)), _discard_panel),
    E.EventKind.CRIB: Words(E.Crib,
        lambda ev: RowWords(cards=tuple(ev.cards)),
        lambda ev, seen: PanelWords((Line(f"crib: {cards_text(ev.cards)}", "event", "crib",
                                          "crib: four cards, face down"),), "crib")),
    E.EventKind.STARTER: Words(E.Starter, lambda ev: RowWords(cards=(ev.card,)),
                               lambda ev, seen: _one(f"starter: {card_name(ev.card)}")),
    E.EventKind.PLAY: Words(E.Play,
        lambda ev: RowWords(cards=(ev.card,), count=True),
        lambda ev, seen: _one(f"{spoken(ev.who)}: {card_name(ev.card)}, count {_count_after(ev)}")),
    E.EventKind.GO: Words(E.Go, lambda ev: RowWords("go", count=True),
                          lambda ev, seen: _one(f"{spoken(ev.who)}: go at {ev.count}")),
    E.EventKind.RESET: Words(E.Reset, lambda ev: RowWords("count back to 0"), _reset_panel),
    E.EventKind.SCORE: Words(E.Score, lambda ev: RowWords(f"pegged {ev.points} ({named(ev.context)})"), _score_panel),
    E.EventKind.SHOW: Words(E.Show,
        lambda ev: RowWords("the crib" if named(ev.hand) == "crib" else f"the {named(ev.hand)}'s hand"),
        _show_panel),
    E.EventKind.CLAIM: Words(E.Claim, lambda ev: RowWords(f"the player claims {ev.claimed}"),
                             lambda ev, seen: _one(f"you claim {ev.claimed}")),
    E.EventKind.REFUSED: Words(E.Refused,
        lambda ev: RowWords(f"refused at count {ev.count}", (ev.card,)),
        lambda ev, seen: _one(f"program refuses {card_name(ev.card)} at count {ev.count}")),
    E.EventKind.WIN: Words(E.Win,
        _win_row,
        lambda ev, seen: _one(f"{spoken(ev.who)} win{_s(ev.who)}: computer {ev.computer}, you {ev.player}",
                              "heading")),
    E.EventKind.TALLY: Words(E.Tally, lambda ev: RowWords(f"games won: computer {ev.computer}, player {ev.player}"),
                             lambda ev, seen: _one(f"games: computer {ev.computer}, you {ev.player}")),
    E.EventKind.OPTIONS: Words(E.Options, lambda ev: RowWords("muggins " + ("on" if ev.muggins else "off")),
                               lambda ev, seen: _one(f"Muggins {'on' if ev.muggins else 'off'}", "note")),
    E.EventKind.CHOICE: Words(E.Choice, _generic_row, _silent),
    E.EventKind.MESSAGE: Words(E.Message, _generic_row, _silent),
    E.EventKind.RIGGED: Words(E.Rigged, _generic_row, _silent),
    E.EventKind.SCREEN: Words(E.Screen, lambda ev: RowWords(f"the screen's {ev.what}"), _silent),
    E.EventKind.PICTURE: Words(E.Picture, _picture_row, _silent),
    E.EventKind.REPORT: Words(E.Report, _generic_row, _silent),
    E.EventKind.FAILURE: Words(E.Failure, _generic_row, _silent),
}
