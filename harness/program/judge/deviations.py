"""The original program's documented deviations from the rules, and the classifier that names them.

Each `Deviation`: the BASIC lines, what they do, the rule they depart from,
what the article and the standard each say, the rule sets it applies under
(`under`, a test of the rules in force) and a predicate that recognises
exactly that difference by its `Cause` and facts (`judgements.py`), never by
words. A difference between the program and the reference engine counts as
documented only if an entry here explains it exactly, under the rules in
force; anything else is an unexplained defect (of the reconstruction, the
driver or the engine) to investigate. Every entry's lines read as the OCR
shows them, up to character-level OCR fixes.
"""
from __future__ import annotations

import re

from dataclasses import dataclass
from typing import Callable, Mapping, TypeVar

from ...cribbage.rules import Rules
from ..records.events import ScoreContext, Who
from .judgements import (AfterGameOver, Cause, Credit, Difference, FairnessFlag, GoAt, GoPegged, Judged, Kind,
                         OutOfTurn, Pegged, SlotSeen, StaleSeen, TallyFacts, UnmatchedPeg)

FactsT = TypeVar("FactsT")                       # the facts class a predicate asks of a difference


@dataclass(frozen=True)
class Deviation:
    """One documented deviation of the original program from the rules."""
    id: str
    lines: str                                   # the BASIC lines that cause it
    what: str                                    # what the program does
    rule: str                                    # the rule it departs from
    article: str                                 # what the article says, quoted
    standard: str                                # what the standard rules say
    brief: str                                   # the deviation in one line, for the README's table
    causes: tuple[Cause, ...]                    # the causes of the differences it can explain
    match: Callable[[Difference, Rules], bool]   # exactly this difference, under these rules
    under: Callable[[Rules], bool] = lambda rules: True   # the rule sets where it is a deviation at all
    applies: str = "every rule set"              # ... in words


def _facts(d: Difference, cause: Cause, cls: type[FactsT]) -> FactsT | None:
    """The difference's facts if it has *cause* (and so facts of *cls*), else None."""
    return d.facts if d.cause == cause and isinstance(d.facts, cls) else None


# ------------------------------------------------------------------ the predicates
def _repeat_at_reset(d: Difference, rules: Rules) -> bool:
    f = _facts(d, Cause.UNMATCHED_PEG, UnmatchedPeg)
    prev = f.previous if f else None
    return (f is not None and prev is not None and d.kind == Kind.RESET and f.context == ScoreContext.RESET
            and d.expected == 0 and prev.who == d.who and prev.points == d.observed
            and prev.context in (ScoreContext.GO, ScoreContext.PLAY, ScoreContext.HEELS))


def _false_go_accepted(d: Difference, rules: Rules) -> bool:
    f = _facts(d, Cause.GO_WITH_A_CARD, GoAt)
    return (f is not None and d.kind == Kind.LEGALITY and d.who == Who.PLAYER and f.count >= 22
            and bool(f.playable))


def _muggins_takes_all(d: Difference, rules: Rules) -> bool:
    f = _facts(d, Cause.PEGGED, Pegged)
    if (f is None or d.kind != Kind.SHOW or f.judged != Judged.SHOW or f.claim is None or f.true_total is None
            or f.claim == f.true_total or f.owner is None):
        return False
    # both sides of the show at once: the owner pegged nothing and the other player the whole hand
    owner = 0 if f.owner == Who.COMPUTER else 1
    return bool(f.pegged[owner] == 0 and f.pegged[1 - owner] == f.true_total)


def _tally_off_only_by_credit(d: Difference, rules: Rules, dev_id: str) -> bool:
    """A games tally that is off only because a game was credited to its loser, by deviation *dev_id*
    (where one game won is one point)."""
    f = _facts(d, Cause.GAMES_TALLY, TallyFacts)
    return (f is not None and d.kind == Kind.OUTCOME and rules.game_points == f.game_points == "single"
            and d.observed == list(f.as_credited) and dev_id in f.credit_deviations)


