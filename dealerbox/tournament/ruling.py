"""What a tournament ruling returns: the fields :meth:`FindingLog.raise_` takes, so the engine raises it as is.

Severity and outcome come from the vocabulary the engine's catalogue uses (``dealerbox.rulebook``); the rule id is
a row of RULES.md's Tournaments section (the engine adds the row to its catalogue when it wires the ruling in).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rulebook import OUTCOMES, SEVERITIES

RANKS = "23456789TJQKA"
SUITS = "cdhs"                  # low to high: clubs, diamonds, hearts, spades (Ties 1)


@dataclass(frozen=True, slots=True)
class Ruling:
    rule: str                   # "tournament.8c"
    severity: str               # rulebook.SEVERITIES
    outcome: str                # rulebook.OUTCOMES
    ruling: str                 # one line for the dealer, our own words
    seats: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.severity not in SEVERITIES or self.outcome not in OUTCOMES or not self.rule.startswith("tournament."):
            raise ValueError(f"bad ruling {self.rule}: severity {self.severity!r}, outcome {self.outcome!r}")


def card_order(card: str) -> tuple[int, int]:
    """Sort key of a card by rank, then suit (spades > hearts > diamonds > clubs): ``"As"`` beats ``"Ah"``."""
    if len(card) != 2 or card[0] not in RANKS or card[1] not in SUITS:
        raise ValueError(f"not a card: {card!r} (expected rank and suit, like 'As' or 'Td')")
    return RANKS.index(card[0]), SUITS.index(card[1])


def clockwise(start: int, seats: int) -> list[int]:
    """Seat numbers 1..seats clockwise, beginning with ``start``."""
    return [(start - 1 + i) % seats + 1 for i in range(seats)]
