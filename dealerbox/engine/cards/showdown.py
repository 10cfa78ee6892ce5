"""Showdown: cards speak (Showdown 2). Every contender's hand is read with phevaluator, each pot and side pot
gets its winners, the order of showing is prompted (Showdown 7) and the odd chip's seat named (Ties 5).

>>> clockwise_from(5, [1, 3, 6, 9], 9)
[6, 9, 1, 3]
>>> pot_winners([((10, (1, 3)))], {1: (100, "Flush"), 3: (100, "Flush")})
[(1, 3)]
"""

from __future__ import annotations

from collections.abc import Iterable


def clockwise_from(button: int, seats: Iterable[int], table_seats: int) -> list[int]:
    """``seats`` in clockwise order starting with the first seat left of ``button``."""
    return sorted(set(seats), key=lambda s: (s - button - 1) % table_seats)


def pot_winners(pots: Iterable[tuple[int, tuple[int, ...]]],
                ranks: dict[int, tuple[int, str]]) -> list[tuple[int, ...]]:
    """Winners of each (amount, eligible) pot among the hands in ``ranks`` (seat -> (rank, category)).

    A pot whose eligible seats are all out of ``ranks`` (folded, dead, unshown) goes to its eligible seats that
    are still counted nowhere else: the engine reports that case itself, here it has no winner.
    """
    out: list[tuple[int, ...]] = []
    for _, eligible in pots:
        live = [s for s in eligible if s in ranks]
        if not live:
            out.append(())
            continue
        best = min(ranks[s][0] for s in live)
        out.append(tuple(sorted(s for s in live if ranks[s][0] == best)))
    return out


def pot_halves(pots: Iterable[tuple[int, tuple[int, ...]]], ranks: dict[int, tuple[int, str]],
               lows: dict[int, tuple[int, str]]) -> list[tuple[tuple[int, ...], ...]]:
    """A split game's winners of each pot, by half: ``(high winners, low winners)``, or ``(high winners,)`` when
    no hand eligible for that pot has a qualifying low (the high takes it all). ``lows``: seat -> (rank, words)
    of the hands in ``ranks`` that make an eight-or-better low. Each pot is judged among its own seats (Ties 5d).

    >>> pot_halves([(40, (1, 2, 3)), (10, (1, 3))], {1: (5, "Flush"), 2: (900, "Pair"), 3: (901, "Pair")},
    ...            {2: (0, "5-4-3-2-A")})
    [((1,), (2,)), ((1,),)]
    """
    highs = pot_winners(pots, ranks)
    out: list[tuple[tuple[int, ...], ...]] = []
    for (_, eligible), high in zip(pots, highs, strict=True):
        low = [s for s in eligible if s in lows and s in ranks]
        if not low:
            out.append((high,))
            continue
        best = min(lows[s][0] for s in low)
        out.append((high, tuple(sorted(s for s in low if lows[s][0] == best))))
    return out


def show_order(contenders: Iterable[int], last_aggressor: int | None, button: int, table_seats: int) -> list[int]:
    """Showdown 7: the last player to bet or raise on the final round shows first, else the first to act."""
    order = clockwise_from(button, contenders, table_seats)
    if last_aggressor in order:
        i = order.index(last_aggressor)
        order = order[i:] + order[:i]
    return order


def odd_chip_seat(winners: tuple[int, ...], button: int, table_seats: int) -> int | None:
    """Ties 5(a): the odd chip goes to the first winning hand clockwise from the button."""
    order = clockwise_from(button, winners, table_seats)
    return order[0] if order else None