def _muggins_win_credited_to_player(d: Difference, rules: Rules) -> bool:
    f = _facts(d, Cause.GAME_CREDITED, Credit)
    return ((f is not None and d.kind == Kind.OUTCOME and d.who == Who.COMPUTER and d.observed == "player"
             and f.muggins) or _tally_off_only_by_credit(d, rules, "D4"))


def game_points(scheme: str, loser_score: int) -> int:
    """The game points for a win, as the entry of D5 reads each source (121 up; not the engine's code):
    the article «одно очко, если его противник набрал более 61 очка» and two otherwise; the standard
    (ACC) two below 91 and four below 61; Cadenza one more below 61."""
    if scheme == "lurch_article":
        return 1 if loser_score > 61 else 2
    if scheme == "skunk":
        return 4 if loser_score < 61 else 2 if loser_score < 91 else 1
    if scheme == "lurch_cadenza":
        return 2 if loser_score < 61 else 1
    return 1


def _one_game_per_win(d: Difference, rules: Rules) -> bool:
    f = _facts(d, Cause.GAMES_TALLY, TallyFacts)
    if f is None or d.kind != Kind.OUTCOME or f.game_points == "single" or f.game_points != rules.game_points:
        return False
    want = [0, 0]
    for g in f.games:
        want[0 if g.winner == Who.COMPUTER else 1] += game_points(f.game_points, g.loser_score)
    return bool(d.expected == want and d.observed == list(f.as_credited) and list(f.as_credited) != d.expected)


def _heels_two(d: Difference, rules: Rules) -> bool:
    f = _facts(d, Cause.PEGGED, Pegged)
    return (f is not None and f.judged == Judged.HEELS and d.kind == Kind.HEELS and rules.his_heels == 1
            and d.expected == 1 and d.observed == 2)


def _no_last_card_point_after_31(d: Difference, rules: Rules) -> bool:
    f = _facts(d, Cause.GO_PEGGED, GoPegged)
    return (f is not None and d.kind == Kind.GO and f.reason == "last card" and f.rule == "thirty_one_last_card"
            and rules.thirty_one_last_card == 3 and d.expected == 1 and d.observed == 0)


def _go_taken_back_stays(d: Difference, rules: Rules) -> bool:
    if d.cause == Cause.OUT_OF_TURN and isinstance(d.facts, OutOfTurn):
        return d.facts.go_taken_back and d.kind == Kind.FLOW and d.who == Who.PLAYER
    if d.cause == Cause.TURN_SKIPPED and isinstance(d.facts, GoAt):
        return d.facts.go_taken_back and d.kind == Kind.LEGALITY and d.who == Who.PLAYER
    if d.cause == Cause.GO_OUT_OF_TURN and isinstance(d.facts, GoAt):
        return d.facts.go_taken_back and d.kind == Kind.LEGALITY and d.who == Who.COMPUTER
    return False


def _win_at_reset_unnoticed(d: Difference, rules: Rules) -> bool:
    if d.cause in (Cause.SCORED_AFTER_121, Cause.PLAYED_AFTER_121) and isinstance(d.facts, AfterGameOver):
        return d.kind == Kind.FLOW and d.facts.won_by == ScoreContext.RESET
    f = _facts(d, Cause.GAME_CREDITED, Credit)
    if f is not None:
        return d.kind == Kind.OUTCOME and f.won_by == ScoreContext.RESET and not f.muggins
    return _tally_off_only_by_credit(d, rules, "D9")


def _first_cut_never_low(d: Difference, rules: Rules) -> bool:
    f = _facts(d, Cause.FAIRNESS_FLAG, FairnessFlag)
    return (f is not None and d.kind == Kind.FAIRNESS and f.distribution.startswith("cut for deal")
            and f.group.startswith("first games") and f.never == ("1", "2", "3"))


