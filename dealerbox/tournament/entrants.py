"""Who is dealt in at a tournament table (Tournaments 3, 5, 9, 11, 33): every paid seat, present or not.

>>> check_deal(Entitled(frozenset({1, 2, 4}), away=frozenset({4}), held=frozenset()), dealt={1, 2})[0].outcome
'misdeal'
"""

from __future__ import annotations

from dataclasses import dataclass

from .config import Tournament
from .ruling import Ruling


@dataclass(frozen=True, slots=True)
class Entitled:
    paid: frozenset[int]             # seats with a paid entrant (chips in front of the seat, or owed a rebuy)
    away: frozenset[int]             # marked away by the dealer (Tournaments 9)
    held: frozenset[int]             # held for a late entrant (Tournaments 5)

    @property
    def seats(self) -> frozenset[int]:
        """Every seat dealt in and posted for, present or not."""
        return self.paid | self.held


def entitled(t: Tournament, table: str, paid: set[int], away: set[int], level: int,
             sold: frozenset[int] = frozenset()) -> Entitled:
    """The seats dealt in at ``table``: the paid ones, and the late-entry seats held until sold or the late
    entry closes (Tournaments 5)."""
    held = frozenset(s for tb, s in t.held_seats
                     if tb == table and s not in paid and s not in sold and level <= t.late_entry_until_level)
    return Entitled(frozenset(paid), frozenset(away) & frozenset(paid), held)


def check_deal(e: Entitled, dealt: set[int], first_of_event: bool = False) -> tuple[Ruling, ...]:
    """A seat entitled to a hand and dealt out is ``misdeal.1j``, cited here as Tournaments 3 (first deal) or 9;
    an away or held seat dealt in is right (not ``misdeal.1i``), and its blinds and antes are posted for it."""
    out: list[Ruling] = []
    missing = tuple(sorted(e.seats - dealt))
    if missing:
        rule = "tournament.3" if first_of_event else "tournament.9" if set(missing) & (e.away | e.held) else None
        if rule:
            out.append(Ruling(rule, "dealer", "misdeal", "Seat(s) " + ", ".join(map(str, missing))
                              + " must be dealt in, present or not: misdeal (Misdeals 1(j))", missing))
    posted_for = tuple(sorted((e.away | e.held) & dealt))
    if posted_for:
        out.append(Ruling("tournament.5" if set(posted_for) <= e.held else "tournament.9", "dealer", "continues",
                          "Post the blinds and antes for seat(s) " + ", ".join(map(str, posted_for))
                          + ": dealt in though not at the table", posted_for))
    return tuple(out)


def away_hand_dead(e: Entitled, still_away: set[int], last_card_dealt: bool) -> Ruling | None:
    """A player still away when the last starting card is dealt has a dead hand (Tournaments 11)."""
    dead = tuple(sorted(set(still_away) & e.away))
    if not last_card_dealt or not dead:
        return None
    return Ruling("tournament.11", "dealer", "dead-hand",
                  "Seat(s) " + ", ".join(map(str, dead)) + " not back by the last starting card: the hand is dead",
                  dead)


def rebuy_refused(t: Tournament, level: int, stack: int, rebuys_made: int) -> str | None:
    """Why a rebuy announced before the deal cannot be taken, or None when it binds (Tournaments 33)."""
    if level > t.rebuy_until_level:
        return f"rebuys closed after level {t.rebuy_until_level}" if t.rebuy_until_level else "no rebuys in this event"
    if t.rebuy_max_per_player and rebuys_made >= t.rebuy_max_per_player:
        return f"the player has made the {t.rebuy_max_per_player} rebuy(s) allowed"
    if t.rebuy_only_at_or_below is not None and stack > t.rebuy_only_at_or_below:
        return f"a stack of {stack} is over the {t.rebuy_only_at_or_below} a rebuy allows"
    return None


def rebuy_announced(t: Tournament, seat: int, level: int, stack: int, rebuys_made: int) -> Ruling:
    """The dealer's prompt for a rebuy announced before the deal: it binds, the seat is dealt in even without
    chips and owes the rebuy (Tournaments 33); or why it is refused."""
    why = rebuy_refused(t, level, stack, rebuys_made)
    if why:
        return Ruling("tournament.33", "dealer", "continues", f"Seat {seat}: no rebuy: {why}", (seat,))
    return Ruling("tournament.33", "dealer", "continues",
                  f"Seat {seat} rebuys for {t.rebuy_chips}: dealt in now, owes the rebuy until it is made", (seat,))


def moved_in_deal(moved_in: set[int], dealt: set[int]) -> tuple[Ruling, ...]:
    """A player moved in from another table is dealt in at once, even between the big blind and the button
    (no wait as in ``blinds.7``), taking over that seat's blind or button (Tournaments 15). Dealt out before
    any action, it is a misdeal (Misdeals 1(j))."""
    out = tuple(sorted(set(moved_in) - dealt))
    if out:
        return (Ruling("tournament.15", "dealer", "misdeal", "Moved-in seat(s) " + ", ".join(map(str, out))
                       + " must be dealt in at once, wherever the blinds are: misdeal", out),)
    seats = tuple(sorted(moved_in))
    return (Ruling("tournament.15", "info", "continues", "Moved-in seat(s) " + ", ".join(map(str, seats))
                   + " dealt in at once; they take over the seat's blind or button", seats),) if seats else ()
