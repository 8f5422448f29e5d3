"""The comparison's records by hand (issue 36, item 2): what each judgement keeps of its action (the index it
judges, the picture without its variables), a program's report that stops an action or does not, a game
credited with no peg before it, and the screen words of the set-up reaching the screen judge. Events written
out, fed to `compare`; no emulator. Each fault (a surviving mutant of compare.py) beside a near miss."""
import checkout
import json

import pytest

from harness.cribbage import STANDARD
from harness.program.judge.compare import compare, judge
from harness.program.judge.judgements import Cause, ComparisonSetup, Credit, Expectation, Judged
from harness.program.model import program as P
from harness.program.records.events import (Cut, Deal, Picture, Refused, Report, Score, ScoreContext, Screen, Starter,
                                            Tally, Who, Win, event_from_json)

C, PL = Who.COMPUTER, Who.PLAYER
DATA = checkout.DATA
BASE = [event_from_json(json.loads(line)) for line in (DATA / "example-deal.jsonl").read_text(encoding="utf-8")
        .splitlines() if line.strip() and json.loads(line).get("kind") != "header"]
SIX_C = ("AH", "2H", "3H", "4H", "5H", "6H")
SIX_P = ("AS", "2S", "3S", "4S", "5S", "6S")


def test_a_refused_card_is_judged_at_its_own_index():
    events = [Cut(3, 9), Refused(PL, "KS", 25), Refused(PL, "5S", 20)]
    js = [j for j in compare(events).judgements if j.judged == Judged.REFUSED]
    assert [(j.action_at, j.action.card, j.checks) for j in js] == [(1, "KS", 1), (2, "5S", 1)]
    assert [d.cause for d in compare(events).differences] == [Cause.CARD_REFUSED]      # 5 + 20 fits: refused wrongly


def test_a_picture_is_judged_at_its_index_without_its_variables():
    play = Picture(moment=f"select {P.SELECT_PLAY}", line=2720, slots={}, pegs={}, rows={}, board=False, flag=False,
                   variables={"hand": ["AS"], "held": [1]})
    events = [Cut(3, 9), Deal(1, PL, SIX_C, SIX_P), play]
    (j,) = [j for j in compare(events).judgements if j.judged == Judged.SCREEN]
    assert j.action_at == 2 and j.action.variables == {} and j.action.moment == play.moment and j.checks > 0
    assert j.action == Picture(moment=play.moment, line=2720, slots={}, pegs={}, rows={}, board=False, flag=False,
                               variables={})


def first_play_then(code):
    """The base deal up to its first card laid, then the program stops with report *code*."""
    n = next(i for i, e in enumerate(BASE) if e.kind.value == "play")
    return BASE[:n + 1] + [Report(code, "x", 100, 1)]


@pytest.mark.parametrize("code, stopped", [("0", False), ("9", False), ("2", True), ("H", True)])
def test_a_report_stops_the_open_action_unless_it_is_ok_or_stop(code, stopped):
    js = compare(first_play_then(code)).judgements
    assert (Judged.STOPPED in [j.judged for j in js]) is stopped
    if stopped:
        (j,) = [j for j in js if j.judged == Judged.STOPPED]
        assert j.action.kind.value == "play" and j.expected == ()


def test_a_game_credited_with_no_peg_before_it():
    """A Win before any Score: the credit's facts say no peg won it (no error raised on the missing peg)."""
    events = [Cut(3, 9), Win(PL, 0, 0, credited=C)]
    result = compare(events)
    credits = [d for d in result.differences if d.cause == Cause.GAME_CREDITED]
    assert [(d.facts, d.expected, d.observed) for d in credits] == [(Credit(None, False), "player", "computer")]
    assert [d for d in result.differences if d.cause == Cause.HARNESS_ERROR] == []


def test_the_set_ups_words_reach_the_screen_judge():
    en = P.english_words()
    from harness.program.model.english import english
    line22 = english(P.DEALER_TEXT[PL]).rstrip()
    pic = Picture(moment=f"select {P.SELECT_FIRST_DISCARD}", line=7850, slots={}, pegs={}, rows={"line 22": line22},
                  board=False, flag=False, variables={})
    events = [Cut(3, 9), Deal(1, PL, SIX_C, SIX_P), pic]

    def line_faults(setup):
        return [d for r in judge(events, setup).values() for d in r.differences
                if getattr(d.facts, "line", None) == "line 22"]
    assert line_faults(ComparisonSetup("en", en, (STANDARD,))) == []
    assert len(line_faults(ComparisonSetup("ru", P.RUSSIAN, (STANDARD,)))) == 1        # the same row, Russian words


