"""The published figures `cribbage-zx strength` sets its own against (harness/data/published_crib.json): Schell's
and Hessel's crib tables and the first dealer's band, read once as their types (`published`)."""
from __future__ import annotations

from dataclasses import dataclass

from ...resources import PUBLISHED_CRIB
from ...runtime.records import read_record


@dataclass(frozen=True)
class Reference:
    """A published source as the report names it: its words and its address."""
    source: str
    url: str


@dataclass(frozen=True)
class SchellTable:
    """Schell's discard tables: the crib's expected points for each thrown rank pair (ace first), to one's own
    crib and to the opponent's."""
    source: str
    url: str
    transcribed_from: str
    own: list[list[float]]
    opponent: list[list[float]]


@dataclass(frozen=True)
class HesselTable:
    """Hessel's table of the opponent's crib, in Schell's page."""
    source: str
    url: str
    opponent: list[list[float]]


@dataclass(frozen=True)
class DealerBand:
    """The published band of the first dealer's win rate between equal players, [low, high]."""
    band: list[float]
    source: str
    url: str


@dataclass(frozen=True)
class Published:
    """harness/data/published_crib.json: the crib tables and the dealer's band the figures are set against."""
    about: str
    licence: str
    schell: SchellTable
    hessel: HesselTable
    first_dealer: DealerBand

    def references(self) -> dict[str, Reference]:
        """Each source by name, for the report: its words and its address."""
        return {name: Reference(source=table.source, url=table.url)
                for name, table in (("schell", self.schell), ("hessel", self.hessel),
                                    ("first_dealer", self.first_dealer))}


def published() -> Published:
    """The published reference data (harness/data/published_crib.json): crib tables and the dealer's band."""
    return read_record(Published, PUBLISHED_CRIB, "published reference figures")


def schell_value(ref: Published, role: str, pair: str) -> float:
    """Schell's value of a thrown rank pair ("5-5", "A-K") to one's own crib (*role* "own") or the opponent's."""
    r1, r2 = ("A23456789TJQK".index(x) + 1 for x in pair.split("-"))
    return (ref.schell.own if role == "own" else ref.schell.opponent)[r1 - 1][r2 - 1]
