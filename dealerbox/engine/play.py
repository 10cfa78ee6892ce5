"""The hand under way and the table's hand count: the facts every part of the engine reads. :class:`Play`
owns them; the hand flow (``hand_flow``) is the only part that starts and ends a hand."""

from __future__ import annotations

from .betting import HandBetting
from .cards.hand import Hand
from .cards.misdeal import window_open

# What the hand under way has waiting, as Play.due answers it once per input (flags, cheapest to test)
UNDER_WAY = 1      # a hand is under way (started, not ended)
BETTING_DUE = 2    # a chip motion, take-back or declared raise whose time has come: the betting's tick closes it
BOXED_CARD = 4     # a face-up card dealt: boxed, unless this input is the dealer's ``exposed`` tap


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

    def bettors(self) -> int:
        """Seats of the hand under way that can still bet (live, not all in)."""
        hb = self.hb
        return 0 if hb is None else sum(1 for s in hb.live if not hb.all_in(s))

    def window(self) -> bool:
        """The misdeal window is still open (read at every card)."""
        return window_open(self.hb.round.voluntary_actions if self.hb is not None else 0)

    def due(self, t: float) -> int:
        """What the hand under way has waiting at ``t``, asked before every input: ``UNDER_WAY`` with
        ``BETTING_DUE`` and ``BOXED_CARD`` as they apply; 0 between hands. Most inputs: ``UNDER_WAY`` alone."""
        h, hb = self.hand, self.hb
        if h is None or hb is None or h.phase == "ended":
            return 0
        # hb.due(t), read from its chip motions' field: this runs for every input of a hand
        if h.provisional_boxed is None:
            return UNDER_WAY | BETTING_DUE if t >= hb.chips.quiet_until else UNDER_WAY
        return UNDER_WAY | BOXED_CARD | BETTING_DUE if t >= hb.chips.quiet_until else UNDER_WAY | BOXED_CARD

    def bets(self) -> dict[int, int]:
        """The running hand's wagers this round (seat -> chips); none between hands."""
        h, hb = self.hand, self.hb
        return hb.bets if h is not None and hb is not None and h.phase != "ended" else {}

    def running_hand(self) -> tuple[Hand, HandBetting] | None:
        """The hand under way and its betting, or None between hands."""
        h, hb = self.hand, self.hb
        if h is None or hb is None or h.phase == "ended":
            return None
        return h, hb
