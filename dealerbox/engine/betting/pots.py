"""Main and side pots from what each seat put in, and splitting a pot among its winners (Ties 3-5): by board
where a hand is dealt on two or more, and within each board's part by halves (high and low in the split games).

Pure functions over ``{seat: chips}``; the betting round feeds them and ``settle`` uses them.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..events import Pot


def uncalled(contributed: dict[int, int]) -> tuple[int | None, int]:
    """The seat whose top wager nobody matched and by how much (returned to it, never part of a pot)."""
    if not contributed:
        return None, 0
    # one pass for the two largest (asked at every action, end of round and pot); a tie leaves nothing uncalled
    seats = iter(contributed.items())
    top_seat, top = next(seats)
    second: int | None = None
    for seat, chips in seats:
        if chips > top:
            top_seat, top, second = seat, chips, top
        elif second is None or chips > second:
            second = chips
    second = 0 if second is None else second
    return (top_seat, top - second) if top > second else (None, 0)


def build_pots(contributed: dict[int, int], live: set[int], dead_money: int = 0,
               all_in: set[int] | None = None) -> list[Pot]:
    """Main pot first, then side pots. ``contributed`` = live chips each seat put in (uncalled part already
    taken out); ``live`` = seats still contesting (not folded, not dead); ``dead_money`` joins the main pot.

    A band between two all-in levels is a pot; seats that put in at least its top are eligible. Adjacent
    bands with the same eligible seats merge.
    """
    capped = live if all_in is None else all_in & live
    if not capped:   # nobody live is all-in (most pots): one pot of everything, every live seat in it
        total = sum(contributed.values()) + dead_money
        return [Pot(total, tuple(sorted(live)))] if total else []
    top_live = max([c for s, c in contributed.items() if s in live] or [0])
    # pots divide only where a live player is all-in; a player still betting is in every band
    levels = sorted({c for s, c in contributed.items() if s in capped and c > 0} | ({top_live} if top_live else set()))
    pots: list[Pot] = []
    prev = 0
    for i, level in enumerate(levels):
        top = level if i < len(levels) - 1 else max([level, *contributed.values()])
        amount = sum(min(c, top) - min(c, prev) for c in contributed.values())
        eligible = tuple(sorted(s for s in live if contributed.get(s, 0) >= level or s not in capped))
        if pots and pots[-1].eligible == eligible:
            pots[-1] = Pot(pots[-1].amount + amount, eligible)
        elif amount > 0:
            pots.append(Pot(amount, eligible))
        prev = top
    if not pots:
        total = sum(contributed.values()) + dead_money
        return [Pot(total, tuple(sorted(live)))] if total else []
    if dead_money:
        pots[0] = Pot(pots[0].amount + dead_money, pots[0].eligible)
    return pots


def clockwise_from(button: int, seats: list[int] | tuple[int, ...], table_seats: int) -> list[int]:
    """``seats`` ordered clockwise starting with the first seat left of ``button``."""
    return sorted(seats, key=lambda s: (s - button - 1) % table_seats)


def split(pot: Pot, winners: tuple[int, ...], button: int, table_seats: int, unit: int = 1) -> Pot:
    """Share ``pot`` among ``winners`` in chips of ``unit``; odd units one each to the first winners
    clockwise from the button (Ties 4, 5a). Returns the pot with winners and shares filled."""
    if not winners:
        return pot
    order = clockwise_from(button, list(winners), table_seats)
    if pot.amount % unit:
        unit = 1
    units, n = pot.amount // unit, len(order)
    base, odd = divmod(units, n)
    shares = {s: (base + (1 if i < odd else 0)) * unit for i, s in enumerate(order)}
    return Pot(pot.amount, pot.eligible, tuple(sorted(winners)), shares)


def divide(amount: int, parts: int, unit: int = 1) -> list[int]:
    """``amount`` in ``parts`` equal portions of whole ``unit`` chips (Ties 3: an odd chip is broken down to the
    smallest unit first); the odd units left over all go to the first portion: board 1 of a pot dealt on two or
    more boards (as pokerkit deals it), the high half of a high-low split (Ties 5c). An amount that is no multiple
    of ``unit`` divides in single chips.

    >>> divide(41, 2), divide(45, 2, unit=5), divide(7, 3), divide(100, 3, 5)
    ([21, 20], [25, 20], [3, 2, 2], [40, 30, 30])
    """
    if amount % unit:
        unit = 1
    base, odd = divmod(amount // unit, parts)
    return [(base + (odd if i == 0 else 0)) * unit for i in range(parts)]


def split_portions(pot: Pot, boards: Sequence[Sequence[tuple[int, ...]]], button: int, table_seats: int,
                   unit: int = 1) -> tuple[Pot, list[Pot]]:
    """The one way a pot is divided into portions: first by board (``boards[b]``, board 1 first: a pot run twice
    or a double-board bomb pot, boards.1), then each board's part by halves (``boards[b]`` = the high winners, then
    the low winners in a split game; one tuple of winners otherwise). Each division is :func:`divide` (odd units
    to board 1, to the high), each half shared among its own winners by :func:`split` (Ties 4, 5a). A half with
    nobody in it is no portion (no qualifying low: the high takes that board's part); a board with nobody named
    goes to the pot's eligible seats. A seat in several portions gets them all.

    Returns the whole pot with every seat's shares added up, and each board's part (a pot of its own);
    :func:`divide_portions` gives each half's part too.

    >>> whole, parts = split_portions(Pot(11, (1, 2)), [[(1,)], [(2,)]], 2, 9)
    >>> whole.shares, [p.amount for p in parts]
    ({1: 6, 2: 5}, [6, 5])
    >>> split_portions(Pot(43, (1, 2, 3)), [[(1,), (2,)], [(3,)]], 3, 9)[0].shares   # board 1 high-low, board 2
    {1: 11, 2: 11, 3: 21}
    """
    whole, parts, _ = divide_portions(pot, boards, button, table_seats, unit)
    return whole, parts


def divide_portions(pot: Pot, boards: Sequence[Sequence[tuple[int, ...]]], button: int, table_seats: int,
                    unit: int = 1) -> tuple[Pot, list[Pot], list[list[Pot]]]:
    """:func:`split_portions`, with each board's halves as well: per board, the part each half named took (high
    first, then low; a pot of its own), as the division gave it.

    >>> _, _, halves = divide_portions(Pot(7, (1, 3, 4)), [[(1,), (3,)]], 1, 6)   # the odd chip to the high
    >>> [(h.amount, h.shares) for h in halves[0]]
    [(4, {1: 4}), (3, {3: 3})]
    """
    parts: list[Pot] = []
    halves_parts: list[list[Pot]] = []
    for amount, halves in zip(divide(pot.amount, len(boards), unit), boards, strict=True):
        named = [h for h in halves if h] or [pot.eligible]
        part: dict[int, int] = {}
        board_halves: list[Pot] = []
        for chips, winners in zip(divide(amount, len(named), unit), named, strict=True):
            half = split(Pot(chips, pot.eligible), winners, button, table_seats, unit)
            board_halves.append(half)
            for seat, share in half.shares.items():
                part[seat] = part.get(seat, 0) + share
        parts.append(Pot(amount, pot.eligible, tuple(sorted(part)), dict(sorted(part.items()))))
        halves_parts.append(board_halves)
    shares: dict[int, int] = {}
    for p in parts:
        for seat, chips in p.shares.items():
            shares[seat] = shares.get(seat, 0) + chips
    whole = Pot(pot.amount, pot.eligible, tuple(sorted(shares)), dict(sorted(shares.items())))
    return whole, parts, halves_parts


def split_halves(pot: Pot, halves: Sequence[tuple[int, ...]], button: int, table_seats: int, unit: int = 1) -> Pot:
    """A pot of one board shared among its halves (high winners, low winners): :func:`split_portions` with one
    board. One half, or a half with nobody in it, is the whole pot to the other (no qualifying low).

    >>> split_halves(Pot(41, (1, 2, 3)), [(1,), (2, 3)], button=3, table_seats=9).shares
    {1: 21, 2: 10, 3: 10}
    """
    return split_portions(pot, [halves], button, table_seats, unit)[0]
