"""How strong a hand is, for the referee: phevaluator's rank (1 the best), best five of seven at hold'em, two
hole cards and three board cards at Omaha."""

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
