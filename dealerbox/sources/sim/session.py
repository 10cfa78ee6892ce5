"""What a simulated hand may know of its session, handed to it as one value."""

from __future__ import annotations

import random
from dataclasses import dataclass

from pokerkit import BettingStructure

from ...config import Config
from ...tags import Deck, TagRegistry
from .chips import TableChips
from .referee import NO_POSTS, Posts


@dataclass(frozen=True)
class Session:
    """The table as a hand starts: who sits with what, where the button is, the deck and the chips.

    The hand moves chips (``chips`` is the session's rack and pools, shared on purpose: chips are physical)
    but never writes back into the session; the simulator reads the outcome from the hand's ``Expected``.
    """

    config: Config
    registry: TagRegistry
    rng: random.Random
    structure: BettingStructure
    holes: int
    deck: Deck
    card_uid: dict[str, str]       # card -> uid in ``deck``
    cards: tuple[str, ...]         # the 52 cards, jokers left out
    shoe_uids: frozenset[str]
    chips: TableChips
    stacks: dict[int, int]         # seat -> stack, a copy
    button: int
    hand_no: int
    live_posts: frozenset[int] = frozenset()   # new players posting a big blind out of the blinds (Blinds 4)
    posts: Posts = NO_POSTS        # a kill posted, missed blinds made up (by player index)
    board: tuple[str, ...] = ()    # the board this hand deals, staged (Simulator.stage_board); () shuffled
    bomb: int = 0                  # a bomb pot: every player posts this, no preflop betting (house practice); 0: no
    bomb_boards: int = 1           # a bomb pot's boards: 1, or 2 (double board)
