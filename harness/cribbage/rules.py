"""The rule choices on which the sources differ, kept open in one object.

Each field names one point where the rules of cribbage are read differently (the
magazine article «КРИБЕДЖ», the Cadenza Cribbage manual, the modern standard, and
whatever program is judged), so a comparison can say *which* rule a score difference
comes from (see :meth:`Rules.differences`). The options are generic: a program's
own rule set is a preset its model builds from them (harness/program/model/rulesets.py).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, TypedDict

if TYPE_CHECKING:
    from typing_extensions import Unpack

GAME_POINT_SCHEMES = ("single", "lurch_article", "lurch_cadenza", "skunk")
MUGGINS_STYLES = ("off", "standard", "whole_hand")


@dataclass(frozen=True)
class Rules:
    """Rule variants.  Defaults are the modern standard (ACC/Hoyle) rules.

    game_length: 121 ("twice around") or 61 ("once around", Cadenza option).
    his_heels: points to the dealer for a jack turned as starter.  Article
        text: «если валет оказывается картой-стартером, то сдатчику
        засчитывается очко» (1); Cadenza "the dealer scores two points for
        his heels" (2).
    thirty_one_last_card: total for a 31 made with the last card of the play.
        Cadenza: "1 for playing the last card, or 2 if this brings the total to
        exactly 31" (2).  Article: «Ход последней картой ... дает еще одно
        очко, а если к тому же ... образовалось 31, то добавляются 2
        дополнительных очка» (read as 1 + 2 = 3).
    go_point_when_opponent_out: whether the player who plays on alone because
        the opponent has *no cards* still scores the go.  Cadenza: "the other
        player plays out his/her hand, but is not given any additional score"
        (False); standard (True); the article makes no such exception (True).

    What each source says of every rule value, in its own words: RULE_SOURCES.
    game_points: "single" (always 1), "lurch_article" («одно очко, если его
        противник набрал более 61 очка и два очка, если тот набрал меньше»),
        "lurch_cadenza" ("the loser receives a score less than 61 [31 once
        around] ... the winner receives an additional game score"), "skunk"
        (modern standard: loser below 91 -> 2, below 61 -> 4).
    muggins: "off"; "standard" (the opponent claims the points the player
        missed: «эти очки, которые он увидел, а Вы - нет, запишутся ему»);
        "whole_hand" (any wrong claim, under or over, and the opponent takes
        the hand's whole true total; the claimer scores nothing).
    lower_card_deals: the lower card of the cut for deal deals.
    """

    name: str = "standard"
    game_length: int = 121
    his_heels: int = 2
    thirty_one_last_card: int = 2
    go_point_when_opponent_out: bool = True
    game_points: str = "skunk"
    muggins: str = "off"
    lower_card_deals: bool = True

    def __post_init__(self) -> None:
        if self.game_length not in (61, 121):
            raise ValueError(f"game_length must be 61 or 121, not {self.game_length}")
        if self.game_points not in GAME_POINT_SCHEMES:
            raise ValueError(f"game_points must be one of {GAME_POINT_SCHEMES}")
        if self.muggins not in MUGGINS_STYLES:
            raise ValueError(f"muggins must be one of {MUGGINS_STYLES}")
        if self.thirty_one_last_card < 2:
            raise ValueError("thirty_one_last_card must be at least the 2 of the 31")

    def with_(self, **changes: Unpack[RuleChanges]) -> "Rules":
        return replace(self, **changes)

    def differences(self, other: "Rules") -> list[str]:
        """Names of the rule fields (except ``name``) on which two rule sets differ."""
        return [f.name for f in fields(self)
                if f.name != "name" and getattr(self, f.name) != getattr(other, f.name)]

    def game_points_for(self, loser_score: int) -> int:
        """Game points the winner earns given the loser's final score."""
        half = (self.game_length + 1) // 2  # 61 of 121, 31 of 61
        if self.game_points == "single":
            return 1
        if self.game_points == "lurch_article":
            # «одно очко, если его противник набрал более 61 очка и два очка,
            # если тот набрал меньше» -- exactly 61 is not "более 61": 2.
            return 1 if loser_score > half else 2
        if self.game_points == "lurch_cadenza":
            # "the loser receives a score less than 61 ... additional game score"
            return 2 if loser_score < half else 1
        # skunk (modern, ACC): a "skunk" (double game) if the loser fails to
        # reach 91, a "double skunk" (quadruple game) if he fails to reach 61.
        # Once around (61) only the single skunk below 31 is kept.
        if self.game_length == 121 and loser_score < 61:
            return 4
        if loser_score < self.game_length - 30:
            return 2
        return 1



class RuleChanges(TypedDict, total=False):
    """The fields `Rules.with_` may change (those of Rules), each with its type."""
    name: str
    game_length: int
    his_heels: int
    thirty_one_last_card: int
    go_point_when_opponent_out: bool
    game_points: str
    muggins: str
    lower_card_deals: bool


STANDARD = Rules()
# The article's text, read literally (each value quoted in RULE_SOURCES): his heels 1
# («сдатчику засчитывается очко»), a 31 on the last card 1 + 2 = 3, one game for a
# win, two if the loser has not passed 61, and muggins as the opponent taking what
# was missed.  Neither what a program does nor the modern standard.
ARTICLE = Rules(name="article", his_heels=1, thirty_one_last_card=3,
                game_points="lurch_article", muggins="standard")
CADENZA = Rules(name="cadenza", game_points="lurch_cadenza",
                go_point_when_opponent_out=False)

PRESETS = {r.name: r for r in (STANDARD, ARTICLE, CADENZA)}


@dataclass(frozen=True)
class Source:
    """What one source says one rule value is, in its own words where it has them.

    ``value`` is None where the source says nothing on the point.  ``says`` is
    a quotation: the article as the OCR of the seed reads it (OCR slips such
    as «эасчитывается» kept, line-break hyphens joined), the Cadenza manual
    (both kept verbatim in docs/sources/); the modern standard is paraphrased from the American
    Cribbage Congress (ACC) rules and Hoyle, naming the rule. A program's model adds its listing's column.
    """

    value: object
    says: str


def _sources(article: tuple[object, str], cadenza: tuple[object, str],
             standard: tuple[object, str]) -> dict[str, Source]:
    return {"article": Source(*article), "cadenza": Source(*cadenza), "standard": Source(*standard)}


# Every scoring value of the engine, with what the three sources say it is.  The keys
# that are fields of Rules are the ones where the sources disagree; the others are
# constants of play.py/show.py/game.py on which all agree (tests check both).
RULE_SOURCES: dict[str, dict[str, Source]] = {
    "fifteen": _sources(
        (2, "если полученная сумма равна 15. ему запишется 2 очка"),
        (2, "A player receives 2 for bringing the total of the played cards to exactly 15."),
        (2, "ACC rules / Hoyle: a card bringing the count to 15 pegs 2; each combination totalling "
            "15 in the show counts 2.")),
    "pair": _sources(
        (2, 'если его карта равиа карте предыдущего хода, т.е. образуется "пара", ему запишется 2 очка'),
        (2, "If a player plays a card of the same rank as the card played immediately before "
            "(i.e. if the player forms a pair), the player scores 2."),
        (2, "ACC rules / Hoyle: a pair pegs 2 in the play and counts 2 in the show.")),
    "pair_royal": _sources(
        (6, '"пэр рояль" - три одинаковые карты подряд дают 6 очков'),
        (6, "If the player plays a card of rank equal to the ranks of the previously played 2 cards, "
            "he/she scores 6."),
        (6, "ACC rules / Hoyle: three of a kind (pair royal) 6.")),
    "double_pair_royal": _sources(
        (12, '"двойной пэр рояль" - 4 карты одного достоинства - 12 очков'),
        (12, "If the player plays a card of rank equal to the ranks of the previously played 3 cards, "
             "the player receives a score of 12."),
        (12, "ACC rules / Hoyle: four of a kind (double pair royal) 12.")),
    "run_per_card": _sources(
        (1, '"секансы" из более чем трех карт оцениваются во столько очков, сколько карт в секаисе'),
        (1, "If a player plays a card that results in a run of length greater than 2, the player "
            "receives a score equal to the number of cards in the run."),
        (1, "ACC rules / Hoyle: a run of three or more cards scores one point per card.")),
    "go": _sources(
        (1, 'Тогда он объявляет "ХОД" и его противник получает себе очко.'),
        (1, 'When a player says "go", the other player scores 1.'),
        (1, "ACC rules / Hoyle: the player who laid the last card of a series below 31 pegs 1 for the go.")),
    "thirty_one": _sources(
        (2, "Если ему удается в результате своего хода набрать ровно тридцать одио, ему запишется "
            "2 очка, если меньше, то одно."),
        (2, "A player scores 2 for bringing the total of the played cards to exactly 31."),
        (2, "ACC rules / Hoyle: a card bringing the count to exactly 31 pegs 2 (and no go point).")),
    "last_card": _sources(
        (1, "Ход последней картой (из восьми) дает еще одно очко"),
        (1, "A player receives 1 for playing the last card, or 2 if this brings the total of played "
            "cards to exactly 31."),
        (1, "ACC rules / Hoyle: one for the last card of the play when it does not make 31.")),
    "thirty_one_last_card": _sources(
        (3, "Ход последней картой (из восьми) дает еще одно очко, а если к тому же в результате этого "
            "хода образовалось 31, то добавляются 2 дополнительных очка."),
        (2, "A player receives 1 for playing the last card, or 2 if this brings the total of played "
            "cards to exactly 31."),
        (2, "ACC rules / Hoyle: a last card making 31 pegs only the 2 for the 31.")),
    "his_heels": _sources(
        (1, '"челядь" - Если валет оказывается картой-стартером, то сдатчику эасчитывается очко.'),
        (2, 'If the starter is a jack, the dealer scores two points "for his heels".'),
        (2, "ACC rules, Rule 6.3: when a jack is turned up as the starter the dealer is entitled to "
            "two points.")),
    "his_nobs": _sources(
        (1, '"Дворецкий" - Если у Вас на руках есть валет той же насти, что и масть стартера. '
            "Вы получаете одно очко"),
        (1, 'If a player has a jack with the same suit as the starter, the player scores 1 for "his nobs".'),
        (1, "ACC rules / Hoyle: the jack of the starter's suit in a hand or the crib counts 1.")),
    "hand_flush": _sources(
        (4, "Флешь - это 4 карты одной масти в руке, но ие в крибе (4 очка)"),
        (4, "If the player has 4 cards of the same suit in his/her hand (not including the crib and "
            "starter), the player receives 4."),
        (4, "ACC rules / Hoyle: four cards of one suit in a hand count 4.")),
    "hand_flush_with_starter": _sources(
        (5, "Если ту же масть имеет стартер - то 5 очков."),
        (5, "If the starter is also of the same suit, the player receives 5."),
        (5, "ACC rules / Hoyle: five with the starter of the same suit.")),
    "crib_flush": _sources(
        (0, "За 4 карты одной масти в крибе не дается ничего"),
        (0, "If the crib and starter are all of the same suit, the player receives 5."),
        (0, "ACC rules / Hoyle: the crib counts a flush only with the starter (five cards).")),
    "crib_flush_with_starter": _sources(
        (5, "но если эту масть имеет и стартер, то хозяин криба (сдающий) получает 5 очков."),
        (5, "If the crib and starter are all of the same suit, the player receives 5."),
        (5, "ACC rules / Hoyle: a five-card flush in the crib counts 5.")),
    "game_length": _sources(
        (121, "Гейм закончен, когда кто-то наберет 121 очко."),
        (121, "If the game is played twice around (as is most often the case), play ceases when a "
              "player gets a score of 121 or greater."),
        (121, "ACC rules / Hoyle: game is 121 points (twice around the board).")),
    "game_points": _sources(
        ("lurch_article", "Победителю в гейме эасчитывается одио очко, если его противник набрал более "
                          "61 очка и два очка, если тот набрал меньше."),
        ("lurch_cadenza", "If the game is played twice around and the loser receives a score less than "
                          "61, the winner is given an additional game score for the lurch."),
        ("skunk", "ACC rules: a loser below 91 is skunked (the winner scores two games), below 61 "
                  "double skunked (four).")),
    "muggins": _sources(
        ("standard", 'если Вы, объявляя свои очки, что-то забудете подсчитать, то Ваш соперник имеет '
                     'право Вас подправить, объявив "Маггинэ!" и эти очки, которые он увидел, а Вы - '
                     'нет, запишутся ему.'),
        (None, "(the manual has no muggins)"),
        ("off", "ACC rules: muggins is played only at the option of the tournament director, "
                "announced beforehand; off otherwise.")),
    "lower_card_deals": _sources(
        (True, "вытягиванием младшей карты определяется, кто будет сдавать первый"),
        (None, "the computer is always the dealer for the first hand of a game"),
        (True, "ACC rules / Hoyle: the player cutting the lower card deals first (ace low).")),
    "go_point_when_opponent_out": _sources(
        (True, "Теперь противник может, если у него есть мелкие карты, выкладывать их на стол, "
               "оставаясь в пределах 31 очка."),
        (False, "If a player cannot play because he/she has no cards, the other player plays out "
                "his/her hand, but is not given any additional score."),
        (True, "ACC rules / Hoyle: the player who laid the last card of a series below 31 pegs 1 for "
               "the go, whether or not the opponent still holds cards.")),
}
