"""The rule choices on which the sources differ, kept open in one object.

Each field names one point where the magazine article («КРИБЕДЖ»), its BASIC
program, the Cadenza Cribbage manual and the modern standard rules can be read
differently, so a comparison can say *which* rule a score difference comes
from (see :meth:`Rules.differences`).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

GAME_POINT_SCHEMES = ("single", "lurch_article", "lurch_cadenza", "skunk")
MUGGINS_STYLES = ("off", "standard", "program")


@dataclass(frozen=True)
class Rules:
    """Rule variants.  Defaults are the modern standard (ACC/Hoyle) rules.

    game_length: 121 ("twice around") or 61 ("once around", Cadenza option).
    his_heels: points to the dealer for a jack turned as starter.  Article
        text: «если валет оказывается картой-стартером, то сдатчику
        засчитывается очко» (1); program line 8020 «2 ОЧКА ЗА ЕГО ЧЕЛЯДЬ» and
        Cadenza "the dealer scores two points for his heels" (2).
    thirty_one_last_card: total for a 31 made with the last card of the play.
        Cadenza: "1 for playing the last card, or 2 if this brings the total to
        exactly 31" (2).  Article: «Ход последней картой ... дает еще одно
        очко, а если к тому же ... образовалось 31, то добавляются 2
        дополнительных очка» (read as 1 + 2 = 3).
    go_point_when_opponent_out: whether the player who plays on alone because
        the opponent has *no cards* still scores the go.  Cadenza: "the other
        player plays out his/her hand, but is not given any additional score"
        (False); standard and article (True).
    game_points: "single" (always 1), "lurch_article" («одно очко, если его
        противник набрал более 61 очка и два очка, если тот набрал меньше»),
        "lurch_cadenza" ("the loser receives a score less than 61 [31 once
        around] ... the winner receives an additional game score"), "skunk"
        (modern standard: loser below 91 -> 2, below 61 -> 4).
    muggins: "off"; "standard" (the opponent claims the points the player
        missed: «эти очки, которые он увидел, а Вы - нет, запишутся ему»);
        "program" (listing lines 4790-4800: any wrong claim and the computer
        takes the WHOLE true total: «НЕВЕРНО. Я ПОЛУЧАЮ ОЧКИ!»).
    lower_card_deals: cut for deal; the program prints «МЛАДШАЯ КАРТА СДАЕТ».
    """

    name: str = "standard"
    game_length: int = 121
    his_heels: int = 2
    thirty_one_last_card: int = 2
    go_point_when_opponent_out: bool = True
    game_points: str = "skunk"
    muggins: str = "off"
    lower_card_deals: bool = True

    def __post_init__(self):
        if self.game_length not in (61, 121):
            raise ValueError(f"game_length must be 61 or 121, not {self.game_length}")
        if self.game_points not in GAME_POINT_SCHEMES:
            raise ValueError(f"game_points must be one of {GAME_POINT_SCHEMES}")
        if self.muggins not in MUGGINS_STYLES:
            raise ValueError(f"muggins must be one of {MUGGINS_STYLES}")
        if self.thirty_one_last_card < 2:
            raise ValueError("thirty_one_last_card must be at least the 2 of the 31")

    def with_(self, **changes) -> "Rules":
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


STANDARD = Rules()
# The article's text, read literally.
ARTICLE = Rules(name="article", his_heels=1, thirty_one_last_card=3,
                game_points="lurch_article", muggins="standard")
# The BASIC listing as printed: 2 for his heels (8020), a 31 ends the series
# without a go point even on the last card (4130), one game won per game
# (8260), muggins takes the whole hand (4790-4800).
PROGRAM = Rules(name="program", his_heels=2, thirty_one_last_card=2,
                game_points="single", muggins="program")
CADENZA = Rules(name="cadenza", game_points="lurch_cadenza",
                go_point_when_opponent_out=False)

PRESETS = {r.name: r for r in (STANDARD, ARTICLE, PROGRAM, CADENZA)}
