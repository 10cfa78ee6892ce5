"""Game variants as data: a new variant is one more row in ``VARIANTS``, never a new code path.

>>> VARIANTS["plo"].hole_cards, VARIANTS["plo"].structure
(4, 'pot-limit')
>>> evaluate(VARIANTS["nlhe"], ("As", "Ks"), ("Qs", "Js", "Ts", "2c", "3d"))[1]
'Straight Flush'
>>> evaluate_low(VARIANTS["plo8"], ("As", "2s", "Kd", "Kh"), ("3c", "5c", "7h", "Qs", "Jd"))
(7, '7-5-3-2-A')
>>> evaluate(VARIANTS["27td"], ("7c", "5d", "4h", "3s", "2c"), ())
(0, '7-5-4-3-2')
"""

from __future__ import annotations

from dataclasses import dataclass

from itertools import combinations

from phevaluator import evaluate_cards, evaluate_omaha_cards

from ..config import Config, ConfigError
from .cards.low import omaha_low


@dataclass(frozen=True, slots=True)
class Variant:
    key: str
    name: str
    hole_cards: int            # cards each player is dealt, one per round of the deal
    structure: str             # "no-limit" | "pot-limit" | "limit" (engine.betting reads it)
    evaluator: str             # "holdem" (best 5 of 7) | "omaha" (exactly 2 hole + 3 board) | "deuce-to-seven" (low)
    split: str | None = None   # None: the best high takes the pot; "8-or-better": half high, half low (split games)
    board_cards: int = 5
    jokers: bool = False       # Irregularities 8: a joker in a game without jokers is a scrap of paper
    # The game's own exposed-card and premature-board rules (Irregularities 12: they win over the general ones).
    exposed_rule: str | None = "holdem.1"
    extra_card_rule: str | None = "holdem.5"
    flop_rules: bool = True    # holdem.2/3/4 govern the board
    draws: int = 0             # draw games: the draws between the betting rounds (triple draw: 3); no board


VARIANTS: dict[str, Variant] = {v.key: v for v in (
    Variant("nlhe", "No-limit Texas hold'em", 2, "no-limit", "holdem"),
    Variant("plhe", "Pot-limit Texas hold'em", 2, "pot-limit", "holdem"),
    Variant("flhe", "Limit Texas hold'em", 2, "limit", "holdem"),
    Variant("plo", "Pot-limit Omaha", 4, "pot-limit", "omaha"),
    Variant("o8", "Limit Omaha high-low eight or better", 4, "limit", "omaha", "8-or-better"),
    Variant("plo8", "Pot-limit Omaha high-low eight or better", 4, "pot-limit", "omaha", "8-or-better"),
    Variant("plo5", "Five-card pot-limit Omaha (Big O high)", 5, "pot-limit", "omaha"),
    Variant("plo5-8", "Big O: five-card pot-limit Omaha high-low eight or better", 5, "pot-limit", "omaha",
            "8-or-better"),
    # Lowball: no board; no game rule of its own for an exposed or extra starting card in the catalogue, so the
    # general ones govern (misdeal.1b, irregularity.11; docs/draw.md)
    Variant("27td", "Limit deuce-to-seven triple draw (lowball)", 5, "limit", "deuce-to-seven", board_cards=0,
            exposed_rule=None, extra_card_rule=None, flop_rules=False, draws=3),
)}


DECK_CARDS = 52     # one deck, no joker
BURNS = 3           # a burn before the flop, the turn and the river; in a draw game, before each draw


def burns(v: Variant) -> int:
    """Burns a hand of ``v`` takes on one board: before each street (a board game) or each draw (a draw game)."""
    return v.draws or BURNS


