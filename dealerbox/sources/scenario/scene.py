"""The table as a scenario has set it so far, shared by the step groups of the player: the choreography
that acts the steps out, who sits where, the button, the chips and cards already used."""

from __future__ import annotations

import random

from ...config import Config
from ...tags import Deck, TagRegistry
from ...wire import protocol as p
from ..choreography import Choreography
from .script import ZONE_RE, Settings, StepError, zone_arg


class Scene:
    """The table as the script has set it, owned here and handed to both step groups (``table_steps``,
    ``chip_steps``); ``begin()`` is called at the first step, once the settings are read."""

    config: Config
    registry: TagRegistry
    rng: random.Random
    deck: Deck
    pace: float

    def __init__(self, name: str) -> None:
        self.name = name
        self.c = Choreography(0.0)
        self.seated: dict[int, int] = {}
        self.button: int | None = None
        self.used_chips: set[str] = set()
        self.taken: set[str] = set()   # cards named or drawn this hand, so random ones never repeat them
        self.encoder = p.Encoder()     # numbers the frames: a lost frame (``lose``) skips its numbers

    def begin(self, settings: Settings) -> None:
        self.config = settings.config()
        self.registry = settings.registry
        self.pace = settings.pace
        self.rng = random.Random(settings.seed)
        self.deck = self.registry.decks[0]

    # --- small parsers -------------------------------------------------------------------------------
    def seat_arg(self, args: list[str], usage: str) -> int:
        if len(args) != 1 or not args[0].removeprefix("seat").isdigit():
            raise StepError(f"expected a seat number: {usage}")
        seat = int(args[0].removeprefix("seat"))
        if not 1 <= seat <= self.config.table.seats:
            raise StepError(f"seat {seat} is not at this table (seats 1-{self.config.table.seats})")
        return seat

    def arrow_arg(self, args: list[str], usage: str) -> tuple[str, str | None, str | None]:
        """``WHAT [FROM] -> TO``: TO ``off`` means it leaves every antenna."""
        if "->" not in args:
            raise StepError(f"missing '->': {usage}")
        at = args.index("->")
        left, right = args[:at], args[at + 1:]
        if len(right) != 1 or not left:
            raise StepError(usage)
        dst = None if right[0] == "off" else zone_arg(right[0])
        src = None
        if len(left) > 1 and ZONE_RE.match(left[-1]):
            src = left.pop()
        if src is None and dst is None:
            raise StepError(f"nothing to move off the table without a zone to leave: {usage}")
        return " ".join(left), src, dst

    def order(self) -> list[int]:
        if self.button is None:
            raise StepError("place the button first ('button SEAT')")
        seats = sorted(self.seated)
        if len(seats) < 2:
            raise StepError("seat at least two players first ('sit SEAT AMOUNT')")
        return [s for s in seats if s > self.button] + [s for s in seats if s <= self.button]
