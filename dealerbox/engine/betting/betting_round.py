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

    def moved(self, t: float) -> None:
        """Another chip of the motion arrived at ``t``."""
        self.last = t

    def chip_in(self, value: int) -> None:
        """A playing chip of ``value`` arrived."""
        self.values.append(value)

    def foreign_chip(self, house: str) -> None:
        """A chip of another card room (``house``) arrived."""
        self.foreign.append(house)

    def small_chip(self, value: int) -> None:
        """A chip below the smallest in play arrived."""
        self.small.append(value)

    def taken_back(self, value: int) -> bool:
        """A playing chip of ``value`` left the zone: True when it was one of this motion's (it never happened)."""
        if value in self.values:
            self.values.remove(value)
            return True
        return False


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
    no_raise: bool = False            # checked out of turn: may not bet or raise at its next turn to act this
    #                                   round (Betting 10), cleared when it acts then or the round ends
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

    # --- what happened to the seat's bet: the betting parts say it here -------------------------------------
    def chip_placed(self, uid: str, value: int) -> None:
        """A playing chip of ``value`` reached the seat's bet zone."""
        self.zone[uid] = value

    def chip_lifted(self, uid: str) -> int | None:
        """Chip ``uid`` left the seat's bet zone: its value, or None when it was no playing chip there."""
        return self.zone.pop(uid, None)

    def bet_to(self, total: int, all_in: bool) -> None:
        """The seat's wager is ruled ``total``; the chips in the zone are accounted for."""
        self.wager = total
        self.credited = max(0, sum(self.zone.values()) - self.ante)   # present, without the property
        self.all_in = all_in

    def acted(self, full_raise_serial: int) -> None:
        """The seat acted (not only posted), with the betting at ``full_raise_serial``."""
        self.acted_serial = full_raise_serial
        self.voluntary = True
        self.no_raise = False
        self.out_of_turn = None

    def fold(self) -> None:
        self.folded = True
        self.voluntary = True

    def kill(self) -> None:
        """The hand is dead (a ruling): its chips stay in the pot."""
        self.dead = True

    def credit(self, value: int) -> None:
        """Chip value in the zone now accounted for."""
        self.credited = value

    def credit_more(self, value: int) -> None:
        self.credited += value

    def post(self, live: int, present: int, kind: str, all_in: bool) -> None:
        """The seat posted ``live`` of a ``kind`` post ("sb", "bb", "straddle", "kill", "missed", "new")."""
        self.wager += live
        self.credited = present
        self.posted = kind
        if all_in:
            self.all_in = True

    def ante_in(self, amount: int) -> None:
        """Ante chips lying in the zone until the round is gathered."""
        self.ante += amount

    def went_all_in(self) -> None:
        self.all_in = True

    def queue(self, action: OutOfTurn | None) -> None:
        """An action out of turn waits for the seat's turn (None: none waits any more)."""
        self.out_of_turn = action

    def release(self, wager_serial: int) -> None:
        """A question answered: an action queued behind it waits from ``wager_serial``."""
        if self.out_of_turn is not None and self.out_of_turn[3] is None:
            self.out_of_turn = self.out_of_turn[:3] + (wager_serial,)

    def posts(self, kind: str) -> None:
        """The seat posted: ``kind`` is "sb", "bb", "straddle", "kill", "missed" or "new"."""
        self.posted = kind

    def may_not_raise(self) -> None:
        """Checked out of turn: at its next turn to act this round the seat may not bet or raise (Betting 10), whether
        the check was binding (its turn passed) or someone bet, called or raised in between (it acts again)."""
        self.no_raise = True

    def returned(self, amount: int) -> None:
        """``amount`` of the wager goes back to the seat's stack."""
        self.wager -= amount

    def gathered(self) -> None:
        """The round is over: the wager joined the pot and the round's standing starts over."""
        self.wager = 0
        self.ante = 0             # gathered with the round: from here the zone's chips are all wager
        self.credited = self.present
        self.acted_serial = None
        self.no_raise = False
        self.out_of_turn = None

    def keep(self, zone: dict[str, int], present: int) -> None:
        """The round restored (Betting 12): the chips in the zone are still there, ``present`` accounted for."""
        self.zone = zone
        self.credited = present


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

    # --- what happened in the round: the betting parts say it here ------------------------------------------
    def turn_order(self, pending: list[int]) -> None:
        """The seats still to act, the next first (empty: nobody)."""
        self.pending = pending

    def raised(self, seat: int, total: int, full: bool, last_raise: int | None, capped: bool,
               pending: list[int]) -> None:
        """``seat`` bet or raised to ``total`` (``full``: a full bet or raise, which reopens the betting;
        ``last_raise``: the new size of the last full raise, where it changes; ``capped``: capped while three or
        more were in); ``pending``: everyone else still to act."""
        if last_raise is not None:
            self.last_raise = last_raise
        if full:
            self.full_raise_serial += 1
            self.full_raise_level = total
            self.raises += 1
            if capped:
                self.capped_multiway = True
        self.current_bet = total
        self.aggressor = seat
        self.wager_levels.append(total)
        self.wager_serial += 1
        self.pending = pending

    def posted(self, wager: int, raises_level: bool, big: int) -> None:
        """A post made the wager ``wager`` (``raises_level``: a straddle or kill, which sets the smallest raise;
        ``big``: the big blind, when the hand has one): the bet to match and the raise level count it."""
        self.current_bet = max(self.current_bet, wager)
        if raises_level:
            self.last_raise = max(self.last_raise, wager)
        self.full_raise_level = max(self.full_raise_level, self.current_bet, big)
        self.raises = 1

    def smallest_raise(self, last_raise: int) -> None:
        """The limits changed before anyone acted (a kill): the size the first raise must reach."""
        self.last_raise = last_raise

    def street_begins(self, pending: list[int]) -> None:
        """A new betting round: nobody has bet yet; ``pending``: the seats to act, the next first."""
        self.aggressor = None
        self.pending = pending

    def called(self) -> None:
        """Chips went in without raising: a later out-of-turn act no longer binds as it was."""
        self.wager_serial += 1

    def acted(self, seat: int, preflop: bool) -> None:
        """``seat`` acted (a check, call, bet or raise)."""
        if preflop:
            self.voluntary_actions += 1
        self.action_serial += 1
        self.last_actor, self.last_actor_serial = seat, self.action_serial
        if seat in self.pending:
            self.pending.remove(seat)

    def folded(self, seat: int, preflop: bool) -> None:
        if preflop:
            self.voluntary_actions += 1
        if seat in self.pending:
            self.pending.remove(seat)
        self.action_serial += 1

    def killed(self, seat: int) -> None:
        """``seat``'s hand was ruled dead: it is no longer to act (no action of its own)."""
        if seat in self.pending:
            self.pending.remove(seat)

    def dealt_around(self, seat: int) -> None:
        """``seat`` was never dealt a hand (it owed a post and waits): it has no place in the round."""
        del self.seats[seat]
        if seat in self.pending:
            self.pending.remove(seat)

    def passed_over(self) -> None:
        """The next seat to act can no longer act (folded, dead, all in, or nothing left to decide)."""
        self.pending.pop(0)

    def gathered(self, last_raise: int) -> None:
        """The round is over: the next one starts with no bet, ``last_raise`` the smallest bet."""
        self.current_bet, self.full_raise_level, self.raises = 0, 0, 0
        self.last_raise = last_raise
        self.capped_multiway = False
        self.wager_levels = []
        self.full_raise_serial += 1


@dataclass(frozen=True)
class UndoPoint:
    """The round as it was before ``seat``'s short call, kept while nobody else has acted."""
    seat: int
    action_serial: int
    round: BettingRound
    stack: int
