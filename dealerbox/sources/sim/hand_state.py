"""What one simulated hand keeps while it is played: the session it was given, the choreography acting it
out, its seats in order, the shuffled deck, the chips in each zone and the referee's account so far."""

from __future__ import annotations

from ..choreography import Choreography
from .outcome import CHIP_KINDS, IRREGULARITIES, Expected
from .session import Session

DEAL_PACE = 0.4          # seconds per card dealt


def staged_board(deck: list[str], board: tuple[str, ...], holes: int) -> list[str]:
    """``deck`` (dealt from its end) rearranged so that, after ``holes`` hole cards, the burns and the board deal
    ``board`` (five cards) as flop, turn and river; the other cards keep their shuffled order."""
    dealing = [c for c in reversed(deck) if c not in board]
    burns = dealing[holes:holes + 3]
    staged = dealing[:holes] + [burns[0], *board[:3], burns[1], board[3], burns[2], board[4]] + dealing[holes + 3:]
    return staged[::-1]


class DealerStops(Exception):
    """The simulated dealer stops the hand (misdeal or void); ``outcome`` says which."""

    def __init__(self, outcome: str) -> None:
        self.outcome = outcome


class HandState:
    """What one hand's dealing (``dealing.py``) and betting (``wagering.py``) both read and change: the hand
    owns it and hands it to each; what only one of them needs lives in that one."""

    def __init__(self, session: Session, c: Choreography, kind: str | None) -> None:
        self.session, self.c, self.kind, self.rng = session, c, kind, session.rng
        self.chips = session.chips
        self.game = session.config.game
        btn = session.button
        occupied = sorted(session.stacks)
        after = [s for s in occupied if s > btn] + [s for s in occupied if s <= btn]
        self.order = after                         # player index i -> seat, index 0 left of the button
        self.index = {s: i for i, s in enumerate(after)}
        self.stacks_before = {s: session.stacks[s] for s in after}
        self.deck = list(session.cards)
        self.rng.shuffle(self.deck)
        if session.board:
            self.deck = staged_board(self.deck, session.board, session.holes * len(session.stacks))
        self.cards_out: dict[str, str] = {}       # uid -> zone, this hand's cards off the shoe
        self.bets: dict[int, list[str]] = {s: [] for s in after}
        self.pot: list[str] = []
        self.antes_lying = [0] * len(after)       # antes pokerkit collected at once; the dealer gathers them later
        self.expected = Expected(session.hand_no, self.game.variant, btn, tuple(after), {}, dict(self.stacks_before),
                                 dict(self.stacks_before), irregularity=kind,
                                 rule=IRREGULARITIES[kind][0] if kind else None)
        self.street = "preflop"
        self.applied = kind is not None and kind not in CHIP_KINDS and kind != "premature-flop"
