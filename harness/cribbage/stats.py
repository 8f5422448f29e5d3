"""The show-score distribution of every (hand, starter).

There are C(52,4)*48 = 12,994,800 (four-card hand, starter) pairs.  Rather
than score each one, use symmetry: fifteens, pairs and runs depend only on the
five ranks, so enumerate the 6,175 rank multisets (at most four of a rank)
and each choice of starter rank; the suit-dependent part (flush, his nobs) is
then counted combinatorially.  Fix the starter's suit (the four suits are
symmetric, multiply by 4): of the hands with the given ranks,

* a five-card flush needs four distinct hand ranks, none equal to the
  starter's: exactly 1 hand (it has nobs iff it holds a jack);
* a four-card flush in another suit needs four distinct ranks: 3 hands, no
  nobs (their jack is not of the starter's suit); worth 4 in a hand, 0 in a
  crib;
* nobs without a flush: hands holding the jack of the starter's suit, minus
  the five-card flush.
"""

from __future__ import annotations

import time
from itertools import combinations_with_replacement
from math import comb, prod
from typing import Iterable, TypedDict


MAX_SCORE = 29
JACK = 11


def _base_score(ranks: tuple[int, ...]) -> int:
    """Fifteens, pairs and runs of five ranks (suit-free part of the show)."""
    values = [min(r, 10) for r in ranks]
    fifteens = 0
    for mask in range(1, 32):
        if sum(v for i, v in enumerate(values) if mask >> i & 1) == 15:
            fifteens += 2
    counts = {r: ranks.count(r) for r in set(ranks)}
    pairs = sum(c * (c - 1) for c in counts.values())
    runs = 0
    r = 1
    while r <= 13:
        if r in counts:
            length, mult = 0, 1
            while r + length in counts:
                mult *= counts[r + length]
                length += 1
            if length >= 3:
                runs += length * mult
            r += length
        else:
            r += 1
    return fifteens + pairs + runs


def distribution(ranks: Iterable[int] = range(1, 14)) -> tuple[list[int], list[int]]:
    """Counts of each show score 0..29 as a hand and as a crib.

    ``ranks`` restricts the deck to those ranks (all four suits), so the same
    method can be checked against brute force on a small deck.
    """
    ranks = sorted(set(ranks))
    hand = [0] * (MAX_SCORE + 1)
    crib = [0] * (MAX_SCORE + 1)
    for five in combinations_with_replacement(ranks, 5):
        counts = {r: five.count(r) for r in set(five)}
        if max(counts.values()) > 4:
            continue
        base = _base_score(five)
        for s in counts:
            h = dict(counts)
            h[s] -= 1
            avail = {r: (3 if r == s else 4) for r in h}
            n = prod(comb(avail[r], h[r]) for r in h)
            distinct = all(c <= 1 for c in h.values())
            jacks = h.get(JACK, 0)
            f5 = 1 if distinct and h[s] == 0 else 0
            f4 = 3 if distinct else 0
            if jacks and s != JACK:
                nobs = comb(3, jacks - 1) * prod(comb(avail[r], h[r]) for r in h if r != JACK)
            else:
                nobs = 0
            nobs_no_flush = nobs - (f5 if jacks else 0)
            five_flush = 5 + (1 if jacks else 0)
            # x4: the starter's suit; (score, count) pairs with count 0 skipped
            for table, pairs in (
                (hand, ((base, n - f5 - f4 - nobs_no_flush), (base + 1, nobs_no_flush),
                        (base + 4, f4), (base + five_flush, f5))),
                (crib, ((base, n - f5 - nobs_no_flush), (base + 1, nobs_no_flush),
                        (base + five_flush, f5))),
            ):
                for score, k in pairs:
                    if k:
                        table[score] += 4 * k
    return hand, crib


#: ``distribution()``'s result for the whole deck, stored: a constant of cribbage that every report
#: plots, and computing it costs about 1 CPU s. tests/commands/test_cribbage_stats.py checks it is what
#: ``distribution()`` computes (and the hand row against the published figures).
SHOW_COUNTS_HAND = (1009008, 99792, 2813796, 505008, 2855676, 697508, 1800268, 751324, 1137236, 361224,
                    388740, 51680, 317340, 19656, 90100, 9168, 58248, 11196, 2708, 0,
                    8068, 2496, 444, 356, 3680, 0, 0, 0, 76, 4)
SHOW_COUNTS_CRIB = (1022208, 99792, 2839800, 508908, 2868960, 703496, 1787176, 755320, 1118336, 358368,
                    378240, 43880, 310956, 16548, 88132, 9072, 57288, 11196, 2264, 0,
                    7828, 2472, 444, 356, 3680, 0, 0, 0, 76, 4)


def exact_show_counts() -> tuple[list[int], list[int]]:
    """The whole deck's show-score counts as a hand and as a crib (the stored result, not recomputed)."""
    return list(SHOW_COUNTS_HAND), list(SHOW_COUNTS_CRIB)


class HandsReport(TypedDict):
    """The ``stats hands --json`` object."""
    hand: dict[str, int]          # score -> hands of that score (the score as text, for JSON)
    crib: dict[str, int]
    seconds: float


def hands_report() -> HandsReport:
    """The ``stats hands --json`` object: counts per score and the time taken."""
    t0 = time.perf_counter()
    hand, crib = distribution()
    seconds = time.perf_counter() - t0
    return {"hand": {str(i): n for i, n in enumerate(hand)},
            "crib": {str(i): n for i, n in enumerate(crib)},
            "seconds": round(seconds, 4)}


def format_table(report: HandsReport) -> str:
    """The report as the table `cribbage-zx stats hands` prints."""
    hand, crib = report["hand"], report["crib"]
    total = sum(hand.values())
    lines = [f"{'score':>5} {'hand':>10} {'crib':>10}"]
    for k in hand:
        lines.append(f"{k:>5} {hand[k]:>10} {crib[k]:>10}")
    mean_h = sum(int(k) * v for k, v in hand.items()) / total
    mean_c = sum(int(k) * v for k, v in crib.items()) / total
    lines.append(f"total {total:>10} {sum(crib.values()):>10}")
    lines.append(f"mean  {mean_h:>10.4f} {mean_c:>10.4f}")
    lines.append(f"time  {report['seconds']:.3f} s")
    return "\n".join(lines)
