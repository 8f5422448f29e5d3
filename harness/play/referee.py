"""The live referee: the program's events as it plays, judged by the comparison `regress` uses, as panel lines.

An `Observer` on the machine hands each event to a `Comparator`; the panel
shows the event as the engine sees the deal (the hands, the crib, the
starter, each card and its count, each peg), then each judgement as it
closes: the engine's scores for the action with their reasons (a show
itemised: fifteens, pairs, runs, flush, nobs and every combination) and the
verdict, either agreement or each difference flagged as the documented
deviation that explains it (`deviations.DEVIATIONS`) or as unexplained.
Only text is made here (`PanelLine`); `panel` draws it, so tests read the
lines without a window.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..cribbage.rules import STANDARD, Rules
from ..game import program as P
from ..game.compare import Comparator
from ..game.judgements import Cause, Judgement, describe
from ..game.deviations import DEVIATIONS
from ..game.events import (Claim, Crib, Cut, Deal, Discard, Event, Go, Options, Play, Refused, Reset, Score, Show,
                           Starter, Tally, Win)

MAX_LINES = 400            # the panel keeps the latest lines; older ones scroll away
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
DEVIATION_WORDS = 12       # words of a deviation's description shown beside its id


@dataclass(frozen=True)
class PanelLine:
    """One line of the panel and its tone: heading, event, engine, agree, deviation, unexplained, note."""
    text: str
    tone: str


def _who(who) -> str:
    return "you" if str(who) == "player" else str(who)


def _points(n: int) -> str:
    return f"{n} point" + ("" if n == 1 else "s")


def _cards(cards) -> str:
    return " ".join(str(c) for c in cards)


# ---------------------------------------------------------------------- events
def event_lines(ev: Event) -> list[PanelLine]:
    """What the program just did, as the engine sees the deal."""
    if isinstance(ev, Cut):
        ranks = [RANK_NAMES.get(r, str(r)) for r in (ev.player_rank, ev.computer_rank)]
        return [PanelLine(f"Cut for deal: you {ranks[0]}, computer {ranks[1]}", "event")]
    if isinstance(ev, Options):
        return [PanelLine(f"Muggins {'on' if ev.muggins else 'off'}", "note")]
    if isinstance(ev, Deal):
        return [PanelLine(f"Deal {ev.n}: {_who(ev.dealer)} deal{'' if _who(ev.dealer) == 'you' else 's'}",
                          "heading"),
                PanelLine(f"  computer: {_cards(ev.computer)}", "event"),
                PanelLine(f"  you:      {_cards(ev.player)}", "event")]
    if isinstance(ev, Discard):
        return [PanelLine(f"{_who(ev.who)} to the crib: {_cards(ev.cards)}", "event")]
    if isinstance(ev, Crib):
        return [PanelLine(f"crib: {_cards(ev.cards)}", "event")]
    if isinstance(ev, Starter):
        return [PanelLine(f"starter: {ev.card}", "event")]
    if isinstance(ev, Play):
        return [PanelLine(f"{_who(ev.who)}: {ev.card}, count {ev.count}", "event")]
    if isinstance(ev, Go):
        return [PanelLine(f"{_who(ev.who)}: go at {ev.count}", "event")]
    if isinstance(ev, Reset):
        return [PanelLine(f"count {ev.count}: back to 0", "event")]
    if isinstance(ev, Score):
        return [PanelLine(f"  program pegs {_who(ev.who)} +{ev.points} ({ev.context.value}): "
                          f"{ev.before} -> {ev.before + ev.points}", "event")]
    if isinstance(ev, Show):
        shown = " ".join(RANK_NAMES.get(r, str(r)) for r in ev.ranks)    # H$() is not kept in step with H()
        total = ev.fifteens + ev.pairs + ev.runs + ev.flush + ev.nobs
        return [PanelLine(f"Show, {ev.hand.value} (ranks {shown})", "heading"),
                PanelLine(f"  program: fifteens {ev.fifteens}, pairs {ev.pairs}, runs {ev.runs}, "
                          f"flush {ev.flush}, nobs {ev.nobs} = {total}", "event")]
    if isinstance(ev, Claim):
        return [PanelLine(f"you claim {ev.claimed}", "event")]
    if isinstance(ev, Refused):
        return [PanelLine(f"program refuses {ev.card} at count {ev.count}", "event")]
    if isinstance(ev, Win):
        return [PanelLine(f"{_who(ev.who)} win{'' if _who(ev.who) == 'you' else 's'}: computer {ev.computer}, "
                          f"you {ev.player}", "heading")]
    if isinstance(ev, Tally):
        return [PanelLine(f"games: computer {ev.computer}, you {ev.player}", "event")]
    return []                 # screen observations, choices, messages: judged, not narrated


# ---------------------------------------------------------------------- judgements
def _engine_items(j: Judgement) -> list[str]:
    return [f"{_who(e.who)} {e.points} for {e.reason}"
            + (f" ({_cards(e.cards)})" if e.cards and j.judged != "show" else "")
            for e in j.expected]


def _show_breakdown(j: Judgement) -> list[PanelLine]:
    hs = next((e.detail for e in j.expected if e.detail is not None), None)
    if hs is None:
        return []
    lines = [PanelLine(f"  engine: fifteens {hs.fifteens}, pairs {hs.pairs}, runs {hs.runs}, "
                       f"flush {hs.flush}, nobs {hs.nobs} = {hs.total}", "engine")]
    lines += [PanelLine(f"    {c.kind} {_cards(c.cards)}: {c.points}", "engine") for c in hs.combinations]
    return lines


def deviation_summary(dev_id: str) -> str:
    words = DEVIATIONS[dev_id].what.split()
    return " ".join(words[:DEVIATION_WORDS]) + (" ..." if len(words) > DEVIATION_WORDS else "")


def difference_line(d) -> PanelLine:
    """A difference flagged as the deviation it is, or as unexplained."""
    said = f"{d.kind} {_who(d.who)}: engine {d.expected}, program {d.observed}"
    if d.deviation:
        return PanelLine(f"  ! {d.deviation} {said} [{deviation_summary(d.deviation)}]", "deviation")
    note = describe(d) if d.cause != Cause.PEGGED else None     # the points say it all
    return PanelLine(f"  !! UNEXPLAINED {said}" + (f" ({note})" if note else ""), "unexplained")


def action_label(j: Judgement) -> str:
    """Which action a judgement is about, in a few words (it closes when the next event arrives)."""
    a = j.action
    if j.judged == "go":
        return "go / last card"
    if isinstance(a, Play):
        return f"{_who(a.who)} {a.card}"
    if isinstance(a, Starter):
        return f"starter {a.card}"
    if isinstance(a, Show):
        return f"show {a.hand.value}"
    if isinstance(a, Refused):
        return f"refused {a.card}"
    if isinstance(a, Score):
        return f"peg {_who(a.who)} +{a.points}"
    return j.judged.value


def judgement_lines(j: Judgement) -> list[PanelLine]:
    """The engine's verdict on one action: its scores with reasons, then agreement or each difference."""
    lines: list[PanelLine] = []
    scored = j.judged in ("play", "go", "show", "heels") or bool(j.expected) or bool(j.observed)
    if j.judged == "show":
        lines += _show_breakdown(j)
    if scored:
        items = _engine_items(j)
        pegged = [f"{_who(s.who)} {s.points}" for s in j.observed]
        said = (f"  {action_label(j)}: engine {'; '.join(items) if items else 'no points'}"
                f" | program {', '.join(pegged) if pegged else 'no points'}")
        if j.differences:
            lines.append(PanelLine(said, "engine"))
        else:
            lines.append(PanelLine(said + ": agrees", "agree"))
    elif j.differences:
        lines.append(PanelLine(f"  {action_label(j)}:", "engine"))
    lines += [difference_line(d) for d in j.differences]
    return lines


