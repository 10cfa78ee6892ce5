"""Game variants as data: a new variant is one more row in ``VARIANTS``, never a new code path.

>>> VARIANTS["plo"].hole_cards, VARIANTS["plo"].structure
(4, 'pot-limit')
>>> evaluate(VARIANTS["nlhe"], ("As", "Ks"), ("Qs", "Js", "Ts", "2c", "3d"))[1]
'Straight Flush'
"""

from __future__ import annotations

from dataclasses import dataclass

from phevaluator import evaluate_cards, evaluate_omaha_cards


@dataclass(frozen=True, slots=True)
class Variant:
    key: str
    name: str
    hole_cards: int            # cards each player is dealt, one per round of the deal
    structure: str             # "no-limit" | "pot-limit" | "limit" (engine.betting reads it)
    evaluator: str             # "holdem" (best 5 of 7) | "omaha" (exactly 2 hole + 3 board)
    board_cards: int = 5
    jokers: bool = False       # Irregularities 8: a joker in a game without jokers is a scrap of paper
    # The game's own exposed-card and premature-board rules (Irregularities 12: they win over the general ones).
    exposed_rule: str | None = "holdem.1"
    extra_card_rule: str | None = "holdem.5"
    flop_rules: bool = True    # holdem.2/3/4 govern the board


VARIANTS: dict[str, Variant] = {v.key: v for v in (
    Variant("nlhe", "No-limit Texas hold'em", 2, "no-limit", "holdem"),
    Variant("plhe", "Pot-limit Texas hold'em", 2, "pot-limit", "holdem"),
    Variant("flhe", "Limit Texas hold'em", 2, "limit", "holdem"),
    Variant("plo", "Pot-limit Omaha", 4, "pot-limit", "omaha"),
)}


def variant(key: str) -> Variant:
    """The variant named in ``config.game.variant``; unknown keys fall back to no-limit hold'em."""
    return VARIANTS.get(key, VARIANTS["nlhe"])


# phevaluator ranks 1 (royal flush) .. 7462 (seven high): the upper bound of each category.
_CATEGORIES = ((10, "Straight Flush"), (166, "Four of a Kind"), (322, "Full House"), (1599, "Flush"),
               (1609, "Straight"), (2467, "Three of a Kind"), (3325, "Two Pair"), (6185, "One Pair"),
               (7462, "High Card"))


def category(rank: int) -> str:
    for bound, name in _CATEGORIES:
        if rank <= bound:
            return name
    return "High Card"


def evaluate(v: Variant, hole: tuple[str, ...], board: tuple[str, ...]) -> tuple[int, str]:
    """(rank, category) of a hand, lower rank is better; ``(10**6, "")`` when the hand cannot be read."""
    hole = tuple(c for c in hole if c[0] != "X")
    try:
        if v.evaluator == "omaha":
            if len(hole) != 4 or len(board) != 5:
                return 10**6, ""
            rank = evaluate_omaha_cards(*board, *hole)
        else:
            cards = (*hole, *board)
            if len(cards) < 5:
                return 10**6, ""
            rank = evaluate_cards(*cards[:7])
    except (ValueError, KeyError, IndexError):
        return 10**6, ""
    return rank, category(rank)
