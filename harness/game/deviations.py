"""The original program's documented deviations from the rules, and the classifier that names them.

Each entry: the BASIC lines, what they do, the rule they depart from, and a
predicate that recognises exactly that difference. A difference between the
program and the reference engine counts as documented only if an entry here
explains it exactly; anything else is an unexplained defect (of the
reconstruction, the driver or the engine) to investigate. Every entry's lines
read as the OCR shows them, up to character-level OCR fixes.
"""
from __future__ import annotations


def _repeat_at_reset(d) -> bool:
    prev = d.context.get("previous") or {}
    return (d.kind == "reset" and d.expected == 0 and prev.get("who") == d.who
            and prev.get("points") == d.observed and prev.get("context") in ("go", "play", "heels"))


def _false_go_accepted(d) -> bool:
    return (d.kind == "legality" and d.expected == "play a card" and d.observed == "go"
            and d.who == "player" and (d.context.get("count") or 0) >= 22 and d.context.get("playable"))


def _muggins_takes_all(d) -> bool:
    c = d.context
    claim, true = c.get("claim"), c.get("true")
    if d.kind != "show" or claim is None or true is None or claim == true:
        return False
    # both sides of the show at once: the owner pegged nothing and the other player the whole hand
    pegged = dict(zip(("computer", "player"), c.get("pegged") or ()))
    owner = c.get("owner")
    other = "player" if owner == "computer" else "computer"
    return pegged.get(owner) == 0 and pegged.get(other) == true


def _tally_off_only_by_credit(d, dev_id: str) -> bool:
    """A games tally that is off only because a game was credited to its loser, by deviation *dev_id*."""
    c = d.context
    return (d.kind == "outcome" and c.get("note") == "games tally" and c.get("rule") == "single"
            and d.observed == c.get("as_credited") and dev_id in (c.get("credit_deviations") or ()))


def _muggins_win_credited_to_player(d) -> bool:
    return ((d.kind == "outcome" and d.context.get("note") == "game credited to" and d.who == "computer"
             and d.observed == "player" and d.context.get("won_by") == "muggins")
            or _tally_off_only_by_credit(d, "D4"))


def _one_game_per_win(d) -> bool:
    c = d.context
    return (d.kind == "outcome" and c.get("note") == "games tally" and c.get("rule") != "single"
            and d.observed == c.get("as_credited") and c.get("as_credited") != d.expected)


def _heels_two(d) -> bool:
    return d.kind == "heels" and d.expected == 1 and d.observed == 2


def _no_last_card_point_after_31(d) -> bool:
    c = d.context
    return (d.kind == "go" and c.get("reason") == "last card" and c.get("rule") == "thirty_one_last_card"
            and d.expected == 1 and d.observed == 0)


def _go_taken_back_stays(d) -> bool:
    c = d.context
    return bool(c.get("go_taken_back")) and (
        (d.kind == "flow" and c.get("note") == "out of turn" and d.observed == "player played")
        or (d.kind == "legality" and c.get("note") == "turn skipped at the reset" and d.who == "player")
        or (d.kind == "legality" and d.who == "computer" and d.expected == "player to move" and d.observed == "go"))


def _win_at_reset_unnoticed(d) -> bool:
    c = d.context
    return (c.get("won_by") == "reset" and (
        (d.kind == "flow" and c.get("note") in ("played after 121", "scored after 121"))
        or (d.kind == "outcome" and c.get("note") == "game credited to"))) or _tally_off_only_by_credit(d, "D9")


def _first_cut_never_low(d) -> bool:
    c = d.context
    return (d.kind == "fairness" and c.get("distribution", "").startswith("cut for deal")
            and c.get("group", "").startswith("first games") and c.get("never") == ["1", "2", "3"])


def _taken_back_face_down(d) -> bool:
    c = d.context
    return (d.kind == "screen" and c.get("cause") == "screen face" and c.get("reason") == "taken back"
            and str(d.expected).startswith("up ") and d.observed == "down" and d.who == "player")


