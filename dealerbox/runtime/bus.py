"""Queues from the core thread to the consumers that run on threads of their own: the screen or the
headless console (the main thread) and each ``queued`` sink's follower (see ``runtime.sinks.Notifier``).

A bounded queue loses its oldest updates when its reader falls behind (a display only needs the latest
state), so a slow reader never blocks the engine; a ``lossless`` one (the headless console printing every
event) is unbounded."""

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
    """Subscriptions by name; ``publish`` offers each update to every queue without blocking."""

    def __init__(self) -> None:
        self._subs: list[tuple[str, queue.Queue, bool]] = []
        self._lock = threading.Lock()
        self.dropped: dict[str, int] = {}

    def subscribe(self, name: str, lossless: bool = False, maxsize: int = 256) -> queue.Queue:
        """A queue of :class:`Update`; ``lossless`` subscribers get an unbounded one."""
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
