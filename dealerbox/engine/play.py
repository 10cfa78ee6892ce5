"""The hand under way and the table's hand count: the facts every part of the engine reads. :class:`Play`
owns them; the hand flow (``hand_flow``) is the only part that starts and ends a hand."""

from __future__ import annotations

from .betting import HandBetting
from .cards.hand import Hand
from .cards.misdeal import window_open


class Play:
    """The running (or last) hand, its betting, and the hand numbers. Parts ask; ``HandFlow`` changes them."""

    __slots__ = ("hand", "hb", "hand_no", "hands_before", "last_hand", "next_bomb")

    def __init__(self) -> None:
        self.hand: Hand | None = None
        self.hb: HandBetting | None = None       # the betting of the running hand
        self.hand_no: int | None = None
        self.hands_before = 0                    # hands of earlier runs (record/sequence.py): numbering continues
        self.last_hand: Hand | None = None
        self.next_bomb: tuple[int, int] | None = None   # a bomb pot the dealer started: (post, boards) of the next hand

    def running(self) -> bool:
        """A hand is under way (started, not ended)."""
        h = self.hand
        return h is not None and h.phase != "ended"

    def window(self) -> bool:
        """The misdeal window is still open (read at every card)."""
        return window_open(self.hb.round.voluntary_actions if self.hb is not None else 0)

    def running_hand(self) -> tuple[Hand, HandBetting] | None:
        """The hand under way and its betting, or None between hands."""
        h, hb = self.hand, self.hb
        if h is None or hb is None or h.phase == "ended":
            return None
        return h, hb
