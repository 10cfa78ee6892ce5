"""Balancing and breaking tables (Tournaments 12, 14a, 14b, 16, 17), as pure plans over every table's seats.

The floor calls :func:`plan` with each table's view (from its retained state topic) and gets the moves to
publish; a table calls :func:`player_to_send` and :func:`seat_for_arrival` for its own seats.

>>> counts = {"T01": TableSeats("T01", 9, frozenset(range(1, 9)), 1),
...           "T02": TableSeats("T02", 9, frozenset(range(1, 6)), 1)}
>>> [(m.from_table, m.to_table) for m in plan(counts, ("T02", "T01"), set()).moves]
[('T01', 'T02')]
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .ruling import Ruling, clockwise


@dataclass(frozen=True, slots=True)
class TableSeats:
    table: str
    seats: int                       # seats at the table
    occupied: frozenset[int]
    button: int | None               # the button of the last (or current) deal


def next_big_blind(t: TableSeats) -> int | None:
    """The seat due for the big blind on the next deal, with the button moving one player: the third player
    clockwise after the current button (the second, heads-up); None with fewer than two players."""
    if len(t.occupied) < 2:
        return None
    start = (t.button or t.seats) % t.seats + 1
    players = [s for s in clockwise(start, t.seats) if s in t.occupied]
    return players[2] if len(players) > 2 else players[1]


def player_to_send(t: TableSeats) -> int | None:
    """The player a table sends when balancing: the one due for the big blind next deal (Tournaments 14a)."""
    return next_big_blind(t)


def seat_for_arrival(t: TableSeats, taken: frozenset[int] = frozenset()) -> int | None:
    """The open seat a moved player takes: the first one the big blind reaches (Tournaments 14b), i.e. the
    first open seat clockwise after the seat due for the big blind next deal. ``taken``: already assigned."""
    open_seats = [s for s in range(1, t.seats + 1) if s not in t.occupied and s not in taken]
    if not open_seats:
        return None
    bb = next_big_blind(t) or t.button or t.seats
    return next(s for s in clockwise(bb % t.seats + 1, t.seats) if s in open_seats)


def allowed_gap(tables: int) -> int:
    """How far apart table counts may be before the floor balances (Tournaments 16)."""
    return 2 if tables > 6 else 1


def balance_flags(counts: dict[str, int]) -> tuple[Ruling, ...]:
    """Tables more than the allowed gap above the shortest table (Tournaments 16); () when balanced."""
    if len(counts) < 2:
        return ()
    low, gap = min(counts.values()), allowed_gap(len(counts))
    return tuple(Ruling("tournament.16", "floor", "continues",
                        f"{table} has {n} players, {n - low} more than the shortest table (allowed {gap}): "
                        "send a player")
                 for table, n in sorted(counts.items()) if n - low > gap)


@dataclass(frozen=True, slots=True)
class Move:
    from_table: str
    from_seat: int | None            # the player to send (14a); None: the table names them
    to_table: str
    to_seat: int | None              # the seat to take (14b)
    rule: str                        # "tournament.14a" (balancing) or "tournament.12" (a broken table)


@dataclass(frozen=True, slots=True)
class Plan:
    moves: tuple[Move, ...] = ()
    breaking: str | None = None      # the table broken by this plan (Tournaments 12)
    redraw: bool = False             # the field reached a redraw point (Tournaments 17)
    rulings: tuple[Ruling, ...] = field(default=())


def table_to_break(tables: dict[str, TableSeats], order: tuple[str, ...]) -> str | None:
    """The next table in the floor's order to break, once the others can seat every player (Tournaments 12)."""
    if len(tables) < 2:
        return None
    players = sum(len(t.occupied) for t in tables.values())
    for name in order:
        if name in tables:
            room = sum(t.seats for n, t in tables.items() if n != name)
            return name if players <= room else None
    return None


def redraw_due(before: int, after: int, points: tuple[int, ...]) -> bool:
    """True when the number of tables just fell to a redraw point (Tournaments 17)."""
    return after < before and after in points


def plan(tables: dict[str, TableSeats], order: tuple[str, ...], broken: set[str],
         redraw_points: tuple[int, ...] = (3, 2, 1)) -> Plan:
    """What the floor tells the tables now: break the next table when the rest can seat everyone, else move
    players from the longest to the shortest tables until no table is over the allowed gap. Tables in
    ``broken`` are already broken and take nobody."""
    live = {n: t for n, t in tables.items() if n not in broken}
    breaking = table_to_break(live, order)
    if breaking is not None:
        return _break(live, breaking, redraw_points)
    counts = {n: len(t.occupied) for n, t in live.items()}
    seated = {n: set(t.occupied) for n, t in live.items()}
    arrivals: dict[str, set[int]] = {n: set() for n in live}
    moves: list[Move] = []
    flags = balance_flags(counts)
    while len(counts) > 1:
        longest = max(sorted(counts), key=lambda n: counts[n])
        shortest = min(sorted(counts), key=lambda n: counts[n])
        if counts[longest] - counts[shortest] <= allowed_gap(len(counts)):
            break
        sender = TableSeats(longest, live[longest].seats, frozenset(seated[longest]), live[longest].button)
        from_seat = player_to_send(sender)
        to_seat = seat_for_arrival(live[shortest], frozenset(arrivals[shortest]))
        moves.append(Move(longest, from_seat, shortest, to_seat, "tournament.14a"))
        if from_seat is not None:
            seated[longest].discard(from_seat)
        if to_seat is not None:
            arrivals[shortest].add(to_seat)
        counts[longest] -= 1
        counts[shortest] += 1
    return Plan(tuple(moves), rulings=flags)


def _break(live: dict[str, TableSeats], breaking: str, redraw_points: tuple[int, ...]) -> Plan:
    """Seat every player of ``breaking`` at the other tables, the shortest table first, each in the seat its
    big blind reaches first."""
    rest = {n: t for n, t in live.items() if n != breaking}
    counts = {n: len(t.occupied) for n, t in rest.items()}
    taken: dict[str, set[int]] = {n: set() for n in rest}
    moves: list[Move] = []
    for seat in sorted(live[breaking].occupied):
        to = min(sorted(counts), key=lambda n: (counts[n] >= rest[n].seats, counts[n]))
        to_seat = seat_for_arrival(rest[to], frozenset(taken[to]))
        moves.append(Move(breaking, seat, to, to_seat, "tournament.12"))
        if to_seat is not None:
            taken[to].add(to_seat)
        counts[to] += 1
    redraw = redraw_due(len(live), len(rest), redraw_points)
    rulings = [Ruling("tournament.12", "floor", "continues",
                      f"{breaking} breaks: {len(moves)} player(s) move to the seats the floor assigns")]
    if redraw:
        rulings.append(Ruling("tournament.17", "floor", "continues",
                              f"The field is down to {len(rest)} table(s): redraw for seats"))
    return Plan(tuple(moves), breaking, redraw, tuple(rulings))