# 2940 prints « n » (three cells, four for 10 and more) over the six of « ХОД! » at 6,9 (2710, 3550)
_GO_REMNANTS = {(f" {n} " + " ХОД! "[len(f" {n} "):]).rstrip() for n in range(0, 32)}


def _go_remnant_beside_count(d) -> bool:
    c = d.context
    return (d.kind == "screen" and c.get("cause") == "screen stale" and c.get("place") == "table 6:9"
            and d.observed in _GO_REMNANTS and d.observed.rstrip().endswith("!"))


DEVIATIONS: dict[str, dict] = {
    "D1": {
        "lines": "4400-4450 (with 4130, 4170, 4230, 4270, 4080)",
        "what": "The count reset (4400) ends with GO SUB 2900 without clearing S, so the points just "
                "pegged are pegged again: a go or last card scores 2, a thirty-one 4 (more with a pair "
                "or run on it), his heels 4 (8020 then 4080).",
        "rule": "Every score is pegged once: a go or last card 1, a thirty-one 2, his heels 2 (standard, "
                "Cadenza) or 1 (article).",
        "article": "Pegged once each: a go 1 («Тогда он объявляет \"ХОД\" и его противник получает себе "
                   "очко.»), a thirty-one 2 («набрать ровно тридцать одио, ему запишется 2 очка»), the last "
                   "card 1 («Ход последней картой (из восьми) дает еще одно очко»), his heels 1, not 2 "
                   "(«Если валет оказывается картой-стартером, то сдатчику эасчитывается очко.»).",
        "standard": "Pegged once each: a go or last card 1, a thirty-one 2, his heels 2 (ACC rules, Rule 6.3; "
                    "Cadenza: \"the dealer scores two points 'for his heels'\").",
        "match": _repeat_at_reset,
    },
    "D2": {
        "lines": "2740-2763",
        "what": "Choosing an empty slot twice says go whenever the count is 22 or more; the program "
                "never checks that the player holds no card that fits under 31.",
        "rule": "Go may be said only by a player who cannot play without passing 31.",
        "article": "Go is said by the player who cannot play: «пока один иэ ннх не сможет сделать ход. Ведь "
                   "выходить за пределы 31 очка нельзя. Тогда он объявляет \"ХОД\"».",
        "standard": "Go is said only by a player with no card that can be laid without passing 31 (ACC "
                    "rules, Hoyle; Cadenza: \"either cannot play without making the total of the played "
                    "cards greater than 31 or is simply out of cards\").",
        "match": _false_go_accepted,
    },
    "D3": {
        "lines": "4780-4800, 4891",
        "what": "Muggins: any claim other than the true total (too low or too high) gives the player "
                "nothing and the computer the whole true total («НЕВЕРНО. Я ПОЛУЧАЮ ОЧКИ!»).",
        "rule": "The opponent takes only the points the player missed; an over-claim is corrected.",
        "article": "The opponent takes what the player missed: «если Вы, объявляя свои очки, что-то забудете "
                   "подсчитать, то Ваш соперник имеет право Вас подправить, объявив \"Маггинэ!\" и эти "
                   "очки, которые он увидел, а Вы - нет, запишутся ему.» It says nothing of a claim that is "
                   "too high.",
        "standard": "Muggins is optional (off in the ACC rules unless announced); where played, the "
                    "opponent pegs only the points the player failed to claim, and an over-claim is "
                    "corrected to the true count. The Cadenza manual has no muggins.",
        "match": _muggins_takes_all,
    },
    "D4": {
        "lines": "4800, 4891, 8260",
        "what": "A game the computer wins by muggins (its last points taken from the player's show) is "
                "credited to the player: 4800 sets PLAYER=ZX to peg, 4891 sets PLAYER=MAN again before the "
                "RETURN, and 8260 adds the game to G(PLAYER). The «СЧЕТ» screen then shows the player's "
                "tally one game up and the computer's missing it.",
        "rule": "The game goes to the player who reached 121.",
        "article": "The game ends when one player reaches 121 and is that player's: «кончен, когда кто-то "
                   "наберет 121 очко.»",
        "standard": "The first player to reach 121 wins the game (ACC rules; Cadenza: \"the first player "
                    "to reach 121 points wins\").",
        "match": _muggins_win_credited_to_player,
    },
    "D5": {
        "lines": "8260",
        "what": "Every game won adds one to the tally G(), whatever the loser's score.",
        "rule": "A lurch or skunk counts double.",
        "article": "Two game points when the loser has not passed 61: «вается одио очко, если его противник "
                   "набрал более 61 очка» and two otherwise. (It also says the program keeps no tally of "
                   "games, «Наша программа счет по геймам не ведет», though the listing does: G(), 8260-8310.)",
        "standard": "A skunk (the loser below 91) counts two games, a double skunk (below 61) four (ACC "
                    "rules); Cadenza: a lurch (below 61) gives the winner an additional game.",
        "match": _one_game_per_win,
    },
    "D6": {
        "lines": "8020",
        "what": "His heels scores 2 («2 ОЧКА ЗА ЕГО ЧЕЛЯДЬ»), as in the standard rules; the article "
                "the program was printed with says 1. (Only a difference under the article's rules.)",
        "rule": "His heels: 1 (article), 2 (standard, Cadenza).",
        "article": "«Если валет оказывается картой-стартером, то сдатчику эасчитывается очко.» (one point)",
        "standard": "Two points for his heels (ACC rules; Cadenza: \"the dealer scores two points\").",
        "match": _heels_two,
    },
    "D7": {
        "lines": "4130, 4300",
        "what": "A thirty-one made with the last card of the play scores 2, with no point for the last "
                "card, as in the standard rules; the article adds the last card's point (3 in all). "
                "(Only a difference under the article's rules.)",
        "rule": "A 31 on the last card: 3 (article), 2 (standard, Cadenza).",
        "article": "The last card 1 and a 31 made with it 2 more: «Ход последней картой (из восьми) дает еще "
                   "одно очко, а если к» … «31, то добавляются 2» (3 in all).",
        "standard": "A thirty-one scores 2 and no extra point for the last card (ACC rules; Cadenza: \"1 for "
                    "playing the last card, or 2 if this brings the total to exactly 31\").",
        "match": _no_last_card_point_after_31,
    },
    "D8": {
        "lines": "2750-2760, 4240-4290, 4440",
        "what": "A go taken back at «ВАШ ХОД?» (a card chosen instead of the empty slot) leaves HGO set "
                "until the count is reset: 4240 takes the player for gone, so the computer moves again when it is "
                "the player's turn (and says go out of turn), the go is pegged at 4260 without the player "
                "playing on, and 4290 lets the player lead the next series although the player laid the last "
                "card.",
        "rule": "After a go the other player plays on while able; the player who did not lay the last card "
                "leads the next series.",
        "article": "Play goes on until neither can lay a card: «пока один иэ ннх не сможет сделать ход. Ведь "
                   "выходить за пределы 31 очка нельзя. Тогда он объявляет \"ХОД\"».",
        "standard": "The opponent of the player who says go lays every card he can; the next series is "
                    "led by the player who did not lay the last card (ACC rules).",
        "match": _go_taken_back_stays,
    },
    "D9": {
        "lines": "4230, 4130, 4400-4450, 6060, 8260",
        "what": "A game won by the points pegged again at the count reset (D1) is not noticed: after 4450 "
                "RETURNs, 4130/4230 go on to the next turn without testing WIN, so the other player lays one "
                "more card (2850 makes that player PLAYER) before 4125/4220 end the play, and 8260 credits "
                "the game to whoever laid that card.",
        "rule": "The game ends the moment a player reaches 121, and it is that player's.",
        "article": "The game ends at 121: «кончен, когда кто-то наберет 121 очко.»",
        "standard": "Play stops the moment either player reaches 121 (ACC rules), even in the middle of the "
                    "play.",
        "match": _win_at_reset_unnoticed,
    },
    "D10": {
        "lines": "7360-7380, 7430-7440, 4930-4935",
        "what": "The first game's cut for deal is not a fair cut: it comes before the first shuffle (7610), "
                "from the deck as 7360-7380 build it, aces first, and 4930 LET R=RND*40+12.5 reads only "
                "P(13)..P(52): neither player ever cuts an ace, a two or a three, and each rank 4-K comes "
                "up one time in ten (later games cut the deck the last game shuffled). Found by "
                "cribbage-zx fairness, not by a single game.",
        "rule": "The cut for deal is a cut of the shuffled pack: every rank can turn up, each as often.",
        "article": "The article does not describe the cut for deal (the lower card dealing is the program's "
                   "own message, 7410); it says only that the deal alternates: «Сдача в игре производится по "
                   "очереди.»",
        "standard": "Each player cuts the shuffled pack; the lower card deals (ACC rules, Cadenza: \"the "
                    "player with the lower card deals first\").",
        "match": _first_cut_never_low,
    },
    "D11": {
        "lines": "7860-7885",
        "what": "A discard taken back (the same card chosen twice) stays face down: 7885 calls 5350, the "
                "face-down card, where 7880 has just set X$ and Y$ for the card's face, so the card back in the "
                "hand shows as a crib card until the discard ends (7980 clears the table, 8040 draws the hand).",
        "rule": "What the screen shows: the cards the player keeps are face up; only the crib's go face down.",
        "article": "Only the two cards laid in the crib go face down: «по две карты сбрасывает на стол рубашкой "
                   "вверх, не показывая их противнику».",
        "standard": "The discards to the crib are laid face down (ACC rules); a player's own hand stays in "
                    "view. (Not a scoring rule: a screen deviation.)",
        "match": _taken_back_face_down,
        "screen": True,
    },
    "D12": {
        "lines": "2710, 3550, 2940",
        "what": "After a go, « ХОД! » (six cells at 6,9: 2710, 3550) is overwritten by the points of the next "
                "card, « n » (three cells: 2940 PRINT AT 6,9;\" \";S;\" \"), so its last letters «Д!» stay "
                "beside the count until the show clears the table.",
        "rule": "What the screen shows: the go is announced, then the count and the last points alone.",
        "article": "A go is announced once, when said: «Тогда он объявляет \"ХОД\" и его противник получает "
                   "себе очко.»",
        "standard": "A go is said when a player cannot play (ACC rules); nothing of it stays once play goes "
                    "on. (Not a scoring rule: a screen deviation.)",
        "match": _go_remnant_beside_count,
        "screen": True,
    },
}


def classify(diff) -> str | None:
    """The id of the documented deviation that explains *diff*, or None."""
    for dev_id, dev in DEVIATIONS.items():
        if dev["match"](diff):
            return dev_id
    return None


def table_markdown() -> str:
    """The deviations as a Markdown table, for the docs and the closing note."""
    rows = ["| id | BASIC lines | what the program does | what the article says | what the standard says |",
            "| --- | --- | --- | --- | --- |"]
    rows += [f"| {k} | {d['lines']} | {d['what']} | {d['article']} | {d['standard']} |"
             for k, d in DEVIATIONS.items()]
    return "\n".join(rows)


SWEEP_DEVIATIONS: dict[str, dict] = {}


def classify_sweep(kind: str, cause: tuple, example: dict) -> str | None:
    """The documented deviation that explains a sweep disagreement group, or None."""
    for dev_id, dev in SWEEP_DEVIATIONS.items():
        if dev["match"](kind, cause, example):
            return dev_id
    return None
