"""The one contract every live source keeps, and the one thread runner they share (python-can's ``BusABC``
is the model: one small interface, many backends, an in-process virtual one for tests).

A source puts log records (``Rx``, ``Tx``, ``Link``, ``Input``) on ``entries`` in time order from its own
thread; the terminal reads ``entries`` and knows nothing else about where they came from. The serial port,
a recorded log replayed live and the simulator differ only in what their thread produces:

- :class:`ThreadedSource` owns the thread's start, stop and join, and the stop-aware ``put``;
- :class:`PacedSource` plays any iterable of records at ``speed`` x their recorded pace through the shared
  :func:`~dealerbox.sources.pacing.paced` (python-can's ``MessageSync``).
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterable
from typing import Protocol, runtime_checkable

from ..record.logformat import Record
from ..wire import protocol as p
from .pacing import paced

Sleep = Callable[[float], object]


@runtime_checkable
class Source(Protocol):
    """What the terminal needs of a source: records on ``entries``, a life cycle, a way to talk back."""

    entries: queue.Queue[Record]
    finished: threading.Event  # set once the source has nothing more to give (a log played out)

    def start(self) -> None:
        """Begin producing records (raises ``OSError`` with a clear message when it cannot)."""

    def stop(self) -> None:
        """Stop producing and release what the source owns (port, thread)."""

    def send(self, message: p.Message) -> bool:
        """Send a host command to the board; False when there is no board to hear it."""

    @property
    def connected(self) -> bool:
        """True while records can arrive (a port open, a log still playing)."""

    @property
    def waiting(self) -> str:
        """Empty, or one sentence on what the source waits for and what the operator can do."""

    @property
    def counters(self) -> dict[str, int]:
        """The source's own counters (bytes, records, reconnects...), shown in the health strip."""


class ThreadedSource:
    """One producer thread with start, stop and join; a subclass writes :meth:`produce`.

    ``maxsize`` bounds ``entries``, so a fast producer waits for the terminal (a board cannot run ahead
    either); :meth:`put` gives up when the source is stopped, so ``stop()`` never hangs on a full queue.
    """

    thread_name = "source"

    def __init__(self, maxsize: int = 0) -> None:
        self.entries: queue.Queue[Record] = queue.Queue(maxsize)
        self.stopping = threading.Event()
        self.finished = threading.Event()  # set when produce() has returned: a log or a session played out
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self.stopping.clear()
        self.finished.clear()
        self._thread = threading.Thread(target=self._main, name=f"dealerbox-{self.thread_name}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self.stopping.set()
        self.join(5.0)

    def join(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    def produce(self) -> None:
        """The thread's work: put records with :meth:`put` until done or ``stopping`` is set."""
        raise TypeError(f"{type(self).__name__} must define produce()")

    def put(self, record: Record) -> bool:
        """Queue one record, waiting while a bounded queue is full; False once the source is stopped."""
        while not self.stopping.is_set():
            try:
                self.entries.put(record, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def send(self, message: p.Message) -> bool:
        """A source with no board behind it cannot answer host commands."""
        return False

    @property
    def waiting(self) -> str:
        return ""

    def _main(self) -> None:
        try:
            self.produce()
        finally:
            self.finished.set()


class PacedSource(ThreadedSource):
    """Plays :meth:`records` at ``speed`` x their recorded pace (0 or None: as fast as ``entries`` drains).

    ``clock`` and ``sleep`` are passed in (tests use fakes); the default sleep ends at once on ``stop()``.
    """

    def __init__(self, speed: float | None = 1.0, clock: Callable[[], float] = time.monotonic,
                 sleep: Sleep | None = None, maxsize: int = 0) -> None:
        super().__init__(maxsize)
        self.speed, self.clock = speed, clock
        self.sleep: Sleep = sleep or self.stopping.wait
        self._counters = {"records": 0}
        self._playing = False

    def records(self) -> Iterable[Record]:
        """The records to play, in time order."""
        raise TypeError(f"{type(self).__name__} must define records()")

    @property
    def connected(self) -> bool:
        return self._playing

    @property
    def counters(self) -> dict[str, int]:
        return self._counters

    def produce(self) -> None:
        self._playing = True
        try:
            for record in paced(self.records(), self.speed, self.clock, self.sleep):
                if self.stopping.is_set() or not self.put(record):
                    return
                self._counters["records"] += 1
        finally:
            self._playing = False

