"""What a ruling is made of, shared by the engine and the tournament rulings it calls: the severities and
outcomes of a finding, and the order in which a player who cannot pay every forced bet posts them
(Tournaments 19). Pure data and functions. It sits below both ``dealerbox.engine`` and
``dealerbox.tournament``, so neither has to import the other's side to agree on them.
"""

from __future__ import annotations

from dataclasses import dataclass

SEVERITIES = ("info", "dealer", "floor")
OUTCOMES = ("continues", "misdeal", "void", "dead-hand", "redeal-board", "card-replaced", "wager-corrected")


@dataclass(frozen=True, slots=True)
class Post:
    seat: int
    what: str                   # "ante", "small blind", "big blind", "big blind ante"
    due: int
    amount: int                 # what the player put in: all they had when short
    all_in: bool


def forced_posts(stacks: dict[int, int], small_blind: int | None, big_blind: int,
                 level_amounts: tuple[int, int, int, int]) -> list[Post]:
    """Every forced post of a deal, in order, for ``level_amounts`` (small blind, big blind, ante, big blind
    ante); the engine reads the chips of a player all in for the posts in this order too. A player short of
    a post puts in what they have and is all-in for it (Tournaments 19); the engine makes the side pot from
    the amounts. Antes come before the blinds; the big blind is posted before the
    big-blind ante, so a short big blind's chips play as the blind."""
    sb, bb, ante, bb_ante = level_amounts
    left = dict(stacks)
    posts: list[Post] = []

    def post(seat: int, what: str, due: int) -> None:
        if due <= 0 or seat not in left:
            return
        amount = min(due, left[seat])
        left[seat] -= amount
        if amount or due:
            posts.append(Post(seat, what, due, amount, left[seat] == 0))

    for seat in sorted(stacks):
        post(seat, "ante", ante)
    if small_blind is not None:
        post(small_blind, "small blind", sb)
    post(big_blind, "big blind", bb)
    post(big_blind, "big blind ante", bb_ante)
    return [p for p in posts if p.amount or p.due]


def short_post_ruling(seat: int, paid: int, due: int, what: str) -> str:
    """Tournaments 19 in words: all-in for what was posted, a side pot for the rest, no make-up if it wins."""
    return (f"Seat {seat} is all-in for {paid} of the {due} {what}; a side pot takes the rest, "
            "and winning owes no make-up")