def most_players(v: Variant, boards: int = 1) -> int:
    """The most players one deck deals ``v`` to, every hole card and ``boards`` boards with their burns. A draw
    game counts the starting hands and a burn before each draw: a stub that runs short in a draw is made up from
    the discards (docs/draw.md), so the draws do not limit the seats.

    >>> most_players(VARIANTS["plo5"]), most_players(VARIANTS["plo"]), most_players(VARIANTS["plo5"], boards=2)
    (8, 11, 7)
    >>> most_players(VARIANTS["27td"])
    9
    """
    return (DECK_CARDS - boards * (v.board_cards + burns(v))) // v.hole_cards


def check_seats(config: Config, source: str) -> None:
    """A table configured with more seats than one deck deals its game (Big O: 9 x 5 hole cards, 5 board cards and
    3 burns are 53): :class:`ConfigError`, one line naming ``table.seats``. Checked where a table is configured (a
    config file, a scenario's settings), not on a recorded log, which replays as it was recorded."""
    v, seats = variant(config.game.variant), config.table.seats
    most = most_players(v)
    if seats > most:
        need = seats * v.hole_cards + v.board_cards + burns(v)
        raise ConfigError(f"{source}: table.seats: {seats} players of {v.key} need {need} cards ({seats} x "
                          f"{v.hole_cards} hole cards, {v.board_cards} board cards, {burns(v)} burns), more than the "
                          f"deck's {DECK_CARDS}; a table dealing {v.key} seats at most {most}: set table.seats to "
                          f"{most} or fewer")


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
    if v.evaluator == "deuce-to-seven":
        return deuce_to_seven(hole) if len(hole) == v.hole_cards else (10**6, "")
    try:
        if v.evaluator == "omaha":
            if len(hole) != v.hole_cards or len(board) != 5:
                return 10**6, ""
            rank = omaha_high(hole, board)
        else:
            cards = (*hole, *board)
            if len(cards) < 5:
                return 10**6, ""
            rank = evaluate_cards(*cards[:7])
    except (ValueError, KeyError, IndexError):
        return 10**6, ""
    return rank, category(rank)


def omaha_high(hole: tuple[str, ...], board: tuple[str, ...]) -> int:
    """phevaluator's rank of the best Omaha high hand, exactly two hole cards and three board cards. Five hole
    cards: the best of its four-card hands (every pair of hole cards is in one; the pinned wheel has no PLO5
    tables)."""
    if len(hole) == 4:
        return int(evaluate_omaha_cards(*board, *hole))
    return min(int(evaluate_omaha_cards(*board, *four)) for four in combinations(hole, 4))


def evaluate_low(v: Variant, hole: tuple[str, ...], board: tuple[str, ...]) -> tuple[int, str] | None:
    """(rank, words) of a split game's eight-or-better low, lower rank better; None in a high-only game, when no
    low qualifies, or when the hand cannot be read (the cards' count is wrong)."""
    hole = tuple(c for c in hole if c[0] != "X")
    if v.split is None or len(hole) != v.hole_cards or len(board) != 5:
        return None
    return omaha_low(hole, board)


def deuce_to_seven(hole: tuple[str, ...]) -> tuple[int, str]:
    """(rank, words) of a deuce-to-seven low hand, by pokerkit's ``StandardLowHand`` (aces high, straights and
    flushes count against it): rank 0 is 7-5-4-3-2, the best; ``(10**6, "")`` when the cards cannot be read.
    A high-card hand is told by its cards from the top ("8-6-4-3-2"), any other by its kind ("One pair").

    >>> deuce_to_seven(("As", "2d", "3c", "4h", "5s"))
    (784, 'A-5-4-3-2')
    >>> deuce_to_seven(("8s", "7s", "6s", "4s", "2s"))[1]
    'Flush'
    """
    from pokerkit import StandardLowHand    # loaded at a lowball table's first showdown, not at start
    try:
        entry = StandardLowHand("".join(hole)).entry
    except ValueError:
        return 10**6, ""
    label = entry.label.value
    if label != "High card":
        return entry.index, label.capitalize()
    order = "23456789TJQKA"
    ranks = sorted((c[0] for c in hole), key=order.index, reverse=True)
    return entry.index, "-".join(ranks)
