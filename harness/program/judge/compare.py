"""The program's events judged against the reference engine, action by action.

A transcript (the observer's typed events) is fed in order through a
rules-engine Game. After each action the points the program pegged (its
`Score` events) are compared with the engine's events for that action: per
card in the play, per go/last card at the end of a series, per hand in the
show (component by component: fifteens, pairs, runs, flush, nobs), his heels
at the starter. The outcome is judged too: who won, who is credited with the
game, the games tally against the game points the rules give, nothing pegged
or played after the win. Screen observations are checked against the
variables they were printed from. Every judgement is a typed record
(`judgements.Judgement`), returned as it closes (for a live referee), and
every difference carries its `Cause` and facts and is classified by
`deviations.classify` under the rule set in force: a documented deviation of
the original program or an unexplained defect. A comparison never crashes on
a transcript: an internal error becomes a "harness" difference naming the
event. Handlers are found in explicit tables (by event class, by screen
check), never by name.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from typing import Callable, Generic, Iterable, TypeVar

from ...cribbage import Game, score_play
from ...cribbage.cards import parse_card
from ...cribbage.game import IllegalAction, ScoreEvent
from ...cribbage.rules import STANDARD, Rules
from ..model import program as P
from .deviations import classify
from ..records.events import (Choice, ChoiceKind, Claim, Crib, Cut, Deal, Discard, Event, Failure, Go, Message, Options, Picture,
                     Play, Refused, Report, Reset, Rigged, Score, ScoreContext, Screen, Show, ShowHand, Starter, Tally,
                     Who, Win)
from .judgements import (AfterGameOver, AfterWin, BeforeGame, Breakdown, Cause, Combination, Comparison,
                         ComparisonSetup, Credit, Difference, EngineRefused, Expectation, GameWon, GoAt, GoPegged,
                         HarnessFault, Judged, Judgement, Kind, NoFacts, OutOfTurn, Pegged, PreviousPeg, Refusal,
                         ScreenCheckName, Scores, ShowPart, ShowPhase, TallyFacts, UnmatchedPeg, index_of, who_of)
from .screen_checks import SCREEN_CHECKS, TextScreen
from .screen_judgements import ScreenJudge

PLAY_KINDS = {"fifteen", "thirty-one", "pair", "pair royal", "double pair royal", "run"}
GO_KINDS = {"go", "last card"}
# What a person chose, said or saw: these do not end the action whose pegs are still coming.
PASSIVE = (Choice, Message, Options, Rigged, Report, Failure, Crib, Tally)
JUDGED_OF_CONTEXT = {ScoreContext.PLAY: Judged.PLAY, ScoreContext.HEELS: Judged.HEELS, ScoreContext.SHOW: Judged.SHOW}


@dataclass
class _Window:
    """An action whose pegs are still coming."""
    judged: Judged
    action: Event
    action_at: int
    expected: list[int]
    engine: list[ScoreEvent]
    facts: Pegged                    # pegged filled in when it closes
    checks: int = 1
    observed: list[Score] = field(default_factory=list)


def _expectation(e: ScoreEvent) -> Expectation:
    """The engine's score event as a record (the engine's player index becomes a Who here)."""
    hs = e.detail
    detail = None
    if hs is not None:
        detail = Breakdown(tuple(str(c) for c in hs.hand), str(hs.starter) if hs.starter is not None else None,
                           bool(hs.crib), hs.fifteens, hs.pairs, hs.runs, hs.flush, hs.nobs, hs.total,
                           tuple(Combination(c.kind, tuple(str(x) for x in c.cards), c.points)
                                 for c in hs.combinations))
    return Expectation(who_of(e.player), e.points, e.reason, tuple(str(c) for c in e.cards), e.rule, detail)


def _pegged(scores: Iterable[Score]) -> list[int]:
    out = [0, 0]
    for s in scores:
        out[index_of(s.who)] += s.points
    return out


class Comparator:
    """Feeds events to a Game and compares scores as they come."""

    def __init__(self, rules: Rules = STANDARD, words: P.ScreenWords = P.RUSSIAN):
        self.rules = rules
        self.words = words
        self._muggins_style = rules.muggins if rules.muggins != "off" else "standard"
        self.game: Game | None = None
        self.result = Comparison()
        self._window: _Window | None = None
        self._go_expected = [0, 0]
        self._go_engine: list[ScoreEvent] = []
        self._go_observed: list[Score] = []
        self._go_facts = GoPegged()
        self._series_last: tuple[Event, int] | None = None    # the series' last card or go, and its index
        self._show: tuple[Show, int] | None = None
        self._claim: int | None = None
        self.totals = [0, 0]         # the program's own scores, which the engine is kept in step with
        self._last_score: PreviousPeg | None = None
        self._cut_dealer: Who | None = None
        self._won: Win | None = None          # the game was won: nothing may follow until the next game
        self._tally = [0, 0]                  # games won, as the rules count them
        self._tally_single = [0, 0]           # games won, one per game
        self._tally_as_credited = [0, 0]      # one per game, for whom the program credits it
        self._games: list[GameWon] = []
        self._last_show_owner: Who | None = None
        self._credit_deviations: list[str] = []   # documented deviations that credited a game to the loser
        self._go_taken_back = False           # in this series the player took a go back at the confirmation
        self._after_taken_back = False        # ... in the series the last reset ended
        self._previous: Event | None = None
        self._index = -1
        self._pending: list[Difference] = []
        self._closed: list[Judgement] = []
        self.screen = ScreenJudge(words)          # what the player sees, judged at every picture

    @classmethod
    def for_setup(cls, setup: ComparisonSetup, rules: Rules | None = None) -> "Comparator":
        """The comparator of a tape's set-up (`judgements.comparison_setup`), under *rules* or its verdict's."""
        return cls(rules or setup.verdict, setup.words)

    # -- helpers --------------------------------------------------------------
    def _diff(self, kind: Kind, who: Who | None, expected: object, observed: object, cause: Cause,
              facts: object) -> Difference:
        d = Difference(kind, who, expected, observed, cause, facts, at=self._index)
        d = replace(d, deviation=classify(d, self.rules))
        self._pending.append(d)
        return d

    def _judge(self, action: Event, judged: Judged, action_at: int | None, expected: Iterable[ScoreEvent] = (),
               observed: Iterable[Score] = (), checks: int = 0) -> None:
        """Close a judgement: it takes the differences found since the last one."""
        j = Judgement(self.rules.name, judged, action, action_at, self._index,
                      tuple(_expectation(e) for e in expected), tuple(observed), tuple(self._pending), checks)
        self._pending = []
        self.result.judgements.append(j)
        self._closed.append(j)

    def _close_window(self) -> None:
        """Compare the points pegged since the last action with what the engine expected of it."""
        w, self._window = self._window, None
        if w is None:
            return
        observed = _pegged(w.observed)
        facts = replace(w.facts, pegged=(observed[0], observed[1]))
        for p in (0, 1):
            if observed[p] != w.expected[p]:
                self._diff(Kind(w.judged.value), who_of(p), w.expected[p], observed[p], Cause.PEGGED, facts)
        self._judge(w.action, w.judged, w.action_at, w.engine, w.observed, w.checks)

    def _close_go(self, closing: Event) -> None:
        observed = _pegged(self._go_observed)
        for p in (0, 1):
            if self._go_expected[p] != observed[p]:
                self._diff(Kind.GO, who_of(p), self._go_expected[p], observed[p], Cause.GO_PEGGED, self._go_facts)
        if any(self._go_expected) or any(observed):
            action, at = self._series_last or (closing, self._index)
            self._judge(action, Judged.GO, at, self._go_engine, self._go_observed, 1)
        self._go_expected, self._go_engine, self._go_observed, self._go_facts = [0, 0], [], [], GoPegged()
        self._series_last = None

    def _engine(self, action: str, who: Who | None, run: Callable[[Game], list[ScoreEvent]],
                arguments: str = "") -> list[ScoreEvent]:
        """One engine action, from the program's scores: the engine judges each action as it
        comes, not a game that drifted away after an earlier difference."""
        g = self.game
        if g is None:
            self._diff(Kind.FLOW, who, "a cut for deal first", action, Cause.BEFORE_GAME, BeforeGame(action))
            return []
        g.resync(self.totals)
        try:
            return run(g)
        except IllegalAction as exc:
            self._diff(Kind.LEGALITY, who, "legal", f"{action} {arguments}".rstrip(), Cause.ENGINE_REFUSED,
                       EngineRefused(action, arguments, str(exc)))
            return []

    def _go(self, p: int, forced: bool = False) -> list[ScoreEvent]:
        return self._engine("go", who_of(p), lambda g: g.go(p, forced) if forced else g.go(p), f"{p}")

    def _split(self, events: Iterable[ScoreEvent]) -> None:
        """Engine events of one action: go/last card belong to the series, judged at its end."""
        for e in events:
            if e.reason in GO_KINDS:
                self._go_expected[e.player] += e.points
                self._go_engine.append(e)
                self._go_facts = GoPegged(e.reason, e.rule)

    def _after_win(self, ev: Event, who: Who) -> None:
        if self._won is not None:
            self._diff(Kind.FLOW, who, "nothing after the win", ev.kind.value, Cause.AFTER_WIN,
                       AfterWin(ev.kind, self._won.who))

    def _won_by(self) -> ScoreContext | None:
        return self._last_score.context if self._last_score else None

    # -- the feed -------------------------------------------------------------
    def feed(self, ev: Event) -> list[Judgement]:
        """Judge one event; returns the judgements it closed (possibly none)."""
        self._index += 1
        self._closed = []
        try:
            self._feed(ev)
        except Exception as exc:       # a comparison must never stop a run: report the event it failed on
            self._diff(Kind.HARNESS, None, "no error", f"{type(exc).__name__}: {exc}", Cause.HARNESS_ERROR,
                       HarnessFault(f"{type(exc).__name__}: {exc}", ev.kind))
            self._judge(ev, Judged.HARNESS, self._index)
        self._previous = ev
        return self._closed

    def _feed(self, ev: Event) -> None:
        if isinstance(ev, Score):
            self._on_score(ev)
            return
        if isinstance(ev, Claim):
            self._claim = ev.claimed
            return
        if isinstance(ev, Screen):
            self._on_screen(ev)
            return
        if isinstance(ev, Picture):
            self._on_picture(ev)
            return
        self.screen.see(ev)
        handler = HANDLERS.get(type(ev))
        if not isinstance(ev, PASSIVE):
            if self._show is not None:
                self._finish_show()
            self._close_window()
            if self.game is not None:
                self.game.resync(self.totals)      # each action judged from where the program's game stands
        if handler is not None:
            handler(self, ev)

    def finish(self) -> Comparison:
        self._closed = []
        if self._show is not None:
            self._finish_show()
        self._close_window()
        if self._go_observed or any(self._go_expected):
            self._close_go(self._go_observed[-1] if self._go_observed else Reset(count=0))
        if self._pending:
            self._judge(self._previous or Reset(count=0), Judged.END, self._index if self._previous else None)
        return self.result

    def settled(self) -> list[Judgement]:
        """The judgements the open action would close with if nothing more came, the comparator left as it is.

        For a live view at a wait for a person, when the action's pegs are all in (the show before «ВСКРЫВАЮ
        КРИБ?», the crib at «СЛЕДУЮЩИЙ ХОД?», the computer's card at the player's turn): a copy of this
        comparator closes the action exactly as the next action's arrival will (the same `_finish_show` and
        `_close_window`), so the verdict is shown when its score is pegged; the stored judgement is still the
        one the next event closes (its `closed_at` that event's index). A series' go, judged at the series'
        end, stays open."""
        if self._show is None and self._window is None:
            return []
        result, self.result = self.result, Comparison()     # the judgements so far are not copied, only read
        try:
            probe = copy.deepcopy(self)
        finally:
            self.result = result
        probe._closed = []
        try:
            if probe._show is not None:
                probe._finish_show()
            probe._close_window()
        except Exception:               # whatever the real close will report, it reports then
            return []
        return probe._closed

    # -- pegs -----------------------------------------------------------------
    def _on_score(self, ev: Score) -> None:
        if ev.context == ScoreContext.DEMO:
            return                        # the instructions' board demonstration (9100-9160)
        if self._show is not None:
            self._finish_show()
        self._after_win(ev, ev.who)
        if max(self.totals) >= P.GAME_LENGTH and self._won is None:
            self._diff(Kind.FLOW, ev.who, "game over", f"+{ev.points}", Cause.SCORED_AFTER_121,
                       AfterGameOver(self._won_by()))
        self.totals[index_of(ev.who)] = ev.before + ev.points
        previous, self._last_score = self._last_score, PreviousPeg(ev.who, ev.points, ev.context)
        if ev.context == ScoreContext.GO:
            self._go_observed.append(ev)
        elif self._window is None or JUDGED_OF_CONTEXT.get(ev.context) != self._window.judged:
            self._diff(Kind.of_peg(ev.context), ev.who, 0, ev.points, Cause.UNMATCHED_PEG,
                       UnmatchedPeg(ev.context, previous))
            self._judge(ev, Judged.PEG, self._index, (), [ev])
        else:
            self._window.observed.append(ev)

    # -- the game's course ----------------------------------------------------
    def _on_options(self, ev: Options) -> None:
        self.rules = self.rules.with_(muggins=self._muggins_style if ev.muggins else "off")

    def _on_cut(self, ev: Cut) -> None:
        """«МЛАДШАЯ КАРТА СДАЕТ»: the lower card deals (the program recuts equal ranks at 4940)."""
        self.game = Game(self.rules)
        self.totals = [0, 0]
        self._won = None
        low = Who.PLAYER if ev.player_rank < ev.computer_rank else Who.COMPUTER
        self._cut_dealer = low if ev.player_rank != ev.computer_rank else None

    def _on_rigged(self, ev: Rigged) -> None:
        self._cut_dealer = None          # a scenario chose the dealer, not the cut

    def _on_deal(self, ev: Deal) -> None:
        self._after_win(ev, ev.dealer)
        if self.game is None:
            self.game = Game(self.rules)
        self.game.resync(self.totals)
        if self.game.phase == "over":
            self.game = Game(self.rules)
            self.totals = [0, 0]
        if self._cut_dealer is not None:
            if ev.dealer != self._cut_dealer:
                self._diff(Kind.FLOW, ev.dealer, self._cut_dealer.value, ev.dealer.value, Cause.DEALER_AFTER_CUT,
                           NoFacts())
            self._judge(ev, Judged.DEALER, self._index, checks=1)
            self._cut_dealer = None
        dealer = index_of(ev.dealer)
        self._engine("deal", ev.dealer, lambda g: g.deal(list(ev.computer), list(ev.player), dealer),
                     f"{' '.join(ev.computer)} / {' '.join(ev.player)}")

    def _on_discard(self, ev: Discard) -> None:
        p = index_of(ev.who)
        self._engine("discard", ev.who, lambda g: g.discard(p, list(ev.cards)), " ".join(ev.cards))

    def _on_starter(self, ev: Starter) -> None:
        g = self.game
        dealer = who_of(g.dealer) if g is not None and g.dealer is not None else None
        events = self._engine("starter", dealer, lambda g: g.starter(ev.card), ev.card)
        heels = [e for e in events if e.reason == "his heels"]
        expected = [0, 0]
        for e in heels:
            expected[e.player] += e.points
        self._window = _Window(Judged.HEELS, ev, self._index, expected, heels,
                               Pegged(Judged.HEELS, (0, 0), starter=ev.card))

    def _on_play(self, ev: Play) -> None:
        self._after_win(ev, ev.who)
        if self._won is None and max(self.totals) >= P.GAME_LENGTH:
            self._diff(Kind.FLOW, ev.who, "game over", f"played {ev.card}", Cause.PLAYED_AFTER_121,
                       AfterGameOver(self._won_by(), ev.card))
            self._judge(ev, Judged.PLAY, self._index)
            return
        p = index_of(ev.who)
        g = self.game
        while g is not None and g.phase == "play" and g.turn != p and g.must_go:
            self._split(self._go(g.turn))   # a go the program did not announce (it has no go of its own here)
        table = tuple(str(c) for c in g.series) if g and g.phase == "play" else ()
        series = list(g.series) if g and g.phase == "play" else []
        after_taken_back, self._after_taken_back = self._after_taken_back, False
        if g is not None and g.phase == "play" and g.turn != p and not g.must_go:
            turn = who_of(g.turn).value
            self._diff(Kind.FLOW, ev.who, f"{turn} to lead" if not series else f"{turn} to play",
                       f"{ev.who.value} played", Cause.OUT_OF_TURN, OutOfTurn(ev.card, g.count, after_taken_back))
            events = self._engine("play", ev.who, lambda g: g.play(ev.card, p, True), ev.card)  # follow the program
        else:
            events = self._engine("play", ev.who, lambda g: g.play(ev.card, p), ev.card)
        played = [e for e in events if e.reason in PLAY_KINDS]
        points = [0, 0]
        for e in played:
            points[e.player] += e.points
        if g is not None and g.phase == "over":
            # The engine stops pegging the moment 121 is reached, inside the card's combinations;
            # the program pegs the card's whole score at once. Same winner: compare whole scores.
            points[p] = score_play(series + [parse_card(ev.card)], self.rules).total
        self._split(events)
        self._series_last = (ev, self._index)
        self._window = _Window(Judged.PLAY, ev, self._index, points, played,
                               Pegged(Judged.PLAY, (0, 0), card=ev.card, table=table, count=ev.count))

    def _go_at(self, g: Game, p: int, count: int) -> GoAt:
        return GoAt(count, tuple(str(c) for c in g.left[p]),
                    tuple(str(c) for c in g.left[p] if c.value + g.count <= 31), self._go_taken_back)

    def _on_go(self, ev: Go) -> None:
        p = index_of(ev.who)
        g = self.game
        if g is None or g.phase != "play" or not g.left[p]:
            return                            # the program's automatic go of a player with no cards left
        self._series_last = (ev, self._index)
        if g.turn != p or not g.must_go:
            if g.turn == p:
                self._diff(Kind.LEGALITY, ev.who, "play a card", "go", Cause.GO_WITH_A_CARD,
                           self._go_at(g, p, ev.count))
            else:
                self._diff(Kind.LEGALITY, ev.who, f"{who_of(g.turn).value} to move", "go", Cause.GO_OUT_OF_TURN,
                           self._go_at(g, p, ev.count))
            self._judge(ev, Judged.GO, self._index)
            if g.turn != p:
                return
            self._split(self._go(p, True))       # the program took it: follow the program
            return
        self._split(self._go(p))

    def _on_refused(self, ev: Refused) -> None:
        """The program refused a card: the engine must agree that it passes 31."""
        card = parse_card(ev.card)
        if card.value + ev.count <= 31:
            self._diff(Kind.LEGALITY, ev.who, "card accepted", "refused", Cause.CARD_REFUSED,
                       Refusal(ev.card, ev.count))
        self._judge(ev, Judged.REFUSED, self._index, checks=1)

    def _on_reset(self, ev: Reset) -> None:
        """The program ended the series: the engine's series ends too, each player left to move saying go
        (a player who could still play is a difference: the program skipped that turn)."""
        g = self.game
        for _ in range(4):
            if g is None or g.phase != "play" or not g.series:
                break
            p = g.turn
            if g.must_go:
                self._split(self._go(p))
                continue
            self._diff(Kind.LEGALITY, who_of(p), "play a card", "series ended", Cause.TURN_SKIPPED,
                       self._go_at(g, p, g.count))
            self._split(self._go(p, True))
        self._after_taken_back, self._go_taken_back = self._go_taken_back, False
        self._close_go(ev)

    def _on_report(self, ev: Report) -> None:
        """The program stopped: an action whose pegs were still coming gets none (a finding, not a
        difference); its pegs so far are kept in a judgement that says so."""
        if ev.code in ("0", "9"):
            return
        if self._show is not None:
            show, at = self._show
            self._show = None
            self._judge(show, Judged.STOPPED, at)
        w, self._window = self._window, None
        if w is not None:
            self._judge(w.action, Judged.STOPPED, w.action_at, (), w.observed)

    def _on_choice(self, ev: Choice) -> None:
        if ev.what == ChoiceKind.CANCEL_GO:
            self._go_taken_back = True        # 2750 keeps HGO set when the go is taken back at 2755-2760

    # -- the show -------------------------------------------------------------
    def _on_show(self, ev: Show) -> None:
        self._close_go(ev)
        self._show = (ev, self._index)
        self._claim = None

    def _finish_show(self) -> None:
        assert self._show is not None
        (ev, at), self._show = self._show, None
        self._close_window()
        g = self.game
        if g is not None:
            g.resync(self.totals)
        if g is None or g.phase != "show":
            who = Who(ev.hand.value) if ev.hand in (ShowHand.COMPUTER, ShowHand.PLAYER) else None
            self._diff(Kind.FLOW, who, "show phase", g.phase if g else "no game", Cause.SHOW_PHASE,
                       ShowPhase(ev.hand, g.phase if g else "no game"))
            self._judge(ev, Judged.SHOW, at)
            return
        which = ("pone", "dealer", "crib")[g.show_index]
        owner_index = g.pone if which == "pone" else g.dealer
        assert owner_index is not None            # the show phase comes after a deal
        owner = who_of(owner_index)
        expected_hand = ShowHand.CRIB if which == "crib" else ShowHand(owner.value)
        if ev.hand != expected_hand:
            self._diff(Kind.FLOW, owner, expected_hand.value, ev.hand.value, Cause.SHOW_ORDER, NoFacts())
        events = self._engine("show", owner, lambda g: g.show(self._claim), f"claim {self._claim}")
        hs = next((e.detail for e in events if e.detail is not None), None)
        checks = 1
        if hs is not None:
            cards = tuple(str(c) for c in hs.hand) + (str(hs.starter),)
            for part in P.SHOW_PARTS:
                checks += 1
                engine, program = getattr(hs, part), getattr(ev, part)
                if engine != program:
                    self._diff(Kind.show_part(part), owner, engine, program, Cause.SHOW_PART,
                               ShowPart(part, ev.hand, cards, which == "crib"))
        per_player = [0, 0]
        for e in events:
            per_player[e.player] += e.points
        self._last_show_owner = owner
        self._window = _Window(Judged.SHOW, ev, at, per_player, events,
                               Pegged(Judged.SHOW, (0, 0), hand=ev.hand, owner=owner, claim=self._claim,
                                      true_total=hs.total if hs is not None else None), checks)

    # -- the outcome ----------------------------------------------------------
    def _on_win(self, ev: Win) -> None:
        """The program declares the winner when a score passes 120 (6060) and credits G(PLAYER) (8260)."""
        first = [who_of(p) for p in (0, 1) if self.totals[p] >= P.GAME_LENGTH]
        if first != [ev.who]:
            self._diff(Kind.FLOW, ev.who, [w.value for w in first] or "nobody at 121", ev.who.value, Cause.WINNER,
                       Scores((self.totals[0], self.totals[1])))
        if [ev.computer, ev.player] != self.totals:
            self._diff(Kind.OUTCOME, ev.who, list(self.totals), [ev.computer, ev.player], Cause.FINAL_SCORES,
                       NoFacts())
        credited = ev.credited or ev.who
        if credited != ev.who:
            last = self._last_score
            muggins = last is not None and last.context == ScoreContext.SHOW and last.who != self._last_show_owner
            d = self._diff(Kind.OUTCOME, ev.who, ev.who.value, credited.value, Cause.GAME_CREDITED,
                           Credit(self._won_by(), muggins))
            if d.deviation:
                self._credit_deviations.append(d.deviation)
        winner = index_of(ev.who)
        loser_score = [ev.computer, ev.player][1 - winner]
        self._games.append(GameWon(ev.who, loser_score))
        self._tally[winner] += self.rules.game_points_for(loser_score)
        self._tally_single[winner] += 1
        self._tally_as_credited[index_of(credited)] += 1
        self._won = ev
        self._judge(ev, Judged.WIN, self._index, checks=1)

    def _on_tally(self, ev: Tally) -> None:
        """The games tally G() against the game points the rules give for each game won."""
        observed = [ev.computer, ev.player]
        if observed != self._tally:
            self._diff(Kind.OUTCOME, None, list(self._tally), observed, Cause.GAMES_TALLY,
                       TallyFacts(tuple(self._games), (self._tally_single[0], self._tally_single[1]),
                                  (self._tally_as_credited[0], self._tally_as_credited[1]), self.rules.game_points,
                                  tuple(self._credit_deviations)))
        self._judge(ev, Judged.TALLY, self._index, checks=1)

    # -- the screen -----------------------------------------------------------
    def _on_screen(self, ev: Screen) -> None:
        rows = {r: text.ljust(32) for r, text in ev.rows}
        check = SCREEN_CHECKS.get(ev.what)
        if check is None:
            self._diff(Kind.SCREEN, None, "a known screen check", ev.what, Cause.SCREEN_CHECK_UNKNOWN,
                       ScreenCheckName(ev.what))
        else:
            for f in check(TextScreen(self.words, self._claim), rows, ev.variables):
                self._diff(Kind.SCREEN, f.who, f.expected, f.observed, f.cause, f.facts)
        self._judge(ev, Judged.SCREEN, self._index, checks=1)

    def _on_picture(self, ev: Picture) -> None:
        """Every slot, peg and line of a picture against the game (screen_judgements.py); a picture with
        nothing to judge (half drawn, or a moment with nothing drawn yet) makes no judgement."""
        checks, findings = self.screen.judge(ev)
        if not checks and not findings:
            return
        for f in findings:
            self._diff(Kind.SCREEN, f.who, f.expected, f.observed, f.cause, f.facts)
        # the judgement keeps what the screen showed; the variables stay in the transcript (action_at)
        self._judge(replace(ev, variables={}), Judged.SCREEN, self._index, checks=checks)


EventT = TypeVar("EventT", bound=Event)
Handler = Callable[[Comparator, Event], None]


@dataclass(frozen=True)
class _Handler(Generic[EventT]):
    """*method*, which takes the events of *cls*, as a handler of any event (HANDLERS gives it those of *cls*).
    A class rather than a closure, so that its check runs (and is mutated) when an event is handled."""
    cls: type[EventT]
    method: Callable[[Comparator, EventT], None]

    def __call__(self, c: Comparator, ev: Event) -> None:
        if not isinstance(ev, self.cls):
            raise TypeError(f"a {ev.kind.value} event given to the handler of {self.cls.__name__}")
        self.method(c, ev)


# The handler of each kind of event (those not listed need none), and of each screen check.
HANDLERS: dict[type[Event], Handler] = {
    Options: _Handler(Options, Comparator._on_options), Cut: _Handler(Cut, Comparator._on_cut),
    Rigged: _Handler(Rigged, Comparator._on_rigged), Deal: _Handler(Deal, Comparator._on_deal),
    Discard: _Handler(Discard, Comparator._on_discard), Starter: _Handler(Starter, Comparator._on_starter),
    Play: _Handler(Play, Comparator._on_play), Go: _Handler(Go, Comparator._on_go),
    Refused: _Handler(Refused, Comparator._on_refused), Reset: _Handler(Reset, Comparator._on_reset),
    Report: _Handler(Report, Comparator._on_report), Choice: _Handler(Choice, Comparator._on_choice),
    Show: _Handler(Show, Comparator._on_show), Win: _Handler(Win, Comparator._on_win),
    Tally: _Handler(Tally, Comparator._on_tally),
}


def compare(events: Iterable[Event], rules: Rules = STANDARD, words: P.ScreenWords = P.RUSSIAN) -> Comparison:
    c = Comparator(rules, words)
    for ev in events:
        c.feed(ev)
    return c.finish()


def judge(events: Iterable[Event], setup: ComparisonSetup) -> dict[str, Comparison]:
    """The transcript judged under every rule set of *setup*, by name (the verdict's first)."""
    events = list(events)
    return {rules.name: compare(events, rules, setup.words) for rules in setup.rule_sets}
