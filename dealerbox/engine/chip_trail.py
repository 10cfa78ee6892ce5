"""Where the chips on the felt came from: the chips in the pot zone, the zone each chip last left (until it
lands), and the chips that left the pot and have not landed. :class:`ChipTrail` owns these; the chip flow
keeps it, the hand flow clears it at a hand's end, a tournament table asks where a chip came from."""

from __future__ import annotations


class ChipTrail:
    __slots__ = ("pot_zone", "chip_from", "pot_leaving")

    def __init__(self) -> None:
        self.pot_zone: dict[str, int] = {}                  # chip uid -> value, chips in the pot zone
        self.chip_from: dict[str, tuple[str, float]] = {}   # chip uid -> (zone it left, when), until it lands
        self.pot_leaving: dict[str, float] = {}             # chips that left the pot and have not landed

    def left(self, uid: str, zone: str, t: float) -> None:
        """A chip left ``zone`` at ``t``; with over 2,000 not landed, those gone over a minute are forgotten (chips
        taken by hand never land)."""
        if len(self.chip_from) > 2000:
            self.chip_from = {u: v for u, v in self.chip_from.items() if t - v[1] < 60.0}
        self.chip_from[uid] = (zone, t)

    def landed(self, uid: str, zone: str, value: int) -> tuple[str, float] | None:
        """A chip landed in ``zone``: where it came from and when, if it was seen leaving a zone."""
        came = self.chip_from.pop(uid, None)
        if self.pot_leaving:
            self.pot_leaving.pop(uid, None)
        if zone == "pot":
            self.pot_zone[uid] = value
        return came

    def left_pot(self, uid: str, t: float) -> None:
        self.pot_leaving[uid] = t
        self.pot_zone.pop(uid, None)

    def hand_ended(self) -> None:
        self.pot_leaving.clear()

    def came_from(self, uid: str) -> tuple[str, float] | None:
        return self.chip_from.get(uid)

    def pot(self) -> int:
        return sum(self.pot_zone.values())
