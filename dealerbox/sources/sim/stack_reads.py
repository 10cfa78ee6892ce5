"""Stacks as a chip zone's PN5180 reads them, for the simulator: how completely each chip zone was read.

The board reads a bet zone or the pot with a 16-slot ISO 15693 inventory and proves at most so many chips
per field (``limit``, the reader's proven count); past it the zone's read is "uncertain" with ``limit``
proven, and a stack can also come back "unreadable" now and then (a chip lying across the antenna's edge,
a damaged inlay). The board says so with ZONE_INVENTORY whenever a zone's read state changes (protocol 2.0,
firmware/PROTOCOL.md); this model adds those reads to a simulated hand's inputs, in time order, so the
engine (held short-bet rulings, the dealer's question) and the screen see stacks as the board shows them.

The chips' own arrivals and departures are left as the hand played them: the simulator's referee checks the
engine on the amounts actually bet, so the model speaks only through the read state.
"""

from __future__ import annotations

import random

from ...engine import inputs as ev
from ...tags import ChipTag

CHIP_ZONES = frozenset({f"bet{n}" for n in range(1, 11)} | {"pot"})
READ_DELAY = 0.05   # the read state follows the motion's last chip by about one poll of the zone


class StackReads:
    """Adds ZoneReadState inputs to a hand: ``limit`` chips per zone proven (0: every stack reads
    completely), ``unreadable`` the chance that a motion leaves its zone unreadable until its next change."""

    def __init__(self, limit: int, unreadable: float, rng: random.Random) -> None:
        if limit < 0 or not 0.0 <= unreadable <= 1.0:
            raise ValueError("stack reads: limit must be >= 0 and unreadable a chance between 0 and 1")
        self.limit = limit
        self.unreadable = unreadable
        self.rng = rng
        self.count: dict[str, int] = {}    # chip zone -> chips in it (kept across hands: the pot, a bet left)
        self.state: dict[str, str] = {}    # chip zone -> last read state reported (absent: complete)

    def annotate(self, inputs: list[ev.EngineInput]) -> list[ev.EngineInput]:
        """The hand's inputs with each chip zone's read state inserted once its motion has settled."""
        if not self.limit and not self.unreadable:
            return inputs
        out: list[ev.EngineInput] = []
        touched: dict[str, float] = {}   # chip zones changed since their last read, -> time of the change
        for i in inputs:
            for zone, t in sorted(((z, t) for z, t in touched.items() if i.t - t > READ_DELAY), key=lambda zt: zt[1]):
                del touched[zone]
                self._read(out, zone, t + READ_DELAY)
            out.append(i)
            if isinstance(i, (ev.ZoneEntered, ev.ZoneLeft)) and i.zone in CHIP_ZONES and type(i.tag) is ChipTag:
                self.count[i.zone] = max(0, self.count.get(i.zone, 0) + (1 if isinstance(i, ev.ZoneEntered) else -1))
                touched[i.zone] = i.t
        for zone, t in sorted(touched.items(), key=lambda zt: zt[1]):
            self._read(out, zone, t + READ_DELAY)
        return out

    def _read(self, out: list[ev.EngineInput], zone: str, t: float) -> None:
        """The zone's read after a change; reported, as the board does, only when its state changes."""
        n = self.count.get(zone, 0)
        if n and self.unreadable and self.rng.random() < self.unreadable:
            state, proven = "unreadable", 0
        elif self.limit and n > self.limit:
            state, proven = "uncertain", self.limit
        else:
            state, proven = "complete", n
        if self.state.get(zone, "complete") == state:
            return
        self.state[zone] = state
        out.append(ev.ZoneReadState(t, zone, state, proven))
