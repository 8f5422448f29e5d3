"""Every rule value of the engine against what its sources say: the seed article, the Cadenza manual,
the modern standard (harness.cribbage.rules.RULE_SOURCES) and the BASIC listing (the program model's column,
harness.program.model.rulesets.RULE_SOURCES).

Each quotation is checked to be in its source, each preset to hold what its source says, and the
engine, run under each preset, to score what the source's sentence says (expected values are the
numbers in the sentences, never the engine's own)."""
import checkout
import re
from dataclasses import fields
from pathlib import Path

import pytest

from harness.cribbage import ARTICLE, CADENZA, STANDARD, Game, Rules, score_hand, score_play
from harness.program.model.rulesets import PROGRAM, RULE_SOURCES

ROOT = checkout.ROOT
ARTICLE_TEXT = ROOT / "docs" / "sources" / "article.txt"        # the seed's prose, verbatim
CADENZA_MANUAL = ROOT / "docs" / "sources" / "cadenza.txt"
LISTING = ROOT / "basic" / "cribbage.bas"
PRESET_OF = {"article": ARTICLE, "standard": STANDARD, "cadenza": CADENZA, "program": PROGRAM}
RULE_FIELDS = [f.name for f in fields(Rules) if f.name != "name"]


def _body(path: Path) -> str:
    """A kept source without its provenance lines (those starting with ';')."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    return "".join(line for line in lines if not line.startswith("; "))


def _article_text() -> str:
    """The article as one line: line-break hyphens joined, whitespace collapsed."""
    return re.sub(r"\s+", " ", _body(ARTICLE_TEXT).replace("-\n", ""))


def _no_space(text: str) -> str:
    """Without whitespace, nor the private-use characters the manual's copy has in place of spaces."""
    return re.sub(r"[\s\ue000-\uf8ff]+", "", text)


def says(rule: str, source: str = "article"):
    return RULE_SOURCES[rule][source].value


# ------------------------------------------------------------------------------------ the quotations
@pytest.mark.parametrize("rule", sorted(RULE_SOURCES))
def test_the_article_quotation_is_in_the_article(rule):
    assert RULE_SOURCES[rule]["article"].says in _article_text()


@pytest.mark.parametrize("rule", sorted(r for r in RULE_SOURCES if RULE_SOURCES[r]["cadenza"].value is not None))
def test_the_cadenza_quotation_is_in_the_manual(rule):
    # the manual's OCR lost every space: compare without spaces
    manual = _no_space(re.sub(r"^\s*\d+\.", "", _body(CADENZA_MANUAL), flags=re.M))
    assert _no_space(RULE_SOURCES[rule]["cadenza"].says) in manual


@pytest.mark.parametrize("rule", sorted(RULE_SOURCES))
def test_the_program_quotation_is_in_the_listing(rule):
    listing = LISTING.read_text(encoding="utf-8")
    assert RULE_SOURCES[rule]["program"].says in listing


# ------------------------------------------------------------------------------------ the presets
def test_every_rule_field_has_its_sources():
    assert set(RULE_FIELDS) <= set(RULE_SOURCES)
    for rule in RULE_SOURCES:
        assert set(RULE_SOURCES[rule]) == {"article", "cadenza", "standard", "program"}, rule


@pytest.mark.parametrize("source", sorted(PRESET_OF))
@pytest.mark.parametrize("rule", RULE_FIELDS)
def test_each_preset_holds_what_its_source_says(rule, source):
    """A source silent on a point (value None) keeps the standard value."""
    wanted = says(rule, source)
    if wanted is None:
        wanted = says(rule, "standard")
    assert getattr(PRESET_OF[source], rule) == wanted


def test_the_article_preset_is_neither_the_standard_nor_the_program():
    assert ARTICLE.differences(STANDARD) == ["his_heels", "thirty_one_last_card", "game_points", "muggins"]
    assert ARTICLE.differences(PROGRAM) == ["his_heels", "thirty_one_last_card", "game_points", "muggins"]


def test_a_value_the_sources_differ_on_is_a_rule_field():
    """So a comparison can name it.  Two fields every source agrees on stay fields: game_length
    (Cadenza offers 61, once around, as a menu option) and lower_card_deals (the cut's direction)."""
    differ = {rule for rule, by_source in RULE_SOURCES.items()
              if len({s.value for s in by_source.values() if s.value is not None}) > 1}
    assert differ == set(RULE_FIELDS) - {"game_length", "lower_card_deals"}


