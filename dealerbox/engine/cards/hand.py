"""One hand's card state: who was dealt in, the deal, the live board, burns, dead and folded hands, remedies
still open, and the showdown's reading. The engine (``engine.table``) drives it from sensor events.

The deal's own tracking (jokers held, faces seen, the last card dealt) is the ``Deal``'s; the
cards off the live board are ``off_board``'s; the showdown's reading and the push are ``award``'s.

Phases: ``deal`` (starting hands going out) -> ``preflop`` / ``flop`` / ``turn`` / ``river`` (betting) ->
``showdown`` (hands read, pots being pushed) -> ``ended``.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass, field

from .boards import Boards
from .deal import Deal
from ..variants import Variant

STREET_OF_BOARD = {0: "preflop", 3: "flop", 4: "turn", 5: "river"}


@dataclass(slots=True)
class OffBoard:
    """Cards turned or burnt that are not the live board."""
    out_of_play: set[str] = field(default_factory=set)      # premature board cards (Hold'em 3/4, Irregularities 15)
    premature_flop_left: int = 0           # cards of a premature flop still to come (they do not play either)
    burns: list[str] = field(default_factory=list)
    burn_since_board: bool = False


@dataclass(slots=True)
class Award:
    """The showdown's reading and the push of the pots: hands read, hands thrown away unshown, chips pushed."""
    ranks: dict[int, tuple[int, str]] = field(default_factory=dict)
    lows: dict[int, tuple[int, str]] = field(default_factory=dict)          # split games: qualifying lows read
    halves: list[tuple[tuple[int, ...], ...]] = field(default_factory=list)  # split games: (high, low) per pot
    unshown: set[int] = field(default_factory=set)
    pushed_chips: set[str] = field(default_factory=set)       # chips pushed and still in a bet zone (or taken)
    pushed: dict[int, int] = field(default_factory=dict)      # seat -> chips pushed to it, less those pulled back
    misaward: bool = False     # the pot was emptied to a seat that wins nothing: the hand waits for the remedy


@dataclass
class Hand:
    number: int
    button: int
    order: tuple[int, ...]                 # dealt in, clockwise from the first seat left of the button
    variant: Variant
    deck_id: str | None
    back: str | None
    blinds: dict[int, int] = field(default_factory=dict)
    deal: Deal = field(init=False)
    phase: str = "deal"
    street: str = "preflop"                # the betting round engine.betting is on
    board: list[str] = field(default_factory=list)          # live board card uids, in order
    off_board: OffBoard = field(default_factory=OffBoard)
    actions_on_street: int = 0
    voluntary_actions: int = 0
    folded: set[int] = field(default_factory=set)
    dead: set[int] = field(default_factory=set)
    provisional_boxed: tuple[str, int] | None = None        # a face-up card that may yet be tapped `exposed`
    dealt: list[str] = field(default_factory=list)          # every card that came out of the shoe this hand
    cards_out: int = 0                     # cards that left the shoe this hand
    pots: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)   # (amount, eligible) at the decision
    winners: list[tuple[int, ...]] = field(default_factory=list)
    award: Award = field(default_factory=Award)
    all_in_prompted: bool = False
    muck_touched: bool = False
    boards: Boards = field(default_factory=Boards)         # runs agreed, a bomb pot's second board (house practices)

    def __post_init__(self) -> None:
        self.deal = Deal(self.order, self.variant.hole_cards, first_player_rule=self.variant.extra_card_rule,
                         exposed_rule=self.variant.exposed_rule)

    @property
    def decided(self) -> bool:
        return self.phase in ("showdown", "ended")

    def hole(self, seat: int) -> list[str]:
        return list(self.deal.held.get(seat, ()))

    def portions(self) -> list[list[tuple[tuple[int, ...], ...]]]:
        """How each pot divides at the showdown, for :func:`engine.betting.pots.split_portions`: per pot, per board
        (board 1 first), the winners of each half (high, then low in a split game). Empty where every pot goes
        whole to its winners (one board, no halves read)."""
        if self.boards.count > 1 and self.boards.halves:
            return [list(per_board) for per_board in zip(*self.boards.halves, strict=True)]
        return [[halves] for halves in self.award.halves]

    def contenders(self, live: Container[int]) -> list[int]:
        """Seats still in the hand, in dealing order; ``live``: the betting's live seats (not folded or dead)."""
        dead, folded = self.dead, self.folded
        return [s for s in self.order if s in live and s not in dead and s not in folded]
