"""The program model: the card encodings of «КРИБЕДЖ» (moved here from the rules engine), the screen words
of each edition, and the map of lines checked against the listing itself."""
import checkout
import re

import pytest

from harness.cribbage import cards
from harness.cribbage.cards import parse_card
from harness.program.model import program as P

LISTING = (checkout.ROOT / "basic" / "cribbage.bas").read_text(encoding="utf-8")
LINES = {int(m.group(1)): m.group(2) for m in re.finditer(r"^(\d+) (.*)$", LISTING, re.M)}


def test_card_encoding_matches_the_listing():
    # 7315 S$="\h\c\d\s" (hearts, clubs, diamonds, spades); the article's commentary: «Целая часть
    # каждого числа выражает собой достоинство карты (1...13), а дробная часть - ее масть (0.1...0.4)».
    assert P.card_of_deck_number(5.3) == parse_card("5D")
    assert P.deck_number(parse_card("5D")) == 5.3
    assert P.card_from_numbers(1, 1) == parse_card("AH") and P.card_from_numbers(13, 2) == parse_card("KC")
    assert P.card_from_numbers(11, 4) == parse_card("JS")
    assert P.card_of(10, chr(162)) == parse_card("TS")
    for c in cards.full_deck():
        assert P.card_of_deck_number(P.deck_number(c)) == c
    with pytest.raises(ValueError):
        P.card_from_numbers(5, 0)


def test_the_unshuffled_deck_follows_line_7360():
    # FOR X=1 TO 13: FOR Y=.1 TO .4 STEP .1: LET Z=Z+1: LET P(Z)=X+Y
    z = 0
    for x in range(1, 14):
        for y in range(1, 5):
            z += 1
            assert int(P.card_of_deck_number(x + y / 10)) + 1 == z


def test_suit_and_rank_strings_are_the_listings():
    assert LINES[7315] == 'LET S$="\\h\\c\\d\\s"'
    assert [chr(0x90 + ord(c) - ord("a")) for c in "hcds"] == [chr(c) for c in P.SUIT_CODES]
    assert LINES[7320].startswith('LET R$="Т23456789')
    assert P.card_text(parse_card("QH")) == "Д♥"
    assert P.card_text(parse_card("QH"), P.ENGLISH_RANKS) == "Q♥"
    # R$'s bytes as the tape holds them: the Т in KOI-7 (0x74), the digits, the UDGs R (the ten), L, M, N
    assert P.RANK_CODES == (0x74, *b"23456789", 0x90 + 17, 0x90 + 11, 0x90 + 12, 0x90 + 13)


def test_the_lines_the_model_names_say_what_it_says_they_do():
    assert "INPUT" in LINES[P.ASK_INSTRUCTIONS] and "INSTRUK" not in LINES[P.ASK_INSTRUCTIONS]
    assert "МАГГИНЗ" in LINES[P.ASK_MUGGINS]
    assert "ВВЕДИТЕ СВОЙ СЧЕТ" in LINES[P.ASK_CLAIM]
    assert "СЫГРАЕМ ЕЩЕ" in LINES[P.ASK_AGAIN]
    assert LINES[P.AT_PEG[0]] == "LET S(PLAYER)=S(PLAYER)+S"
    assert LINES[8260] == "LET G(PLAYER)=G(PLAYER)+1"          # the game credited (the rule set's "single")
    assert LINES[P.SELECTOR_LINE].startswith("REM") and "ВЫБОР КАРТЫ" in LINES[P.SELECTOR_LINE]
    assert LINES[P.SELECTOR_KEYS_HELD] == f'IF INKEY$<>"" THEN GO TO {P.SELECTOR_KEYS_HELD}'
    assert LINES[P.SELECTOR_ENTER] == f"IF CODE INKEY$=13 THEN GO TO {P.SELECTOR_CHOSEN}"
    assert LINES[P.SELECTOR_SPACE] == f'IF INKEY$<>" " THEN GO TO {P.SELECTOR_ENTER}'   # the loop's other line
    assert P.WAIT_LOOP_HEAD == {3730: 3730, 3750: 3730}
    assert all(LINES[n] == "PAUSE 0" or LINES[n].startswith("PAUSE 0:") for n in P.INSTRUCTION_PAGE_WAITS)
    assert LINES[P.DEMO_KEY_READ] == 'IF INKEY$<>" " THEN GO TO 9175'
    assert LINES[P.INSTRUCTIONS_TESTED].startswith('IF I$(1)="Y"') and f'"{P.YES}"' in LINES[P.ASK_MUGGINS]
    assert f'IF M$="{P.NO}" THEN STOP' in LINES[8330]
    assert LINES[P.CLAIM_RANGE_CHECK] == f"IF SS<0 OR SS>50 THEN GO TO {P.ASK_CLAIM}"
    assert "SUM<22" in LINES[2742] and P.GO_THRESHOLD == 22
    assert "S(PLAYER)>120" in LINES[6060] and P.GAME_LENGTH == 121
    assert "GO TO 9175" in LINES[9095] and 9175 not in LINES and P.DEMO_SKIPPED == min(n for n in LINES if n > 9175)
    for caller in P.SELECTOR_SLOTS:
        assert "GO SUB 3700" in LINES[caller]
    for caller in P.SHOW_OF:
        assert "GO SUB 4700" in LINES[caller]


def test_the_screen_words_are_printed_by_the_listing():
    for label in (P.RUSSIAN.fifteens, P.RUSSIAN.pairs, P.RUSSIAN.flush, P.RUSSIAN.runs, P.RUSSIAN.nobs):
        assert f'"{label}' in LISTING
    assert 'PRINT "ВСЕГО = "' in LISTING and '"ВСЕГО "' in LISTING


def test_the_engine_keeps_no_program_encoding():
    import harness.cribbage as engine
    for name in ("to_basic", "from_basic", "to_basic_deck_number", "from_basic_deck_number"):
        assert not hasattr(engine, name) and not hasattr(cards, name)