# ------------------------------------------------------------------------------------ the engine, per value
def _cards(text):
    return text.split()


def _deal(rules, dealer_hand, pone_hand, dealer_discard, pone_discard, starter, dealer=0):
    """A game at its starter, player 0 the dealer unless told: returns (game, starter events)."""
    g = Game(rules, dealer=dealer)
    hands = [None, None]
    hands[dealer], hands[1 - dealer] = _cards(dealer_hand), _cards(pone_hand)
    g.deal(hands[0], hands[1], dealer)
    g.discard(1 - dealer, _cards(pone_discard))
    g.discard(dealer, _cards(dealer_discard))
    return g, g.starter(starter)


def _play_out(g, plays):
    """Lay cards and say go in order ('go' = the player to move says go); all events, in order."""
    events = []
    for action in plays:
        events += g.go() if action == "go" else g.play(action)
    return events


def _points(events, reason):
    return [(e.player, e.points) for e in events if e.reason == reason]


@pytest.mark.parametrize("rules", [ARTICLE, STANDARD], ids=["article", "standard"])
def test_play_combinations(rules):
    """«если полученная сумма равна 15 ... 2 очка», «"пара", ... 2 очка», «"пэр рояль" ... 6»,
    «"двойной пэр рояль" ... 12», «"секансы" ... во столько очков, сколько карт»."""
    assert score_play("7S 8H", rules).total == says("fifteen")
    assert score_play("9S 9H", rules).total == says("pair")
    assert score_play("9S 9H 9D", rules).total == says("pair_royal")
    assert score_play("3S 3H 3D 3C", rules).total == says("double_pair_royal")
    assert score_play("3S 4H 6D 7C", rules).total == 0
    assert score_play("3S 4H 6D 7C 5H", rules).total == 5 * says("run_per_card")  # count 25


def test_thirty_one_in_the_play():
    """«набрать ровно тридцать одио, ему запишется 2 очка»."""
    assert [c.points for c in score_play("KS QH AD", ARTICLE).combinations] == []
    combos = score_play("KS QH 9D 2C", ARTICLE).combinations
    assert [(c.kind, c.points) for c in combos] == [("thirty-one", says("thirty_one"))]


def test_four_of_a_kind_alone():
    combos = score_play("3S 3H 3D 3C", ARTICLE).combinations
    assert [(c.kind, c.points) for c in combos] == [("double pair royal", says("double_pair_royal"))]


# The article's worked example: «СДАТЧИК ... ПК Б9 Т9 Б8 П7 ЧТ  ПРОТИВНИК БВ П10 Ч8 Т7 Ч5 Т3»; the pone
# throws 10-3, the dealer K-A; the starter is the six of spades.
EXAMPLE = dict(dealer_hand="KS 9D 9C 8D 7S AH", pone_hand="JD TS 8H 7C 5H 3C",
               dealer_discard="KS AH", pone_discard="TS 3C", starter="6S")
EXAMPLE_PLAYS = ["8H", "7S", "7C", "9D", "JD", "9C", "5H", "go", "8D"]


@pytest.mark.parametrize("rules", [ARTICLE, STANDARD], ids=["article", "standard"])
def test_the_articles_worked_example_pegs_what_the_article_says(rules):
    g, heels = _deal(rules, **EXAMPLE)
    assert heels == []
    events = _play_out(g, EXAMPLE_PLAYS)
    dealer, pone = 0, 1
    # 2: «"Пятнадцать" - "два очка"»; 3: «"пара" - "два очка"»; 4: «"Тридцать одно" - "два очка"»
    assert [(e.player, e.points, e.reason) for e in events if e.reason in ("fifteen", "pair", "thirty-one")] == \
        [(dealer, 2, "fifteen"), (pone, 2, "pair"), (dealer, says("thirty_one"), "thirty-one")]
    # 8: «Он объявляет "Ход!" и противник заносит себе очко»; 9: «получает очко "за последнюю карту"»
    assert _points(events, "go") == [(pone, says("go"))]
    assert _points(events, "last card") == [(dealer, says("last_card"))]
    # the show: «ПРОТИВНИК ... Итого: 8 очков»; the crib: «таи, к сожалению, иет ии одного очка»
    pone_hand = g.show()
    assert _points(pone_hand, "hand") == [(pone, 8)]
    g.show()
    assert _points(g.show(), "crib") == [(dealer, 0)]


