"""The program's events judged against the reference engine, action by action.

A transcript (the observer's typed events) is fed in order through a
rules-engine Game. After each action the points the program pegged (its
`Score` events) are compared with the engine's events for that action: per
card in the play, per go/last card at the end of a series, per hand in the
show (component by component: fifteens, pairs, runs, flush, nobs), his heels
at the starter. The outcome is judged too: who won, who is credited with the
game, the games tally against the game points the rules give, nothing pegged
or played after the win. Screen observations are checked against the
variables they were printed from. Every judgement is returned as it closes
(for a live referee) and every difference is classified by
`deviations.classify`: a documented deviation of the original program or an
unexplained defect. A comparison never crashes on a transcript: an internal
error becomes a "harness" difference naming the event.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable

from ..cribbage import Game, score_play
from ..cribbage.cards import parse_card
from ..cribbage.game import IllegalAction, ScoreEvent
from ..cribbage.rules import STANDARD, Rules
from . import program as P
from .deviations import classify
from .events import (Choice, ChoiceKind, Claim, Crib, Cut, Deal, Discard, Event, Failure, Go, Message, Options, Picture, Play,
                     Refused, Report, Reset, Rigged, Score, ScoreContext, Screen, Show, Starter, Tally, Win,
                     event_to_json)
from .screen_judgements import ScreenJudge

PLAYER_INDEX = {"computer": 0, "player": 1}
NAMES = ("computer", "player")
PLAY_KINDS = {"fifteen", "thirty-one", "pair", "pair royal", "double pair royal", "run"}
GO_KINDS = {"go", "last card"}
# What a person chose, said or saw: these do not end the action whose pegs are still coming.
PASSIVE = (Choice, Message, Options, Rigged, Report, Failure, Crib, Tally)


@dataclass
class Difference:
    kind: str                 # 'play', 'go', 'show:<component>', 'heels', 'legality', 'flow', 'outcome', 'screen', 'harness'
    who: str
    expected: Any
    observed: Any
    context: dict = field(default_factory=dict)
    deviation: str | None = None    # id of the documented deviation, None = unexplained
    at: int | None = None           # index of the event being judged when it was found

    def as_dict(self) -> dict:
        return {"kind": self.kind, "who": self.who, "expected": self.expected, "observed": self.observed,
                "deviation": self.deviation, "context": self.context, "at": self.at}


@dataclass
class Judgement:
    """One action of the program judged: what the engine expected of it and what the program pegged."""
    action: Event
    expected: list[ScoreEvent] = field(default_factory=list)
    observed: list[Score] = field(default_factory=list)
    differences: list[Difference] = field(default_factory=list)
    what: str = ""            # 'play', 'go', 'show', 'heels', or the check's name


@dataclass
class Comparison:
    score_events: int = 0            # program score changes checked
    checks: int = 0                  # engine expectations checked (including zero-point actions)
    differences: list[Difference] = field(default_factory=list)
    judgements: list[Judgement] = field(default_factory=list)
    pictures: int = 0                # pictures of the screen judged (screen_judgements.py)
    screen_checks: int = 0           # slots, pegs and lines judged in them

    @property
    def screen_differences(self) -> list[Difference]:
        return [d for d in self.differences if d.kind == "screen"]

    @property
    def documented(self) -> list[Difference]:
        return [d for d in self.differences if d.deviation]

    @property
    def unexplained(self) -> list[Difference]:
        return [d for d in self.differences if not d.deviation]


@dataclass
class _Window:
    """An action whose pegs are still coming."""
    what: str
    action: Event
    expected: list[int]
    engine: list[ScoreEvent]
    context: dict
    observed: list[Score] = field(default_factory=list)


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
        self._go_context: dict = {}
        self._show: Show | None = None
        self._claim: int | None = None
        self.totals = [0, 0]         # the program's own scores, which the engine is kept in step with
        self._last_score: dict | None = None
        self._cut_dealer: str | None = None
        self._won: Win | None = None          # the game was won: nothing may follow until the next game
        self._tally = [0, 0]                  # games won, as the rules count them
        self._tally_single = [0, 0]           # games won, one per game
        self._tally_as_credited = [0, 0]      # one per game, for whom the program credits it
        self._last_show_owner: str | None = None
        self._credit_deviations: list[str] = []   # documented deviations that credited a game to the loser
        self._go_taken_back = False           # in this series the player took a go back at the confirmation
        self._after_taken_back = False        # ... in the series the last reset ended
        self._previous: Event | None = None
        self._index = -1
        self._pending: list[Difference] = []
        self._closed: list[Judgement] = []
        self.screen = ScreenJudge(words)

    # -- helpers --------------------------------------------------------------
    def _diff(self, kind, who, expected, observed, **context) -> Difference:
        d = Difference(kind, who if isinstance(who, str) else NAMES[who], expected, observed, context,
                       at=self._index)
        d.deviation = classify(d)
        self.result.differences.append(d)
        self._pending.append(d)
        return d

    def _judge(self, action: Event, what: str, expected=(), observed=()) -> None:
        """Close a judgement: it takes the differences found since the last one."""
        j = Judgement(action, list(expected), list(observed), self._pending, what)
        self._pending = []
        self.result.judgements.append(j)
        self._closed.append(j)

    def _close_window(self) -> None:
        """Compare the points pegged since the last action with what the engine expected of it."""
        w, self._window = self._window, None
        if w is None:
            return
        self.result.checks += 1
        observed = [0, 0]
        for s in w.observed:
            observed[PLAYER_INDEX[s.who]] += s.points
        for p in (0, 1):
            if observed[p] != w.expected[p]:
                self._diff(w.what, p, w.expected[p], observed[p], **w.context, pegged=list(observed))
        self._judge(w.action, w.what, w.engine, w.observed)

    def _close_go(self, closing: Event) -> None:
        observed = [0, 0]
        for s in self._go_observed:
            observed[PLAYER_INDEX[s.who]] += s.points
        for p in (0, 1):
            if self._go_expected[p] != observed[p]:
                self._diff("go", p, self._go_expected[p], observed[p], **self._go_context)
        if any(self._go_expected) or any(observed):
            self.result.checks += 1
            self._judge(closing, "go", self._go_engine, self._go_observed)
        self._go_expected, self._go_engine, self._go_observed, self._go_context = [0, 0], [], [], {}

    def _engine(self, action: str, *args) -> list[ScoreEvent]:
        """One engine action, from the program's scores: the engine judges each action as it
        comes, not a game that drifted away after an earlier difference."""
        g = self.game
        if g is None:
            self._diff("flow", "player", "a cut for deal first", action, note="action before the game began")
            return []
        g.resync(self.totals)
        try:
            return getattr(g, action)(*args)
        except IllegalAction as exc:
            self._diff("legality", args[-1] if args and isinstance(args[-1], int) else "?", "legal",
                       f"{action} {args}", reason=str(exc))
            return []

    def _split(self, events) -> None:
        """Engine events of one action: go/last card belong to the series, judged at its end."""
        for e in events:
            if e.reason in GO_KINDS:
                self._go_expected[e.player] += e.points
                self._go_engine.append(e)
                self._go_context = {"reason": e.reason, "rule": e.rule}

    def _after_win(self, ev: Event, who: str) -> None:
        if self._won is not None:
            self._diff("flow", who, "nothing after the win", ev.kind.value,
                       note=f"{ev.kind.value} after {self._won.who} won", event=event_to_json(ev))

    # -- the feed -------------------------------------------------------------
    def feed(self, ev: Event) -> list[Judgement]:
        """Judge one event; returns the judgements it closed (possibly none)."""
        self._index += 1
        self._closed = []
        try:
            self._feed(ev)
        except Exception as exc:       # a comparison must never stop a run: report the event it failed on
            self._diff("harness", "-", "no error", f"{type(exc).__name__}: {exc}", event_index=self._index,
                       event=event_to_json(ev))
            self._judge(ev, "harness")
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
        if isinstance(ev, PASSIVE):
            handler = getattr(self, "_on_" + ev.kind.value, None)
            if handler:
                handler(ev)
            return
        if self._show is not None:
            self._finish_show()
        self._close_window()
        if self.game is not None:
            self.game.resync(self.totals)      # each action judged from where the program's game stands
        handler = getattr(self, "_on_" + ev.kind.value, None)
        if handler:
            handler(ev)

    def finish(self) -> Comparison:
        self._closed = []
        if self._show is not None:
            self._finish_show()
        self._close_window()
        if self._go_observed or any(self._go_expected):
            self._close_go(self._go_observed[-1] if self._go_observed else Reset(count=0))
        if self._pending:
            self._judge(self._previous or Reset(count=0), "end")
        return self.result

    # -- pegs -----------------------------------------------------------------
    def _on_score(self, ev: Score) -> None:
        if ev.context == ScoreContext.DEMO:
            return                        # the instructions' board demonstration (9100-9160)
        if self._show is not None:
            self._finish_show()
        self.result.score_events += 1
        self._after_win(ev, ev.who)
        if max(self.totals) >= P.GAME_LENGTH and self._won is None:
            self._diff("flow", ev.who, "game over", f"+{ev.points}", note="scored after 121",
                       won_by=(self._last_score or {}).get("context"))
        self.totals[PLAYER_INDEX[ev.who]] = ev.before + ev.points
        previous, self._last_score = self._last_score, {"who": ev.who.value, "points": ev.points,
                                                        "context": ev.context.value}
        if ev.context == ScoreContext.GO:
            self._go_observed.append(ev)
        elif self._window is None or self._window.what != ev.context:
            self._diff(ev.context.value, ev.who, 0, ev.points, note="score with no matching action",
                       previous=previous)
            self._judge(ev, ev.context.value, (), [ev])
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
        low = "player" if ev.player_rank < ev.computer_rank else "computer"
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
            self.result.checks += 1
            if ev.dealer != self._cut_dealer:
                self._diff("flow", ev.dealer, self._cut_dealer, ev.dealer.value, note="dealer after the cut")
            self._judge(ev, "dealer")
            self._cut_dealer = None
        self._engine("deal", list(ev.computer), list(ev.player), PLAYER_INDEX[ev.dealer])

    def _on_discard(self, ev: Discard) -> None:
        self._engine("discard", PLAYER_INDEX[ev.who], list(ev.cards))

    def _on_starter(self, ev: Starter) -> None:
        events = self._engine("starter", ev.card)
        heels = [e for e in events if e.reason == "his heels"]
        expected = [0, 0]
        for e in heels:
            expected[e.player] += e.points
        self._window = _Window("heels", ev, expected, heels, {"starter": ev.card})

    def _on_play(self, ev: Play) -> None:
        self._after_win(ev, ev.who)
        if self._won is None and max(self.totals) >= P.GAME_LENGTH:
            self._diff("flow", ev.who, "game over", f"played {ev.card}", note="played after 121",
                       won_by=(self._last_score or {}).get("context"))
            self._judge(ev, "play")
            return
        p = PLAYER_INDEX[ev.who]
        g = self.game
        while g is not None and g.phase == "play" and g.turn != p and g.must_go:
            self._split(self._engine("go", g.turn))   # a go the program did not announce (it has no go of its own here)
        table = [str(c) for c in g.series] if g and g.phase == "play" else []
        series = list(g.series) if g and g.phase == "play" else []
        after_taken_back, self._after_taken_back = self._after_taken_back, False
        if g is not None and g.phase == "play" and g.turn != p and not g.must_go:
            self._diff("flow", p, f"{NAMES[g.turn]} to lead" if not series else f"{NAMES[g.turn]} to play",
                       f"{NAMES[p]} played", note="out of turn", count=g.count, go_taken_back=after_taken_back)
            events = self._engine("play", ev.card, p, True)     # the program let it: follow the program
        else:
            events = self._engine("play", ev.card, p)
        played = [e for e in events if e.reason in PLAY_KINDS]
        points = [0, 0]
        for e in played:
            points[e.player] += e.points
        if g is not None and g.phase == "over":
            # The engine stops pegging the moment 121 is reached, inside the card's combinations;
            # the program pegs the card's whole score at once. Same winner: compare whole scores.
            points[p] = score_play(series + [parse_card(ev.card)], self.rules).total
        self._split(events)
        self._window = _Window("play", ev, points, played, {"card": ev.card, "table": table, "count": ev.count})

    def _on_go(self, ev: Go) -> None:
        p = PLAYER_INDEX[ev.who]
        g = self.game
        if g is None or g.phase != "play" or not g.left[p]:
            return                            # the program's automatic go of a player with no cards left
        if g.turn != p or not g.must_go:
            self._diff("legality", p, "play a card" if g.turn == p else f"{NAMES[g.turn]} to move",
                       "go", count=ev.count, hand=[str(c) for c in g.left[p]],
                       playable=[str(c) for c in g.left[p] if c.value + g.count <= 31],
                       go_taken_back=self._go_taken_back)
            self._judge(ev, "go")
            if g.turn != p:
                return
            self._split(self._engine("go", p, True))       # the program took it: follow the program
            return
        self._split(self._engine("go", p))

    def _on_refused(self, ev: Refused) -> None:
        """The program refused a card: the engine must agree that it passes 31."""
        self.result.checks += 1
        card = parse_card(ev.card)
        if card.value + ev.count <= 31:
            self._diff("legality", ev.who, "card accepted", "refused", card=ev.card, count=ev.count)
        self._judge(ev, "refused")

    def _on_reset(self, ev: Reset) -> None:
        """The program ended the series: the engine's series ends too, each player left to move saying go
        (a player who could still play is a difference: the program skipped that turn)."""
        g = self.game
        for _ in range(4):
            if g is None or g.phase != "play" or not g.series:
                break
            p = g.turn
            if g.must_go:
                self._split(self._engine("go", p))
                continue
            self._diff("legality", p, "play a card", "series ended", count=g.count, note="turn skipped at the reset",
                       go_taken_back=self._go_taken_back, hand=[str(c) for c in g.left[p]],
                       playable=[str(c) for c in g.left[p] if c.value + g.count <= 31])
            self._split(self._engine("go", p, True))
        self._after_taken_back, self._go_taken_back = self._go_taken_back, False
        self._close_go(ev)

    def _on_report(self, ev: Report) -> None:
        """The program stopped: an action whose pegs were still coming gets none (a finding, not a difference)."""
        if ev.code not in ("0", "9"):
            self._show, self._window = None, None

    def _on_choice(self, ev: Choice) -> None:
        if ev.what == ChoiceKind.CANCEL_GO:
            self._go_taken_back = True        # 2750 keeps HGO set when the go is taken back at 2755-2760

    # -- the show -------------------------------------------------------------
    def _on_show(self, ev: Show) -> None:
        self._close_go(ev)
        self._show = ev
        self._claim = None

    def _finish_show(self) -> None:
        ev, self._show = self._show, None
        g = self.game
        if g is not None:
            g.resync(self.totals)
        if g is None or g.phase != "show":
            self._diff("flow", ev.hand, "show phase", g.phase if g else "no game")
            self._judge(ev, "show")
            return
        which = ("pone", "dealer", "crib")[g.show_index]
        owner = g.pone if which == "pone" else g.dealer
        expected_hand = "crib" if which == "crib" else NAMES[owner]
        if ev.hand != expected_hand:
            self._diff("flow", ev.hand, expected_hand, ev.hand.value, note="show order")
        events = self._engine("show", self._claim)
        hs = next((e.detail for e in events if e.detail is not None), None)
        if hs is not None:
            cards = [str(c) for c in hs.hand] + [str(hs.starter)]
            for comp in P.SHOW_PARTS:
                self.result.checks += 1
                if getattr(hs, comp) != getattr(ev, comp):
                    self._diff("show:" + comp, ev.hand, getattr(hs, comp), getattr(ev, comp),
                               cards=cards, crib=which == "crib")
        per_player = [0, 0]
        for e in events:
            per_player[e.player] += e.points
        self._last_show_owner = NAMES[owner]
        self._window = _Window("show", ev, per_player, events,
                               {"hand": ev.hand.value, "owner": NAMES[owner], "claim": self._claim,
                                "true": hs.total if hs is not None else None})

    # -- the outcome ----------------------------------------------------------
    def _on_win(self, ev: Win) -> None:
        """The program declares the winner when a score passes 120 (6060) and credits G(PLAYER) (8260)."""
        self.result.checks += 1
        first = [p for p in (0, 1) if self.totals[p] >= P.GAME_LENGTH]
        if len(first) != 1 or NAMES[first[0]] != ev.who:
            self._diff("flow", ev.who, [NAMES[p] for p in first] or "nobody at 121", ev.who.value,
                       note="winner", scores=list(self.totals))
        if [ev.computer, ev.player] != self.totals:
            self._diff("outcome", ev.who, list(self.totals), [ev.computer, ev.player], note="final scores")
        credited = ev.credited or ev.who
        if credited != ev.who:
            last = self._last_score or {}
            won_by = ("muggins" if last.get("context") == "show" and last.get("who") != self._last_show_owner
                      else last.get("context"))
            d = self._diff("outcome", ev.who, ev.who.value, credited.value, note="game credited to", won_by=won_by)
            if d.deviation:
                self._credit_deviations.append(d.deviation)
        winner = PLAYER_INDEX[ev.who]
        loser_score = [ev.computer, ev.player][1 - winner]
        self._tally[winner] += self.rules.game_points_for(loser_score)
        self._tally_single[winner] += 1
        self._tally_as_credited[PLAYER_INDEX[credited]] += 1
        self._won = ev
        self._judge(ev, "win")

    def _on_tally(self, ev: Tally) -> None:
        """The games tally G() against the game points the rules give for each game won."""
        self.result.checks += 1
        observed = [ev.computer, ev.player]
        if observed != self._tally:
            self._diff("outcome", "player", list(self._tally), observed, note="games tally",
                       one_per_game=list(self._tally_single), as_credited=list(self._tally_as_credited),
                       rule=self.rules.game_points, credit_deviations=list(self._credit_deviations))
        self._judge(ev, "tally")

    # -- the screen -----------------------------------------------------------
    def _on_screen(self, ev: Screen) -> None:
        self.result.checks += 1
        rows = {r: text.ljust(32) for r, text in ev.rows}
        check = getattr(self, "_screen_" + ev.what.replace(" ", "_"), None)
        if check is None:
            self._diff("screen", "player", "a known screen check", ev.what)
        else:
            check(ev, rows, ev.variables)
        self._judge(ev, "screen " + ev.what)

    def _on_picture(self, ev: Picture) -> None:
        """Every slot, peg and line of a picture against the game (screen_judgements.py)."""
        checks, findings = self.screen.judge(ev)
        if not checks and not findings:
            return
        self.result.pictures += 1
        self.result.screen_checks += checks
        for f in findings:
            facts = {k: (v.value if hasattr(v, "value") else v) for k, v in vars(f.facts).items()}
            self._diff("screen", f.who.value if f.who else "-", f.expected, f.observed, cause=f.cause.value,
                       **facts)
        self._judge(ev, "screen picture")

    def _screen_diff(self, what: str, screen: Any, variables: Any) -> None:
        self._diff("screen", "player", variables, screen, what=what)

    def _screen_board_scores(self, ev: Screen, rows: dict, v: dict) -> None:
        text = rows[P.BOARD_ROW][P.BOARD_COL:]
        board = text.split()          # nothing until the first peg, then both totals
        want = [v["player"], v["computer"]]
        if board and (not all(x.isdigit() for x in board) or [int(x) for x in board] != want):
            self._screen_diff(P.ScreenCheck.BOARD, text.rstrip(), want)

    def _screen_count(self, ev: Screen, rows: dict, v: dict) -> None:
        text = rows[P.COUNT_ROW][:P.COUNT_COLS]
        count = text.split()
        if count[:1] == [self.words.total] and count[1:] != [str(v["sum"])]:
            self._screen_diff(P.ScreenCheck.COUNT, text.rstrip(), v["sum"])

    def _screen_hand(self, ev: Screen, rows: dict, v: dict) -> None:
        top, bottom = (rows[r] for r in P.HAND_ROWS)
        for i, card in enumerate(v["cards"]):
            col = P.HAND_COL_STEP * i
            shown = top[col] + bottom[col]
            want = P.card_text(parse_card(card), self.words.ranks) if card else "  "
            if shown != want:
                self._screen_diff(f"hand slot {i + 1}", shown, want)

    def _screen_show_breakdown(self, ev: Screen, rows: dict, v: dict) -> None:
        line = v["print_row"]
        total_row = next((r for r in (line, line - 1) if r in rows and self.words.show_total in rows[r]), None)
        if total_row is None:
            self._screen_diff("show total", "", v["total"])
            return
        block = " ".join(rows[r] for r in range(total_row - 3, total_row + 1) if r in rows)
        seen = P.breakdown_numbers(block, rows[total_row], self.words)
        # 4790 skips the breakdown when the claim was right: only the total is printed
        agreed = self._claim is not None and v["muggins"] != 2
        want = {"total": v["total"]}
        if not agreed:
            parts = {k: v[k] for k in ("fifteens", "pairs", "flush", "nobs")}
            want.update(parts, runs=v["total"] - sum(parts.values()))
        for key, value in want.items():
            if seen[key] != value:
                self._screen_diff(f"show {key}", seen[key], value)

    def _screen_games_tally(self, ev: Screen, rows: dict, v: dict) -> None:
        for row, label, key in zip(P.TALLY_ROWS, (self.words.you, self.words.me), ("player", "computer")):
            m = re.search(re.escape(label) + r"\s*:\s*(\d+)", rows[row])
            if m is None or int(m.group(1)) != v[key]:
                self._screen_diff(f"games tally {key}", rows[row].strip(), v[key])


def compare(events: Iterable[Event], rules: Rules = STANDARD, words: P.ScreenWords = P.RUSSIAN) -> Comparison:
    c = Comparator(rules, words)
    for ev in events:
        c.feed(ev)
    return c.finish()
