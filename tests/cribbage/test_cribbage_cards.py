"""Cards: ints, text forms, the article's notation and the BASIC encoding."""

import pytest

from harness.cribbage import cards
from harness.cribbage.cards import Card, format_cards, make, parse_card, parse_cards, parse_russian, to_card


def test_cards_are_small_ints_with_rank_suit_value():
    deck = cards.full_deck()
    assert len(set(deck)) == 52
    assert all(isinstance(c, int) and 0 <= c < 52 for c in deck)
    ace = parse_card("AS")
    assert (ace.rank, cards.SUITS[ace.suit]) == (1, "S")
    # «Все фигуры и десятка - по 10 очков, прочие - по номиналу, а туз - 1 очко»
    assert [parse_card(t).value for t in "AH 2H 9H TH JH QH KH".split()] == [1, 2, 9, 10, 10, 10, 10]
    # «Старшинство карт ... К,Д,В,10,.....3,2,Т. Туз - младшая карта»
    assert [parse_card(t).rank for t in "AC TC JC QC KC".split()] == [1, 10, 11, 12, 13]


def test_parse_and_format_round_trip():
    text = "AS 5H TD JC KD"
    assert format_cards(parse_cards(text)) == text
    assert parse_card("10D") == parse_card("TD")
    assert parse_card("5h") == parse_card("5H")
    assert parse_card("6♠") == parse_card("6S")
    assert parse_cards("AS,5H") == parse_cards(["AS", "5H"])
    for c in cards.full_deck():
        assert parse_card(str(c)) == c
        assert to_card(int(c)) == c


@pytest.mark.parametrize("bad", ["1S", "ZZ", "5X", "S", "11H", ""])
def test_bad_token_error_names_the_token(bad):
    with pytest.raises(ValueError) as exc:
        parse_card(bad)
    assert repr(bad) in str(exc.value)


def test_bad_token_in_a_list_is_named():
    with pytest.raises(ValueError, match="'QX'"):
        parse_cards("AS QX 5H")
    with pytest.raises(ValueError):
        Card(52)


def test_russian_notation_of_the_example_deal():
    # «СДАТЧИК ... ПК Б9 Т9 Б8 П7 ЧТ» (П пики, Б бубны, Т трефы, Ч черви)
    assert parse_russian("ПК Б9 Т9 Б8 П7 ЧТ") == parse_cards("KS 9D 9C 8D 7S AH")
    assert parse_russian("БВ П10 Ч8 Т7 Ч5 Т3") == parse_cards("JD TS 8H 7C 5H 3C")
    with pytest.raises(ValueError, match="'Х5'"):
        parse_russian("Х5")
    assert make(12, 0) == parse_card("QH")
