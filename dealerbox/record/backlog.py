"""The records waiting to be written, in order, in a bounded memory buffer: what a failing disk leaves behind.

While the disk fails, the writer retries at most once per ``retry_every_s``. If the buffer overflows, the
oldest waiting records are dropped (never a part's header, nor the key the records after it need) and the
next line written is a ``gap`` saying how many, so the chain stays whole and honest.
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Iterable

from .logformat import Closed, Entry, Gap, Header, SealKey, Sig

GAP_REASON = "the disk could not be written and the memory buffer overflowed"


class Backlog:
    """Given the clock, the buffer's bound and the retry pace; owns the waiting records, the dropped count and
    the gap not yet written."""

    def __init__(self, clock: Callable[[], float], buffer_max: int, retry_every_s: float) -> None:
        self._clock = clock
        self.buffer_max = buffer_max
        self.retry_every_s = retry_every_s
        self._pending: collections.deque[Entry] = collections.deque()
        self._dropped_since: tuple[float, int] | None = None  # (t of the first dropped record, how many)
        self._last_attempt = float("-inf")
        self.dropped = 0

    def __len__(self) -> int:
        return len(self._pending)

    def add(self, entries: Iterable[Entry]) -> None:
        self._pending.extend(entries)

    def add_front(self, entries: list[Entry]) -> None:
        """What must be written before everything waiting (a new part's opening lines), in this order."""
        self._pending.extendleft(reversed(entries))

    def attempt(self, failing: bool, force: bool) -> tuple[bool, float]:
        """Whether to try writing now (a failing disk is retried once per ``retry_every_s`` unless ``force``),
        and the clock's time of the attempt."""
        now = self._clock()
        if failing and self._pending and not force and now - self._last_attempt < self.retry_every_s:
            return False, now
        self._last_attempt = now
        return True, now

    def next(self) -> tuple[Entry, bool]:
        """The next line to write, and whether it is the gap for records dropped (said before the next record,
        never before a header)."""
        head = self._pending[0]
        if self._dropped_since is not None and not isinstance(head, Header):
            first_t, count = self._dropped_since
            return Gap(first_t, count, GAP_REASON), True
        return head, False

    def written(self, gap: bool) -> None:
        """The line :meth:`next` gave is in the file."""
        if gap:
            self._dropped_since = None
        else:
            self._pending.popleft()

    def trim(self) -> None:
        """Drop the oldest waiting records past the bound."""
        while len(self._pending) > self.buffer_max:
            self._drop_oldest()

    def last_t(self, default: float) -> float:
        return next((e.t for e in reversed(self._pending) if hasattr(e, "t")), default)

    def records_waiting(self) -> int:
        return sum(1 for e in self._pending if not isinstance(e, Header | Closed | Sig))

    def _drop_oldest(self) -> None:
        # Never the part's header (it must stay first), nor a key the records after it need; drop the oldest behind.
        at = 1 if isinstance(self._pending[0], Header) else 0
        while isinstance(self._pending[at], SealKey) and at + 1 < len(self._pending):
            at += 1
        dropped = self._pending[at]
        del self._pending[at]
        self.dropped += 1
        t = getattr(dropped, "t", 0.0)
        first_t, count = self._dropped_since or (t, 0)
        self._dropped_since = (first_t, count + 1)
