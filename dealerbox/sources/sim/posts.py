"""What a simulated table posts beyond its two blinds: the kill that falls due (Kill Pots 2-7), posted by the
killer from its own seat, live, acting in turn; and the blinds a returning player missed, made up live and dead
(Blinds 9). The simulator follows the kill legs and the missed blinds the way the engine does (it reuses the
engine's pure :class:`KillTracker`), so that it posts what the engine will ask for."""

from __future__ import annotations

from ...config import GameConfig
from ..choreography import Choreography
from ...engine.betting.kill import KillTracker
from .outcome import Expected
from .referee import Posts


def _between(a: int, b: int, seat: int, seats: int) -> bool:
    """``seat`` lies strictly after ``a`` and before ``b``, clockwise round a table of ``seats``."""
    return 0 < (seat - a) % seats < (b - a) % seats


class TablePosts:
    """The kill legs and the blinds owed at one simulated table, hand after hand."""

    def __init__(self, game: GameConfig, table_seats: int, post_kills: bool = True,
                 kill_button: str | None = None) -> None:
        self.game = game
        self.kill_button = kill_button            # the kill button's uid (None: none registered)
        self.kill_button_at: int | None = None    # the seat it sits in front of
        self.table_seats = table_seats
        self.post_kills = post_kills
        self.kill = KillTracker.for_game(game)
        self.owes: dict[int, set[str]] = {}       # seat -> missed blinds ("sb", "bb"), as the engine keeps them
        self.killer: int | None = None            # the seat that killed the hand being played
        self.hands = 0                            # hands played since the table's game started
        self.new_seats: set[int] = set()          # sat down in the running game, not yet dealt a hand played out
        self.places: tuple[int, int] | None = None    # last hand's small blind (its place) and big blind seats
        self.dealing: tuple[int, int] | None = None   # the same of the hand being played (Blinds 1b's next button)

    def new_table(self) -> None:
        """Every player left: legs and debts start afresh (the engine's new game)."""
        self.kill = KillTracker.for_game(self.game)
        self.owes.clear()
        self.killer = None
        self.hands = 0
        self.new_seats.clear()
        self.places = None

    def arrived(self, seat: int) -> None:
        """A player sat down: new to a running game (none is before its first hand)."""
        if self.hands:
            self.new_seats.add(seat)

    def place_kill_button(self, c: Choreography) -> None:
        """Before the next hand the dealer moves the kill button to the player with a leg up, and off the table
        when it is neutral (Kill Pots 1); without one registered the legs are followed all the same."""
        holder = self.kill.holder if self.kill.enabled else None
        if self.kill_button is None or holder == self.kill_button_at:
            return
        c.move(self.kill_button, f"seat{self.kill_button_at}" if self.kill_button_at else None,
               f"seat{holder}" if holder else None, travel=0.6)
        self.kill_button_at = holder
        c.wait(0.8)

    def for_hand(self, order: tuple[int, ...], button: int, seated: dict[int, int],
                 making_up: set[int], dead_small: bool = False) -> Posts:
        """The posts of the hand dealt to ``order`` (index 0 left of the button): the kill if one is due and the
        killer is dealt in, and the make-up of each seat of ``making_up`` dealt in out of the blinds. Records
        the blinds that pass the seats not dealt in (Blinds 9). ``making_up`` loses the seats it made up.
        ``dead_small``: a dead button's hand without a small blind (Blinds 1b): the big blind is ``order[0]``."""
        n, g = len(order), self.game
        small, big = (button, order[0]) if n == 2 else (button, order[0]) if dead_small else (order[0], order[1])
        for seat, stack in seated.items():
            if seat in order or stack <= 0:
                continue
            if _between(button, small, seat, self.table_seats):
                self.owes.setdefault(seat, set()).add("sb")
            if _between(small, big, seat, self.table_seats):
                self.owes.setdefault(seat, set()).add("bb")
        self.owes.pop(big, None)          # the big blind posted in its place settles every debt
        live: dict[int, int] = {}
        dead: dict[int, int] = {}
        scale = 1.0
        self.killer = None
        if self.post_kills and self.kill.enabled and self.kill.due in order:
            self.killer = self.kill.due
            live[order.index(self.killer)] = self.kill.amount(g.big_blind)
            scale = self.kill.scale
        for seat in sorted(making_up & set(order)):
            making_up.discard(seat)
            owed = self.owes.pop(seat, set())
            index = order.index(seat)
            if not owed or n == 2 or index < 2 or index in live or g.ante or g.big_blind_ante:
                continue      # in a blind's place (it posts that blind), or a table with antes: nothing made up
            live_part, dead_part = (g.big_blind, g.small_blind if "sb" in owed else 0) if "bb" in owed \
                else (g.small_blind, 0)
            # short of chips: the live part first, all in if need be (pokerkit would take the dead ante first)
            live[index] = min(live_part, seated[seat])
            dead_part = min(dead_part, seated[seat] - live[index])
            if dead_part:
                dead[index] = dead_part
        return Posts(live, dead, scale, dead_small)

    def hand_played(self, expected: Expected) -> None:
        """After a hand played out: who won the main pot (the kill legs, Kill Pots 3, 4, 7; a split game's scoop,
        Kill Pots 8), and the new players who played a killed pot, so agreed to kill the next one (Kill Pots 12)."""
        # pokerkit pushes a split pot once per half (high, then low): one pot is the pushes of the same players
        pots: dict[tuple[int, ...], tuple[int, set[int]]] = {}
        for p in expected.pots:
            amount, takers = pots.get(p.eligible, (0, set()))
            pots[p.eligible] = (amount + p.amount, takers | {s for s, a in p.shares.items() if a > 0})
        merged = [(amount, tuple(sorted(takers))) for amount, takers in pots.values()]
        winners = merged[0][1] if merged else ()
        won = scooped = 0
        if len(winners) == 1:
            w = winners[0]
            won = expected.stacks[w] - expected.stacks_before[w]
            if any(len(p.eligible) > 1 for p in expected.pots):
                scooped = sum(amount for amount, takers in merged if takers == (w,))
            else:
                # won without a showdown, pokerkit's pot lacks the winner's whole last bet (docs/betting.md); the
                # engine's holds what the others lost and the part of the winner's wager that they matched
                lost = [expected.stacks_before[s] - expected.stacks[s] for s in expected.dealt_in if s != w]
                scooped = sum(lost) + max(lost, default=0)
        agreed = tuple(s for s in expected.dealt_in if s in self.new_seats)
        self.new_seats -= set(expected.dealt_in)
        self.hands += 1
        self.places = self.dealing
        if expected.lowball_killer is not None:
            self.killer = expected.lowball_killer     # a kill after two cards (Kill Pots 10) is the hand's kill
        self.kill.record_win(tuple(winners), won, self.killer, scooped, agreed)
