"""Ties 5a in the table run (issue 31): every pot the engine splits between tied hands is checked against our own
referee's split (tests/faults/referee: equal shares in the smallest chip, the odd chip to the first winner clockwise
from the button, each side pot split on its own), and the engine's ``ties.5a`` ruling must name the same seat for the
odd chip. The simulated dealer pushes the split its own way (the rulebook's, dealerbox/sources/sim/split_reference.py)
and the engine checks each push by amount, so a hand that gets here with no ``showdown.3`` and the referee's shares
has had its odd chip pushed where the rule sends it.

In a split game (Omaha high-low) a tie is within a half: each half's part (``PotSplitByHalf``) is checked as a pot of
its own; a pot that goes whole to the high has no halves and is checked whole. A hand dealt on several boards is left
to the boards' own checks (the table run deals one board).
"""

from __future__ import annotations

import re
from collections import Counter

from dealerbox.engine.events import FindingRaised, HandEnded, Pot, PotSplitByHalf, TableEvent
from dealerbox.sources.sim.outcome import SimulatedHand
from tests.faults.referee import split_tie

ODD_SEAT = re.compile(r"any odd chip goes to seat (\d+)")


class OddChipMisplaced(AssertionError):
    """A tied pot's shares, or the ruling's odd-chip seat, differ from Ties 5a."""


def split_parts(events: list[TableEvent]) -> list[tuple[int, Pot]]:
    """(pot index, part) of every pot or half the hand's last complete ending split between two or more seats."""
    ended = [e for e in events if isinstance(e, HandEnded)]
    if not ended or ended[-1].outcome != "complete" or ended[-1].boards:
        return []
    halves = [(e.index, e.pot) for e in events if isinstance(e, PotSplitByHalf) and e.board == 1]
    halved = {i for i, _ in halves}
    parts = halves + [(i, p) for i, p in enumerate(ended[-1].pots) if i not in halved]
    return [(i, p) for i, p in parts if len([s for s in p.winners if p.shares.get(s)]) > 1]


def whole_high(events: list[TableEvent], index: int) -> bool:
    """Pot ``index`` (0 the main pot) of a split game went whole to the high (``highlow.2``: no hand in it makes a
    low), as its ruling says."""
    name = "main pot" if index == 0 else f"side pot {index}"
    return any(isinstance(e, FindingRaised) and e.rule == "highlow.2" and e.ruling.startswith(f"No hand in the {name} ")
               for e in events)


def check_odd_chips(hand: SimulatedHand, events: list[TableEvent], chip: int, stats: Counter, where: tuple) -> None:
    """Raises OddChipMisplaced unless every tied pot of the hand is split as Ties 5a says and ruled so; counts the
    tied pots (``ties.5a split pots``), those with an odd chip (``ties.5a odd chips``), the odd chips the rule sends
    past a lower-numbered winner (``ties.5a odd chip past a lower seat``: a lowest-seat rule would push them wrong)
    and the side pots split on their own (``ties.5a side pots split``)."""
    rulings = [e for e in events if isinstance(e, FindingRaised) and e.rule == "ties.5a"]
    order = hand.expected.dealt_in          # clockwise from the first seat left of the button
    for index, part in split_parts(events):
        winners = tuple(s for s in order if part.shares.get(s))
        want = split_tie(part.amount, winners, max(1, chip))
        got = {s: a for s, a in part.shares.items() if a}
        if got != want:
            raise OddChipMisplaced(f"{where}: pot {index} of {part.amount} split {got}; Ties 5a (the odd chip to "
                                   f"seat {winners[0]}, first clockwise from the button {hand.expected.button}) "
                                   f"gives {want}")
        named = [ODD_SEAT.search(e.ruling) for e in rulings if set(e.seats) == set(winners)]
        stats["ties.5a tied high scoops"] += bool(named) and whole_high(events, index)   # highlow.2, then Ties 5a
        if not named or any(m is None or int(m.group(1)) != winners[0] for m in named):
            raise OddChipMisplaced(f"{where}: pot {index} tied between {winners}: the ties.5a rulings "
                                   f"{[e.ruling for e in rulings]} do not give the odd chip to seat {winners[0]}")
        stats["ties.5a split pots"] += 1
        stats["ties.5a side pots split"] += index > 0
        if len(set(want.values())) > 1:
            stats["ties.5a odd chips"] += 1
            stats["ties.5a odd chip past a lower seat"] += winners[0] != min(winners)
