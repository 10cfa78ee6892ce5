"""Button and blind positions (Blinds 1, 3), and who owes what across hands (Blinds 4, 5, 9, 11, 12).

``positions`` answers for one hand: given the button seat and the seats taking part, which seat posts the
small blind, the big blind, and who may straddle. A moving button always moves one player on; with a dead
button the big blind goes to the player due for it and the small blind or the button may face an empty seat.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass


def next_seat(seat: int, among: list[int] | set[int] | tuple[int, ...], table_seats: int) -> int | None:
    """The first seat of ``among`` clockwise after ``seat`` (None if ``among`` is empty)."""
    for step in range(1, table_seats + 1):
        s = (seat - 1 + step) % table_seats + 1
        if s in among:
            return s
    return None


def clockwise(start_after: int, among: Iterable[int], table_seats: int) -> list[int]:
    """``among`` in clockwise order, beginning with the first seat after ``start_after``."""
    ordered = sorted(among)
    if ordered and 0 < ordered[0] and ordered[-1] <= table_seats and 0 <= start_after <= table_seats:
        # table seats (1..table_seats): the seats after start_after, then the rest; no key function to call per seat
        cut = bisect_right(ordered, start_after)
        return ordered[cut:] + ordered[:cut]
    return sorted(among, key=lambda s: (s - start_after - 1) % table_seats)


def _after(seat: int | None, among: list[int], table_seats: int) -> int | None:
    """``next_seat`` after a seat that may be missing (a seat outside the table's numbers has none after it)."""
    return None if seat is None else next_seat(seat, among, table_seats)


@dataclass(frozen=True, slots=True)
class Positions:
    button: int
    small_blind: int | None     # None: dead small blind (dead button, the seat is empty)
    big_blind: int | None
    straddle: int | None        # the seat left of the big blind (No-Limit 12), if it takes part

    @property
    def heads_up(self) -> bool:
        return self.small_blind == self.button


def positions(button: int, players: list[int] | tuple[int, ...], table_seats: int,
              last_big_blind: int | None = None, dead_button: bool = False) -> Positions:
    """Blind seats for a hand. Heads-up, the button posts the small blind (Blinds 3).

    Dead button (Blinds 1b): the big blind moves to the next player after last hand's big blind; the small
    blind is last hand's big blind seat if that player is still here (else no small blind).
    """
    players = sorted(set(players))
    if len(players) < 2:
        return Positions(button, None, players[0] if players else None, None)
    if len(players) == 2:
        sb = button if button in players else next_seat(button, players, table_seats)
        bb = _after(sb, players, table_seats)
        return Positions(button, sb, bb, None)
    if dead_button and last_big_blind is not None:
        bb = next_seat(last_big_blind, players, table_seats)
        sb = last_big_blind if last_big_blind in players else None
        straddle = _after(bb, players, table_seats)
        return Positions(button, sb, bb, straddle)
    sb = next_seat(button, players, table_seats)
    bb = _after(sb, players, table_seats)
    return Positions(button, sb, bb, _after(bb, players, table_seats))


def between_big_blind_and_button(seat: int, pos: Positions, table_seats: int) -> bool:
    """True for the small blind seat and the button seat: where a new player may not come in (Blinds 7)."""
    if pos.big_blind is None:
        return False
    # clockwise from the big blind: everyone else, then the button, then the small blind last
    return seat in (pos.button, pos.small_blind) and seat != pos.big_blind
