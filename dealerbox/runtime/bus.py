"""Fan-out from the engine thread to the sinks: one bounded queue per sink, so a slow sink never blocks
the engine. A sink that falls behind loses its oldest *display* updates, never the recorder's or the
floor's (those queues are unbounded and their owners persist what they take)."""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass

from ..engine.events import TableEvent
from ..engine.state import TableState


@dataclass(frozen=True, slots=True)
class Update:
    """What a sink receives: the events of one engine step and the table as it stands after them."""
    events: tuple[TableEvent, ...]
    state: TableState
    health: dict  # decoder counters, link state, outbox depth: whatever the shell knows


class EventBus:
    def __init__(self) -> None:
        self._subs: list[tuple[str, queue.Queue, bool]] = []
        self._lock = threading.Lock()
        self.dropped: dict[str, int] = {}

    def subscribe(self, name: str, lossless: bool = False, maxsize: int = 256) -> queue.Queue:
        """A queue of :class:`Update`. ``lossless`` sinks (floor, recorder) get an unbounded queue."""
        q: queue.Queue = queue.Queue(0 if lossless else maxsize)
        with self._lock:
            self._subs.append((name, q, lossless))
            self.dropped[name] = 0
        return q

    def publish(self, update: Update) -> None:
        with self._lock:
            subs = list(self._subs)
        for name, q, _lossless in subs:
            self.dropped[name] += self.offer(q, update)

    @staticmethod
    def offer(q: queue.Queue, item: Update | None) -> int:
        """Put ``item`` on a subscriber's queue without blocking; a full (bounded) queue loses its oldest
        items first, since a display only needs the latest state. Returns how many were dropped."""
        dropped = 0
        while True:
            try:
                q.put_nowait(item)
                return dropped
            except queue.Full:
                try:
                    q.get_nowait()
                    dropped += 1
                except queue.Empty:
                    pass