def _taken_back_face_down(d: Difference, rules: Rules) -> bool:
    f = _facts(d, Cause.SCREEN_FACE, SlotSeen)
    return (f is not None and d.kind == Kind.SCREEN and f.reason == "taken back" and d.who == Who.PLAYER
            and str(d.expected).startswith("up ") and d.observed == "down")


# 2940 prints « n » (three cells, four for 10 and more) over the six of « ХОД! » at 6,9 (2710, 3550); the
# English edition's « GO!  » is as wide
_GO_REMNANTS = {(f" {n} " + go[len(f" {n} "):]).rstrip() for n in range(0, 32) for go in (" ХОД! ", " GO!  ")}


def _go_remnant_beside_count(d: Difference, rules: Rules) -> bool:
    f = _facts(d, Cause.SCREEN_STALE, StaleSeen)
    return (f is not None and d.kind == Kind.SCREEN and f.place == "table 6:9" and d.observed in _GO_REMNANTS
            and d.observed.endswith("!"))


DEVIATIONS: dict[str, Deviation] = {d.id: d for d in (
    Deviation(
        "D1",
        lines="4400-4450 (with 4130, 4170, 4230, 4270, 4080)",
        what="The count reset (4400) ends with GO SUB 2900 without clearing S, so the points just "
                "pegged are pegged again: a go or last card scores 2, a thirty-one 4 (more with a pair "
                "or run on it), his heels 4 (8020 then 4080).",
        rule="Every score is pegged once: a go or last card 1, a thirty-one 2, his heels 2 (standard, "
                "Cadenza) or 1 (article).",
        article="Pegged once each: a go 1 («Тогда он объявляет \"ХОД\" и его противник получает себе "
                   "очко.»), a thirty-one 2 («набрать ровно тридцать одио, ему запишется 2 очка»), the last "
                   "card 1 («Ход последней картой (из восьми) дает еще одно очко»), his heels 1, not 2 "
                   "(«Если валет оказывается картой-стартером, то сдатчику эасчитывается очко.»).",
        standard="Pegged once each: a go or last card 1, a thirty-one 2, his heels 2 (ACC rules, Rule 6.3; "
                    "Cadenza: \"the dealer scores two points 'for his heels'\").",
        brief="every go, last card, thirty-one and his heels is pegged twice",
        causes=(Cause.UNMATCHED_PEG,),
        match=_repeat_at_reset,
    ),
    Deviation(
        "D2",
        lines="2740-2763",
        what="Choosing an empty slot twice says go whenever the count is 22 or more; the program "
                "never checks that the player holds no card that fits under 31.",
        rule="Go may be said only by a player who cannot play without passing 31.",
        article="Go is said by the player who cannot play: «пока один иэ ннх не сможет сделать ход. Ведь "
                   "выходить за пределы 31 очка нельзя. Тогда он объявляет \"ХОД\"».",
        standard="Go is said only by a player with no card that can be laid without passing 31 (ACC "
                    "rules, Hoyle; Cadenza: \"either cannot play without making the total of the played "
                    "cards greater than 31 or is simply out of cards\").",
        brief="a go is accepted whenever the count is 22 or more, a playable card in hand or not",
        causes=(Cause.GO_WITH_A_CARD,),
        match=_false_go_accepted,
    ),
    Deviation(
        "D3",
        lines="4780-4800, 4891",
        what="Muggins: any claim other than the true total (too low or too high) gives the player "
                "nothing and the computer the whole true total («НЕВЕРНО. Я ПОЛУЧАЮ ОЧКИ!»).",
        rule="The opponent takes only the points the player missed; an over-claim is corrected.",
        article="The opponent takes what the player missed: «если Вы, объявляя свои очки, что-то забудете "
                   "подсчитать, то Ваш соперник имеет право Вас подправить, объявив \"Маггинэ!\" и эти "
                   "очки, которые он увидел, а Вы - нет, запишутся ему.» It says nothing of a claim that is "
                   "too high.",
        standard="Muggins is optional (off in the ACC rules unless announced); where played, the "
                    "opponent pegs only the points the player failed to claim, and an over-claim is "
                    "corrected to the true count. The Cadenza manual has no muggins.",
        brief="under muggins any wrong count hands the computer the whole hand",
        causes=(Cause.PEGGED,),
        match=_muggins_takes_all,
        under=lambda rules: rules.muggins != "off",
        applies="rule sets with muggins, when the game is played with it (7405)",
    ),
    Deviation(
        "D4",
        lines="4800, 4891, 8260",
        what="A game the computer wins by muggins (its last points taken from the player's show) is "
                "credited to the player: 4800 sets PLAYER=ZX to peg, 4891 sets PLAYER=MAN again before the "
                "RETURN, and 8260 adds the game to G(PLAYER). The «СЧЕТ» screen then shows the player's "
                "tally one game up and the computer's missing it.",
        rule="The game goes to the player who reached 121.",
        article="The game ends when one player reaches 121 and is that player's: «кончен, когда кто-то "
                   "наберет 121 очко.»",
        standard="The first player to reach 121 wins the game (ACC rules; Cadenza: \"the first player "
                    "to reach 121 points wins\").",
        brief="a game the computer wins by muggins is credited to the player",
        causes=(Cause.GAME_CREDITED, Cause.GAMES_TALLY),
        match=_muggins_win_credited_to_player,
    ),
    Deviation(
        "D5",
        lines="8260",
        what="Every game won adds one to the tally G(), whatever the loser's score.",
        rule="A lurch or skunk counts double.",
        article="Two game points when the loser has not passed 61: «вается одио очко, если его противник "
                   "набрал более 61 очка» and two otherwise. (It also says the program keeps no tally of "
                   "games, «Наша программа счет по геймам не ведет», though the listing does: G(), 8260-8310.)",
        standard="A skunk (the loser below 91) counts two games, a double skunk (below 61) four (ACC "
                    "rules); Cadenza: a lurch (below 61) gives the winner an additional game.",
        brief="the tally counts one game a win, lurch or not",
        causes=(Cause.GAMES_TALLY,),
        match=_one_game_per_win,
        under=lambda rules: rules.game_points != "single",
        applies="rule sets that count a lurch or skunk double (standard, article, Cadenza)",
    ),
    Deviation(
        "D6",
        lines="8020",
        what="His heels scores 2 («2 ОЧКА ЗА ЕГО ЧЕЛЯДЬ»), as in the standard rules; the article "
                "the program was printed with says 1. (Only a difference under the article's rules.)",
        rule="His heels: 1 (article), 2 (standard, Cadenza).",
        article="«Если валет оказывается картой-стартером, то сдатчику эасчитывается очко.» (one point)",
        standard="Two points for his heels (ACC rules; Cadenza: \"the dealer scores two points\").",
        brief="his heels scores 2 where the article says 1 (a difference under the article's rules only)",
        causes=(Cause.PEGGED,),
        match=_heels_two,
        under=lambda rules: rules.his_heels == 1,
        applies="rule sets whose his heels is 1 (the article's)",
    ),
    Deviation(
        "D7",
        lines="4130, 4230, 4300-4450",
        what="A thirty-one made with the last card of the play scores 2, with no point for the last "
                "card, as in the standard rules: the player's 31 (4130) and the computer's (4230) both GO SUB "
                "4300, which turns the cards and runs on into the count reset, where 4430 ends the play "
                "(DONE=1) with no last-card point (4450 pegs the 31's 2 a second time: D1); the article adds "
                "the last card's point (3 in all). (Only a difference under the article's rules.)",
        rule="A 31 on the last card: 3 (article), 2 (standard, Cadenza).",
        article="The last card 1 and a 31 made with it 2 more: «Ход последней картой (из восьми) дает еще "
                   "одно очко, а если к» … «31, то добавляются 2» (3 in all).",
        standard="A thirty-one scores 2 and no extra point for the last card (ACC rules; Cadenza: \"1 for "
                    "playing the last card, or 2 if this brings the total to exactly 31\").",
        brief="a 31 on the last card scores 2 where the article gives 3 (under the article's rules only)",
        causes=(Cause.GO_PEGGED,),
        match=_no_last_card_point_after_31,
        under=lambda rules: rules.thirty_one_last_card == 3,
        applies="rule sets whose 31 on the last card is 3 (the article's)",
    ),
    Deviation(
        "D8",
        lines="2750-2760, 4240-4290, 4440",
        what="A go taken back at «ВАШ ХОД?» (a card chosen instead of the empty slot) leaves HGO set "
                "until the count is reset: 4240 takes the player for gone, so the computer moves again when it is "
                "the player's turn (and says go out of turn), the go is pegged at 4260 without the player "
                "playing on, and 4290 lets the player lead the next series although the player laid the last "
                "card.",
        rule="After a go the other player plays on while able; the player who did not lay the last card "
                "leads the next series.",
        article="Play goes on until neither can lay a card: «пока один иэ ннх не сможет сделать ход. Ведь "
                   "выходить за пределы 31 очка нельзя. Тогда он объявляет \"ХОД\"».",
        standard="The opponent of the player who says go lays every card he can; the next series is "
                    "led by the player who did not lay the last card (ACC rules).",
        brief="a go taken back leaves the player's next turn skipped and the wrong player leading",
        causes=(Cause.OUT_OF_TURN, Cause.TURN_SKIPPED, Cause.GO_OUT_OF_TURN),
        match=_go_taken_back_stays,
    ),
    Deviation(
        "D9",
        lines="4130, 4170, 4230, 4270, 4400-4450, 2850, 3630, 6060, 8260",
        what="A game won by the points pegged again at the count reset (D1) is not noticed: after 4450 "
                "RETURNs, neither the resets after a 31 (4130, 4230) nor those after a go (4170, 4270) test "
                "WIN, so the next turn runs and the other player lays one more card before 4125/4220 end the "
                "play; laying it makes that player PLAYER (2850 the player's card, 3630 the computer's: when "
                "the player's 31 at 4130 is the winning reset, the extra card is the computer's), and 8260 "
                "credits the game to whoever laid that card.",
        rule="The game ends the moment a player reaches 121, and it is that player's.",
        article="The game ends at 121: «кончен, когда кто-то наберет 121 очко.»",
        standard="Play stops the moment either player reaches 121 (ACC rules), even in the middle of the "
                    "play.",
        brief="a game won by D1's repeated peg is noticed a card late and credited to the other player",
        causes=(Cause.SCORED_AFTER_121, Cause.PLAYED_AFTER_121, Cause.GAME_CREDITED, Cause.GAMES_TALLY),
        match=_win_at_reset_unnoticed,
    ),
    Deviation(
        "D10",
        lines="7360-7380, 7430-7440, 4930-4935",
        what="The first game's cut for deal is not a fair cut: it comes before the first shuffle (7610), "
                "from the deck as 7360-7380 build it, aces first, and 4930 LET R=RND*40+12.5 reads only "
                "P(13)..P(52): neither player ever cuts an ace, a two or a three, and each rank 4-K comes "
                "up one time in ten (later games cut the deck the last game shuffled). Found by "
                "cribbage-zx fairness, not by a single game.",
        rule="The cut for deal is a cut of the shuffled pack: every rank can turn up, each as often.",
        article="The article does not describe the cut for deal (the lower card dealing is the program's "
                   "own message, 7410); it says only that the deal alternates: «Сдача в игре производится по "
                   "очереди.»",
        standard="Each player cuts the shuffled pack; the lower card deals (ACC rules, Cadenza: \"the "
                    "player with the lower card deals first\").",
        brief="the first cut for deal comes from the unshuffled deck: nobody ever cuts an ace, a two or a three",
        causes=(Cause.FAIRNESS_FLAG,),
        match=_first_cut_never_low,
    ),
    Deviation(
        "D11",
        lines="7860-7885",
        what="A discard taken back (the same card chosen twice) stays face down: 7885 calls 5350, the "
             "face-down card, where 7880 has just set X$ and Y$ for the card's face, so the card back in the "
             "hand shows as a crib card until the discard ends (7980 clears the table, 8040 draws the hand).",
        rule="What the screen shows: the cards the player keeps are face up; only the crib's go face down.",
        article="Only the two cards laid in the crib go face down: «по две карты сбрасывает на стол рубашкой "
                "вверх, не показывая их противнику».",
        standard="The discards to the crib are laid face down (ACC rules); a player's own hand stays in "
                 "view. (Not a scoring rule: a screen deviation.)",
        brief="a discard taken back (the same card chosen twice) stays face down until the discard ends",
        causes=(Cause.SCREEN_FACE,),
        match=_taken_back_face_down,
    ),
    Deviation(
        "D12",
        lines="2710, 3550, 2940",
        what="After a go, « ХОД! » (six cells at 6,9: 2710, 3550) is overwritten by the points of the next "
             "card, « n » (three cells: 2940 PRINT AT 6,9;\" \";S;\" \"), so its last letters «Д!» stay "
             "beside the count until the show clears the table.",
        rule="What the screen shows: the go is announced, then the count and the last points alone.",
        article="A go is announced once, when said: «Тогда он объявляет \"ХОД\" и его противник получает "
                "себе очко.»",
        standard="A go is said when a player cannot play (ACC rules); nothing of it stays once play goes "
                 "on. (Not a scoring rule: a screen deviation.)",
        brief="after a go, «Д!» of «ХОД!» stays beside the count until the show",
        causes=(Cause.SCREEN_STALE,),
        match=_go_remnant_beside_count,
    ),
)}


