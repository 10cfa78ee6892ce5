"""Rulings as data, the misdeal window (Misdeals 2) and the precedence between rules.

The card modules never raise findings themselves: they return :class:`Ruling` records and the engine turns
each into a ``FindingRaised`` and applies its outcome. That keeps the rules testable without a table.

Misdeals 2: once two players behind the blinds have acted, no misdeal can be declared; every misdeal
condition then becomes its after-action remedy (:func:`after_action`).
"""

from __future__ import annotations

from dataclasses import dataclass

# The dealer's attention each outcome needs; prompts and notes that need nothing stay "info".
SEVERITY = {
    "misdeal": "dealer", "void": "floor", "dead-hand": "dealer", "redeal-board": "dealer",
    "card-replaced": "dealer", "wager-corrected": "dealer", "continues": "dealer",
}


@dataclass(frozen=True, slots=True)
class Ruling:
    rule: str
    outcome: str
    text: str
    seats: tuple[int, ...] = ()
    cards: tuple[str, ...] = ()      # exposed or dead cards only, never a live hidden hole card
    severity: str = ""               # "" = the outcome's default

    @property
    def level(self) -> str:
        return self.severity or SEVERITY[self.outcome]


MISDEAL_RULES = ("misdeal.1b", "misdeal.1c", "misdeal.1d", "misdeal.1e", "misdeal.1f", "misdeal.1g",
                 "misdeal.1h", "misdeal.1i", "misdeal.1j")


def window_open(actions_after_blinds: int) -> bool:
    """Misdeals 2: a misdeal can be declared until two players behind the blinds have acted."""
    return actions_after_blinds < 2


def misdeal(rule: str, text: str, window: bool, *, seats: tuple[int, ...] = (), cards: tuple[str, ...] = (),
            short_seats: tuple[int, ...] = ()) -> list[Ruling]:
    """A misdeal condition: the misdeal itself while the window is open, else the after-action remedy.

    ``short_seats`` are hands left with the wrong number of cards: dead after action (Dead Hands 1(d)).
    """
    if window:
        return [Ruling(rule, "misdeal", f"Misdeal: {text}. Cards back to the shoe, reshuffle, same button; "
                                        "every chip goes back to whoever put it in.", seats, cards)]
    return after_action(rule, text, seats=seats, cards=cards, short_seats=short_seats)


def after_action(rule: str, text: str, *, seats: tuple[int, ...] = (), cards: tuple[str, ...] = (),
                 short_seats: tuple[int, ...] = ()) -> list[Ruling]:
    out = [Ruling("misdeal.2", "continues", f"Too late for a misdeal ({rule}: {text}): two players behind the "
                                            "blinds have acted, the hand plays to the end.", seats, cards)]
    for seat in short_seats:
        out.append(Ruling("dead-hand.1d", "dead-hand", f"Seat {seat} does not hold the proper number of cards "
                                                       "after action: the hand is dead, cards to the muck.", (seat,)))
    return out