# ---------------------------------------------------------------------- the live referee
class Referee:
    """Observes the machine, judges each event as it comes, and keeps the panel's lines."""

    def __init__(self, machine=None, rules: Rules = STANDARD):
        self.machine = machine
        self.rules = rules
        self.comparator = Comparator(rules)
        self.events: list[Event] = []           # every event fed to the comparator, in order
        self.judgements: list[Judgement] = []
        self._lines: list[PanelLine] = [PanelLine(f"Referee: the engine's view of the deal ({rules.name} rules)",
                                                  "heading")]
        self.version = 0
        self._skip_to_deal = False
        self._observed_at: tuple | None = None   # the wait whose screen was last checked, and the events then
        self.observer = None
        if machine is not None:
            from ..game.observer import Observer
            self.observer = Observer(machine, self.on_event)

    def attach(self) -> None:
        if self.observer is not None:
            self.machine.add_statement_hook(self._hook)

    def detach(self) -> None:
        if self.observer is not None:
            self.machine.remove_statement_hook(self._hook)

    def _hook(self, line: int, stmt: int) -> bool:
        """The observer's hook, kept from stopping the game: a failure to read the program is shown, not raised."""
        if self.observer is None:
            return False
        try:
            self.observer._hook(line, stmt)
        except Exception as exc:               # the game goes on; the panel says what the referee missed
            if self._skip_to_deal:
                return False                   # part of the deal the panel already said it does not judge
            self._add([PanelLine(f"  !! UNEXPLAINED referee could not read line {line}:{stmt}: "
                                 f"{type(exc).__name__}: {exc}", "unexplained")])
        return False

    def at_wait(self, kind: str, line: int, caller: int | None) -> None:
        """The program waits for a key: check what a person sees against the variables, as the driver does
        (the board, the count and the hand at the player's turn; the board before the next deal; the games
        tally before «СЫГРАЕМ ЕЩЕ?»). Once per wait until something happens in the game."""
        if self.observer is None or self._skip_to_deal:
            return
        if self._observed_at == (kind, line, caller, len(self.events)):
            return
        try:
            if kind == "inkey" and line in P.SELECTOR_WAITS and caller == P.SELECT_PLAY:
                self.observer.observe_play()
            elif kind == "inkey" and line == P.NEXT_DEAL_WAIT:
                self.observer.observe_board()
            elif kind == "input" and line == P.ASK_AGAIN:
                self.observer.observe_tally()
                computer, player = self.observer.games_tally()
                self.feed(Tally(computer=computer, player=player))
        except Exception as exc:               # the game goes on; the panel says what was not checked
            self._add([PanelLine(f"  !! UNEXPLAINED referee could not read the screen at line {line}: "
                                 f"{type(exc).__name__}: {exc}", "unexplained")])
        self._observed_at = (kind, line, caller, len(self.events))

    def _muggins(self) -> bool | None:
        if self.observer is None:
            return None
        try:
            return int(self.observer.get(P.V_MUGGINS)) == 1      # MUG=1 only for "Y" at 7405
        except Exception:
            return None

    def on_event(self, ev: Event) -> None:
        """One event from the program: narrated, then judged."""
        if self._skip_to_deal:
            if not isinstance(ev, (Cut, Deal)):
                return
            self._skip_to_deal = False
        if isinstance(ev, Cut) or (isinstance(ev, Deal) and not any(isinstance(e, Options) for e in self.events)):
            muggins = self._muggins()            # the program asked just before the cut; the rules follow it
            if muggins is not None:
                self.feed(Options(muggins=muggins))
        self.feed(ev)

    def feed(self, ev: Event) -> list[Judgement]:
        self.events.append(ev)
        self._add(event_lines(ev))
        closed = self.comparator.feed(ev)
        self._judged(closed)
        return closed

    def _judged(self, closed: list[Judgement]) -> None:
        for j in closed:
            self.judgements.append(j)
            self._add(judgement_lines(j))

    def finish(self):
        """Close what is still open (the last action's pegs) and return the whole Comparison."""
        before = len(self.comparator.result.judgements)
        result = self.comparator.finish()
        self._judged(result.judgements[before:])
        return result

    def restart(self, reason: str) -> None:
        """A new machine state (a loaded .z80): judge afresh from the next cut or deal."""
        self.comparator = Comparator(self.rules)
        self.events, self.judgements = [], []
        self._skip_to_deal = True
        if self.observer is not None:
            from ..game.observer import Observer
            self.observer = Observer(self.machine, self.on_event)
        self._add([PanelLine(f"{reason}: this deal is not judged; the referee starts again at the next deal",
                             "note")])

    def _add(self, lines: list[PanelLine]) -> None:
        if lines:
            self.version += 1                   # the panel is drawn again only when this changes
        self._lines += lines
        del self._lines[:-MAX_LINES]

    def lines(self) -> list[PanelLine]:
        return list(self._lines)