_RANGE = re.compile(r"(\d+)\s*-\s*(\d+)|(\d+)")


def deviation_lines(spec: str, existing: list[int]) -> list[int]:
    """'4400-4450 (with 4130, 4170)' -> the listing's lines in those ranges and those lines."""
    out = []
    for m in _RANGE.finditer(spec):
        if m.group(3):
            lo = hi = int(m.group(3))
        else:
            lo, hi = int(m.group(1)), int(m.group(2))
        out += [n for n in existing if lo <= n <= hi]
    return sorted(set(out))


def classify(diff: Difference, rules: Rules) -> str | None:
    """The id of the documented deviation that explains *diff* under *rules* (the rules in force), or None."""
    for dev in DEVIATIONS.values():
        if diff.cause in dev.causes and dev.under(rules) and dev.match(diff, rules):
            return dev.id
    return None


def table_markdown() -> str:
    """The deviations as a Markdown table, for the docs and the closing note."""
    rows = ["| id | BASIC lines | what the program does | what the article says | what the standard says | judged under |",
            "| --- | --- | --- | --- | --- | --- |"]
    rows += [f"| {d.id} | {d.lines} | {d.what} | {d.article} | {d.standard} | {d.applies} |"
             for d in DEVIATIONS.values()]
    return "\n".join(rows)


@dataclass(frozen=True)
class SweepDeviation:
    """A documented deviation as a sweep of a scoring routine sees it: a group of disagreements."""
    id: str
    lines: str
    what: str
    match: Callable[[str, tuple[str | int, ...], Mapping[str, object]], bool]   # (sweep kind, group's cause, a case)


SWEEP_DEVIATIONS: dict[str, SweepDeviation] = {}


def classify_sweep(kind: str, cause: tuple[str | int, ...], example: Mapping[str, object]) -> str | None:
    """The documented deviation that explains a sweep disagreement group, or None."""
    for dev in SWEEP_DEVIATIONS.values():
        if dev.match(kind, cause, example):
            return dev.id
    return None
