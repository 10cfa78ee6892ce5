"""The state of one betting round as values: each seat's wager and standing, whose turn is pending, the bet to
match and the raise bookkeeping. A copy of :class:`BettingRound` is a complete undo point (Betting 12 lets a
player take back a call made unaware of a raise): restoring it is one assignment."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field


# (kind "chips" or "check", intended total, single chip, wager serial or None while queued)
OutOfTurn = tuple[str, int, int | None, int | None]


@dataclass(slots=True)
class Motion:
    """Chips arriving in one bet zone close together in time: one motion of the player's hand (Betting 14)."""
    start: float
    last: float
    values: list[int] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)    # houses of chips from other card rooms
    small: list[int] = field(default_factory=list)      # values below the smallest chip in play


@dataclass
class SeatBet:
    seat: int
    wager: int = 0              # live chips this round, as ruled
    credited: int = 0           # chip value in the zone already accounted for
    zone: dict[str, int] = field(default_factory=dict)   # uid -> value of the playing chips in betN
    folded: bool = False
    dead: bool = False
    all_in: bool = False
    acted_serial: int | None = None   # full-raise serial when the seat last acted this round
    no_raise: bool = False            # checked out of turn: may not bet or raise this turn (Betting 10)
    out_of_turn: OutOfTurn | None = None  # (kind, intended total, single chip, wager serial or None while queued
    #                                   behind a question to the dealer), waiting for the turn
    voluntary: bool = False           # has acted (not only posted) this hand
    posted: str = ""                  # "sb", "bb", "straddle", "kill", "missed", "new"
    ante: int = 0                     # ante chips lying in the zone until the round is gathered (betting/antes.py)

    @property
    def present(self) -> int:
        """Chips in the zone that count toward the wager: an ante lying there is not part of it."""
        return max(0, sum(self.zone.values()) - self.ante)

    @property
    def live(self) -> bool:
        return not self.folded and not self.dead


@dataclass
class BettingRound:
    seats: dict[int, SeatBet]
    last_raise: int                       # size of the last full raise: the next raise is at least this much
    pending: list[int] = field(default_factory=list)   # seats still to act, the next first
    current_bet: int = 0                  # the total every live seat must match this round
    full_raise_level: int = 0             # the total of the last full bet or raise (limit: the next raise builds on it)
    raises: int = 0                       # bets and full raises this round (the limit cap)
    full_raise_serial: int = 0            # counts full raises across the hand: reopens the betting to who acted
    wager_serial: int = 0                 # counts wagers: an out-of-turn act binds only if none came since
    action_serial: int = 0                # counts every action, folds included
    last_actor: int | None = None
    last_actor_serial: int = -1
    aggressor: int | None = None          # the last seat to bet or raise (shows first, Showdown 7)
    capped_multiway: bool = False         # capped while three or more were in: stays capped heads-up (Betting 4)
    wager_levels: list[int] = field(default_factory=list)   # every bet/raise total this round, in order
    voluntary_actions: int = 0            # actions before the flop other than posts (the misdeal window)

    def copy(self) -> BettingRound:
        return copy.deepcopy(self)


@dataclass(frozen=True)
class UndoPoint:
    """The round as it was before ``seat``'s short call, kept while nobody else has acted."""
    seat: int
    action_serial: int
    round: BettingRound
    stack: int
