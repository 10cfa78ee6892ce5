"""What the simulator promises: the irregularities it can stage, and the referee's account of each hand
(``Expected``) that the engine's rulings are checked against."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...engine import inputs as ev
from ..choreography import Timed, to_messages

IRREGULARITIES = {
    # kind: (rule the engine should cite, what the simulated dealer then does)
    "boxed-card": ("irregularity.7", "card-replaced"),
    "duplicate-card": ("irregularity.4", "void"),
    "other-deck": ("irregularity.3", "void"),
    "joker": ("irregularity.8", "card-replaced"),
    "out-of-sequence": ("misdeal.1f", "misdeal"),
    "first-card-wrong-seat": ("misdeal.1h", "misdeal"),
    "premature-flop": ("holdem.3", "redeal-board"),
    "string-raise": ("betting.14", "wager-corrected"),
    "short-call": ("betting.16", "wager-corrected"),
    "foreign-chip": ("procedures.3", "wager-corrected"),
    "unknown-chip": ("procedures.3", "wager-corrected"),
    "small-chip": ("betting.7", "wager-corrected"),
}
DEAL_KINDS = {"boxed-card", "duplicate-card", "other-deck", "joker", "out-of-sequence", "first-card-wrong-seat"}
CHIP_KINDS = {"string-raise", "short-call", "foreign-chip", "unknown-chip", "small-chip"}


class SimulatorError(RuntimeError):
    """The simulator cannot play with this config or registry (e.g. no chips of the house)."""


@dataclass(frozen=True)
class ExpectedPot:
    amount: int
    eligible: tuple[int, ...]           # seats
    winners: tuple[int, ...]            # seats that got a share
    shares: dict[int, int] = field(default_factory=dict)


@dataclass
class Expected:
    """What the referee says happened in one hand (seats, not pokerkit's player indices)."""
    hand: int
    variant: str
    button: int
    dealt_in: tuple[int, ...]           # clockwise from the first seat left of the button
    blinds: dict[int, int]
    stacks_before: dict[int, int]
    stacks: dict[int, int]              # after the hand
    hole_cards: dict[int, tuple[str, ...]] = field(default_factory=dict)
    board: tuple[str, ...] = ()
    boards: tuple[tuple[str, ...], ...] = ()   # boards 2.. of a hand run twice or three times, a double bomb pot
    runs: int = 1                       # runs agreed after an all-in (a run-it table, game.run_it)
    bomb: int = 0                       # a bomb pot's post per player (house practice); 0: not a bomb pot
    lowball_killer: int | None = None   # the seat that killed the pot after two cards (Kill Pots 10, lowball)
    pots: list[ExpectedPot] = field(default_factory=list)
    winners: tuple[int, ...] = ()
    returned: dict[int, int] = field(default_factory=dict)   # uncalled bets handed back, per seat
    # split pots pushed by the rulebook (Ties 4, 5d) where pokerkit's merged split differs: per seat, the
    # chips the rulebook gives minus pokerkit's (``stacks`` and ``pots`` are the rulebook's)
    odd_chips: dict[int, int] = field(default_factory=dict)
    actions: list[tuple[str, int, str, int]] = field(default_factory=list)  # (street, seat, kind, to)
    outcome: str = "played"             # played | misdeal | void
    irregularity: str | None = None
    rule: str | None = None


@dataclass
class SimulatedHand:
    number: int
    inputs: list[ev.EngineInput]
    expected: Expected
    _messages: list[Timed] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def messages(self) -> list[Timed]:
        """The same hand as (t, protocol message or DealerInput): built on first use, most callers want inputs."""
        if self._messages is None:
            self._messages = to_messages(self.inputs)
        return self._messages
