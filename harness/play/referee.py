"""The live referee: the program's events as it plays, judged by the comparison `regress` uses, as panel lines.

An `Observer` on the machine hands each event to a `Comparator` made from the
one comparison set-up of the tape being played (`judgements.comparison_setup`:
the edition's screen words from the program's bytes), so the referee judges
exactly as `regress` does. The panel is a block of lines per event, in the
order they happened: the event as the engine sees the deal (the hands, the
crib, the starter, each card with the count after it, each peg), and under it
each judgement of that action as it closes (the engine's scores with their
reasons, a show itemised, the verdict: agreement, or each difference flagged
as the documented deviation that explains it or as unexplained), wherever the
comparison closed it.

Honest by default: the computer's cards and the crib are veiled until the
program shows them, and with muggins on the player's show total until the
claim is typed; everything of a deal is unveiled when it ends (the next-deal
key, a win, the next deal). `open` shows it all at once, for study. Only text
is made here (`PanelLine`); `panel` draws it, so tests read the lines without
a window.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from ..cribbage.rules import STANDARD, Rules
from ..program.model import program as P
from ..program.judge.compare import Comparator
from ..program.judge.judgements import Comparison
from ..program.judge.deviations import DEVIATIONS
from ..program.judge.judgements import Cause, ComparisonSetup, Difference, Judgement, comparison_setup, describe
from ..program.records.events import (Claim, Cut, Deal, Event, Options, Play, Refused, Reset, Score, Show, ShowHand,
                                     Starter, Tally, Who, Win)
from ..program.records.words import WORDS, spoken
from ..spectrum.machine import Spectrum48
from .cards import card_name, cards_text
from ..program.observe.observer import Observer

MAX_LINES = 400            # the panel keeps the latest lines; older ones scroll away
DEVIATION_WORDS = 12       # words of a deviation's description shown beside its id
COUNT_CONVENTION = "the count beside a card is the count after it"
#: waits at which an open action is not judged ahead: at the muggins question the show's claim is still to come
UNSETTLED_WAITS = frozenset({P.ASK_CLAIM})


@dataclass(frozen=True)
class PanelLine:
    """One line of the panel and its tone (heading, event, engine, agree, deviation, unexplained, note, hint,
    hidden); a line with a *secret* shows *veil* instead (or nothing) until that secret is revealed."""
    text: str
    tone: str
    secret: str | None = None
    veil: str | None = None


@dataclass
class _Block:
    """The lines of one event and of the judgements of that action, and what they keep secret."""
    lines: list[PanelLine] = field(default_factory=list)
    secret: str | None = None          # judgements of this action are veiled under the same secret
    settled: dict[tuple[str, int | None], list[PanelLine]] = field(default_factory=dict)   # (judged, action_at) -> lines shown
    #                                    at a wait before the next action closes that judgement (Comparator.settled)


# ---------------------------------------------------------------------- judgements (judgements.Judgement)
def _judged(j: Judgement) -> str:
    return j.judged.value


def _difference_note(d: Difference) -> str | None:
    return describe(d) if d.cause != Cause.PEGGED else None     # a peg's points say it all


def _engine_items(j: Judgement) -> list[str]:
    return [f"{spoken(e.who)} {e.points} for {e.reason}"
            + (f" ({cards_text(e.cards)})" if e.cards and _judged(j) != "show" else "")
            for e in j.expected]


def _show_breakdown(j: Judgement) -> list[PanelLine]:
    hs = next((e.detail for e in j.expected if e.detail is not None), None)
    if hs is None:
        return []
    lines = [PanelLine(f"  engine: fifteens {hs.fifteens}, pairs {hs.pairs}, runs {hs.runs}, "
                       f"flush {hs.flush}, nobs {hs.nobs} = {hs.total}", "engine")]
    lines += [PanelLine(f"    {c.kind} {cards_text(c.cards)}: {c.points}", "engine") for c in hs.combinations]
    return lines


def deviation_summary(dev_id: str) -> str:
    words = DEVIATIONS[dev_id].what.split()
    return " ".join(words[:DEVIATION_WORDS]) + (" ..." if len(words) > DEVIATION_WORDS else "")


def difference_line(d: Difference) -> PanelLine:
    """A difference flagged as the deviation it is, or as unexplained."""
    kind = d.kind.value
    said = f"{kind} {spoken(d.who) if d.who is not None else 'board'}: engine {d.expected}, program {d.observed}"
    if d.deviation:
        return PanelLine(f"  ! {d.deviation} {said} [{deviation_summary(d.deviation)}]", "deviation")
    note = _difference_note(d)
    return PanelLine(f"  !! UNEXPLAINED {said}" + (f" ({note})" if note else ""), "unexplained")


def action_label(j: Judgement) -> str:
    """Which action a judgement is about, in a few words."""
    a = j.action
    if _judged(j) == "go":
        return "go / last card"
    if isinstance(a, Play):
        return f"{spoken(a.who)} {card_name(a.card)}"
    if isinstance(a, Starter):
        return f"starter {card_name(a.card)}"
    if isinstance(a, Show):
        return f"show {a.hand.value}"
    if isinstance(a, Refused):
        return f"refused {card_name(a.card)}"
    if isinstance(a, Score):
        return f"peg {spoken(a.who)} +{a.points}"
    return _judged(j)


def judgement_lines(j: Judgement) -> list[PanelLine]:
    """The engine's verdict on one action: its scores with reasons, then agreement or each difference."""
    lines: list[PanelLine] = []
    what = _judged(j)
    scored = what in ("play", "go", "show", "heels") or bool(j.expected) or bool(j.observed)
    if what == "show":
        lines += _show_breakdown(j)
    if scored:
        items = _engine_items(j)
        pegged = [f"{spoken(s.who)} {s.points}" for s in j.observed]
        said = (f"  {action_label(j)}: engine {'; '.join(items) if items else 'no points'}"
                f" | program {', '.join(pegged) if pegged else 'no points'}")
        lines.append(PanelLine(said, "engine") if j.differences else PanelLine(said + ": agrees", "agree"))
    elif j.differences:
        lines.append(PanelLine(f"  {action_label(j)}:", "engine"))
    lines += [difference_line(d) for d in j.differences]
    return lines


