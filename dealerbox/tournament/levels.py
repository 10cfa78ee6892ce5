"""Level rulings over the clock (Tournaments 4, 6, 7): what to tell the dealer or the floor when the level
changes, when posts were made at the wrong level, and when an absent entrant must be reported.

>>> from dealerbox.tournament.config import Level
>>> wrong_level_posts(Level(2, 100, 200, 0, 0, 60.0), {(3, "big blind"): 100}, {3: 5000}, 2, 3)[0].outcome
'wager-corrected'
"""

from __future__ import annotations

from .clock import ClockView
from .config import Level
from .ruling import Ruling
from ..rulebook import forced_posts

ABSENT_REPORT_S = 30 * 60        # Tournaments 4: half an hour


def level_prompt(before: ClockView, after: ClockView) -> Ruling | None:
    """The dealer's prompt when the clock enters a new level or a break (Tournaments 6); the new amounts
    apply from the next deal (Tournaments 7). None when nothing changed."""
    if (before.level, before.is_break) == (after.level, after.is_break):
        return None
    lv = after.current
    amounts = f"{lv.small_blind}/{lv.big_blind}" + (f", ante {lv.ante}" if lv.ante else "") + (
        f", big blind ante {lv.big_blind_ante}" if lv.big_blind_ante else "")
    if after.is_break:
        return Ruling("tournament.6", "dealer", "continues",
                      f"Break: finish this hand, then stop; level {lv.number} ({amounts}) follows")
    return Ruling("tournament.6", "dealer", "continues", f"Level {lv.number}: {amounts}, from the next deal")


BLINDS = ("small blind", "big blind")   # the posts the engine brings up to the level (antes are not)


def wrong_level_posts(level: Level, posted: dict[tuple[int, str], int], stacks: dict[int, int],
                      small_blind: int | None, big_blind: int) -> tuple[Ruling, ...]:
    """Posts that do not match the level the hand was dealt at (Tournaments 7); short all-in posts are right.
    ``posted`` maps (seat, "ante" | "small blind" | "big blind" | "big blind ante") to the chips put in."""
    due = {(p.seat, p.what): p.amount for p in forced_posts(
        stacks, small_blind, big_blind, (level.small_blind, level.big_blind, level.ante, level.big_blind_ante))}
    out = []
    for key in sorted(set(due) | set(posted)):
        want, got = due.get(key, 0), posted.get(key, 0)
        if want != got:
            seat, what = key
            out.append(Ruling("tournament.7", "dealer", "wager-corrected",
                              f"Seat {seat} posted {got} as the {what}; level {level.number} calls for {want}"
                              + (f": bring it up to {want}" if got < want and what in BLINDS else ""),
                              (seat,)))
    return tuple(out)


def absent_entrant_report(seat: int, absent_since: float, level_then: int, now: float,
                          view: ClockView) -> Ruling | None:
    """A paid entrant absent since the start: tell the floor once a new level has begun or half an hour has
    passed; the floor may have the stack removed (Tournaments 4). None before either."""
    if view.level == level_then and now - absent_since < ABSENT_REPORT_S:
        return None
    return Ruling("tournament.4", "floor", "continues",
                  f"Seat {seat} has not arrived since the start ({int((now - absent_since) // 60)} min, level "
                  f"{view.level}): the floor may remove the stack", (seat,))
