"""The program's scores against the reference engine, action by action.

A transcript (what the driver recorded from the program's own variables) is
fed in order through a rules-engine Game. After each action the points the
program pegged (its ``score`` events) are compared with the engine's events
for that action: per card in the play, per go/last card at the end of a
series, per hand in the show (component by component: fifteens, pairs,
runs, flush, nobs), his heels at the starter. Every difference is then
classified by `deviations.classify`: a documented deviation of the original
program (the BASIC lines and the rule it departs from) or an unexplained defect.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..cribbage import Game, score_play
from ..cribbage.cards import parse_card
from ..cribbage.game import IllegalAction
from ..cribbage.rules import STANDARD, Rules
from .deviations import classify

PLAYER_INDEX = {"computer": 0, "player": 1}
NAMES = ("computer", "player")
PLAY_KINDS = {"fifteen", "thirty-one", "pair", "pair royal", "double pair royal", "run"}
GO_KINDS = {"go", "last card"}


@dataclass
class Difference:
    kind: str                 # 'play', 'go', 'show:<component>', 'heels', 'legality', 'flow'
    who: str
    expected: int | str
    observed: int | str
    context: dict = field(default_factory=dict)
    deviation: str | None = None    # id of the documented deviation, None = unexplained

    def as_dict(self) -> dict:
        return {"kind": self.kind, "who": self.who, "expected": self.expected, "observed": self.observed,
                "deviation": self.deviation, "context": self.context}


@dataclass
class Comparison:
    score_events: int = 0            # program score changes checked
    checks: int = 0                  # engine expectations checked (including zero-point actions)
    differences: list[Difference] = field(default_factory=list)

    @property
    def documented(self) -> list[Difference]:
        return [d for d in self.differences if d.deviation]

    @property
    def unexplained(self) -> list[Difference]:
        return [d for d in self.differences if not d.deviation]


class Comparator:
    """Feeds transcript events to a Game and compares scores as they come."""

    def __init__(self, rules: Rules = STANDARD):
        self.rules = rules
        self.game: Game | None = None
        self.result = Comparison()
        self._window: tuple[str, list[int], dict] | None = None   # (kind, expected per player, context)
        self._observed = [0, 0]
        self._go_expected = [0, 0]
        self._go_observed = [0, 0]
        self._go_context: dict = {}
        self._show: dict | None = None
        self._claim: int | None = None
        self.totals = [0, 0]         # the program's own scores, which the engine is kept in step with
        self._phase_before_over = "play"
        self._last_score: dict | None = None
        self._cut_dealer: str | None = None

    # -- helpers --------------------------------------------------------------
    def _diff(self, kind, who, expected, observed, **context) -> None:
        d = Difference(kind, who if isinstance(who, str) else NAMES[who], expected, observed, context)
        d.deviation = classify(d)
        self.result.differences.append(d)

    def _close_window(self) -> None:
        """Compare the points pegged since the last action with what the engine expected of it."""
        if self._window is None:
            return
        kind, expected, ctx = self._window
        self.result.checks += 1
        for p in (0, 1):
            if self._observed[p] != expected[p]:
                self._diff(kind, p, expected[p], self._observed[p], **ctx)
        self._window = None
        self._observed = [0, 0]

    def _close_go(self) -> None:
        for p in (0, 1):
            if self._go_expected[p] != self._go_observed[p]:
                self._diff("go", p, self._go_expected[p], self._go_observed[p], **self._go_context)
        if any(self._go_expected) or any(self._go_observed):
            self.result.checks += 1
        self._go_expected, self._go_observed, self._go_context = [0, 0], [0, 0], {}

    def _engine(self, action, *args) -> list:
        """One engine action, from the program's scores: the engine judges each action as it
        comes, not a game that drifted away after an earlier difference."""
        g = self.game
        g.scores = list(self.totals)
        if g.phase == "over" and max(self.totals) < g.rules.game_length:
            g.winner, g.phase = None, self._phase_before_over
        phase = g.phase
        try:
            events = getattr(g, action)(*args)
        except IllegalAction as exc:
            self._diff("legality", args[-1] if args and isinstance(args[-1], int) else "?", "legal",
                       f"{action} {args}", reason=str(exc))
            return []
        if g.phase == "over":
            self._phase_before_over = phase if phase != "over" else self._phase_before_over
        return events

    def _split(self, events) -> None:
        """Engine events of one action: play combos into the window, go/last card into the series."""
        for e in events:
            if e.reason in GO_KINDS:
                self._go_expected[e.player] += e.points
                self._go_context = {"reason": e.reason, "rule": e.rule}

    # -- the feed -------------------------------------------------------------
    def feed(self, ev: dict) -> None:
        t = ev["t"]
        if t == "score" and ev["context"] == "demo":
            return                        # the instructions' board demonstration (9100-9160)
        if t == "screen":
            self.result.checks += 1
            self._diff("screen", "player", ev["variables"], ev["screen"], what=ev["what"])
            return
        if t == "score":
            if self._show is not None:
                self._finish_show()
            self.result.score_events += 1
            ctx = ev["context"]
            who = PLAYER_INDEX[ev["who"]]
            if max(self.totals) > 120:
                self._diff("flow", ev["who"], "game over", f"+{ev['points']}", note="scored after 121")
            self.totals[who] = ev["before"] + ev["points"]
            previous, self._last_score = self._last_score, {"who": ev["who"], "points": ev["points"],
                                                            "context": ctx}
            if ctx == "go":
                self._go_observed[PLAYER_INDEX[ev["who"]]] += ev["points"]
            elif self._window is None or self._window[0] != ctx:
                self._diff(ctx, ev["who"], 0, ev["points"], note="score with no matching action",
                           previous=previous)
            else:
                self._observed[PLAYER_INDEX[ev["who"]]] += ev["points"]
            return
        if t == "claim":
            self._claim = ev["claimed"]
            return
        if self._show is not None:
            self._finish_show()
        self._close_window()
        handler = getattr(self, "_on_" + t, None)
        if handler:
            handler(ev)

    def finish(self) -> Comparison:
        if self._show is not None:
            self._finish_show()
        self._close_window()
        self._close_go()
        return self.result

    def _on_options(self, ev) -> None:
        self.rules = self.rules.with_(muggins="standard" if ev.get("muggins") else "off")

    def _on_cut(self, ev) -> None:
        """«МЛАДШАЯ КАРТА СДАЕТ»: the lower card deals (the program recuts equal ranks at 4940)."""
        self.game = Game(self.rules)
        self.totals = [0, 0]
        low = "player" if ev["player_rank"] < ev["computer_rank"] else "computer"
        self._cut_dealer = low if ev["player_rank"] != ev["computer_rank"] else None

    def _on_rigged(self, ev) -> None:
        self._cut_dealer = None          # a scenario chose the dealer, not the cut

    def _on_deal(self, ev) -> None:
        if self.game is None or self.game.phase == "over" and max(self.totals) > 120:
            self.game = Game(self.rules)
        elif self.game.phase == "over":
            self.game.winner, self.game.phase = None, "deal"
        dealer = PLAYER_INDEX[ev["dealer"]]
        if self._cut_dealer is not None:
            self.result.checks += 1
            if ev["dealer"] != self._cut_dealer:
                self._diff("flow", ev["dealer"], self._cut_dealer, ev["dealer"], note="dealer after the cut")
            self._cut_dealer = None
        self._engine("deal", ev["computer"], ev["player"], dealer)

    def _on_discard(self, ev) -> None:
        self._engine("discard", PLAYER_INDEX[ev["who"]], ev["cards"])

    def _on_starter(self, ev) -> None:
        events = self._engine("starter", ev["card"])
        heels = [0, 0]
        for e in events:
            if e.reason == "his heels":
                heels[e.player] += e.points
        self._window = ("heels", heels, {"starter": ev["card"]})

    def _on_play(self, ev) -> None:
        p = PLAYER_INDEX[ev["who"]]
        g = self.game
        while g is not None and g.phase == "play" and g.turn != p and g.must_go:
            self._engine("go", g.turn)           # a go the program did not announce (it has no go of its own here)
        table = [str(c) for c in g.series] if g and g.phase == "play" else []
        series = list(g.series) if g and g.phase == "play" else []
        events = self._engine("play", ev["card"], p)
        points = [0, 0]
        for e in events:
            if e.reason in PLAY_KINDS:
                points[e.player] += e.points
        if g.phase == "over":
            # The engine stops pegging the moment 121 is reached, inside the card's combinations;
            # the program pegs the card's whole score at once. Same winner: compare whole scores.
            points[p] = score_play(series + [parse_card(ev["card"])], self.rules).total
        self._split(events)
        self._window = ("play", points, {"card": ev["card"], "table": table, "count": ev.get("count")})

    def _on_go(self, ev) -> None:
        p = PLAYER_INDEX[ev["who"]]
        g = self.game
        if g is None or g.phase != "play" or not g.left[p]:
            return                            # the program's automatic go of a player with no cards left
        if g.turn != p or not g.must_go:
            self._diff("legality", p, "play a card" if g.turn == p else f"{NAMES[g.turn]} to move",
                       "go", count=ev.get("count"), hand=[str(c) for c in g.left[p]],
                       playable=[str(c) for c in g.left[p] if c.value + g.count <= 31])
            if g.turn != p:
                return
            self._split(self._engine("go", p, True))       # the program took it: follow the program
            return
        self._split(self._engine("go", p))

    def _on_refused(self, ev) -> None:
        """The program refused a card: the engine must agree that it passes 31."""
        self.result.checks += 1
        card = parse_card(ev["card"])
        if card.value + ev["count"] <= 31:
            self._diff("legality", ev["who"], "card accepted", "refused", card=ev["card"], count=ev["count"])

    def _on_reset(self, ev) -> None:
        self._close_go()

    def _on_show(self, ev) -> None:
        self._close_go()
        self._show = ev
        self._claim = None

    def _finish_show(self) -> None:
        ev, self._show = self._show, None
        g = self.game
        if g is None or g.phase != "show":
            self._diff("flow", ev["hand"], "show phase", g.phase if g else "no game")
            return
        which = ("pone", "dealer", "crib")[g.show_index]
        owner = g.pone if which == "pone" else g.dealer
        expected_hand = "crib" if which == "crib" else NAMES[owner]
        if ev["hand"] != expected_hand:
            self._diff("flow", ev["hand"], expected_hand, ev["hand"], note="show order")
        events = self._engine("show", self._claim)
        hs = next((e.detail for e in events if e.detail is not None), None)
        if hs is not None:
            cards = [str(c) for c in hs.hand] + [str(hs.starter)]
            for comp in ("fifteens", "pairs", "runs", "flush", "nobs"):
                self.result.checks += 1
                if getattr(hs, comp) != ev[comp]:
                    self._diff("show:" + comp, ev["hand"], getattr(hs, comp), ev[comp],
                               cards=cards, crib=which == "crib")
        per_player = [0, 0]
        for e in events:
            per_player[e.player] += e.points
        self._window = ("show", per_player, {"hand": ev["hand"], "owner": NAMES[owner], "claim": self._claim,
                                             "true": hs.total if hs is not None else None})

    def _on_win(self, ev) -> None:
        """The program declares the winner at once when a score passes 120 (line 6060)."""
        self.result.checks += 1
        first = [p for p in (0, 1) if self.totals[p] > 120]
        if len(first) != 1 or NAMES[first[0]] != ev["who"]:
            self._diff("flow", ev["who"], [NAMES[p] for p in first] or "nobody at 121", ev["who"],
                       note="winner", scores=list(self.totals))


def compare(transcript: list[dict], rules: Rules = STANDARD) -> Comparison:
    c = Comparator(rules)
    for ev in transcript:
        c.feed(ev)
    return c.finish()
