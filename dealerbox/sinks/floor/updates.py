"""The queue between the engine side (``FloorLink.submit``, never blocking) and the spooler: bounded in the
updates it holds, losing no event.

Each update carries the whole table state (seats, findings, health), the bulk of its memory, and the spooler
takes the queue whole (group commit), so at a table the queue holds one update or two. It grows only while the
spooler cannot write (a stalled SD card, a spooler that died): then, past ``limit`` entries, a new update is
merged into the newest one queued. Its events are appended (every event and alert is still spooled, in order)
and its state replaces the older one, which the floor never wanted (it is sent only the latest state). So a
stalled spooler costs the events themselves and the signed heads (``FloorLink.submit_anchor``, one a hand, never
merged), never a state per engine step.
"""

from __future__ import annotations

import queue
import threading
from collections import deque
from dataclasses import dataclass
from typing import Any, TypeGuard

from ...engine.events import TableEvent
from ...engine.state import TableState
from .parts import TableUpdate

UPDATES_MAX = 1000       # entries queued before updates merge: a minute of a fast replay, hours of a live table


@dataclass
class MergedUpdate:
    """Updates merged while the queue was full: all their events in order, the newest state and health."""
    events: list[TableEvent]
    state: TableState
    health: dict[str, Any]


def is_update(item: object) -> TypeGuard[TableUpdate]:
    return hasattr(item, "events") and hasattr(item, "state")


class UpdateQueue:
    """``put`` never blocks; ``get``/``get_nowait`` as :class:`queue.Queue` (raising :class:`queue.Empty`).
    Anything that is not an update (a signed head, the spooler's STOP) is queued as it comes, never merged."""

    def __init__(self, limit: int = UPDATES_MAX) -> None:
        self.limit = limit
        self._items: deque[object] = deque()
        self._ready = threading.Condition(threading.Lock())
        self.merged = 0          # updates merged into a queued one (the link's health: updates_merged)
        self.most = 0            # the most entries ever queued at once

    def put(self, item: object) -> None:
        with self._ready:
            tail = self._items[-1] if self._items else None
            if len(self._items) >= self.limit and is_update(item) and tail is not None and is_update(tail):
                self._items[-1] = self._merge(tail, item)
                self.merged += 1
            else:
                self._items.append(item)
                self.most = max(self.most, len(self._items))
            self._ready.notify()

    @staticmethod
    def _merge(tail: Any, update: TableUpdate) -> MergedUpdate:
        if not isinstance(tail, MergedUpdate):
            tail = MergedUpdate(list(tail.events), tail.state, dict(tail.health or {}))
        tail.events.extend(update.events)      # a list: merging the ten-thousandth update copies nothing
        tail.state, tail.health = update.state, dict(update.health or {})
        return tail

    def get(self, timeout: float | None = None) -> object:
        with self._ready:
            if not self._ready.wait_for(lambda: bool(self._items), timeout):
                raise queue.Empty
            return self._items.popleft()

    def get_nowait(self) -> object:
        with self._ready:
            if not self._items:
                raise queue.Empty
            return self._items.popleft()

    def qsize(self) -> int:
        return len(self._items)
