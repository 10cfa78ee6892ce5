"""The eight-or-better low hand of the split games (Omaha high-low, Big O): five cards of different ranks, none
above an eight, aces low; the lowest such hand wins the low half. Omaha's hands use exactly two hole cards and
three board cards, for the low as for the high.

The order of the lows is pokerkit's (pinned; ``EightOrBetterLookup``, the lookup its ``OmahaEightOrBetterLowHand``
uses), read once for the 56 lows there are; here only the choosing of two hole cards and three board cards.

>>> omaha_low(("As", "2s", "Kd", "Kh"), ("3c", "4c", "8h", "Qs", "Jd"))
(21, '8-4-3-2-A')
>>> omaha_low(("As", "9s", "Kd", "Kh"), ("3c", "4c", "8h", "Qs", "Jd")) is None
True
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

LOW_RANKS = "A2345678"
_VALUE = {r: i + 1 for i, r in enumerate(LOW_RANKS)}     # ace low: A=1 .. 8=8


@cache
def lows() -> dict[frozenset[str], int]:
    """Every qualifying low (its five ranks) -> pokerkit's index, lower is the better low. Built at the first
    high-low showdown: a hold'em terminal never pays for importing pokerkit (tests/longrun/test_imports.py)."""
    from pokerkit import Card, EightOrBetterLookup

    lookup = EightOrBetterLookup()
    suits = "cdhsc"
    return {frozenset(ranks): lookup.get_entry(Card.parse("".join(r + s for r, s in zip(ranks, suits,
                                                                                          strict=True)))).index
            for ranks in combinations(LOW_RANKS, 5)}



def describe(ranks: frozenset[str]) -> str:
    """A low as players say it, highest card first: ``7-5-4-2-A``."""
    return "-".join(sorted(ranks, key=lambda r: -_VALUE[r]))


def omaha_low(hole: tuple[str, ...], board: tuple[str, ...]) -> tuple[int, str] | None:
    """(rank, words) of the best low of exactly two ``hole`` cards and three ``board`` cards, lower rank better;
    None when no such five make an eight-or-better low."""
    board_low = {c[0] for c in board if c[0] in _VALUE}
    if len(board_low) < 3:
        return None
    hole_low = {c[0] for c in hole if c[0] in _VALUE}
    best: frozenset[str] | None = None
    best_rank = 10**6
    for two in combinations(sorted(hole_low), 2):
        rest = board_low.difference(two)
        for three in combinations(sorted(rest), 3):
            five = frozenset((*two, *three))
            rank = lows()[five]
            if rank < best_rank:
                best, best_rank = five, rank
    return None if best is None else (best_rank, describe(best))
