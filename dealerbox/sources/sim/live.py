"""The simulator as a live source: its records paced like a real table's, on the shared runner."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from ...record.logformat import Record
from ..base import PacedSource, Sleep
from .simulator import Simulator


class SimulatedSource(PacedSource):
    """Paces a simulator's records live, like the serial source: a thread puts them into ``entries``.

    ``speed`` > 1 runs faster than a real dealer; ``clock`` and ``sleep`` are passed in (tests use fakes).
    """

    thread_name = "simulated-source"

    def __init__(self, simulator: Simulator, speed: float = 1.0, clock: Callable[[], float] = time.monotonic,
                 sleep: Sleep | None = None, hands: int | None = None) -> None:
        if speed <= 0:
            raise ValueError("speed must be positive")
        super().__init__(speed, clock, sleep)
        self.simulator, self.hands = simulator, hands

    def records(self) -> Iterable[Record]:
        return self.simulator.records(self.hands)