@pytest.mark.parametrize("action, judged", [
    (Refused(PL, "KS", 25), Judged.REFUSED),
    (Tally(0, 0), Judged.TALLY),
    (Screen("no such check", (), {}), Judged.SCREEN),
    (Win(PL, 0, 0), Judged.WIN),
])
def test_each_action_is_judged_at_its_index(action, judged):
    """The same action at index 1 and at index 3 (after two more events): its judgement names that index."""
    for events, at in (([Cut(3, 9), action], 1), ([Cut(3, 9), Refused(PL, "KS", 30), Refused(PL, "QS", 30), action], 3)):
        js = [j for j in compare(events).judgements if j.judged == judged and j.action == action]
        assert [(j.action_at, j.checks) for j in js] == [(at, 1)]


@pytest.mark.parametrize("context, deviations", [(ScoreContext.RESET, ("D9",)), (ScoreContext.PLAY, ())])
def test_the_tally_names_the_deviation_that_credited_a_game_to_its_loser(context, deviations):
    """The computer reaches 121 with a peg at the count reset and the game goes to the player (D9); the same
    credit after a peg in the play is no documented deviation, and the tally names none."""
    events = [Cut(3, 9), Score(C, 1, context, 120), Win(C, 121, 0, credited=PL), Tally(0, 1)]
    (tally,) = [d for d in compare(events).differences if d.cause == Cause.GAMES_TALLY]
    assert tally.facts.credit_deviations == deviations and tally.facts.as_credited == (0, 1)


def test_the_board_scores_seen_are_reported_without_the_rows_padding():
    row = " " * P.BOARD_COL + "3   9"                        # the row read 30 cells long: padded to 32
    screen = Screen("board scores", ((P.BOARD_ROW, row),), {"player": 4, "computer": 9})
    (d,) = [d for d in compare([Cut(3, 9), screen]).differences if d.cause == Cause.SCREEN_BOARD]
    assert (d.expected, d.observed) == ([4, 9], "3   9")
    right = Screen("board scores", ((P.BOARD_ROW, " " * P.BOARD_COL + "4   9"),), {"player": 4, "computer": 9})
    assert [d for d in compare([Cut(3, 9), right]).differences if d.cause == Cause.SCREEN_BOARD] == []


@pytest.mark.parametrize("variables", [{"player": "4", "computer": 9}, {"player": 4.5, "computer": 9},
                                       {"player": True, "computer": 9}])
def test_a_screen_variable_of_the_wrong_kind_is_a_harness_difference(variables):
    """A transcript's screen variable that is not the whole number the observer reads (a hand-edited file) is
    named as the comparison's own fault, never judged as the program's; the right kind is judged."""
    row = " " * P.BOARD_COL + "4   9"
    (d,) = compare([Cut(3, 9), Screen("board scores", ((P.BOARD_ROW, row),), variables)]).differences
    assert d.cause == Cause.HARNESS_ERROR and "screen variable player=" in d.facts.error
    assert compare([Cut(3, 9), Screen("board scores", ((P.BOARD_ROW, row),), {"player": 4, "computer": 9})]
                   ).differences == []


def test_a_screen_row_of_cards_of_the_wrong_kind_is_a_harness_difference():
    heart = P.SUIT_TEXT[1]
    rows = ((16, "Т   В"), (17, f"{heart}   {heart}"))
    (d,) = compare([Cut(3, 9), Screen("hand", rows, {"cards": ["AH", 11]})]).differences
    assert d.cause == Cause.HARNESS_ERROR and "not a row of cards" in d.facts.error
    assert compare([Cut(3, 9), Screen("hand", rows, {"cards": ["AH", "JH"]})]).differences == []