# The whole play in one series of eight cards ending on exactly 31 with the last card (the ten of spades).
LAST31 = dict(dealer_hand="AS 2S 3S TS KD QD", pone_hand="AH 2H 3H 9H KC QC",
              dealer_discard="KD QD", pone_discard="KC QC", starter="5C")
LAST31_PLAYS = ["AH", "AS", "2H", "2S", "3H", "3S", "9H", "TS"]


@pytest.mark.parametrize("rules,extra", [(ARTICLE, 1), (STANDARD, 0), (CADENZA, 0), (PROGRAM, 0)],
                         ids=["article", "standard", "cadenza", "program"])
def test_a_thirty_one_on_the_last_card(rules, extra):
    """Article: «дает еще одно очко, а если к тому же ... образовалось 31, то добавляются 2
    дополнительных очка» (1 + 2 = 3); Cadenza "or 2 if this brings the total ... to exactly 31" (2)."""
    g, _ = _deal(rules, **LAST31)
    events = _play_out(g, LAST31_PLAYS)
    last = [e for e in events if e.reason in ("thirty-one", "last card")]
    assert sum(e.points for e in last) == says("thirty_one_last_card", rules.name)
    assert sum(e.points for e in last if e.reason == "last card") == extra
    assert all(e.player == 0 for e in last)


@pytest.mark.parametrize("rules", [ARTICLE, STANDARD, CADENZA, PROGRAM], ids=lambda r: r.name)
def test_his_heels(rules):
    """Article: «Если валет оказывается картой-стартером, то сдатчику засчитывается очко» (1);
    Cadenza and the standard: two; the program: «2 ОЧКА ЗА ЕГО ЧЕЛЯДЬ»."""
    _, heels = _deal(rules, **{**EXAMPLE, "starter": "JC"})
    assert _points(heels, "his heels") == [(0, says("his_heels", rules.name))]


def test_his_nobs():
    """«валет той же масти, что и масть стартера ... одно очко»."""
    assert score_hand("JS 2H 4D 6C", "9S", rules=ARTICLE).nobs == says("his_nobs")
    assert score_hand("JS 2H 4D 6C", "9H", rules=ARTICLE).nobs == 0


def test_flushes_in_a_hand_and_in_the_crib():
    """«4 карты одной масти в руке ... (4 очка)»; «Если ту же масть имеет стартер - то 5 очков»;
    «За 4 карты одной масти в крибе не дается ничего»; «если эту масть имеет и стартер ... 5 очков»."""
    assert score_hand("2H 4H 6H 8H", "KS", rules=ARTICLE).flush == says("hand_flush")
    assert score_hand("2H 4H 6H 8H", "KH", rules=ARTICLE).flush == says("hand_flush_with_starter")
    assert score_hand("2H 4H 6H 8H", "KS", crib=True, rules=ARTICLE).flush == says("crib_flush")
    assert score_hand("2H 4H 6H 8H", "KH", crib=True, rules=ARTICLE).flush == says("crib_flush_with_starter")
    assert score_hand("2H 4H 6H 8S", "KH", rules=ARTICLE).flush == 0


def _at_starter(rules, dealer_score):
    g = Game(rules, dealer=0)
    g.deal(_cards(EXAMPLE["dealer_hand"]), _cards(EXAMPLE["pone_hand"]), 0)
    g.discard(1, _cards(EXAMPLE["pone_discard"]))
    g.discard(0, _cards(EXAMPLE["dealer_discard"]))
    g.scores = [dealer_score, 0]
    return g


@pytest.mark.parametrize("rules", [ARTICLE, STANDARD, CADENZA, PROGRAM], ids=lambda r: r.name)
def test_the_game_ends_at_121(rules):
    """«Гейм закончен, когда кто-то наберет 121 очко»: his heels to 120 plays on, to 121 ends the game."""
    assert rules.game_length == says("game_length", rules.name)
    g = _at_starter(rules, 120 - rules.his_heels)
    g.starter("JC")
    assert g.phase == "play" and g.scores[0] == 120
    g = _at_starter(rules, 121 - rules.his_heels)
    g.starter("JC")
    assert g.phase == "over" and g.winner == 0 and g.scores[0] == 121


