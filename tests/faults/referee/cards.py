"""How strong a hand is, for the referee: phevaluator's rank (1 the best), best five of seven at hold'em, two
hole cards and three board cards at Omaha; and the eight-or-better low of the split games (Omaha high-low), read
from the rule: five cards of different ranks, none above an eight, the ace low, straights and flushes no matter;
the hand whose highest card is lowest wins, then the next highest, and so on."""

from __future__ import annotations

from itertools import combinations

from phevaluator import evaluate_cards

WORST = 10**6       # no readable hand (cards missing): loses to any hand


def strength(hole: tuple[str, ...], board: tuple[str, ...]) -> int:
    """phevaluator's rank of ``hole`` on ``board`` (lower is better); Omaha when four hole cards."""
    if len(hole) == 4:
        if len(board) < 3:
            return WORST
        return min(evaluate_cards(*h, *b) for h in combinations(hole, 2) for b in combinations(board, 3))
    if len(hole) + len(board) < 5:
        return WORST
    return evaluate_cards(*hole, *board)


LOW_RANKS = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8}


def low(hole: tuple[str, ...], board: tuple[str, ...]) -> tuple[int, ...] | None:
    """The best eight-or-better low of ``hole`` (four cards, two of them used) on ``board`` (three used), as its
    ranks highest first (a smaller tuple is the better low); None when the hand makes no low.

    >>> low(("As", "2d", "Kc", "Kh"), ("3c", "5d", "7h", "Qs", "Jd"))
    (7, 5, 3, 2, 1)
    >>> low(("As", "2d", "Kc", "Kh"), ("3c", "9d", "7h", "Qs", "Jd")) is None
    True
    """
    best: tuple[int, ...] | None = None
    for h in combinations(hole, 2):
        for b in combinations(board, 3):
            ranks = [LOW_RANKS.get(card[0]) for card in (*h, *b)]
            if None in ranks or len(set(ranks)) < 5:
                continue
            read = tuple(sorted((r for r in ranks if r is not None), reverse=True))
            best = read if best is None or read < best else best
    return best
