"""The seat sheet: what the dealer is doing to one seat (seat a player, rebuy, sit out, back in, leave).

A ``SeatSheet`` is immutable: every tap makes a new one, so the screen can compare the last one drawn
with the current one to decide whether to redraw, and the renderer can draw from it without copying.

Amounts are typed on a keypad, prefilled with ``game.buy_in``. The prefill is "selected": the first digit
typed replaces it (as a phone's selected field does), backspace edits it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

MAX_DIGITS = 7          # 9,999,999: more digits than any table needs, so a stuck finger stops here
MAX_FACTOR = 100        # an amount above 100 buy-ins is taken for a typo, not a buy-in

# Modes: "sit" (keypad, empty seat), "menu" (occupied seat), "rebuy" (keypad), "leave" (confirm), "moved-in"
# (keypad, empty seat: the stack of a tournament player the floor moved here, counted by the dealer).
KEYPAD_MODES = ("sit", "rebuy", "moved-in")
EMPTY_SEAT_MODES = ("sit", "moved-in")
MOVED_MAX = 10 ** MAX_DIGITS - 1   # a tournament stack has no buy-in to guard against


def max_amount(buy_in: int, big_blind: int = 0) -> int:
    """The largest buy-in or rebuy the keypad accepts: a guard against an extra zero, not a house limit."""
    return max(1, buy_in, big_blind) * MAX_FACTOR


@dataclass(frozen=True, slots=True)
class SeatSheet:
    seat: int
    mode: str                       # "sit" | "menu" | "rebuy" | "leave"
    prefill: int                    # game.buy_in
    maximum: int
    entry: str = ""                 # digits typed (or the prefill)
    fresh: bool = True              # the entry is still the untouched prefill
    banner: str | None = None       # the finding bannered when the sheet opened (it does not close it)
    opened_at: float = 0.0          # last tap on the sheet, for the idle timeout

    @classmethod
    def open(cls, seat: int, occupied: bool, prefill: int, maximum: int, banner: str | None,
             t: float) -> SeatSheet:
        """An empty seat goes straight to the buy-in keypad (seating is all one does with it)."""
        return cls(seat, "menu" if occupied else "sit", prefill, maximum, str(prefill) if not occupied else "",
                   True, banner, t)

    @property
    def occupied(self) -> bool:
        """The seat the sheet expects: a player in it for everything but ``sit`` and ``moved-in``."""
        return self.mode not in EMPTY_SEAT_MODES

    def to(self, mode: str, t: float) -> SeatSheet:
        if mode == "moved-in":   # no prefill: the moved player's chips are counted, never assumed
            return replace(self, mode=mode, entry="", fresh=False, prefill=0, maximum=MOVED_MAX, opened_at=t)
        entry = str(self.prefill) if mode in KEYPAD_MODES else ""
        return replace(self, mode=mode, entry=entry, fresh=True, opened_at=t)

    def digit(self, d: str, t: float) -> SeatSheet:
        entry = d if self.fresh else self.entry + d
        entry = entry.lstrip("0") or ("0" if entry else "")
        if len(entry) > MAX_DIGITS:
            entry = self.entry
        return replace(self, entry=entry, fresh=False, opened_at=t)

    def backspace(self, t: float) -> SeatSheet:
        return replace(self, entry=self.entry[:-1], fresh=False, opened_at=t)

    def clear(self, t: float) -> SeatSheet:
        return replace(self, entry="", fresh=False, opened_at=t)

    def amount(self) -> tuple[int | None, str]:
        """(the amount to send, or None when it may not be sent; what to tell the dealer)."""
        if not self.entry or int(self.entry) == 0:
            return None, "Type an amount above 0"
        value = int(self.entry)
        if value > self.maximum:
            return None, f"Too much: at most {self.maximum:,}"
        return value, f"up to {self.maximum:,}"