@pytest.mark.parametrize("words, top", [(P.RUSSIAN, "Т   В"), (P.english_words(), "A   J")])
def test_a_card_in_hand_is_judged_in_the_editions_ranks(words, top):
    """The ace and the jack of hearts in hand: «Т», «В» in the Russian edition, A, J in the English one;
    the other edition's letters in the same cells are a difference of the first slot and the second."""
    other = "A   J" if top == "Т   В" else "Т   В"
    heart = P.SUIT_TEXT[1]

    def hand_faults(row):
        screen = Screen("hand", ((16, row), (17, f"{heart}   {heart}")), {"cards": ["AH", "JH"]})
        return [d.facts.slot for d in compare([Cut(3, 9), screen], STANDARD, words).differences
                if d.cause == Cause.SCREEN_HAND]
    assert hand_faults(top) == []
    assert hand_faults(other) == [1, 2]


def breakdown(rows, words=P.RUSSIAN, **parts):
    v = {"print_row": 19, "muggins": 0, "total": 8, "fifteens": 4, "pairs": 0, "flush": 0, "nobs": 0} | parts
    screen = Screen("show breakdown", tuple(rows.items()), v)
    return [(d.facts.part, d.expected, d.observed) for d in compare([Cut(3, 9), screen], STANDARD, words).differences
            if d.cause == Cause.SCREEN_SHOW]


def test_the_breakdown_is_read_from_the_three_rows_above_the_total_and_not_below():
    rows = {17: "15-ТЬ -4", 18: "СЕКАНС-4", 19: "ВСЕГО = 8"}
    assert breakdown(rows) == []
    assert breakdown(rows | {20: "ПАРЫ -2"}) == []                        # the row under the total is not the show's
    assert breakdown(rows | {16: "ПАРЫ -2"}) == [("pairs", 0, 2)]          # three rows up: it is
    assert breakdown(rows | {15: "ПАРЫ -2"}) == []                        # four rows up: it is not


def test_the_breakdown_is_read_in_the_editions_words():
    en = P.english_words()
    rows = {17: f"{en.fifteens}4", 18: f"{en.runs}4", 19: f"{en.show_total}8"}
    assert breakdown(rows, en) == []
    assert breakdown({17: "15-ТЬ -4", 18: "СЕКАНС-4", 19: f"{en.show_total}8"}, en) == [
        ("fifteens", 4, 0), ("runs", 4, 0)]


def test_the_runs_are_what_the_total_leaves_after_the_other_parts():
    """4700 prints no runs variable: the runs are the total less fifteens, pairs, flush and nobs (8 - 4 = 4)."""
    assert breakdown({17: "15-ТЬ -4", 18: "СЕКАНС-2", 19: "ВСЕГО = 8"}) == [("runs", 4, 2)]
    assert breakdown({17: "15-ТЬ -4 ПАРЫ -2", 18: "СЕКАНС-2", 19: "ВСЕГО = 8"}, pairs=2) == []


def test_an_unknown_screen_check_is_named():
    (d,) = compare([Cut(3, 9), Screen("no such check", (), {})]).differences
    assert (d.cause, d.facts.check, d.expected, d.observed) == (Cause.SCREEN_CHECK_UNKNOWN, "no such check",
                                                                "a known screen check", "no such check")


def test_a_show_out_of_its_phase_names_the_hand_and_the_phase():
    """A show before any cut: no game; after the cut for deal: the engine's game is at its cut."""
    from harness.program.judge.judgements import ShowPhase
    from harness.program.records.events import Show, ShowHand
    for hand in (ShowHand.PLAYER, ShowHand.CRIB):
        show = Show(hand, 0, 0, 0, 0, 0, (), ())
        for events, phase in (([show], "no game"), ([Cut(3, 9), show], "cut")):
            result = compare(events)
            (d,) = [d for d in result.differences if d.cause == Cause.SHOW_PHASE]
            assert d.facts == ShowPhase(hand, phase) and d.observed == phase
            assert [j.action_at for j in result.judgements if j.judged == Judged.SHOW] == [len(events) - 1]


def test_a_go_pegged_before_any_card_is_judged_at_the_show_that_closes_it():
    from harness.program.records.events import Show, ShowHand
    show = Show(ShowHand.PLAYER, 0, 0, 0, 0, 0, (), ())
    js = compare([Cut(3, 9), Score(PL, 1, ScoreContext.GO, 0), show]).judgements
    (go,) = [j for j in js if j.judged == Judged.GO]
    assert (go.action, go.action_at, [s.points for s in go.observed]) == (show, 2, [1])