def test_game_points_as_the_article_counts_them():
    """«одио очко, если его противник набрал более 61 очка и два очка, если тот набрал меньше»."""
    assert ARTICLE.game_points == says("game_points")
    assert [ARTICLE.game_points_for(s) for s in (120, 62, 61, 60, 0)] == [1, 1, 2, 2, 2]
    # the standard's skunk: below 91 two games, below 61 four
    assert [STANDARD.game_points_for(s) for s in (120, 91, 90, 61, 60)] == [1, 1, 2, 2, 4]
    # Cadenza's lurch: "a score less than 61 ... an additional game score"
    assert [CADENZA.game_points_for(s) for s in (61, 60)] == [1, 2]
    assert [PROGRAM.game_points_for(s) for s in (120, 0)] == [1, 1]


@pytest.mark.parametrize("rules,claim,pone_gets,dealer_gets", [
    (ARTICLE, 6, 6, 2),         # «эти очки, которые он увидел, а Вы - нет, запишутся ему»
    (ARTICLE, 8, 8, 0),         # a right claim
    (ARTICLE, 10, 8, 0),        # an over-claim is only corrected
    (PROGRAM, 6, 0, 8),         # «НЕВЕРНО. Я ПОЛУЧАЮ ОЧКИ!»: the whole hand
    (PROGRAM, 10, 0, 8),
    (STANDARD, 6, 8, 0),        # muggins off: the hand scores what it holds
], ids=["article-under", "article-right", "article-over", "program-under", "program-over", "standard"])
def test_muggins_on_the_examples_pone_hand(rules, claim, pone_gets, dealer_gets):
    g, _ = _deal(rules, **EXAMPLE)
    _play_out(g, EXAMPLE_PLAYS)
    events = g.show(claim)                        # the pone's hand: 8 («Итого: 8 очков»)
    per_player = [0, 0]
    for e in events:
        per_player[e.player] += e.points
    assert per_player == [dealer_gets, pone_gets]


def test_the_lower_card_deals():
    """«вытягиванием младшей карты определяется, кто будет сдавать первый» (ace low)."""
    assert ARTICLE.lower_card_deals is says("lower_card_deals") is True
    g = Game(ARTICLE)
    assert g.cut_for_deal("AH", "KS") == 0
    g = Game(ARTICLE)
    assert g.cut_for_deal("KH", "AS") == 1


# The pone runs out of cards while the dealer holds two, which cannot both go under 31: the dealer
# stops at 23 with the ten still in hand.
OPPONENT_OUT = dict(dealer_hand="KS QS JS TS AD 2D", pone_hand="9H 9C 2H 3H AC 2C",
                    dealer_discard="AD 2D", pone_discard="AC 2C", starter="5D")
OPPONENT_OUT_PLAYS = ["9H", "KS", "9C", "go", "2H", "go", "QS", "3H", "JS", "go", "TS"]


@pytest.mark.parametrize("rules", [ARTICLE, STANDARD, CADENZA], ids=lambda r: r.name)
def test_the_go_when_the_opponent_has_no_cards(rules):
    """Cadenza: "the other player plays out his/her hand, but is not given any additional score";
    the article and the standard make no exception: the dealer pegs 1 at 23."""
    g, _ = _deal(rules, **OPPONENT_OUT)
    events = _play_out(g, OPPONENT_OUT_PLAYS)
    gos = _points(events, "go")
    assert gos[0] == (1, 1)                        # the pone's go at 30 (the dealer holds cards)
    assert gos[1:] == ([(0, 1)] if says("go_point_when_opponent_out", rules.name) else [])
    assert _points(events, "last card") == [(0, says("last_card", rules.name))]


# ------------------------------------------------------------------------------------ the deviations table
def test_every_deviation_quotes_the_article_word_for_word():
    from harness.program.judge.deviations import DEVIATIONS
    text = _article_text()
    for dev_id, dev in DEVIATIONS.items():
        quotes = re.findall(r"«([^»]*)»", dev.article)
        assert quotes, dev_id
        for q in quotes:
            assert q in text, (dev_id, q)


def test_the_deviations_say_what_the_article_and_the_standard_each_say():
    from harness.program.judge.deviations import DEVIATIONS
    for dev in DEVIATIONS.values():
        assert dev.article and dev.standard and dev.article != dev.standard
    # his heels: 1 in the article (quoted), 2 in the standard; never "2" on the article's word
    d1 = DEVIATIONS["D1"]
    assert "сдатчику эасчитывается очко" in RULE_SOURCES["his_heels"]["article"].says
    assert "«Если валет оказывается картой-стартером, то сдатчику эасчитывается очко.»" in d1.article
    assert "his heels 1" in d1.article
    assert "his heels 2" in d1.standard
    for dev in DEVIATIONS.values():
        assert "seed article" not in dev.rule and "article" not in dev.standard
