"""Cards as small ints and their text forms.

A card is an int 0..51: ``index = (rank - 1) * 4 + suit`` with rank 1..13
(ace low: A=1 ... J=11, Q=12, K=13) and suit 0..3 (hearts, clubs, diamonds,
spades). How any particular program encodes cards is that program's model's
business (for «КРИБЕДЖ»: harness/program/model/program.py).

Rule quoted from the article: «Туз - младшая карта. ... Все фигуры и десятка -
по 10 очков, прочие - по номиналу, а туз - 1 очко.»
"""

from __future__ import annotations

from typing import Iterable, TypeAlias

from ..errors import InputError

RANKS = "A23456789TJQK"
SUITS = "HCDS"  # suit 0..3: hearts, clubs, diamonds, spades
SUIT_NAMES = ("hearts", "clubs", "diamonds", "spades")
SUIT_SYMBOLS = "♥♣♦♠"
#: ranks as people write them: the ten spelled out (A, 2..10, J, Q, K)
RANK_WORDS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JACK = 11

# Russian notation of the article's example deal («ПК Б9 Т9 ...»): suit first
# (П пики, Ч черви, Б бубны, Т трефы), then rank (Т туз, В валет, Д дама,
# К король, digits).
_RU_SUITS = {"Ч": 0, "Т": 1, "Б": 2, "П": 3}
_RU_RANKS = {"Т": 1, "В": 11, "Д": 12, "К": 13}


class Card(int):
    """A card that is still a plain int (0..51) but prints as ``5H``."""

    __slots__ = ()

    def __new__(cls, index: int) -> "Card":
        index = int(index)
        if not 0 <= index < 52:
            raise InputError(f"card index {index} out of range 0..51")
        return super().__new__(cls, index)

    @property
    def rank(self) -> int:
        return int(self) // 4 + 1

    @property
    def suit(self) -> int:
        return int(self) % 4

    @property
    def value(self) -> int:
        """Count value: «Все фигуры и десятка - по 10 очков»."""
        return min(self.rank, 10)

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + SUITS[self.suit]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


#: a card as the engine accepts it: a Card, an int 0..51 or a text token such as "AS", "10d", "5♥"
CardLike: TypeAlias = Card | int | str
#: several cards: text such as "AS 5H TD" (spaces or commas), one card, or any iterable of cards
CardsLike: TypeAlias = str | int | Iterable[CardLike]


def make(rank: int, suit: int) -> Card:
    """Card from rank 1..13 and suit 0..3 (H, C, D, S)."""
    if not 1 <= rank <= 13:
        raise InputError(f"rank {rank} out of range 1..13")
    if not 0 <= suit <= 3:
        raise InputError(f"suit {suit} out of range 0..3")
    return Card((rank - 1) * 4 + suit)


def rank(card: CardLike) -> int:
    return to_card(card).rank


def suit(card: CardLike) -> int:
    return to_card(card).suit


def value(card: CardLike) -> int:
    return to_card(card).value


def parse_card(token: str) -> Card:
    """Parse ``AS``, ``5h``, ``TD``, ``10D``, ``6♠``; InputError (a ValueError) names the token."""
    if not isinstance(token, str):
        raise InputError(f"bad card token {token!r}: not a string")
    t = token.strip().upper()
    if len(t) < 2:
        raise InputError(f"bad card token {token!r}: expected rank then suit, e.g. 'AS'")
    r, s = t[:-1], t[-1]
    if s in SUIT_SYMBOLS:
        suit_i = SUIT_SYMBOLS.index(s)
    elif s in SUITS:
        suit_i = SUITS.index(s)
    else:
        raise InputError(f"bad card token {token!r}: unknown suit {s!r} (use H, C, D, S)")
    if r == "10":
        r = "T"
    if len(r) != 1 or r not in RANKS:
        raise InputError(f"bad card token {token!r}: unknown rank {r!r} (use A 2-9 T/10 J Q K)")
    return make(RANKS.index(r) + 1, suit_i)


def to_card(x: CardLike) -> Card:
    """Accept a Card, an int 0..51 or a text token."""
    if isinstance(x, Card):
        return x
    if isinstance(x, str):
        return parse_card(x)
    if isinstance(x, int) and not isinstance(x, bool):
        return Card(x)
    raise InputError(f"bad card {x!r}: expected int 0..51 or text like 'AS'")


def parse_cards(cards: CardsLike) -> tuple[Card, ...]:
    """Parse ``"AS 5H TD"`` (spaces or commas) or an iterable of cards/tokens."""
    if isinstance(cards, str):
        tokens = cards.replace(",", " ").split()
        return tuple(parse_card(t) for t in tokens)
    if isinstance(cards, int):
        return (to_card(cards),)
    return tuple(to_card(c) for c in cards)


def format_card(card: CardLike) -> str:
    return str(to_card(card))


def format_cards(cards: Iterable[CardLike]) -> str:
    return " ".join(format_card(c) for c in cards)


def card_name(card: CardLike) -> str:
    """A card as people write it: '10H' for the ten of hearts, 'AS' for the ace of spades (a Card, or the
    engine's text 'TH')."""
    c = card if isinstance(card, Card) else parse_cards(card)[0]
    return RANK_WORDS[c.rank - 1] + SUITS[c.suit]


def cards_text(cards: Iterable[CardLike]) -> str:
    return " ".join(card_name(c) for c in cards)


def rank_name(rank: int) -> str:
    """A rank 1..13 as people write it (A, 2..10, J, Q, K)."""
    return RANK_WORDS[int(rank) - 1]


def parse_russian(text: str) -> tuple[Card, ...]:
    """Parse the article's notation, suit first: ``"ПК Б9 Т9 Б8 П7 ЧТ"``."""
    out = []
    for token in text.split():
        t = token.upper()
        if len(t) < 2 or t[0] not in _RU_SUITS:
            raise InputError(f"bad card token {token!r}: expected suit П/Ч/Б/Т then rank")
        r = t[1:]
        if r in _RU_RANKS:
            rk = _RU_RANKS[r]
        elif r.isdigit() and 2 <= int(r) <= 10:
            rk = int(r)
        else:
            raise InputError(f"bad card token {token!r}: unknown rank {r!r}")
        out.append(make(rk, _RU_SUITS[t[0]]))
    return tuple(out)


def full_deck() -> tuple[Card, ...]:
    return tuple(Card(i) for i in range(52))