def test_a_show_the_engine_refuses_is_reported_with_the_owner_and_the_claim(monkeypatch):
    """The engine made to refuse every show (IllegalAction, as for a show without a starter): the base deal's
    first show, the player's (the pone's) with a claim of 8 written in after it, is reported as refused, naming
    the action, the claim and the reason, and the comparison goes on (no error of its own)."""
    from harness.cribbage.game import Game, IllegalAction
    from harness.program.judge.judgements import EngineRefused
    from harness.program.records.events import Claim

    def refuse(self, claim=None):
        raise IllegalAction("refused here")
    monkeypatch.setattr(Game, "show", refuse)
    first_show = next(i for i, e in enumerate(BASE) if e.kind.value == "show")
    events = BASE[:first_show + 1] + [Claim(8)] + BASE[first_show + 1:]
    result = compare(events)
    refused = [(d.who, d.expected, d.observed, d.facts) for d in result.differences if d.cause == Cause.ENGINE_REFUSED]
    assert refused[0] == (PL, "legal", "show claim 8", EngineRefused("show", "claim 8", "refused here"))
    assert [d for d in result.differences if d.cause == Cause.HARNESS_ERROR] == []


def test_a_go_the_engine_refuses_is_reported_with_the_player(monkeypatch):
    """The engine made to refuse every go: the base deal's first go, the computer's (player 0), is reported as
    refused, naming the action and the player's index, and the comparison goes on."""
    from harness.cribbage.game import Game, IllegalAction
    from harness.program.judge.judgements import EngineRefused

    def refuse(self, player=None, force=False):
        raise IllegalAction("refused here")
    monkeypatch.setattr(Game, "go", refuse)
    result = compare(BASE)
    refused = [(d.who, d.expected, d.observed, d.facts) for d in result.differences if d.cause == Cause.ENGINE_REFUSED]
    assert refused[0] == (C, "legal", "go 0", EngineRefused("go", "0", "refused here"))
    assert [d for d in result.differences if d.cause == Cause.HARNESS_ERROR] == []


def test_a_go_out_of_turn_is_judged_at_its_index():
    from harness.program.records.events import Go
    starter = next(i for i, e in enumerate(BASE) if e.kind.value == "starter")
    go = Go(C, 0)                                         # the player leads after the starter: not the computer's go
    events = BASE[:starter + 1] + [go] + BASE[starter + 1:]
    result = compare(events)
    assert [d.cause for d in result.differences if d.at == starter + 1] == [Cause.GO_OUT_OF_TURN]
    assert [j.action_at for j in result.judgements if j.action is go] == [starter + 1]


def test_a_card_played_past_121_is_judged_at_its_index():
    from harness.program.records.events import Play
    play = Play(PL, "5S", 5)
    result = compare([Cut(3, 9), Score(C, 1, ScoreContext.PLAY, 120), play])
    assert [d.cause for d in result.differences if d.at == 2] == [Cause.PLAYED_AFTER_121]
    assert [(j.judged, j.action_at) for j in result.judgements if j.action is play] == [(Judged.PLAY, 2)]


def test_a_card_the_engine_refuses_is_reported_with_the_player_and_the_card(monkeypatch):
    from harness.cribbage.game import Game, IllegalAction
    from harness.program.judge.judgements import EngineRefused

    def refuse(self, card, player=None, force=False):
        raise IllegalAction("refused here")
    monkeypatch.setattr(Game, "play", refuse)
    first = next(e for e in BASE if e.kind.value == "play")
    result = compare(BASE)
    refused = [(d.who, d.expected, d.observed, d.facts) for d in result.differences if d.cause == Cause.ENGINE_REFUSED]
    assert refused[0] == (first.who, "legal", f"play {first.card}", EngineRefused("play", first.card, "refused here"))
    assert [d for d in result.differences if d.cause == Cause.HARNESS_ERROR] == []