# ---------------------------------------------------------------------- the live referee
class Referee:
    """Observes the machine, judges each event as it comes, and keeps the panel's blocks."""

    def __init__(self, machine: Spectrum48 | None = None, rules: Rules = STANDARD, honest: bool = False,
                 words: P.ScreenWords | None = None):
        self.machine = machine
        self.rules = rules
        self.honest = honest
        self.words = words
        self.edition: str | None = None
        self.setup: ComparisonSetup | None = None   # the tape's comparison set-up, at attach()
        self.comparator = self._comparator()
        self.events: list[Event] = []           # every event fed to the comparator, in order
        self.judgements: list[Judgement] = []
        self._head: list[PanelLine] = [
            PanelLine(f"Referee: the engine's view of the deal ({rules.name} rules"
                      + (", honest: the computer's cards hidden until shown" if honest else ", open") + ")",
                      "heading"),
            PanelLine(f"  cards: A 2..10 J Q K + H C D S; {COUNT_CONVENTION}", "note")]
        self._blocks: list[_Block] = []
        self._block_of: list[int] = []          # event index -> its block
        self._revealed: set[str] = set()
        self._played = False                    # a card was laid since the deal or the last reset
        self._demo_block: int | None = None     # the block folding the board demo's pegs
        self._demo_pegs = 0
        self._dealer: Who | None = None
        self._claim_secret: str | None = None   # the show whose count waits for the player's claim
        self.deals = 0                          # deals seen (carried through a save and a load)
        self.version = 0
        self._skip_to_deal = False
        self._observed_at: tuple[str, int, int | None, int] | None = None   # the wait last checked, events then
        self.observer = None
        if machine is not None:
            self.observer = Observer(machine, self.on_event)

    def _comparator(self) -> Comparator:
        """The comparison regress uses, made from the tape's set-up once the program is loaded."""
        if self.setup is not None:
            return Comparator.for_setup(self.setup, self.rules)
        return Comparator(self.rules, self.words or P.RUSSIAN)

    def attach(self) -> None:
        """Start watching (after the tape has loaded: the comparison's set-up comes from its program)."""
        if self.observer is None or self.machine is None:
            return
        if self.words is None:
            self.setup = comparison_setup(self.machine.program_bytes(), rule_sets=(self.rules,))
            self.edition, self.words = self.setup.edition, self.setup.words
            self.comparator = self._comparator()
        self.machine.add_statement_hook(self._hook)

    def detach(self) -> None:
        if self.observer is not None and self.machine is not None:
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
            self._add_block([PanelLine(f"  !! UNEXPLAINED referee could not read line {line}:{stmt}: "
                                       f"{type(exc).__name__}: {exc}", "unexplained")])
        return False

    def at_wait(self, kind: str, line: int, caller: int | None) -> None:
        """The program waits for a key: check what a person sees against the variables, as the driver does
        (the board, the count and the hand at the player's turn; the board before the next deal; the games
        tally before «СЫГРАЕМ ЕЩЕ?»). Once per wait until something happens in the game. The next-deal key
        ends a deal: everything of it is unveiled."""
        if self.observer is None or self._skip_to_deal:
            return
        if self._observed_at == (kind, line, caller, len(self.events)):
            return
        try:
            if kind == "inkey" and line in P.SELECTOR_WAITS and caller == P.SELECT_PLAY:
                self.observer.observe_play()
            elif kind == "inkey" and line == P.NEXT_DEAL_WAIT:
                self.observer.observe_board()
                self.reveal_deal()
            elif kind == "input" and line == P.ASK_AGAIN:
                self.observer.observe_tally()
                computer, player = self.observer.games_tally()
                self.feed(Tally(computer=computer, player=player))
        except Exception as exc:               # the game goes on; the panel says what was not checked
            self._add_block([PanelLine(f"  !! UNEXPLAINED referee could not read the screen at line {line}: "
                                       f"{type(exc).__name__}: {exc}", "unexplained")])
        if line not in UNSETTLED_WAITS:
            self._settle()
        self._observed_at = (kind, line, caller, len(self.events))

    def _settle(self) -> None:
        """A person is asked: the action whose pegs are in is shown judged now (its score pegged before this
        wait), not when the next action closes it; the closing judgement takes its place (`_judged`)."""
        for j in self.comparator.settled():
            lines = judgement_lines(j)
            if not lines or not self._block_of:
                continue
            block = self._blocks[self._block_of[self._action_index(j)]]
            if block.secret and block.secret not in self._revealed:
                lines = [PanelLine(l.text, l.tone, block.secret, None) for l in lines]
            if block.settled.get((_judged(j), j.action_at)) != lines:
                block.settled[(_judged(j), j.action_at)] = lines
                self.version += 1

    def _muggins(self) -> bool | None:
        if self.observer is None:
            return None
        try:
            return int(self.observer.number(P.V_MUGGINS)) == 1   # MUG=1 only for "Y" at 7405
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

    # ------------------------------------------------------------------ narration
    def _secret(self, what: str) -> str:
        return f"{self.deals}:{what}"

    def muggins_on(self) -> bool:
        """Muggins was answered yes (words.Seen)."""
        return any(isinstance(e, Options) and e.muggins for e in self.events)

    @property
    def played(self) -> bool:
        """A card was laid since the deal or the last reset (words.Seen)."""
        return self._played

    @property
    def dealer(self) -> Who | None:
        return self._dealer

    def event_block(self, ev: Event) -> _Block | None:
        """What the program just did, as the engine sees the deal (None: folded into the line before): the
        words of its kind (program/records/words.py), each secret made this deal's."""
        said = WORDS[ev.kind].panel(ev, self)
        if isinstance(ev, Play):
            self._played = True
        elif isinstance(ev, Reset) and self._played:
            self._played = False
        if said is None:
            return None
        secret = self._secret(said.secret) if said.secret else None
        if isinstance(ev, Show):
            self._claim_secret = secret
        return _Block([PanelLine(l.text, l.tone, self._secret(l.secret) if l.secret else None, l.veil)
                       for l in said.lines], secret)

    def feed(self, ev: Event) -> list[Judgement]:
        if isinstance(ev, Deal):
            self.reveal_deal()
            self.deals = ev.n
            self._dealer = ev.dealer
            self._played = False
            self._demo_block = None
        self.events.append(ev)
        block = self.event_block(ev)
        if block is None:                 # a peg of the board demo: one line counts them
            self._demo_pegs += 1
            text = f"board demo: the program pegs {self._demo_pegs} times (not judged)"
            if self._demo_block is None:
                self._demo_pegs = 1
                text = "board demo: the program pegs 1 time (not judged)"
                self._blocks.append(_Block([PanelLine(text, "note")]))
                self._demo_block = len(self._blocks) - 1
            else:
                self._blocks[self._demo_block].lines[0] = PanelLine(text, "note")
            self._block_of.append(self._demo_block)
            self.version += 1
        else:
            if not isinstance(ev, (Score, Options)):
                self._demo_block = None
                self._demo_pegs = 0
            self._blocks.append(block)
            self._block_of.append(len(self._blocks) - 1)
            if block.lines:
                self.version += 1
        if isinstance(ev, Claim) and self._claim_secret:
            self._reveal(self._claim_secret)
        if isinstance(ev, Show) and ev.hand == ShowHand.CRIB:
            self._reveal(self._secret("crib"))
        if isinstance(ev, Win):
            self.reveal_deal()
        closed = self.comparator.feed(ev)
        self._judged(closed)
        return closed

    def _action_index(self, j: Judgement) -> int:
        """The index of the event a judgement judges (its action_at among the events fed), else the last."""
        at = j.action_at
        return at if at is not None and 0 <= at < len(self.events) else len(self.events) - 1

    def _judged(self, closed: list[Judgement]) -> None:
        for j in closed:
            self.judgements.append(j)
            lines = judgement_lines(j)
            if not lines:
                continue
            block = self._blocks[self._block_of[self._action_index(j)]] if self._block_of else None
            if block is None:
                self._add_block(lines)
                continue
            if block.settled.pop((_judged(j), j.action_at), None) is not None:
                self.version += 1
            if block.secret and block.secret not in self._revealed:
                lines = [PanelLine(l.text, l.tone, block.secret, None) for l in lines]
            block.lines += lines
            self.version += 1

    def _reveal(self, secret: str) -> None:
        if secret not in self._revealed:
            self._revealed.add(secret)
            self.version += 1

    def reveal_deal(self) -> None:
        """The deal has ended: nothing of it is secret any more."""
        for what in ("hand", "crib", "claim:player", "claim:crib"):
            self._reveal(self._secret(what))

    def finish(self) -> Comparison:
        """Close what is still open (the last action's pegs) and return the whole Comparison."""
        before = len(self.comparator.result.judgements)
        result = self.comparator.finish()
        self._judged(result.judgements[before:])
        return result

    def restart(self, reason: str, deals: int | None = None, panel: Sequence[PanelLine] | None = None) -> None:
        """A new machine state (a loaded .z80): judge afresh from the next cut or deal, numbering deals on
        from *deals* (the count saved beside the .z80). The panel becomes *panel*, the lines a person saw when
        the .z80 was saved (veils as they were), or, without one, empty: nothing of the machine state left
        behind is kept (its lines may come after the save's moment) and nothing of its deal is revealed
        (issue 48: a load showed the computer's face-down hand and kept the plays made after the save)."""
        self.comparator = self._comparator()
        self.events, self.judgements, self._block_of = [], [], []
        self._blocks, self._demo_block, self._demo_pegs = [], None, 0
        if panel is not None:
            self._head = []
            self._blocks.append(_Block([PanelLine(line.text, line.tone) for line in panel]))
        self._skip_to_deal = True
        if deals is not None:
            self.deals = deals
        if self.observer is not None and self.machine is not None:
            self.observer = Observer(self.machine, self.on_event)
            self.observer.deals = self.deals
        self._add_block([PanelLine(f"{reason}: this deal is not judged; the referee starts again at the next "
                                   f"deal (deal {self.deals + 1})", "note")])

    def note(self, text: str) -> None:
        self._head.append(PanelLine(text, "note"))
        self.version += 1

    def _add_block(self, lines: list[PanelLine]) -> None:
        self._blocks.append(_Block(list(lines)))
        if lines:
            self.version += 1

    def all_lines(self) -> list[PanelLine]:
        """Every line as it stands, secrets included (the open view)."""
        return self._head + [line for block in self._blocks
                             for line in block.lines + [l for ls in block.settled.values() for l in ls]]

    def lines(self) -> list[PanelLine]:
        """The panel's lines as a person at the game sees them now: veiled secrets show their veil."""
        out: list[PanelLine] = []
        for line in self.all_lines():
            if self.honest and line.secret and line.secret not in self._revealed:
                if line.veil is not None:
                    out.append(PanelLine(line.veil, "hidden"))
            else:
                out.append(line)
        return out[-MAX_LINES:]
