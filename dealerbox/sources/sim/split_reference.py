"""The simulator's own account of a split game's award, written from the rule text and kept apart from the
engine: every pot on its own (Ties 5d), half to its best high and half to its best eight-or-better low, the
odd chip of the division to the high (Ties 5c), each half's odd chips one per winner clockwise from the button
(Ties 4, 5a); a pot no eligible hand makes a low in goes whole to its high.

pokerkit (the referee) divides a pot high and low whenever any hand at the table has a low, and then shares a
side pot's low half among that pot's players who have none; it also gives all of a half's odd chips to one
player. The simulated dealer pushes as below, and ``Expected.odd_chips`` records how far that is from pokerkit.

>>> split_shares({1: 10, 2: 10, 3: 5}, {1, 2, 3}, {1: 5, 2: 9, 3: 7}, {2: 30, 3: 4}, [1, 2, 3])
{1: 13, 3: 7, 2: 5}
"""

from __future__ import annotations

from collections.abc import Sequence


def _share(amount: int, winners: list[int], unit: int, won: dict[int, int]) -> None:
    """``amount`` among ``winners`` (in clockwise order from the button): whole units, odd ones one each."""
    if amount % unit:
        unit = 1
    base, odd = divmod(amount // unit, len(winners))
    for i, s in enumerate(winners):
        won[s] = won.get(s, 0) + (base + (1 if i < odd else 0)) * unit


def split_shares(contributed: dict[int, int], live: set[int], high: dict[int, int], low: dict[int, int],
                 order: Sequence[int], unit: int = 1, dead: int = 0) -> dict[int, int]:
    """What each seat wins: ``contributed`` chips each seat put in, ``live`` seats still holding cards, ``high``
    rank per live seat and ``low`` rank per live seat that makes a low (lower is better in both), ``order`` seats
    from the first left of the button, ``dead`` dead money in the main pot."""
    return board_shares(contributed, live, [(high, low)], order, unit, dead)


def board_shares(contributed: dict[int, int], live: set[int], boards: Sequence[tuple[dict[int, int], dict[int, int]]],
                 order: Sequence[int], unit: int = 1, dead: int = 0) -> dict[int, int]:
    """:func:`split_shares` for a hand dealt on one or more boards (run it twice or three times, a double-board bomb
    pot; house practice, No-Limit 14): ``boards[b]`` is board b's (high, low) ranks (``low`` empty outside the split
    games). Each pot is divided equally by board in whole units, the odd units to board 1 (as pokerkit deals it),
    and each board's part is then awarded as a pot of its own.

    >>> board_shares({1: 100, 2: 100, 3: 1}, {1, 2}, [({1: 5, 2: 9}, {}), ({1: 9, 2: 5}, {})], [1, 2, 3])
    {1: 101, 2: 100}
    """
    won: dict[int, int] = {}
    prev = 0
    levels = sorted({contributed[s] for s in live})
    for k, level in enumerate(levels):
        top = k == len(levels) - 1
        amount = sum((c if top else min(c, level)) - min(c, prev) for c in contributed.values())
        amount += dead if k == 0 else 0
        prev = level
        if amount <= 0:
            continue
        eligible = [s for s in order if s in live and contributed[s] >= level]
        u = unit if amount % unit == 0 else 1
        each, odd = divmod(amount // u, len(boards))
        for b, (high, low) in enumerate(boards):
            part = (each + (odd if b == 0 else 0)) * u
            best = min(high[s] for s in eligible)
            highs = [s for s in eligible if high[s] == best]
            lows = [s for s in eligible if s in low]
            if not lows:
                _share(part, highs, unit, won)
                continue
            best_low = min(low[s] for s in lows)
            pu = unit if part % unit == 0 else 1
            half = part // pu // 2 * pu
            _share(part - half, highs, unit, won)
            _share(half, [s for s in lows if low[s] == best_low], unit, won)
    return won
