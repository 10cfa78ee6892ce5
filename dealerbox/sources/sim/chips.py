"""The house chips in play during a simulated session."""

from __future__ import annotations

from collections.abc import Sequence

from ...tags import TagRegistry
from ..choreography import Choreography
from .outcome import SimulatorError


class TableChips:
    """The house chips in play: each seat's pool, the dealer's rack (bank), and what each zone holds."""

    def __init__(self, registry: TagRegistry, house: str, smallest: int) -> None:
        try:
            chip_set = registry.chips_of(house)
        except KeyError:
            raise SimulatorError(f"enrolment.house: no chips registered for house {house!r}") from None
        self.value: dict[str, int] = dict(chip_set.chips)
        self.bank: dict[int, list[str]] = {}
        for uid, v in sorted(chip_set.chips.items()):
            self.bank.setdefault(v, []).append(uid)
        self.denoms = sorted((v for v in self.bank if v >= smallest), reverse=True)
        if not self.denoms:
            raise SimulatorError(f"house {house!r} has no chip of at least game.smallest_chip={smallest}")
        self.below = sorted(v for v in self.bank if v < smallest)
        self.pools: dict[int, dict[int, list[str]]] = {}
        self.zone: dict[str, list[str]] = {}

    def total(self) -> int:
        return sum(v * len(u) for v, u in self.bank.items())

    def _draw(self, source: dict[int, list[str]], amount: int, denoms: Sequence[int]) -> list[str] | None:
        picked: list[str] = []
        for v in denoms:
            have = source.get(v, [])
            k = min(amount // v, len(have))
            if k:
                picked.extend(have[-k:])
                del have[-k:]
                amount -= k * v
        if amount:
            for uid in picked:
                source.setdefault(self.value[uid], []).append(uid)
            return None
        return picked

    def _from_bank(self, amount: int) -> list[str] | None:
        """Chips worth ``amount`` from the rack: the usual denominations first, else any that make it."""
        return self._draw(self.bank, amount, self.denoms) or self._draw(self.bank, amount, sorted(self.bank,
                                                                                                  reverse=True))

    def fill(self, seat: int, amount: int) -> None:
        """Chips worth ``amount`` from the rack into the seat's pool (buy-in, rebuy, colour change)."""
        got = self._from_bank(amount)
        if got is None:
            raise SimulatorError(f"the rack has no chips left to make {amount}; register more chips")
        pool = self.pools.setdefault(seat, {})
        for uid in got:
            pool.setdefault(self.value[uid], []).append(uid)

    def empty(self, seat: int) -> None:
        for uids in self.pools.pop(seat, {}).values():
            for uid in uids:
                self.bank.setdefault(self.value[uid], []).append(uid)

    def pay(self, seat: int, amount: int) -> list[str]:
        """Chips worth ``amount`` from the seat's pool, largest first; the dealer makes change if needed."""
        pool = self.pools.setdefault(seat, {})
        got = self._draw(pool, amount, self.denoms)
        if got is None:
            keep = sum(v * len(u) for v, u in pool.items()) - amount
            self.empty(seat)
            got = self._from_bank(amount)
            if got is None:
                raise SimulatorError(f"the rack has no chips left to make {amount}; register more chips")
            self.fill(seat, keep)
        return got

    def receive(self, seat: int, uids: Sequence[str]) -> None:
        pool = self.pools.setdefault(seat, {})
        for uid in uids:
            pool.setdefault(self.value[uid], []).append(uid)

    def colour_up(self, seat: int, most: int = 12) -> None:
        """A player with a pile of small chips changes them for bigger ones at the rack (off the antennas)."""
        pool = self.pools.get(seat, {})
        if sum(len(u) for u in pool.values()) > most:
            value = sum(v * len(u) for v, u in pool.items())
            self.empty(seat)
            self.fill(seat, value)

    def worth(self, uids: Sequence[str]) -> int:
        return sum(self.value[u] for u in uids)

    def below_smallest(self) -> str | None:
        """A chip worth less than the smallest that plays, or None when the rack has none."""
        if not self.below or not self.bank.get(self.below[0]):
            return None
        uid = self.bank[self.below[0]].pop()
        self.bank[self.below[0]].insert(0, uid)  # back in the rack once handed back
        return uid

    def take_from(self, c: Choreography, zone_chips: list[str], amount: int, zone: str) -> list[str]:
        """Chips worth exactly ``amount`` out of a zone; the dealer swaps a big chip for change if needed,
        each swap acted out on ``c``."""
        chips = self
        for _ in range(20):
            ordered = sorted(zone_chips, key=lambda u: chips.value[u], reverse=True)
            picked, left = [], amount
            for uid in ordered:
                v = chips.value[uid]
                if v <= left:
                    picked.append(uid)
                    left -= v
            if left == 0:
                for uid in picked:
                    zone_chips.remove(uid)
                return picked
            # Change: the smallest chip bigger than what is missing leaves, its value in smaller chips enters.
            spare = [u for u in ordered if u not in picked and chips.value[u] > left]
            if not spare:
                break
            big = min(spare, key=lambda u: chips.value[u])
            smaller = [d for d in sorted(chips.bank, reverse=True) if d < chips.value[big]]
            change = chips._draw(chips.bank, chips.value[big], smaller)
            if change is None:
                break
            c.leave(zone, big)
            zone_chips.remove(big)
            chips.bank.setdefault(chips.value[big], []).append(big)
            c.motion(zone, change, gap=0.0)
            zone_chips.extend(change)
            c.wait(1.0)  # each change is its own gesture, apart from the next
        raise SimulatorError(f"cannot make {amount} from the chips in {zone}")
