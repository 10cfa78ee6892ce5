"""The sign-in pad's state: the dealer types their dealer number, then their PIN, on the seat sheet's digit keys.

A ``PinPad`` is immutable like the ``SeatSheet``: every tap makes a new one. The PIN is shown as dots and
lives only here until OK, when the screen hands it to the :class:`~.signin.SignInDesk` and closes the pad.
No pygame here: ``pinpad.py`` draws it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

MAX_DIGITS = 12


@dataclass(frozen=True, slots=True)
class PinPad:
    step: str = "dealer"             # "dealer" (their number) then "pin"
    dealer: str = ""
    pin: str = ""
    said: str = ""                   # the desk's last answer ("Wrong dealer number or PIN")

    def digit(self, d: str) -> PinPad:
        if self.step == "dealer":
            return replace(self, dealer=(self.dealer + d)[:MAX_DIGITS])
        return replace(self, pin=(self.pin + d)[:MAX_DIGITS])

    def backspace(self) -> PinPad:
        return replace(self, dealer=self.dealer[:-1]) if self.step == "dealer" else replace(self, pin=self.pin[:-1])

    def clear(self) -> PinPad:
        return replace(self, dealer="") if self.step == "dealer" else replace(self, pin="")

    def next(self) -> PinPad:
        return replace(self, step="pin", said="") if self.dealer else self

    def refused(self, said: str) -> PinPad:
        """Back to the start, nothing typed kept: the desk said no."""
        return PinPad(said=said)


def dealer_id(typed: str, known: dict[str, str]) -> str:
    """The dealer id a typed number stands for: the number itself, or ``D`` and the number (``17`` -> ``D17``)."""
    return typed if typed in known or f"D{typed}" not in known else f"D{typed}"
