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

    def count_from(self, hands_before: int) -> None:
        """Hands of earlier runs (record/sequence.py): numbering continues after them."""
        self.hands_before = hands_before

    def next_hand(self) -> int:
        """A hand is starting: its number (the findings its start raises carry it)."""
        self.hand_no = (self.hand_no or self.hands_before) + 1
        return self.hand_no

    def bomb_due(self, post: int, boards: int) -> None:
        """The dealer started a bomb pot: the next hand every player posts ``post``, on ``boards`` boards."""
        self.next_bomb = (post, boards)

    def take_bomb(self) -> tuple[int, int]:
        """A hand starts: the bomb pot due, as (post, boards); (0, 1) when none is."""
        due, self.next_bomb = self.next_bomb or (0, 1), None
        return due

    def started(self, hand: Hand, hb: HandBetting) -> None:
        self.hand, self.hb = hand, hb

    def ended(self, hand: Hand) -> None:
        self.last_hand = hand

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