def test_a_shows_expectation_keeps_the_engines_breakdown():
    starter = next(e.card for e in BASE if e.kind.value == "starter")
    shows = [j for j in compare(BASE).judgements if j.judged == Judged.SHOW]
    details = [e.detail for j in shows for e in j.expected]
    assert details and all(d is not None and d.starter == starter and len(d.hand) == 4 for d in details)
    assert [d.crib for d in details][-1] is True and [j.action.hand.value for j in shows] == ["player", "computer",
                                                                                               "crib"]


def test_a_handler_is_given_only_the_events_of_its_class():
    """HANDLERS is keyed by class; a handler handed another class's event refuses it (the comparison reports
    it as its own fault) rather than reading fields the event lacks."""
    from harness.program.judge import compare as compare_module
    c = compare_module.Comparator()
    with pytest.raises(TypeError, match="^a tally event given to the handler of Deal$"):
        compare_module.HANDLERS[Deal](c, Tally(0, 1))
    compare_module.HANDLERS[Tally](c, Tally(0, 1))             # its own class: handled


def test_an_expectation_carries_the_engines_cards_combinations_and_rule():
    """Written out by hand: the player's hand 5H 7C 8H JD with the starter 6S scores 5+J and 7+8 (4) and the run
    5-6-7-8 (4); a jack turned up is his heels, 2 to the dealer (the computer here), set by the rule his_heels."""
    show = next(e for j in compare(BASE).judgements if j.judged == Judged.SHOW for e in j.expected if e.who == PL)
    assert (show.points, show.reason, show.cards, show.rule) == (8, "hand", ("5H", "7C", "8H", "JD", "6S"), None)
    assert show.detail is not None and (show.detail.hand, show.detail.starter) == (("5H", "7C", "8H", "JD"), "6S")
    assert [(c.kind, c.cards, c.points) for c in show.detail.combinations] == [
        ("fifteen", ("5H", "JD"), 2), ("fifteen", ("7C", "8H"), 2), ("run", ("5H", "6S", "7C", "8H"), 4)]
    at = next(i for i, e in enumerate(BASE) if e.kind.value == "starter")
    heels = compare(BASE[:at] + [Starter("JS")]).judgements[-1]
    assert heels.expected == (Expectation(C, 2, "his heels", ("JS",), "his_heels"),)


def test_a_stopped_action_keeps_its_place_and_the_pegs_it_had():
    """The computer's 7S (index 15) made fifteen and pegged 2 (16); the program stops (17) before its next
    action: the judgement is the 7S's, at 15, closed at 17, with nothing expected and the 2 it pegged."""
    js = compare(BASE[:17] + [Report("2", "x", 100, 1)]).judgements
    (j,) = [j for j in js if j.judged == Judged.STOPPED]
    assert (j.action, j.action_at, j.closed_at, j.expected) == (BASE[15], 15, 17, ())
    assert j.observed == (Score(C, 2, ScoreContext.PLAY, 0),)


def test_a_starter_the_engine_refuses_is_the_dealers_difference_naming_the_card():
    """7S is in the computer's hand (index 3): turned up as the starter, the engine refuses it; the difference
    is the dealer's (the computer, who turns the starter) and names the action and its card."""
    from harness.program.judge.judgements import EngineRefused
    (d,) = compare(BASE[:8] + [Starter("7S")]).differences
    assert (d.cause, d.who, d.expected, d.observed) == (Cause.ENGINE_REFUSED, C, "legal", "starter 7S")
    assert d.facts == EngineRefused("starter", "7S", "starter 7S is already in a hand or the crib")


def test_a_deal_the_engine_refuses_is_the_dealers_difference_naming_both_hands():
    """A deal that gives the computer AH twice: the engine refuses it; the difference is the dealer's and names
    the action with the computer's cards, then the player's, each hand's cards apart by one space."""
    from harness.program.judge.judgements import EngineRefused
    hands = ("AH", "AH", "8D", "9C", "9D", "KS"), ("3C", "5H", "7C", "8H", "TS", "JD")
    (d,) = compare(BASE[:3] + [Deal(1, C, *hands)]).differences
    dealt = "AH AH 8D 9C 9D KS / 3C 5H 7C 8H TS JD"
    assert (d.cause, d.who, d.expected, d.observed) == (Cause.ENGINE_REFUSED, C, "legal", f"deal {dealt}")
    assert d.facts == EngineRefused("deal", dealt, "the two hands share or repeat a card")
