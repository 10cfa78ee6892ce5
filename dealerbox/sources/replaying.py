"""A recorded log (or scenario) played as a live source, for ``dealerbox run --replay LOG``: the terminal
shows a past session as it happened, and the benchmarks drive the real terminal without the simulator in
its process.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from ..record.logformat import Header
from .logfile import LogSource
from .pacing import paced


class ReplayingSource:
    """Puts a log's records into ``entries`` at ``speed`` x recorded pace (0: as fast as the queue drains).

    ``maxsize`` bounds the queue, so a fast replay cannot run ahead of the terminal (a board cannot either).
    """

    def __init__(self, log: LogSource, speed: float = 1.0, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Any] = time.sleep, maxsize: int = 0) -> None:
        self.log = log
        self.header: Header = log.header
        self.speed, self.clock, self.sleep = speed, clock, sleep
        self.entries: queue.Queue = queue.Queue(maxsize)
        self.connected = False
        self.finished = threading.Event()
        self.counters = {"records": 0}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="replaying-source", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def send(self, message: Any) -> None:
        """A recorded board cannot answer host commands."""

    def _run(self) -> None:
        self.connected = True
        try:
            for record in paced(self.log, self.speed, self.clock, self.sleep):
                while not self._stop.is_set():
                    try:
                        self.entries.put(record, timeout=0.1)
                        break
                    except queue.Full:
                        continue
                if self._stop.is_set():
                    return
                self.counters["records"] += 1
        finally:
            self.connected = False
            self.finished.set()
