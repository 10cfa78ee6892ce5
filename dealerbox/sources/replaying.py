"""A recorded log (or scenario) played as a live source, for ``dealerbox run --replay LOG``: the terminal
shows a past session as it happened, and the benchmarks drive the real terminal without the simulator in
its process.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from ..record.logformat import Header, Record
from .base import PacedSource, Sleep
from .logfile import LogSource


class ReplayingSource(PacedSource):
    """Puts a log's records into ``entries`` at ``speed`` x recorded pace (0: as fast as the queue drains).

    ``maxsize`` bounds the queue, so a fast replay cannot run ahead of the terminal (a board cannot either).
    """

    thread_name = "replaying-source"

    def __init__(self, log: LogSource, speed: float = 1.0, clock: Callable[[], float] = time.monotonic,
                 sleep: Sleep | None = None, maxsize: int = 0) -> None:
        super().__init__(speed, clock, sleep, maxsize)
        self.log = log
        self.header: Header = log.header

    def records(self) -> Iterable[Record]:
        return self.log
