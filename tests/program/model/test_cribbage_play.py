"""The play: what the last card of a series scores (cases from the seeds)."""

import pytest

from harness.cribbage import (ARTICLE, CADENZA, STANDARD, count_of, go_points, is_legal,
                              last_card_points, playable, score_play)
from harness.program.model.rulesets import PROGRAM      # the listing's rule set, built by the program model


def kinds(series, rules=STANDARD):
    return {c.kind: c.points for c in score_play(series, rules).combinations}


def test_article_example_deal_first_series():
    # «1. Противник заходит восьмеркой - "Восемь"»
    assert score_play("8H").total == 0
    # «2. Сдатчик делает ход семеркой - "Пятнадцать" - "два очка"»
    assert kinds("8H 7S") == {"fifteen": 2}
    # «3. Противник кладет семерку. - "Двадцать два" - "пара" - "два очка"»
    assert count_of("8H 7S 7C") == 22 and kinds("8H 7S 7C") == {"pair": 2}
    # «4. Сдатчик играет бубновой девяткой. - "Тридцать одно" - "два очка"»
    assert kinds("8H 7S 7C 9D") == {"thirty-one": 2}


def test_article_example_deal_second_series():
    # «5. ... валетом - "Десять"», «6. ... девятку - "Девятнадцать"»,
    # «7. Противник играет пятеркой. - "Двадцать четыре"» -- no score
    for series, count in (("JD", 10), ("JD 9C", 19), ("JD 9C 5H", 24)):
        assert count_of(series) == count and score_play(series).total == 0
    # «8. у сдатчика восьмерка. Ее класть нельзя, т.к. сумма превысит 31 очко»
    assert not is_legal("8D", 24)
    assert playable(["8D"], 24) == []


def test_cadenza_run_out_of_order():
    # "the player scores 3 for the following: A3576 (5,7,&6 form a 3-run)"
    assert kinds("AH 3C 5D 7S 6H") == {"run": 3}


def test_cadenza_foreign_card_breaks_the_run():
    # "the following is not a run: 5J67 (the Jack is foreign, so the 5, 6, & 7
    #  do not form a run)"
    assert score_play("5H JC 6D 7S").total == 0


def test_article_run_examples():
    # «"секанс" (три карты подряд, например, ДЕСЯТКА, ВАЛЕТ, ДАМА или ТРОЙКА,
    #  ДВОЙКА, ТУЗ - 3 очка)»
    assert kinds("TH JC QD") == {"run": 3}
    assert kinds("3H 2C AD") == {"run": 3}
    # «"секансы" из более чем трех карт оцениваются во столько очков, сколько
    #  карт в секансе»: 3-5-4 then 6 then 2 in any order
    assert kinds("3H 5C 4D") == {"run": 3}
    assert kinds("3H 5C 4D 6S") == {"run": 4}
    assert kinds("3H 5C 4D 6S 2H") == {"run": 5}
    # the longest possible, A..7 (count 28)
    assert kinds("4H 2C 6D AS 3H 7C 5D") == {"run": 7}


def test_pairs_pair_royal_double_pair_royal():
    # «"пару"(2 очка)», «"пэр рояль" - три одинаковые карты подряд дают 6 очков»,
    # «"двойной пэр рояль" - 4 карты одного достоинства - 12 очков»
    assert kinds("9H 9C") == {"pair": 2}
    assert kinds("4H 4C 4D") == {"pair royal": 6}
    assert kinds("3H 3C 3D 3S") == {"double pair royal": 12}
    # Cadenza: "rank should not be confused with value: 10 and King are of
    # equal value but different ranks"
    assert score_play("TH KC").total == 0
    # a pair must be with the card played immediately before
    assert score_play("9H 2C 9D").total == 0


def test_fifteen_with_pair_from_the_strategy_section():
    # «Если противник поставит "пару", Вы сможете тузом сделать "пятнадцать"»
    assert kinds("7H 7C AD") == {"fifteen": 2}
    # «Когда противник объявит "пятнадцать", Вы поставите "пару"»
    assert kinds("TH 5C") == {"fifteen": 2}
    assert kinds("TH 5C 5D") == {"pair": 2}
    # both at once: 4 + 4 ... 7, 4, 4 = 15 and a pair
    assert kinds("7H 4C 4D") == {"fifteen": 2, "pair": 2}


def test_a_pair_breaks_a_run():
    assert score_play("5H 6C 6D 7S").total == 0


def test_thirty_one_and_legality():
    # "A player scores 2 for bringing the total of the played cards to exactly 31."
    assert kinds("TH TC AD KS") == {"thirty-one": 2}
    assert is_legal("AH", 30) and not is_legal("2H", 30)
    with pytest.raises(ValueError):
        score_play("TH TC TD 2S")


def test_go_and_last_card():
    # «Тогда он объявляет "ХОД" и его противник получает себе очко»
    assert go_points() == 1
    # «Ход последней картой (из восьми) дает еще одно очко»
    assert last_card_points(24) == 1
    # Cadenza: "A player receives 1 for playing the last card, or 2 if this
    # brings the total to exactly 31": the 31 already gave 2, no extra.
    assert last_card_points(31, STANDARD) == 0
    assert last_card_points(31, CADENZA) == 0
    # Article: «а если к тому же в результате этого хода образовалось 31, то
    # добавляются 2 дополнительных очка»: 1 + 2 = 3 in all.
    assert last_card_points(31, ARTICLE) == 1
    assert 2 + last_card_points(31, ARTICLE) == 3
    assert last_card_points(31, PROGRAM) == 0


def test_text_and_int_inputs():
    assert score_play([0, 4, 8]).total == score_play("AH 2H 3H").total == 3
    with pytest.raises(ValueError):
        score_play([])
