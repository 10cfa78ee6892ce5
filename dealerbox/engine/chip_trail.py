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

    def hand_ended(self) -> None:
        self.pot_leaving.clear()

    def came_from(self, uid: str) -> tuple[str, float] | None:
        return self.chip_from.get(uid)

    def pot(self) -> int:
        return sum(self.pot_zone.values())
